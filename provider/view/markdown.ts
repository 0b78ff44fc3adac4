/**
 * Markdown for a pull-request comment whose values come from an untrusted file: a fork's pull request
 * writes the titles, keys, paths and URLs the comment shows. Every such value is put inside a code span
 * or a fenced block, where Markdown, HTML, links, `@mentions` and `#references` are not rendered; invisible
 * and control characters are written as `\uXXXX`, so nothing a value holds can end its span, its table
 * row or its block, or reach a terminal or a CI log as a control sequence.
 */
import { visible } from "../phrases";

/** `s` escaped for HTML text and attribute values. */
export function html(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/**
 * A Markdown code span of `value`: delimited by more backticks than any run inside it (padded with a
 * space where it starts or ends with one), on one line. In a table cell (`cell`), `|` is written `\|`,
 * which GitHub's tables read as part of the cell and show as `|` inside the span.
 */
export function code(value: string, opts: { cell?: boolean } = {}): string {
  let text = visible(value);
  if (opts.cell === true) text = text.replace(/\|/g, "\\|");
  if (text === "") return "` `";
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const ticks = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") || (text.startsWith(" ") && text.endsWith(" ")) ? " " : "";
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** An HTML `<code>` element of `value`, for places inside HTML (a `<summary>`), where Markdown spans are not read. */
export function htmlCode(value: string): string {
  return `<code>${html(visible(value))}</code>`;
}

/** A fenced block of `lines` (with an info string such as `diff` or `yaml`): its fence outlasts any run of backticks or tildes inside. */
export function fenced(info: string, lines: readonly string[]): string[] {
  const body = lines.map(visible);
  const longest = Math.max(2, ...body.flatMap((l) => l.match(/`+/g) ?? []).map((r) => r.length));
  const f = "`".repeat(longest + 1);
  return [`${f}${info}`, ...body, f];
}
