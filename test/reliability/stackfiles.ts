/**
 * Hostile stack files for property-based fuzzing of the loader: the handbook example mutated as text and
 * as data, wrong types, lengths around every limit, unicode, deep nesting, alias bombs and huge files.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { ROOT } from "./report";

/** The handbook example, the valid file every mutation starts from. */
export const HANDBOOK_FILE = path.join(ROOT, "examples", "handbook", "docs.yaml");
export const HANDBOOK_TEXT = fs.readFileSync(HANDBOOK_FILE, "utf8");
const HANDBOOK_DATA = parseYaml(HANDBOOK_TEXT) as unknown;

/** String lengths around the limits of `schemas/limits.json` (titles 64/128/256, descriptions, paths). */
const BOUNDARY_LENGTHS = [0, 1, 2, 63, 64, 65, 99, 100, 101, 127, 128, 129, 255, 256, 257, 320, 321, 1024, 1025, 5000] as const;
/** Characters that stress encodings and display: accents, emoji, RTL override, NUL, BOM, surrogate halves. */
const AWKWARD_CHARS = ["a", "é", "👍", "\u202e", "\u0000", "\ufeff", "\ud800", "\\", "\"", "'", ":", "#", "\t", "\n", "\r"] as const;

/** A string of a boundary length made of one awkward character. */
export const boundaryString = fc
  .tuple(fc.constantFrom(...BOUNDARY_LENGTHS), fc.constantFrom(...AWKWARD_CHARS))
  .map(([n, c]) => c.repeat(n));

/** Nested arrays or objects `depth` levels deep. */
function nested(depth: number, asObject: boolean): unknown {
  let v: unknown = "leaf";
  for (let i = 0; i < depth; i++) v = asObject ? { k: v } : [v];
  return v;
}

/** A value of any type a YAML file can hold, biased to what breaks validators. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2, Infinity, NaN, "", " ", "~", "null", "yes", "0x1F"),
  fc.integer(),
  fc.double(),
  boundaryString,
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.tuple(fc.integer({ min: 1, max: 120 }), fc.boolean()).map(([d, o]) => nested(d, o)),
);

// ---------------------------------------------------------------------------------------------
// Mutations of the handbook as data

type Pointer = (string | number)[];

function pointers(value: unknown, at: Pointer = [], out: Pointer[] = []): Pointer[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => pointers(v, [...at, i], out));
  else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) pointers(v, [...at, k], out);
  return out;
}

const HANDBOOK_POINTERS = pointers(HANDBOOK_DATA);

type DataMutation =
  | { op: "replace"; at: number; value: unknown }
  | { op: "delete"; at: number }
  | { op: "addKey"; at: number; key: string; value: unknown }
  | { op: "wrap"; at: number }
  | { op: "duplicateItem"; at: number };

const dataMutation: fc.Arbitrary<DataMutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant("replace" as const), at: fc.nat(), value: hostileValue }) },
  fc.record({ op: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({
    op: fc.constant("addKey" as const),
    at: fc.nat(),
    key: fc.oneof(fc.constantFrom("key", "title", "id", "__proto__", "constructor", "sites", "$ref"), fc.string({ maxLength: 10 })),
    value: hostileValue,
  }),
  fc.record({ op: fc.constant("wrap" as const), at: fc.nat() }),
  // Duplicated list items give duplicate keys, titles and paths: the cross-object checks must locate them.
  fc.record({ op: fc.constant("duplicateItem" as const), at: fc.nat() }),
);

function applyDataMutation(root: unknown, m: DataMutation): unknown {
  const ptr = HANDBOOK_POINTERS[m.at % HANDBOOK_POINTERS.length]!;
  if (ptr.length === 0) return m.op === "replace" ? m.value : m.op === "wrap" ? [root] : root;
  let parent: unknown = root;
  for (const seg of ptr.slice(0, -1)) {
    if (parent === null || typeof parent !== "object") return root;
    parent = (parent as Record<string | number, unknown>)[seg];
  }
  if (parent === null || typeof parent !== "object") return root;
  const last = ptr[ptr.length - 1]!;
  const container = parent as Record<string | number, unknown>;
  if (!(last in container)) return root;
  switch (m.op) {
    case "replace":
      container[last] = m.value;
      break;
    case "delete":
      if (Array.isArray(container)) container.splice(Number(last), 1);
      else delete container[last];
      break;
    case "addKey": {
      const target = container[last];
      if (target !== null && typeof target === "object" && !Array.isArray(target)) {
        Object.defineProperty(target, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
      }
      break;
    }
    case "wrap":
      container[last] = [container[last]];
      break;
    case "duplicateItem":
      if (Array.isArray(container)) container.splice(Number(last), 0, structuredClone(container[last]));
      break;
  }
  return root;
}

/** The handbook with one to four structural mutations, written as block YAML, flow YAML or JSON. */
export const mutatedData: fc.Arbitrary<string> = fc
  .tuple(fc.array(dataMutation, { minLength: 1, maxLength: 4 }), fc.constantFrom("block", "flow", "json"))
  .map(([mutations, style]) => {
    let data = structuredClone(HANDBOOK_DATA);
    for (const m of mutations) data = applyDataMutation(data, m);
    if (style === "json") return JSON.stringify(data, null, 1) ?? "";
    return stringifyYaml(data, { aliasDuplicateObjects: false, ...(style === "flow" ? { collectionStyle: "flow" as const } : {}) });
  });

