/**
 * Reading YAML with positions: the first document only, refused early when it is too large, too deep
 * or an alias bomb, each problem at `file:line:col` of its JSON pointer. The stack file and a site
 * file are read through it.
 */
import { escapeSegment } from "../pointer";
import { Composer, isAlias, isMap, isPair, isScalar, isSeq, Lexer, Parser, visit, type CST, type Alias, type Document, type Pair, type YAMLError, type YAMLMap } from "yaml";
import { show } from "../phrases";
import { describe } from "./checkKit";
import { formatProblem, type Problem } from "./problem";

/** Limits that keep loading fast and deterministic on hostile input. */
export const STACK_FILE_LIMITS = {
  /** Largest accepted file, in bytes (5 MiB). */
  maxBytes: 5 * 1024 * 1024,
  /** Deepest accepted nesting of YAML collections. */
  maxDepth: 64,
  /** Most alias expansions accepted (YAML `*anchor` references), against exponential "billion laughs" files. */
  maxAliasCount: 100,
  /**
   * Most items of one list, and keys of one mapping. The API sets no maximum on the lists a stack file
   * holds (members, teams, sites, sections, site spaces, ...); a stack file past 10,000 entries in one
   * of them is not a docs platform one could review, and the cap keeps the checks of a hostile file
   * short (checked before the schema, like the depth).
   */
  maxCollectionItems: 10_000,
  /**
   * Most problems listed for one file; past it, one last line says how many more there are. A file with
   * hundreds of problems is usually one mistake repeated, and the first ones are the ones to fix.
   */
  maxProblems: 100,
} as const;

/**
 * Another YAML file the stack file names (a site's structure file), parsed and bounded as the stack
 * file is (size, depth, aliases, duplicate keys, one document): its data and where a JSON pointer of it
 * is; or its problems, each at that file's own line and column.
 */
export type LocatedYaml =
  | { ok: true; data: unknown; at: (pointer: string, message: string, atKey?: boolean) => Problem }
  | { ok: false; problems: Problem[] };

/** {@link LocatedYaml} of `text`; `fileName` is used in problems only, `kind` names the file in them. */
export function parseLocatedYaml(text: string, fileName: string, kind: FileKind): LocatedYaml {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > STACK_FILE_LIMITS.maxBytes) return { ok: false, problems: [tooLarge(fileName, bytes, kind)] };
  const position = linePositions(text);
  const problemAt: ProblemAt = (offset, pointer, message) => {
    const { line, col } = position(offset);
    return at(fileName, line, col, pointer, message);
  };
  const parsed = parseDocument(text, problemAt, kind);
  if (!parsed.ok) return { ok: false, problems: parsed.problems };
  const shape = shapeProblems(parsed.doc, problemAt, kind);
  if (shape.length > 0) return { ok: false, problems: shape };
  const data = toData(parsed.doc, problemAt);
  if (!data.ok) return { ok: false, problems: data.problems };
  const locator = new Locator(parsed.doc);
  return { ok: true, data: data.data, at: (pointer, message, atKey = false) => problemAt(locator.offset(pointer, atKey), pointer, message) };
}

/**
 * Which file is read, as problems name it: the stack file (docs.yaml), or a site file it names (a
 * limit broken in a site file is the site file's, in words).
 */
export type FileKind = "stack file" | "site file";

/** What an empty file should have been. */
const EMPTY: Record<FileKind, string> = {
  "stack file": "a stack file is a mapping with at least `organization`",
  "site file": "a site file is a mapping with at least `site`",
};

/** A problem at an offset of the text, with its JSON pointer and message. */
export type ProblemAt = (offset: number, pointer: string, message: string) => Problem;

/** What a phase of loading found: its result, or the problems that end the load. */
export type Phase<T> = ({ ok: true } & T) | { ok: false; problems: Problem[] };

/**
 * The YAML document, with the nesting depth checked while the parser builds its stack (deeply nested
 * input would otherwise exhaust the composer's recursion); else its syntax errors only (schema errors on
 * a half-parsed document mislead).
 */
