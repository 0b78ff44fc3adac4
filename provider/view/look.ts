/**
 * A site's customization as `tree` and `diff` say it: one line summing up the look (theme, primary
 * colour, logo, header and footer links), and the changes between two versions named member by member.
 */
import type { StackSiteCustomization } from "../file/model";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function colour(v: unknown): string | undefined {
  if (!isObj(v)) return undefined;
  return v.light === v.dark ? String(v.light) : `${String(v.light)}/${String(v.dark)}`;
}

/** Header links and footer links (over every footer group) the block declares; undefined when it declares none. */
function counts(look: Obj): { header: number | undefined; footer: number | undefined } {
  const header = isObj(look.header) && Array.isArray(look.header.links) ? look.header.links.length : undefined;
  const footer = isObj(look.footer) && Array.isArray(look.footer.groups) ? look.footer.groups.reduce((n: number, g) => n + (isObj(g) && Array.isArray(g.links) ? g.links.length : 0), 0) : undefined;
  return { header, footer };
}

/** One line: theme, primary colour, logo, header and footer link counts (what the block declares; the rest keeps the recorded look). */
export function lookSummary(look: StackSiteCustomization | undefined): string | undefined {
  if (look === undefined) return undefined;
  const l = look as Obj;
  const styling = isObj(l.styling) ? l.styling : {};
  const parts: string[] = [];
  if (typeof styling.theme === "string") parts.push(`theme ${styling.theme}`);
  const primary = colour(styling.primaryColor);
  if (primary !== undefined) parts.push(`primary ${primary}`);
  if (isObj(l.header) && l.header.logo !== undefined) parts.push("logo set");
  const { header, footer } = counts(l);
  if (header !== undefined) parts.push(`${header} header link${header === 1 ? "" : "s"}`);
  if (footer !== undefined) parts.push(`${footer} footer link${footer === 1 ? "" : "s"}`);
  return `look: ${parts.length === 0 ? "declared (every member as recorded)" : parts.join(" · ")}`;
}

function show(v: unknown): string {
  return v === undefined ? "(recorded look)" : typeof v === "string" ? v : (colour(v) ?? JSON.stringify(v));
}

/** Titles of a list of links (header items or footer groups' links). */
function titles(v: unknown): string[] {
  return Array.isArray(v) ? v.map((x) => (isObj(x) && typeof x.title === "string" ? x.title : JSON.stringify(x))) : [];
}

/** What changed between two versions of a site's customization, one phrase each (empty: nothing). */
export function lookChanges(base: StackSiteCustomization | undefined, head: StackSiteCustomization | undefined): string[] {
  if (base === undefined && head === undefined) return [];
  if (base === undefined) return [`look now declared (${lookSummary(head)!.slice("look: ".length)})`];
  if (head === undefined) return ["look no longer declared: the platform keeps it as it is"];
  const out: string[] = [];
  const walk = (b: unknown, h: unknown, path: string): void => {
    if (JSON.stringify(b) === JSON.stringify(h)) return;
    if (path === "header.links" || path === "footer.groups") {
      const bt = titles(b);
      const ht = titles(h);
      const what = path === "header.links" ? "header link" : "footer group";
      for (const t of ht) if (!bt.includes(t)) out.push(`${what} ${JSON.stringify(t)} added`);
      for (const t of bt) if (!ht.includes(t)) out.push(`${what} ${JSON.stringify(t)} removed`);
      if (out.length === 0 || ht.filter((t) => bt.includes(t)).join() !== bt.filter((t) => ht.includes(t)).join()) out.push(`${what}s reordered or changed`);
      return;
    }
    if (isObj(b) && isObj(h) && !("light" in h)) {
      for (const k of [...new Set([...Object.keys(b), ...Object.keys(h)])].sort()) walk(b[k], h[k], path === "" ? k : `${path}.${k}`);
      return;
    }
    const name = path.replace(/^styling\./, "").replace(/Color$/, " colour");
    out.push(`${name} ${show(b)} → ${show(h)}`);
  };
  walk(base, head, "");
  return out.map((t) => `look: ${t}`);
}