// ---------------------------------------------------------------------------------------------
// Mutations of the handbook as text

/** Scalars that mean something special to YAML. */
const YAML_TRAPS = [
  "", "~", "null", "true", "[]", "{}", "[", "{", "- a", "&a x", "*a", "*undefined", "!!binary aGk=", "!custom x",
  "'unterminated", "\"\\u0000\"", "\"\\uD800\"", "0x1F", "1e309", "-.inf", ".nan", "<<: *a", "? complex", "|", ">-",
  "%YAML 1.1", "---", "...", "@reserved", "`reserved", "key: value: more", "\t", "\u00a0", "\ufeff",
] as const;

const scalarText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...YAML_TRAPS),
  boundaryString.map((s) => JSON.stringify(s)),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
);

type TextMutation =
  | { op: "deleteLine" | "duplicateLine"; at: number }
  | { op: "swapLines"; at: number; other: number }
  | { op: "indent"; at: number; delta: number }
  | { op: "insertText"; at: number; text: string }
  | { op: "replaceValue"; at: number; text: string }
  | { op: "truncate"; at: number }
  | { op: "lineEndings"; style: "crlf" | "cr" };

const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.record({ op: fc.constantFrom("deleteLine" as const, "duplicateLine" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("swapLines" as const), at: fc.nat(), other: fc.nat() }),
  fc.record({ op: fc.constant("indent" as const), at: fc.nat(), delta: fc.integer({ min: -6, max: 6 }) }),
  fc.record({ op: fc.constant("insertText" as const), at: fc.nat(), text: scalarText }),
  { weight: 3, arbitrary: fc.record({ op: fc.constant("replaceValue" as const), at: fc.nat(), text: scalarText }) },
  fc.record({ op: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("lineEndings" as const), style: fc.constantFrom("crlf" as const, "cr" as const) }),
);

function applyTextMutation(text: string, m: TextMutation): string {
  const lines = text.split("\n");
  const i = "at" in m ? m.at % Math.max(1, lines.length) : 0;
  switch (m.op) {
    case "deleteLine":
      lines.splice(i, 1);
      return lines.join("\n");
    case "duplicateLine":
      lines.splice(i, 0, lines[i] ?? "");
      return lines.join("\n");
    case "swapLines": {
      const j = m.other % Math.max(1, lines.length);
      [lines[i], lines[j]] = [lines[j] ?? "", lines[i] ?? ""];
      return lines.join("\n");
    }
    case "indent": {
      const line = lines[i] ?? "";
      lines[i] = m.delta >= 0 ? " ".repeat(m.delta) + line : line.replace(new RegExp(`^ {0,${-m.delta}}`), "");
      return lines.join("\n");
    }
    case "insertText": {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case "replaceValue": {
      const line = lines[i] ?? "";
      const colon = line.indexOf(": ");
      lines[i] = colon >= 0 ? `${line.slice(0, colon + 2)}${m.text}` : `${line}${m.text}`;
      return lines.join("\n");
    }
    case "truncate":
      return text.slice(0, m.at % (text.length + 1));
    case "lineEndings":
      return text.replace(/\n/g, m.style === "crlf" ? "\r\n" : "\r");
  }
}

/** The handbook with one to six textual mutations. */
export const mutatedText: fc.Arbitrary<string> = fc
  .array(textMutation, { minLength: 1, maxLength: 6 })
  .map((ms) => ms.reduce(applyTextMutation, HANDBOOK_TEXT));

// ---------------------------------------------------------------------------------------------
// Files built from scratch

/** Stack-shaped documents of random values: the right keys with wrong or random contents. */
export const randomStack: fc.Arbitrary<string> = fc
  .record(
    {
      organization: hostileValue,
      settings: hostileValue,
      members: fc.array(fc.record({ user: hostileValue, role: hostileValue }, { requiredKeys: [] }), { maxLength: 3 }),
      teams: fc.array(fc.record({ key: hostileValue, title: hostileValue, members: hostileValue }, { requiredKeys: [] }), { maxLength: 3 }),
      sites: fc.array(
        fc.record(
          {
            key: hostileValue,
            title: hostileValue,
            visibility: hostileValue,
            sections: fc.array(fc.record({ key: hostileValue, title: hostileValue, space: hostileValue, path: hostileValue }, { requiredKeys: [] }), { maxLength: 3 }),
            shareLinks: hostileValue,
          },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
      spaces: hostileValue,
      saml: hostileValue,
    },
    { requiredKeys: [] },
  )
  .map((data) => stringifyYaml(data, { aliasDuplicateObjects: false }));

/** Any text at all: unicode, binary, control characters, a byte-order mark. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 400 }),
  fc.string({ unit: "binary", maxLength: 400 }),
  fc.array(fc.constantFrom(...YAML_TRAPS, "\n", "  ", ": ", "- "), { maxLength: 60 }).map((parts) => parts.join("")),
  fc.string({ maxLength: 200 }).map((s) => `\ufeff${s}`),
);

/** Nesting from a few levels to thousands, in flow or block style, closed or not, under a real key. */
export const deepNesting: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 2, max: 3000 }), fc.constantFrom("flow-seq", "flow-map", "block-seq", "block-map"), fc.boolean(), fc.constantFrom("sites", "settings", "teams", "x"))
  .map(([depth, style, closed, key]) => {
    const head = `organization: demo-org\n${key}: `;
    switch (style) {
      case "flow-seq":
        return head + "[".repeat(depth) + (closed ? "]".repeat(depth) : "") + "\n";
      case "flow-map":
        return head + "{a: ".repeat(depth) + "x" + (closed ? "}".repeat(depth) : "") + "\n";
      case "block-seq":
        return `${head}\n${Array.from({ length: depth }, (_, i) => `${" ".repeat(i * 2)}-`).join("\n")} x\n`;
      case "block-map":
        return `${head}\n${Array.from({ length: depth }, (_, i) => `${" ".repeat((i + 1) * 2)}k${i}:`).join("\n")} x\n`;
    }
  });

