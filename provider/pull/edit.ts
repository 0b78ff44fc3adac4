/**
 * Edits of a YAML file's text at the positions of its parsed nodes: a scalar rewritten in its own
 * quoting, a value replaced in its own flow or block style, an item removed from or appended to a
 * block list. Everything outside an edit stays byte for byte (comments, order, blank lines, anchors),
 * which re-serialising the document would not keep.
 */
import { isCollection, isScalar, stringify, Scalar, type Node, type Pair, type YAMLMap, type YAMLSeq } from "yaml";

/** One replacement of the text between two offsets. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The text with every edit applied (edits must not overlap; an insertion may touch a removal). */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** Plain YAML of a value on one line when it fits: yaml's own quoting, never folded. */
function inline(value: unknown): string {
  return stringify(value, { lineWidth: 0, collectionStyle: "flow" }).trimEnd();
}

/** Offset of the start of the line holding `offset`. */
function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

/** Offset just past the newline ending the line holding `offset` (the text's end when it has none). */
function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf("\n", offset);
  return nl < 0 ? text.length : nl + 1;
}

/** Column (0-based) of `offset` in its line. */
function column(text: string, offset: number): number {
  return offset - lineStart(text, offset);
}

/** A scalar's new value, written in the scalar's own style where the value allows it. */
export function setScalar(text: string, node: Scalar, value: unknown): Edit {
  const [start, end] = node.range as [number, number, number];
  return { start, end, text: scalarText(text, node, value) };
}

function scalarText(text: string, node: Scalar, value: unknown): string {
  if (typeof value !== "string") return inline(value);
  if (node.type === Scalar.BLOCK_LITERAL || node.type === Scalar.BLOCK_FOLDED) return blockLiteral(text, node, value);
  if (value.includes("\n")) return JSON.stringify(value);
  if (node.type === Scalar.QUOTE_DOUBLE) return JSON.stringify(value);
  if (node.type === Scalar.QUOTE_SINGLE) return `'${value.replace(/'/g, "''")}'`;
  return inline(value);
}

/** A block scalar rewritten as a literal block at the indentation of its old content. */
function blockLiteral(text: string, node: Scalar, value: string): string {
  const [start, end] = node.range as [number, number, number];
  const old = text.slice(start, end);
  const body = old.slice(old.indexOf("\n") + 1);
  const indent = /^( *)/.exec(body.split("\n").find((l) => l.trim() !== "") ?? "")?.[1] || " ".repeat(column(text, start) + 2);
  const chomp = value.endsWith("\n\n") ? "+" : value.endsWith("\n") ? "" : "-";
  const lines = value.replace(/\n$/, "").split("\n").map((l) => (l === "" ? "" : indent + l));
  return `|${chomp}\n${lines.join("\n")}${old.endsWith("\n") ? "\n" : ""}`;
}

/**
 * A value replaced in place: a block collection by block YAML at its indentation, anything else (a
 * flow collection, a scalar) by one line of flow YAML.
 */
export function replaceValue(text: string, node: Node, value: unknown): Edit {
  const [start, end] = node.range as [number, number, number];
  if (isScalar(node) && (value === null || typeof value !== "object")) return setScalar(text, node, value);
  const block = isCollection(node) && !node.flow && value !== null && typeof value === "object" && Object.keys(value).length > 0;
  if (!block) return { start, end, text: inline(value) };
  const pad = " ".repeat(column(text, start));
  const lines = stringify(value, { lineWidth: 0 }).trimEnd().split("\n");
  return { start, end: trimmedEnd(text, start, end), text: lines.map((l, i) => (i === 0 || l === "" ? l : pad + l)).join("\n") };
}

/** The end of a block value without the line breaks and comments yaml counts into it. */
function trimmedEnd(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && /\s/.test(text[e - 1] as string)) e--;
  return e;
}

/**
 * Items removed from a block list (their whole lines, comments on them too) and others appended after
 * its last; a flow list, or one left with none of its items, is rewritten whole as `whole`.
 */
export function changeItems(text: string, seq: YAMLSeq, remove: ReadonlySet<number>, append: readonly unknown[], whole: readonly unknown[]): Edit[] {
  const items = seq.items as Node[];
  if (seq.flow || items.length === remove.size) return [replaceValue(text, seq, whole)];
  const edits: Edit[] = [];
  for (const i of remove) {
    const item = items[i]!;
    const [start, valueEnd] = item.range as [number, number, number];
    edits.push({ start: lineStart(text, start), end: lineEnd(text, trimmedEnd(text, start, valueEnd)), text: "" });
  }
  if (append.length > 0) edits.push(appendItems(text, seq, append));
  return edits;
}