export function parseDocument(text: string, problemAt: ProblemAt, kind: FileKind = "stack file"): Phase<{ doc: Document.Parsed }> & { laterSyntaxErrors?: number } {
  let doc: Document.Parsed;
  let secondDocument: number | undefined;
  try {
    ({ doc, secondDocument } = composeFirst(text));
  } catch (err) {
    if (err instanceof TooDeep) return { ok: false, problems: [problemAt(err.offset, "", tooDeep(kind))] };
    throw err;
  }
  const all = [...doc.errors, ...doc.warnings];
  const syntax = all.filter((e) => e.code !== "DUPLICATE_KEY");
  if (syntax.length > 0) {
    const first = firstMistake(syntax);
    return { ok: false, problems: [problemAt(first.pos[0], "", yamlMessage(first.code, first.message))], laterSyntaxErrors: syntax.length - 1 };
  }
  // A duplicate key is no parse failure: the rest of the file is read right, so each one is listed, named by its path and the line of the first.
  const duplicates = all.map((e) => {
    const pointer = pointerAt(doc, e.pos[0]);
    const where = pointer === undefined || pointer === "" ? "" : `${describe(pointer)}: `;
    const repeated = e.code === "DUPLICATE_KEY" ? repeatedKey(doc, e.pos[0]) : undefined;
    const here = problemAt(e.pos[0], pointer ?? "", "");
    const message = repeated === undefined ? yamlMessage(e.code, e.message) : repeatedKeyMessage(repeated, problemAt(repeated.first, "", ""), here.line);
    return { ...here, message: `${where}${message}` };
  });
  if (secondDocument !== undefined) {
    duplicates.push(problemAt(secondDocument, "", `the file holds more than one YAML document (---); a ${kind} is one document`));
  }
  if (duplicates.length > 0) return { ok: false, problems: listProblems(sortProblems(duplicates), 0, "problem") };
  return { ok: true, doc };
}

/**
 * The syntax error to show of several: a tab in the indentation when there is one (the parser reports
 * the confusion it causes on the lines around it first, in words that point nowhere near the tab),
 * else the earliest.
 */
function firstMistake(errors: readonly YAMLError[]): YAMLError {
  const byPosition = [...errors].sort((a, b) => a.pos[0] - b.pos[0]);
  return byPosition.find((e) => e.code === "TAB_AS_INDENT") ?? byPosition[0];
}

function tooDeep(kind: FileKind): string {
  return `nesting is deeper than ${STACK_FILE_LIMITS.maxDepth} levels; a ${kind} never needs that many`;
}

/** An empty document, one nested too deep, or collections past the size limit. */
export function shapeProblems(doc: Document.Parsed, problemAt: ProblemAt, kind: FileKind = "stack file"): Problem[] {
  if (doc.contents === null) return [problemAt(0, "", `the file is empty; ${EMPTY[kind]}`)];
  const shape = shapeOf(doc.contents);
  if (shape.depth > STACK_FILE_LIMITS.maxDepth) return [problemAt(shape.offset, "", tooDeep(kind))];
  if (shape.oversized.length === 0) return [];
  const max = STACK_FILE_LIMITS.maxCollectionItems.toLocaleString("en-US");
  const oversized = shape.oversized.map(({ offset, count, list, pointer }) => {
    const what = list ? `a list of ${count.toLocaleString("en-US")} items` : `a mapping of ${count.toLocaleString("en-US")} keys`;
    const limit = list ? `a list may hold at most ${max} items` : `a mapping may hold at most ${max} keys`;
    return problemAt(offset, pointer, `${describe(pointer)}: ${what}; ${limit} in a ${kind}`);
  });
  return listProblems(sortProblems(oversized), 0, "problem");
}

