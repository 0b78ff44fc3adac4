/**
 * The URL guard of `docsplatform diff`: every reader URL of a site (its sections' and site spaces' URLs;
 * the pages under each move with it) that a change removes or moves, marked redirected (by which of the
 * head's redirects) or broken, and for a moved level the wildcard redirect that repairs it, ready to paste.
 */
import type { SiteModel } from "../site";
import { answeringRedirect, describeTarget, type Key, type StackRedirect } from "./rules";

/** A level of a site as readers reach it: a section or a site space at its URL (relative to the site). */
export interface ReaderLevel {
  kind: "section" | "siteSpace";
  key: Key;
  previousKeys?: readonly Key[];
  /** `/api`, `/api/v1`; the site's default section is `/`. */
  url: string;
  /** How views name it: `section "API"`, `site space /api/v1`. */
  label: string;
}

/** The levels of a site readers reach: its sections and site spaces with their URLs. */
export function readerLevels(site: SiteModel): ReaderLevel[] {
  return [
    ...site.sections.map((s): ReaderLevel => ({ kind: "section", key: s.key, previousKeys: s.previousKeys, url: s.url, label: `section ${JSON.stringify(s.title)}` })),
    ...site.siteSpaces.map((ss): ReaderLevel => ({
      kind: "siteSpace",
      key: ss.key,
      previousKeys: ss.previousKeys,
      url: ss.url,
      label: ss.spaceTitle === undefined ? `site space ${ss.key}` : `site space ${JSON.stringify(ss.spaceTitle)}`,
    })),
  ];
}

/** How a URL fares in the head: answered by a redirect, or broken. */
export type UrlFate = { redirect: string; to: string } | "broken";

/** One reader URL the change removes or moves. */
export interface GuardRow {
  url: string;
  was: string;
  /** Where the same object is now, when it moved; undefined when it is gone. */
  movedTo: string | undefined;
  /** The URL itself. */
  level: UrlFate;
  /** The pages under it (`<url>/…`). */
  pages: UrlFate;
}

/** The guard's finding for one site. */
export interface SiteGuard {
  rows: GuardRow[];
  /** Level redirects that would repair the broken URLs (moved: to the new place; removed: to the nearest level left), in the head's terms. */
  proposed: StackRedirect[];
  /** Where the proposed lines go in the head's stack file (absent: not known). */
  paste?: PastePlace;
}

/**
 * Where a site's proposed redirects are pasted: as a `redirects:` list of the site's entry (it has none),
 * or as entries added at the end of the list it has (a block list, or a flow list `[…]`). `line` is the
 * line of the site's `key:` or of its `redirects:`; `indent` the spaces before the site's fields or before
 * the list's `- `.
 */
export type PastePlace = { into: "site"; line: number; indent: string } | { into: "list"; line: number; indent: string } | { into: "flowList"; line: number };

/** A page path no level declares, to ask which redirect answers the pages under a URL. */
const PAGE_PROBE = "/page";

function fate(redirects: readonly StackRedirect[], path: string): UrlFate {
  const hit = answeringRedirect(redirects, path);
  return hit ? { redirect: hit.redirect.source, to: describeTarget(hit.redirect.destination) } : "broken";
}

/** The head object that is the base's (same kind, same key or naming it in `previousKeys`). */
function sameObject(head: readonly ReaderLevel[], b: ReaderLevel): ReaderLevel | undefined {
  const ofKind = head.filter((h) => h.kind === b.kind);
  return ofKind.find((h) => h.key === b.key) ?? ofKind.find((h) => (h.previousKeys ?? []).includes(b.key));
}

/**
 * The URLs of `base` no longer served in `head` (undefined: the site is removed), with what answers each
 * there. A moved URL left broken gets a proposed level redirect to the object's new place; proposals are
 * made shortest URL first, so a moved section's redirect also covers its site spaces.
 */
export function guardSite(base: readonly ReaderLevel[], head: readonly ReaderLevel[] | undefined, redirects: readonly StackRedirect[]): SiteGuard {
  const live = new Set((head ?? []).map((h) => h.url));
  const gone = base.filter((b) => !live.has(b.url)).sort((a, b) => a.url.length - b.url.length || (a.url < b.url ? -1 : 1));
  const proposed: StackRedirect[] = [];
  const rows: GuardRow[] = [];
  const seen = new Set<string>();
  for (const b of gone) {
    if (seen.has(b.url)) continue;
    seen.add(b.url);
    const now = head === undefined ? undefined : sameObject(head, b);
    const movedTo = now?.url;
    const rules = head === undefined ? [] : redirects;
    const probe = b.url === "/" ? PAGE_PROBE : `${b.url}${PAGE_PROBE}`;
    const level = fate(rules, b.url);
    const pages = fate(rules, probe);
    if (head !== undefined && b.url !== "/" && (level === "broken" || pages === "broken")) {
      // Not needed where a proposal made for a shorter URL (a moved section's) already covers it.
      const covered = fate([...rules, ...proposed], b.url) !== "broken" && fate([...rules, ...proposed], probe) !== "broken";
      // Moved: to its new place, the rest of the path kept. Removed: to the nearest level left above it
      // (its section, else the site's default), whose pages are not the removed ones: the path is not kept.
      const to = now ?? nearestLeft(head, b.url);
      if (!covered && to !== undefined) {
        proposed.push({ source: `${b.url}/*`, destination: to.kind === "section" ? { section: to.key } : { siteSpace: to.key }, captureWildcard: now !== undefined, permanent: true });
      }
    }
    rows.push({ url: b.url, was: b.label, movedTo, level, pages });
  }
  return { rows, proposed };
}

