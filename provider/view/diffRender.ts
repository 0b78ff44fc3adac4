/** `docsplatform diff` output: plain text (coloured on a terminal) and Markdown for a pull-request comment. */
import { countChanges, isEmpty, type Change, type SiteDiff, type StackDiff } from "./changes";
import { guardLines, guardTable, proposalSnippet } from "../redirects/guard";
import { plain, type Style } from "./style";

function colour(style: Style, c: Change): string {
  const line = `${c.sign} ${c.text}`;
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
    out.push(`${style.bold(s.title)} ${style.dim(`(site ${s.key}${status === "" ? "" : `, ${status}`}): ${countChanges(s.changes)}`)}`);
    for (const c of s.changes) out.push(`  ${colour(style, c)}`);
    if (s.guard) {
      out.push(`  ${style.bold("Reader URLs this change removes or moves:")}`, ...guardLines(s.guard).map((l) => `    ${l.includes("broken") ? style.red(l) : l}`));
      if (s.guard.proposed.length > 0) out.push(`  ${style.bold(`Redirects that would repair them (paste under site ${s.key} in the stack file):`)}`, ...proposalSnippet(s.guard.proposed));
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

function html(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A code fence longer than any run of backticks in `text`. */
function fence(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  return "`".repeat(longest + 1);
}

/** Options of {@link renderDiffMarkdown}. */
export interface MarkdownOptions {
  /** Sites with at most this many lines are shown open (default 25); longer ones start collapsed. */
  openUpTo?: number;
  /** Heading of the comment. */
  title?: string;
}

/** Markdown for a pull-request comment: one collapsible block per site, in a stable order. */
export function renderDiffMarkdown(d: StackDiff, opts: MarkdownOptions = {}): string {
  const openUpTo = opts.openUpTo ?? 25;
  const out: string[] = [COMMENT_MARKER, `### ${opts.title ?? "Docs platform: what readers will see change"}`, ""];
  if (isEmpty(d)) {
    out.push("No change to the sites or the organization.");
    return `${out.join("\n")}\n`;
  }
  if (d.organization.base !== d.organization.head) out.push(`Organization \`${d.organization.base}\` → \`${d.organization.head}\``, "");
  const block = (summary: string, changes: Change[]): void => {
    const body = changes.map((c) => `${c.sign} ${c.text}`).join("\n");
    const f = fence(body);
    out.push(`<details${changes.length <= openUpTo ? " open" : ""}><summary>${summary}</summary>`, "", `${f}diff`, body, f, "", "</details>", "");
  };
  for (const s of d.sites) {
    const status = STATUS[s.status];
    block(`<b>${html(s.title)}</b> (<code>${html(s.key)}</code>${status === "" ? "" : `, ${status}`}): ${html(countChanges(s.changes))}`, s.changes);
    if (s.guard) {
      out.push(`**Reader URLs of ${html(s.title)} this change removes or moves**`, "", ...guardTable(s.guard), "");
      if (s.guard.proposed.length > 0) out.push(`Redirects that would repair the broken ones (paste under site \`${s.key}\` in the stack file):`, "", "```yaml", ...proposalSnippet(s.guard.proposed), "```", "");
    }
  }
  if (d.others.length > 0) block(`<b>Organization</b>: ${html(countChanges(d.others))}`, d.others);
  return `${out.join("\n").replace(/\n+$/, "")}\n`;
}

