/**
 * Rendering an exported stack as YAML a person is glad to read and edit: a header saying where it
 * came from, fields in the order of the stack schema, short references and lists in flow style,
 * certificates as literal blocks, blank lines between sections, e-mail addresses beside user IDs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Document, isMap, isPair, isScalar, isSeq, visit, type Node, type Pair, type Scalar, type YAMLMap } from "yaml";
import type { StackFile } from "../file/model";
import { schemasDir } from "../stack/schema";

/** Where a rendered file came from, for its header. */
export interface RenderHeader {
  /** The organisation's title, shown beside its ID. */
  organizationTitle: string;
  /** Time of the export. */
  date: Date;
  /** The command line that produced the file (without secrets: it holds none). */
  command: string;
  /** Value of the `# yaml-language-server: $schema=` line. */
  schemaPath: string;
  /** Objects left out, one sentence each. */
  notes: readonly string[];
  /** E-mail addresses shown as comments beside user IDs. */
  emails?: ReadonlyMap<string, string>;
  /** Placeholder paths of files to supply (an integration's script): each gets a comment beside it. */
  placeholders?: readonly string[];
  /** What to supply or declare before `pulumi up`, one sentence each. */
  supply?: readonly string[];
}

/** The `$schema` path for a file written into `outDir`: the package's schema, relative when possible. */
export function schemaPathFor(outDir: string): string {
  const schema = path.join(schemasDir(), "stack.schema.json");
  const rel = path.relative(path.resolve(outDir), schema).split(path.sep).join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

type JsonSchema = {
  $ref?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
};

let stackSchema: { root: JsonSchema; definitions: Record<string, JsonSchema> } | undefined;

function schema(): { root: JsonSchema; definitions: Record<string, JsonSchema> } {
  if (stackSchema) return stackSchema;
  const root = JSON.parse(fs.readFileSync(path.join(schemasDir(), "stack.schema.json"), "utf8")) as JsonSchema & {
    definitions: Record<string, JsonSchema>;
  };
  stackSchema = { root, definitions: root.definitions };
  return stackSchema;
}

/** Follows local `$ref`s; a reference into another schema (limits) is a leaf. */
function resolve(node: JsonSchema | undefined): JsonSchema | undefined {
  let n = node;
  for (let i = 0; n?.$ref !== undefined && i < 16; i++) {
    const m = /^#\/definitions\/(.+)$/.exec(n.$ref);
    if (!m || m[1] === undefined) return undefined;
    n = schema().definitions[m[1]];
  }
  return n;
}

/** The object branch of a schema node (through `oneOf`/`anyOf`), if any. */
function objectBranch(node: JsonSchema | undefined): JsonSchema | undefined {
  const n = resolve(node);
  if (!n) return undefined;
  if (n.properties) return n;
  for (const b of [...(n.oneOf ?? []), ...(n.anyOf ?? [])]) {
    const found = objectBranch(b);
    if (found) return found;
  }
  return n.additionalProperties !== undefined && typeof n.additionalProperties === "object" ? n : undefined;
}

/** A deep copy of `value` whose object keys follow the order of the schema's `properties`. */
export function orderLikeSchema(value: unknown, node: JsonSchema | undefined = schema().root): unknown {
  if (Array.isArray(value)) {
    const items = resolve(node)?.items;
    return value.map((v) => orderLikeSchema(v, items));
  }
  if (typeof value !== "object" || value === null) return value;
  const branch = objectBranch(node);
  const props = branch?.properties ?? {};
  const extra = typeof branch?.additionalProperties === "object" ? branch.additionalProperties : undefined;
  // A map of names the user chose (the claims of an adaptive schema) keeps its own order.
  const known = extra !== undefined ? [] : Object.keys(props);
  const entries = Object.entries(value as Record<string, unknown>);
  // Keys the schema names come in its order; others (claims of an adaptive schema) keep theirs, after them.
  const sorted = [
    ...known.filter((k) => Object.prototype.hasOwnProperty.call(value, k)).map((k) => [k, (value as Record<string, unknown>)[k]] as const),
    ...entries.filter(([k]) => !known.includes(k)),
  ];
  const out: Record<string, unknown> = {};
  for (const [k, v] of sorted) out[k] = orderLikeSchema(v, props[k] ?? extra);
  return out;
}

/** Keys whose lists are short and read best on one line. */
const FLOW_LISTS = new Set(["emailDomains", "sections", "required", "previousKeys"]);

/** The YAML text of an exported stack file. */
export function renderStackFile(stack: StackFile, header: RenderHeader): string {
  const doc = new Document(orderLikeSchema(stack));

  visit(doc, {
    Pair(_key, pair) {
      const key = isScalar(pair.key) ? String(pair.key.value) : "";
      const value = pair.value;
      // `{id: ...}` references and `{enabled: true}` on one line.
      if (isMap(value) && value.items.length === 1 && (key === "adaptiveContent" || singleKey(value) === "id")) value.flow = true;
      // A site's redirects one per line: `- { source: /old, destination: { section: guides } }`.
      if (isSeq(value) && key === "redirects") for (const item of value.items) if (isMap(item)) item.flow = true;
      // A list of section keys in a group, e-mail domains, required claims.
      if (isSeq(value) && FLOW_LISTS.has(key) && value.items.every((i) => isScalar(i))) value.flow = true;
      // Certificates and other multi-line text as literal blocks.
      if (isScalar(value) && typeof value.value === "string" && value.value.includes("\n")) value.type = "BLOCK_LITERAL";
      // A placeholder path says so where it stands.
      if (isScalar(value) && typeof value.value === "string" && header.placeholders?.includes(value.value)) {
        value.comment = " placeholder: this file cannot be exported; supply it before `pulumi up`";
      }
      // E-mail addresses beside user IDs.
      if (key === "user" && isScalar(value) && typeof value.value === "string") {
        const email = header.emails?.get(value.value);
        if (email !== undefined && email !== value.value) value.comment = ` ${email}`;
      }
    },
  });

  // A blank line before each top-level section but the first, and between sites and teams.
  const root = doc.contents as YAMLMap<Scalar, Node> | null;
  if (root && isMap(root)) {
    root.items.forEach((pair: Pair<Scalar, Node>, i: number) => {
      if (i > 0 && isScalar(pair.key)) pair.key.spaceBefore = true;
      const key = isScalar(pair.key) ? String(pair.key.value) : "";
      if ((key === "sites" || key === "teams") && isSeq(pair.value)) {
        pair.value.items.forEach((item, j) => {
          if (j > 0 && (isMap(item) || isScalar(item))) item.spaceBefore = true;
        });
      }
    });
  }
  const body = doc.toString({ lineWidth: 0, indentSeq: true, flowCollectionPadding: false, singleQuote: false });
  return `${headerComment(stack.organization, header)}\n${body.endsWith("\n") ? body : `${body}\n`}`;
}

function singleKey(map: YAMLMap): string | undefined {
  const [first] = map.items;
  return first && isPair(first) && isScalar(first.key) ? String(first.key.value) : undefined;
}

function headerComment(organization: string, header: RenderHeader): string {
  const title = header.organizationTitle ? ` (${JSON.stringify(header.organizationTitle)})` : "";
  const lines = [
    ` yaml-language-server: $schema=${header.schemaPath}`,
    "",
    ` The live objects of organization ${organization}${title}, exported on ${header.date.toISOString()} by:`,
    `   ${header.command}`,
    "",
    " Every object is marked `adopt: true`: the first `pulumi up` takes the existing objects over",
    " instead of creating new ones. Keys were derived from titles, paths, labels and slugs; renaming",
    " one later replaces its object unless the old key is kept in `previousKeys`.",
    " Share-link URLs, API tokens and integration secrets are never exported.",
  ];
  if (header.supply !== undefined && header.supply.length > 0) {
    lines.push("", " To supply before `pulumi up` (it cannot be read back from the platform):");
    for (const note of header.supply) lines.push(`   - ${note.replace(/\r?\n/g, " ")}`);
  }
  if (header.notes.length > 0) {
    lines.push("", " Left out (they cannot be adopted unambiguously or declared in a stack file):");
    for (const note of header.notes) lines.push(`   - ${note.replace(/\r?\n/g, " ")}`);
  }
  return lines.map((l) => `#${l}`.trimEnd()).join("\n") + "\n";
}