/** The head level whose URL is the longest one above `url` (the site's default, `/`, last). */
function nearestLeft(head: readonly ReaderLevel[], url: string): ReaderLevel | undefined {
  return head
    .filter((h) => h.url !== url && (h.url === "/" || url.startsWith(`${h.url}/`)))
    .sort((a, b) => b.url.length - a.url.length || (a.kind === "section" ? -1 : 1))[0];
}

/** True when some URL of the guard is left broken. */
export function anyBroken(guards: readonly SiteGuard[]): boolean {
  return guards.some((g) => g.rows.some((r) => r.level === "broken" || r.pages === "broken"));
}

const fateText = (f: UrlFate): string => (f === "broken" ? "broken" : `redirected by ${f.redirect} → ${f.to}`);

/** One line per URL, for the terminal. */
export function guardLines(g: SiteGuard): string[] {
  return g.rows.map((r) => {
    const where = r.movedTo === undefined ? "removed" : `moved to ${r.movedTo}`;
    const same = JSON.stringify(r.level) === JSON.stringify(r.pages);
    const status = same ? `${fateText(r.level)} (with its pages)` : `${fateText(r.level)}; its pages ${fateText(r.pages)}`;
    return `${r.url} (${r.was}, ${where}): ${status}`;
  });
}

/** Where the snippet goes, in words: the first line of what the guard prints above it. */
export function pasteWhere(siteKey: string, place: PastePlace | undefined, name: (key: string) => string = (k) => k): string {
  const site = `site ${name(siteKey)}`;
  if (place === undefined) return `paste under ${site} in the stack file`;
  if (place.into === "site") return `paste among the fields of ${site}, whose entry starts at line ${place.line}`;
  if (place.into === "list") return `add at the end of the redirects list of ${site}, at line ${place.line}`;
  return `add inside the brackets of the redirects list of ${site}, at line ${place.line}, after its last entry`;
}

/**
 * The proposed redirects as stack-file lines, for where they go: a `redirects:` list with its entries at
 * the site's field indent (no list yet), the entries alone at the list's indent (a block list), or flow
 * entries each starting with a comma (a flow list). Each entry on one line, in flow style, so it pastes
 * whatever style the file's other entries use.
 */
export function proposalSnippet(proposed: readonly StackRedirect[], place: PastePlace = { into: "site", line: 0, indent: "    " }): string[] {
  if (proposed.length === 0) return [];
  const target = (r: StackRedirect) => Object.entries(r.destination).map(([k, v]) => `${k}: ${v}`).join(", ");
  const entry = (r: StackRedirect) => `{ source: ${r.source}, destination: { ${target(r)} }, captureWildcard: ${r.captureWildcard === true}, permanent: true }`;
  if (place.into === "flowList") return proposed.map((r) => `, ${entry(r)}`);
  if (place.into === "list") return proposed.map((r) => `${place.indent}- ${entry(r)}`);
  return [`${place.indent}redirects:`, ...proposed.map((r) => `${place.indent}  - ${entry(r)}`)];
}

/** A change to a site's redirects, as a line of the diff. */
export interface RedirectChange {
  sign: "+" | "-" | "~";
  text: string;
}

/** The redirects added, removed and changed between two versions of a site's list (undefined: not managed). */
export function redirectChanges(base: readonly StackRedirect[] | undefined, head: readonly StackRedirect[] | undefined): RedirectChange[] {
  if (head === undefined) return base === undefined || base.length === 0 ? [] : [{ sign: "~", text: `redirects no longer managed (the platform keeps the ${base.length} it has)` }];
  const id = (r: StackRedirect) => `${r.draft === true ? "draft " : ""}${r.source}`;
  const what = (r: StackRedirect) => `${describeTarget(r.destination)}${r.captureWildcard ? " (keeps the rest of the path)" : ""}${r.permanent ? ", permanent" : ""}`;
  const name = (r: StackRedirect) => `redirect ${r.draft === true ? "(draft) " : ""}${r.source}`;
  const show = (r: StackRedirect) => `${name(r)} → ${what(r)}`;
  const before = new Map((base ?? []).map((r) => [id(r), r]));
  const after = new Map(head.map((r) => [id(r), r]));
  const out: RedirectChange[] = [];
  for (const r of head) {
    const b = before.get(id(r));
    if (b === undefined) out.push({ sign: "+", text: show(r) });
    else if (what(b) !== what(r)) out.push({ sign: "~", text: `${name(r)}: ${what(b)} → ${what(r)}` });
  }
  for (const r of base ?? []) if (!after.has(id(r))) out.push({ sign: "-", text: show(r) });
  return out;
}