/** The document's data, aliases expanded within their limit. */
export function toData(doc: Document.Parsed, problemAt: ProblemAt): Phase<{ data: unknown }> {
  try {
    return { ok: true, data: doc.toJS({ maxAliasCount: STACK_FILE_LIMITS.maxAliasCount }) };
  } catch (err) {
    if (!(err instanceof ReferenceError)) throw err;
    const message = `aliases expand too much (more than ${STACK_FILE_LIMITS.maxAliasCount} expansions of one anchor): refusing a possible alias bomb`;
    return { ok: false, problems: [problemAt(firstAliasOffset(doc) ?? 0, "", message)] };
  }
}

class TooDeep extends Error {
  constructor(readonly offset: number) {
    super("nesting too deep");
  }
}

/** `parseDocument`, with the parser's stack depth checked after every lexeme. */
function composeFirst(text: string): { doc: Document.Parsed; secondDocument?: number } {
  const parser = new Parser();
  const tokens = function* (): Generator<CST.Token> {
    for (const lexeme of new Lexer().lex(text, false)) {
      yield* parser.next(lexeme);
      // Document + collection + pair levels: the parser stack is about one deeper than the data.
      if (parser.stack.length > STACK_FILE_LIMITS.maxDepth + 2) throw new TooDeep(parser.offset);
    }
    yield* parser.end();
  };
  // YAML 1.2 core schema: `yes`, `no`, `on`, `off` stay strings.
  const composer = new Composer({ uniqueKeys: true, schema: "core" });
  let first: Document.Parsed | undefined;
  for (const doc of composer.compose(tokens(), true, text.length)) {
    if (first !== undefined) return { doc: first, secondDocument: doc.range[0] };
    first = doc;
  }
  if (first === undefined) throw new Error("YAML composer produced no document");
  return { doc: first };
}

function yamlMessage(code: string, message: string): string {
  switch (code) {
    case "DUPLICATE_KEY":
      return "duplicate key in a mapping; each key may appear once";
    case "TAB_AS_INDENT":
      return "YAML syntax error: a tab in the indentation; YAML indents with spaces only";
    default:
      return `YAML syntax error: ${message.replace(/\s+/g, " ").trim()}`;
  }
}

/** A key given again in its mapping: the key, where its first occurrence starts, and which occurrence this one is (2 for the second). */
interface RepeatedKey {
  key: string;
  first: number;
  occurrence: number;
}

/** The key a duplicate-key error at `offset` repeats, with its first occurrence; undefined when no key of the document starts there. */
function repeatedKey(doc: Document.Parsed, offset: number): RepeatedKey | undefined {
  const holds = (node: unknown): boolean => {
    const start = rangeStart(node);
    const end = nodeEnd(node);
    return start !== undefined && end !== undefined && start <= offset && offset < end;
  };
  let node: unknown = doc.contents;
  for (;;) {
    if (isMap(node)) {
      const index = node.items.findIndex((p) => holds(p.key));
      const pair = node.items[index];
      if (pair !== undefined && isScalar(pair.key)) {
        const value = pair.key.value;
        const earlier = node.items.slice(0, index).filter((p) => isScalar(p.key) && p.key.value === value);
        const first = earlier.length === 0 ? undefined : rangeStart(earlier[0]!.key);
        return first === undefined ? undefined : { key: keyText(pair.key), first, occurrence: earlier.length + 1 };
      }
      node = node.items.find((p) => holds(p.value))?.value;
    } else if (isSeq(node)) {
      node = node.items.find(holds);
    } else {
      return undefined;
    }
  }
}

/** A key given twice (or more) in one mapping, in words naming where it is first: its line, or its column on the same line (a flow mapping). */
function repeatedKeyMessage(r: RepeatedKey, first: { line: number; col: number }, line: number): string {
  const times = r.occurrence === 2 ? "twice" : `${r.occurrence} times`;
  const at = first.line === line ? `column ${first.col}` : `line ${first.line}`;
  return `the key ${show(r.key)} is given ${times} in this mapping (first at ${at}); each key may appear once: keep one of them`;
}

