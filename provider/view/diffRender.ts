/** `docsplatform diff` output: plain text (coloured on a terminal) and Markdown for a pull-request comment. */
import { countChanges, isEmpty, type Change, type SiteDiff, type StackDiff } from "./changes";
import { guardLines, pasteWhere, proposalSnippet, type SiteGuard, type UrlFate } from "../redirects/guard";
import { code, fenced, htmlCode } from "./markdown";
import { visible } from "../phrases";
import { plain, type Style } from "./style";

function colour(style: Style, c: Change): string {
  const line = visible(`${c.sign} ${c.text}`);
  switch (c.sign) {
    case "+":
      return style.green(line);
    case "-":
      return style.red(line);
    case ">":
      return style.cyan(line);
    default:
      return style.yellow(line);
  }
}

const STATUS: Record<SiteDiff["status"], string> = { added: "new site", removed: "site removed", changed: "" };

/** Plain text (coloured on a terminal). Ends with a newline. */
export function renderDiffText(d: StackDiff, style: Style = plain): string {
  if (isEmpty(d)) return "No change to the sites or the organization.\n";
  const out: string[] = [];
  if (d.organization.base !== d.organization.head) out.push(`organization ${d.organization.base} → ${d.organization.head}`, "");
  for (const s of d.sites) {
    const status = STATUS[s.status];
    out.push(`${style.bold(visible(s.title))} ${style.dim(`(site ${visible(s.key)}${status === "" ? "" : `, ${status}`}): ${countChanges(s.changes)}`)}`);
    for (const c of s.changes) out.push(`  ${colour(style, c)}`);
    if (s.guard) {
      out.push(`  ${style.bold("Reader URLs this change removes or moves:")}`, ...guardLines(s.guard).map(visible).map((l) => `    ${l.includes("broken") ? style.red(l) : l}`));
      if (s.guard.proposed.length > 0) out.push(`  ${style.bold(`Redirects that would repair them (${visible(pasteWhere(s.key, s.guard.paste))}):`)}`, ...proposalSnippet(s.guard.proposed, s.guard.paste).map(visible));
    }
    out.push("");
  }
  if (d.others.length > 0) {
    out.push(style.bold("Organization"));
    for (const c of d.others) out.push(`  ${colour(style, c)}`);
    out.push("");
  }
  return `${out.join("\n").replace(/\n+$/, "")}\n`;
}

/** Marks the comment so a workflow can find and update its own earlier comment. */
export const COMMENT_MARKER = "<!-- docsplatform-diff -->";

/** Options of {@link renderDiffMarkdown}. */
export interface MarkdownOptions {
  /** Sites with at most this many lines are shown open (default 25); longer ones start collapsed. */
  openUpTo?: number;
  /** Heading of the comment. */
  title?: string;
}

/**
 * The comment's verdict on reader URLs: the one line saying whether the URL guard passed. Written by
 * this renderer only; every value from the stack files is inside a code span or a fenced block, so no
 * file content can print a line like it.
 */
export function guardVerdict(d: StackDiff): string {
  const guards = d.sites.flatMap((s) => (s.guard ? [s.guard] : []));
  const broken = guards.flatMap((g) => g.rows.filter((r) => r.level === "broken" || r.pages === "broken")).length;
  if (broken === 0) return guards.length === 0 ? "**URL guard: passed** (no reader URL removed or moved)" : "**URL guard: passed** (every removed or moved reader URL is redirected)";
  return `**URL guard: ${broken} reader URL${broken === 1 ? "" : "s"} broken** (see the tables below)`;
}

const fateCell = (f: UrlFate): string => (f === "broken" ? "**broken**" : `redirected by ${code(f.redirect, { cell: true })} → ${code(f.to, { cell: true })}`);

/** The Markdown table of a site's guard: every value a code span. */
export function guardTable(g: SiteGuard): string[] {
  const lines = ["| reader URL | was | now | the URL | its pages |", "|---|---|---|---|---|"];
  for (const r of g.rows) {
    const now = r.movedTo === undefined ? "removed" : `moved to ${code(r.movedTo, { cell: true })}`;
    lines.push(`| ${code(r.url, { cell: true })} | ${code(r.was, { cell: true })} | ${now} | ${fateCell(r.level)} | ${fateCell(r.pages)} |`);
  }
  return lines;
}

/** Markdown for a pull-request comment: a verdict line, then one collapsible block per site, in a stable order. */
export function renderDiffMarkdown(d: StackDiff, opts: MarkdownOptions = {}): string {
  const openUpTo = opts.openUpTo ?? 25;
  const out: string[] = [COMMENT_MARKER, `### ${opts.title ?? "Docs platform: what readers will see change"}`, ""];
  if (isEmpty(d)) {
    out.push("No change to the sites or the organization.");
    return `${out.join("\n")}\n`;
  }
  out.push(guardVerdict(d), "");
  if (d.organization.base !== d.organization.head) out.push(`Organization ${code(d.organization.base ?? "")} → ${code(d.organization.head ?? "")}`, "");
  const block = (summary: string, changes: Change[]): void => {
    out.push(`<details${changes.length <= openUpTo ? " open" : ""}><summary>${summary}</summary>`, "", ...fenced("diff", changes.map((c) => `${c.sign} ${c.text}`)), "", "</details>", "");
  };
  for (const s of d.sites) {
    const status = STATUS[s.status];
    block(`Site ${htmlCode(s.title)} (key ${htmlCode(s.key)}${status === "" ? "" : `, ${status}`}): ${countChanges(s.changes)}`, s.changes);
    if (s.guard) {
      out.push(`**Reader URLs of site ${code(s.title)} this change removes or moves**`, "", ...guardTable(s.guard), "");
      if (s.guard.proposed.length > 0) out.push(`Redirects that would repair the broken ones (${pasteWhere(s.key, s.guard.paste, (k) => code(k))}):`, "", ...fenced("yaml", proposalSnippet(s.guard.proposed, s.guard.paste)), "");
    }
  }
  if (d.others.length > 0) block(`<b>Organization</b>: ${countChanges(d.others)}`, d.others);
  return `${out.join("\n").replace(/\n+$/, "")}\n`;
}