/** Items added at the end of a non-empty block list, at the indentation of its dashes. */
function appendItems(text: string, seq: YAMLSeq, values: readonly unknown[]): Edit {
  const items = seq.items as Node[];
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const firstLine = text.slice(lineStart(text, first.range![0]), first.range![0]);
  const pad = " ".repeat(Math.max(0, firstLine.lastIndexOf("-")));
  const at = lineEnd(text, trimmedEnd(text, last.range![0], last.range![1]));
  const lines = stringify(values, { lineWidth: 0 }).trimEnd().split("\n");
  const body = lines.map((l) => (l === "" ? "" : pad + l)).join("\n");
  return { start: at, end: at, text: `${at === text.length && !text.endsWith("\n") ? "\n" : ""}${body}\n` };
}

/** A unified diff of two texts built from the edits that made the second (3 lines of context). */
export function unifiedDiff(before: string, after: string, name: string): string {
  if (before === after) return "";
  const a = before.split("\n");
  const b = after.split("\n");
  // Common head and tail, then a line LCS on what is left between (the changed lines are few and near).
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops = lcsOps(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  const all: { op: " " | "-" | "+"; line: string }[] = [
    ...a.slice(0, head).map((line) => ({ op: " " as const, line })),
    ...ops,
    ...a.slice(a.length - tail).map((line) => ({ op: " " as const, line })),
  ];
  const out = [`--- a/${name}`, `+++ b/${name}`];
  let i = 0;
  let oldNo = 1;
  let newNo = 1;
  const counts = all;
  while (i < counts.length) {
    if (counts[i]!.op === " ") {
      i++;
      oldNo++;
      newNo++;
      continue;
    }
    // A hunk: back up to 3 lines of context, run until 6 unchanged lines in a row or the end.
    const from = Math.max(0, i - 3);
    let oStart = oldNo - (i - from);
    let nStart = newNo - (i - from);
    let j = i;
    let same = 0;
    while (j < counts.length && same < 7) {
      same = counts[j]!.op === " " ? same + 1 : 0;
      j++;
    }
    const to = same >= 7 ? j - 4 : j;
    const hunk = counts.slice(from, to);
    const oLen = hunk.filter((o) => o.op !== "+").length;
    const nLen = hunk.filter((o) => o.op !== "-").length;
    if (oLen === 0) oStart--;
    if (nLen === 0) nStart--;
    out.push(`@@ -${oStart},${oLen} +${nStart},${nLen} @@`, ...hunk.map((o) => o.op + o.line));
    for (let k = i; k < to; k++) {
      if (counts[k]!.op !== "+") oldNo++;
      if (counts[k]!.op !== "-") newNo++;
    }
    i = to;
  }
  return `${out.join("\n")}\n`;
}

/** The line operations turning `a` into `b` (longest common subsequence). */
function lcsOps(a: string[], b: string[]): { op: " " | "-" | "+"; line: string }[] {
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) return [...a.map((line) => ({ op: "-" as const, line })), ...b.map((line) => ({ op: "+" as const, line }))];
  const len: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) len[i]![j] = a[i] === b[j] ? len[i + 1]![j + 1]! + 1 : Math.max(len[i + 1]![j]!, len[i]![j + 1]!);
  const ops: { op: " " | "-" | "+"; line: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ op: " ", line: a[i]! });
      i++;
      j++;
    } else if (len[i + 1]![j]! >= len[i]![j + 1]!) ops.push({ op: "-", line: a[i++]! });
    else ops.push({ op: "+", line: b[j++]! });
  }
  while (i < n) ops.push({ op: "-", line: a[i++]! });
  while (j < m) ops.push({ op: "+", line: b[j++]! });
  return ops;
}

/**
 * Fields added to a mapping (after its last, at the indentation of its keys) and others removed (their
 * whole lines); a flow mapping is rewritten whole as `whole`.
 */
export function changePairs(text: string, map: YAMLMap, remove: readonly Pair[], add: Record<string, unknown>, whole: Record<string, unknown>): Edit[] {
  if (map.flow || map.items.length === remove.length) return [replaceValue(text, map, whole)];
  const edits: Edit[] = [];
  for (const pair of remove) {
    const key = pair.key as Node;
    const value = (pair.value as Node | null) ?? key;
    edits.push({ start: lineStart(text, key.range![0]), end: lineEnd(text, trimmedEnd(text, key.range![0], value.range![1])), text: "" });
  }
  if (Object.keys(add).length === 0) return edits;
  const first = map.items[0]!.key as Node;
  const last = map.items[map.items.length - 1]!;
  const lastEnd = ((last.value as Node | null) ?? (last.key as Node)).range![1];
  const pad = " ".repeat(column(text, first.range![0]));
  const at = lineEnd(text, trimmedEnd(text, (last.key as Node).range![0], lastEnd));
  const lines = stringify(add, { lineWidth: 0 }).trimEnd().split("\n");
  const body = lines.map((l) => (l === "" ? "" : pad + l)).join("\n");
  edits.push({ start: at, end: at, text: `${at === text.length && !text.endsWith("\n") ? "\n" : ""}${body}\n` });
  return edits;
}