/** The JSON pointer of the deepest node of the document whose range holds `offset` (a range ends past its last character: the next key starts there). */
function pointerAt(doc: Document.Parsed, offset: number): string | undefined {
  let node: unknown = doc.contents;
  let pointer = "";
  for (;;) {
    if (isMap(node)) {
      const pair = node.items.find((p) => {
        const start = rangeStart(p.key) ?? -1;
        const end = nodeEnd(p.value) ?? nodeEnd(p.key) ?? -1;
        return start <= offset && offset < end;
      });
      if (!pair) return pointer;
      pointer += `/${escapeSegment(keyText(pair.key))}`;
      node = pair.value;
    } else if (isSeq(node)) {
      const index = node.items.findIndex((item) => {
        const start = rangeStart(item);
        const end = nodeEnd(item);
        return start !== undefined && end !== undefined && start <= offset && offset < end;
      });
      if (index < 0) return pointer;
      pointer += `/${index}`;
      node = node.items[index];
    } else {
      return pointer;
    }
  }
}

function nodeEnd(node: unknown): number | undefined {
  return isScalar(node) || isMap(node) || isSeq(node) || isAlias(node) ? node.range?.[2] : undefined;
}

/**
 * Offsets of the nodes JSON pointers name. Each mapping's keys are indexed the first time a pointer
 * passes through it, so locating a pointer costs O(its depth), however many problems are located.
 */
export class Locator {
  private readonly keys = new WeakMap<object, Map<string, Pair>>();
  /** Resolving an alias searches the document for its anchor: once per alias. */
  private readonly aliases = new WeakMap<object, unknown>();

  constructor(private readonly doc: Document.Parsed) {}

  /** Offset of the node a JSON pointer names (its key when `atKey`), or of its deepest existing ancestor. */
  offset(pointer: string, atKey: boolean): number {
    let node: unknown = this.doc.contents;
    let offset = rangeStart(node) ?? 0;
    const segments = pointer === "" ? [] : pointer.split("/").slice(1).map(unescape);
    for (let i = 0; i < segments.length; i++) {
      if (isAlias(node)) node = this.resolve(node);
      const last = i === segments.length - 1;
      if (isMap(node)) {
        const pair = this.pairsOf(node).get(segments[i]);
        if (!pair) return offset;
        const keyStart = rangeStart(pair.key) ?? offset;
        const value = pair.value;
        // An empty value (`title:`) has no useful position: point at its key.
        const valueStart = isScalar(value) && value.source === "" ? undefined : rangeStart(value);
        offset = last && atKey ? keyStart : (valueStart ?? keyStart);
        node = value;
      } else if (isSeq(node)) {
        const item = node.items[Number(segments[i])];
        const start = rangeStart(item);
        if (start === undefined) return offset;
        offset = start;
        node = item;
      } else {
        return offset;
      }
    }
    return offset;
  }

  private resolve(alias: Alias): unknown {
    if (!this.aliases.has(alias)) this.aliases.set(alias, alias.resolve(this.doc));
    return this.aliases.get(alias);
  }

  /** Key text → pair of one mapping; the first pair wins, as the first match did. */
  private pairsOf(map: YAMLMap): Map<string, Pair> {
    let index = this.keys.get(map);
    if (!index) {
      index = new Map();
      for (const pair of map.items) {
        if (!isPair(pair)) continue;
        const key = keyText(pair.key);
        if (!index.has(key)) index.set(key, pair);
      }
      this.keys.set(map, index);
    }
    return index;
  }
}

function rangeStart(node: unknown): number | undefined {
  if (isScalar(node) || isMap(node) || isSeq(node) || isAlias(node)) return node.range?.[0];
  return undefined;
}

function keyText(key: unknown): string {
  if (isScalar(key)) return String(key.value);
  return String(key);
}



interface Walked {
  node: unknown;
  depth: number;
  parent?: Walked;
  /** Key or index of `node` in its parent. */
  segment: string;
}