/** "Billion laughs": anchors that each hold several aliases of the previous one, plus alias oddities. */
export const aliasBomb: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 2, max: 12 }), fc.constantFrom("sites", "teams", "settings"), fc.boolean())
    .map(([levels, breadth, key, flow]) => {
      let out = "organization: demo-org\nx0: &a0 [lol, lol, lol]\n";
      for (let i = 1; i < levels; i++) {
        const refs = Array.from({ length: breadth }, () => `*a${i - 1}`);
        out += flow ? `x${i}: &a${i} [${refs.join(", ")}]\n` : `x${i}: &a${i}\n${refs.map((r) => `  - ${r}`).join("\n")}\n`;
      }
      return `${out}${key}: *a${levels - 1}\n`;
    }),
  fc.constantFrom(
    "organization: &o demo-org\nsites:\n  - key: *o\n    title: *o\n",
    "organization: demo-org\nsites: *missing\n",
    "organization: demo-org\nsettings: &s\n  <<: *s\n",
    "organization: demo-org\nbase: &b {title: T, visibility: public}\nsites:\n  - <<: *b\n    key: a\n  - <<: [*b, *b]\n    key: b\n",
    "organization: demo-org\nsites: &loop [*loop]\n",
    "&a organization: demo-org\n",
  ),
);

/** Files from about 100 KB up to past the 5 MiB limit (the largest are refused before parsing). */
export function hugeFiles(long: boolean): { name: string; text: string }[] {
  const site = (i: number) => `  - key: s${i}\n    title: Site number ${i}\n    visibility: public\n`;
  const files = [
    { name: "100 KB of sites", text: `organization: demo-org\nsites:\n${Array.from({ length: 1500 }, (_, i) => site(i)).join("")}` },
    { name: "5 MiB + 1 of comments", text: "#".repeat(5 * 1024 * 1024 + 1) },
    { name: "6 MiB of one title", text: `organization: demo-org\nsites:\n  - key: a\n    title: ${"x".repeat(6 * 1024 * 1024)}\n` },
    { name: "1 MiB title", text: `organization: demo-org\nsites:\n  - key: a\n    title: ${"é".repeat(512 * 1024)}\n` },
    { name: "60,000 list items", text: `organization: demo-org\nteams: [${Array.from({ length: 60_000 }, (_, i) => `t${i}`).join(", ")}]\n` },
  ];
  if (long) {
    files.push(
      { name: "1.5 MB of sites", text: `organization: demo-org\nsites:\n${Array.from({ length: 25_000 }, (_, i) => site(i)).join("")}` },
      { name: "4.9 MiB of one description", text: `organization: demo-org\nsettings:\n  title: ${"d".repeat(Math.floor(4.9 * 1024 * 1024))}\n` },
    );
  }
  return files;
}