/** Depth of the deepest collection and where it starts, and every collection past `maxCollectionItems`. */
function shapeOf(root: unknown): { depth: number; offset: number; oversized: Oversized[] } {
  let best = { depth: 0, offset: 0 };
  const oversized: Oversized[] = [];
  const stack: Walked[] = [{ node: root, depth: 1, segment: "" }];
  while (stack.length > 0) {
    const walked = stack.pop() as Walked;
    const { node, depth } = walked;
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > best.depth) best = { depth, offset: node.range?.[0] ?? 0 };
    if (node.items.length > STACK_FILE_LIMITS.maxCollectionItems) {
      oversized.push({ offset: node.range?.[0] ?? 0, count: node.items.length, list: isSeq(node), pointer: pointerOf(walked) });
    }
    node.items.forEach((item: unknown, i: number) => {
      if (isPair(item)) {
        const segment = keyText(item.key);
        stack.push({ node: item.key, depth: depth + 1, parent: walked, segment }, { node: item.value, depth: depth + 1, parent: walked, segment });
      } else {
        stack.push({ node: item, depth: depth + 1, parent: walked, segment: String(i) });
      }
    });
  }
  return { ...best, oversized };
}

interface Oversized {
  offset: number;
  count: number;
  list: boolean;
  pointer: string;
}

function pointerOf(walked: Walked): string {
  const segments: string[] = [];
  for (let w: Walked | undefined = walked; w?.parent !== undefined; w = w.parent) segments.push(escapeSegment(w.segment));
  return segments.reverse().map((s) => `/${s}`).join("");
}

function firstAliasOffset(doc: Document.Parsed): number | undefined {
  let found: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      found = node.range?.[0];
      return visit.BREAK;
    },
  });
  return found;
}

export function tooLarge(file: string, bytes: number, kind: FileKind = "stack file"): Problem {
  const mib = (n: number): string => (n / (1024 * 1024)).toFixed(1);
  return at(file, 1, 1, "", `the file is ${mib(bytes)} MiB; a ${kind} may be at most ${mib(STACK_FILE_LIMITS.maxBytes)} MiB`);
}

export function at(file: string, line: number, col: number, path: string, message: string): Problem {
  return { file, line, col, message, path };
}

/**
 * Line and column of an offset, computed from the text itself: a sorted array of line starts built once,
 * searched by bisection (O(log lines) per lookup). Lines end at "\n" (a "\r" before it belongs to the
 * line, as editors count columns of CRLF files); columns count UTF-16 code units from 1. Offsets past
 * either end are clamped, so every position names a character of the file or the end of a line.
 */
export function linePositions(text: string): (offset: number) => { line: number; col: number } {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    const at = Math.min(Math.max(0, Math.trunc(offset) || 0), text.length);
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: at - starts[lo] + 1 };
  };
}

/**
 * The first `max` problems (already sorted), then `… and N more <noun>s` located at the first one left
 * out. `unlocated` counts further problems that were found but never located.
 */
function capProblems(sorted: Problem[], max: number, noun: string, unlocated = 0): Problem[] {
  const listed = sorted.slice(0, max);
  const rest = sorted.length - listed.length + unlocated;
  if (rest === 0 || listed.length === 0) return sorted;
  const next = sorted[max] ?? listed[listed.length - 1];
  const summary = `… and ${rest} more ${noun}${rest === 1 ? "" : "s"} (the first ${listed.length} are listed)`;
  return [...listed, at(next.file, next.line, next.col, next.path, summary)];
}

/** Problems as reported: at most `maxProblems`, then a count of the rest (`unlocated` are past the schema's cap). */
export function listProblems(sorted: Problem[], unlocated: number, noun: string): Problem[] {
  return capProblems(sorted, STACK_FILE_LIMITS.maxProblems, noun, unlocated);
}

/** Sort by position, then message; drop exact repeats. */
export function sortProblems(problems: Problem[]): Problem[] {
  const sorted = [...problems].sort((a, b) => a.line - b.line || a.col - b.col || a.message.localeCompare(b.message));
  return sorted.filter((p, i) => i === 0 || formatProblem(p) !== formatProblem(sorted[i - 1]));
}
