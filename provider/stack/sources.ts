/**
 * What a stack file names rather than holds: files next to it (an integration's script and images)
 * and the sources of secret values (a Pulumi config key or an environment variable). Both are found
 * through the kinds' declarations (`{file}` and `"secretSources"` spellings, marked `x-file` and
 * `x-secretSources` in the generated stack schema), never by field name.
 *
 * Files are checked by the loader, which knows where the stack file is (`docsplatform validate` and
 * the component both report a missing file, or one outside the project: projectFiles.ts). Whether a
 * secret source is set is checked by the component only: the loader is offline and has no Pulumi
 * config; that no source names the package's own API token is checked offline, by the loader. All
 * report `file:line:col` of the entry's value.
 */
import * as fs from "node:fs";
import { CREDENTIAL } from "../env";
import type { DeclaredSources } from "./declared";
import { projectFile, type FileBase } from "./projectFiles";
import { stackSchemaDocument } from "./schema";

/** A finding at a JSON pointer of the stack file. */
export interface SourceIssue {
  pointer: string;
  reason: string;
}

/** A stack-file value read when the program runs: where it is, and how it is spelled. */
interface RuntimeValue {
  pointer: string;
  value: unknown;
  file?: "text" | "base64";
  /** The most bytes the file's text may take once JSON-escaped (it is sent inline in a request body). */
  maxJsonBytes?: number;
  secrets: boolean;
}

type SchemaNode = {
  $ref?: string;
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  "x-file"?: "text" | "base64";
  "x-fileMaxJsonBytes"?: number;
  "x-secretSources"?: boolean;
};

/** Fields marked in one kind of entry: under a top-level list, or (`sub`) under a list of each of its entries (a site's MCP servers). */
interface MarkedList {
  list: string;
  sub?: string;
  fields: { as: string; file?: "text" | "base64"; maxJsonBytes?: number; secrets: boolean }[];
}

let marked: MarkedList[] | undefined;

/** The fields of a definition marked `x-file` or `x-secretSources`. */
function markedFields(entry: SchemaNode | undefined): MarkedList["fields"] {
  return Object.entries(entry?.properties ?? {})
    .filter(([, f]) => f["x-file"] !== undefined || f["x-secretSources"] === true)
    .map(([as, f]) => ({
      as,
      ...(f["x-file"] ? { file: f["x-file"] } : {}),
      ...(f["x-fileMaxJsonBytes"] === undefined ? {} : { maxJsonBytes: f["x-fileMaxJsonBytes"] }),
      secrets: f["x-secretSources"] === true,
    }));
}

/**
 * The lists whose entries have fields marked `x-file` or `x-secretSources` in the stack schema
 * (generated from the kinds' declarations), with those fields: top-level lists, and the lists inside
 * their entries. Read from the schema, not the kinds, so that the loader stays free of the provider's modules.
 */
function markedLists(): MarkedList[] {
  if (marked) return marked;
  const schema = stackSchemaDocument() as SchemaNode & { definitions: Record<string, SchemaNode> };
  const entryOf = (node: SchemaNode | undefined): SchemaNode | undefined => {
    const ref = node?.items?.$ref;
    return ref?.startsWith("#/definitions/") ? schema.definitions[ref.slice("#/definitions/".length)] : undefined;
  };
  marked = [];
  for (const [list, node] of Object.entries(schema.properties ?? {})) {
    const entry = entryOf(node);
    const fields = markedFields(entry);
    if (fields.length > 0) marked.push({ list, fields });
    for (const [sub, subNode] of Object.entries(entry?.properties ?? {})) {
      const subFields = markedFields(entryOf(subNode));
      if (subFields.length > 0) marked.push({ list, sub, fields: subFields });
    }
  }
  return marked;
}

/** The entries a marked list names in the file, each with its pointer. */
function markedEntries(stack: Record<string, unknown>, m: MarkedList): { pointer: string; entry: Record<string, unknown> }[] {
  const objects = (v: unknown, at: string) =>
    (Array.isArray(v) ? v : []).flatMap((e, i) => (e !== null && typeof e === "object" ? [{ pointer: `${at}/${i}`, entry: e as Record<string, unknown> }] : []));
  const top = objects(stack[m.list], `/${m.list}`);
  return m.sub === undefined ? top : top.flatMap(({ pointer, entry }) => objects(entry[m.sub!], `${pointer}/${m.sub}`));
}

/** Every value of the file that names a file or secret sources (guarded: the data may have failed the schema). */
function runtimeValues(stack: unknown): RuntimeValue[] {
  const out: RuntimeValue[] = [];
  if (stack === null || typeof stack !== "object") return out;
  for (const m of markedLists()) {
    for (const { pointer, entry } of markedEntries(stack as Record<string, unknown>, m)) {
      for (const f of m.fields) {
        const value = entry[f.as];
        if (value === undefined || value === null) continue;
        out.push({ pointer: `${pointer}/${f.as}`, value, ...(f.file ? { file: f.file } : {}), ...(f.maxJsonBytes === undefined ? {} : { maxJsonBytes: f.maxJsonBytes }), secrets: f.secrets });
      }
    }
  }
  return out;
}

/** A missing file named by the stack file, or one outside the project (see projectFiles.ts). */
export function fileIssues(stack: unknown, base: FileBase): SourceIssue[] {
  const issues: SourceIssue[] = [];
  for (const v of runtimeValues(stack)) {
    if (!v.file) continue;
    const paths = Array.isArray(v.value) ? v.value.map((p, i) => [`${v.pointer}/${i}`, p] as const) : [[v.pointer, v.value] as const];
    for (const [pointer, p] of paths) {
      if (typeof p !== "string" || p === "") continue;
      const found = projectFile(base, p);
      if (!found.ok) issues.push({ pointer, reason: found.reason });
      else if (v.maxJsonBytes !== undefined) {
        const reason = inlineSizeProblem(found.file, p, v.maxJsonBytes);
        if (reason !== undefined) issues.push({ pointer, reason });
      }
    }
  }
  return issues;
}

/**
 * Why a file sent inline as JSON text cannot be sent: empty, or larger than `max` bytes once JSON-escaped
 * (a quote, a backslash or a line break takes two bytes there, a control character six). The size on disk
 * is looked at first, so a huge file is refused without being read.
 */
function inlineSizeProblem(file: string, given: string, max: number): string | undefined {
  const shown = JSON.stringify(given);
  const onDisk = fs.statSync(file).size;
  if (onDisk === 0) return `${shown} is empty; the platform needs the specification's text (at least one character)`;
  const limit = `the platform refuses a request body over 1 MiB, which leaves ${max.toLocaleString("en-US")} bytes for the text`;
  if (onDisk > max) return `${shown} is ${onDisk.toLocaleString("en-US")} bytes, over the ${max.toLocaleString("en-US")} bytes a file sent inline may take (${limit})`;
  const escaped = Buffer.byteLength(JSON.stringify(fs.readFileSync(file, "utf8"))) - 2;
  if (escaped > max) return `${shown} takes ${escaped.toLocaleString("en-US")} bytes once JSON-escaped (${onDisk.toLocaleString("en-US")} on disk), over the ${max.toLocaleString("en-US")} bytes a file sent inline may take (${limit})`;
  return undefined;
}

/** Every `{config}` / `{env}` source of a secret map: its pointer, and the source as written. */
function secretSources(stack: unknown): { pointer: string; name: string; source: { config?: unknown; env?: unknown } }[] {
  const out: { pointer: string; name: string; source: { config?: unknown; env?: unknown } }[] = [];
  for (const v of runtimeValues(stack)) {
    if (!v.secrets || typeof v.value !== "object" || v.value === null || Array.isArray(v.value)) continue;
    for (const [name, source] of Object.entries(v.value as Record<string, unknown>)) {
      if (source === null || typeof source !== "object") continue;
      out.push({ pointer: `${v.pointer}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`, name, source: source as { config?: unknown; env?: unknown } });
    }
  }
  return out;
}

/**
 * Secret sources that name the package's own API credential (its environment variable or config key):
 * the value would be sent to an integration, which the token must never reach. Checked offline.
 */
export function credentialSourceIssues(stack: unknown): SourceIssue[] {
  const issues: SourceIssue[] = [];
  for (const { pointer, name, source } of secretSources(stack)) {
    const env = typeof source.env === "string" && (CREDENTIAL.env as readonly string[]).includes(source.env) ? `environment variable ${source.env}` : undefined;
    const config = typeof source.config === "string" && (CREDENTIAL.config as readonly string[]).includes(source.config) ? `config key ${source.config}` : undefined;
    const named = env ?? config;
    const to = /\/mcpServers\//.test(pointer) ? "an MCP server" : /\/contextConnections\//.test(pointer) ? "a context connection" : "an integration";
    if (named) issues.push({ pointer: `${pointer}/${env ? "env" : "config"}`, reason: `secret ${JSON.stringify(name)}: ${named} holds the platform API token this package acts with; it is never sent to ${to} (give ${to.replace(/^an? /, "the ")} a credential of its own)` });
  }
  return issues;
}

/** Reads config keys and environment variables for secret sources. */
export interface SecretLookup {
  /** The value of a Pulumi config key (`name` in the project's namespace, or `namespace:name`). */
  config(key: string): string | undefined;
  env(name: string): string | undefined;
}

/** The value of one source; undefined when it is not set (or set to an empty string). */
function sourceValue(source: unknown, lookup: SecretLookup): string | undefined {
  if (source === null || typeof source !== "object") return undefined;
  const s = source as { config?: unknown; env?: unknown };
  const value = typeof s.config === "string" ? lookup.config(s.config) : typeof s.env === "string" ? lookup.env(s.env) : undefined;
  return value === "" ? undefined : value;
}

/** Secret sources that are not set: one issue each, naming how to set it (never a value). */
export function secretSourceIssues(stack: unknown, lookup: SecretLookup): SourceIssue[] {
  const issues: SourceIssue[] = [];
  for (const v of runtimeValues(stack)) {
    if (!v.secrets || typeof v.value !== "object" || v.value === null) continue;
    for (const [name, source] of Object.entries(v.value as Record<string, unknown>)) {
      if (sourceValue(source, lookup) !== undefined) continue;
      const s = source as { config?: string; env?: string };
      const how =
        s.config !== undefined
          ? `config key ${JSON.stringify(s.config)} is not set: run \`pulumi config set --secret ${s.config} <value>\``
          : `environment variable ${s.env ?? "?"} is not set: export it in the environment of \`pulumi\``;
      issues.push({ pointer: `${v.pointer}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`, reason: `secret ${JSON.stringify(name)}: ${how}` });
    }
  }
  return issues;
}

/**
 * The reader the component passes to `declaredInputs`: files inside the project (`base`, checked again
 * as they are read: projectFiles.ts), secret sources
 * through `lookup`, the values wrapped by `secret` (the component's `pulumi.secret`). Sources were
 * checked first ({@link secretSourceIssues}), so an unset one here is a bug.
 */
export function runtimeSources(base: FileBase, lookup: SecretLookup, secret: (values: Record<string, string> | string) => unknown): DeclaredSources {
  return {
    file(p, how) {
      const found = projectFile(base, p);
      if (!found.ok) throw new Error(`internal error: ${found.reason}`);
      const bytes = fs.readFileSync(found.file);
      return how === "base64" ? bytes.toString("base64") : bytes.toString("utf8");
    },
    secrets(sources) {
      const values: Record<string, string> = {};
      for (const [name, source] of Object.entries(sources)) {
        const value = sourceValue(source, lookup);
        if (value === undefined) throw new Error(`internal error: secret ${JSON.stringify(name)} has no value`);
        values[name] = value;
      }
      return secret(values);
    },
    secret(source) {
      const value = sourceValue(source, lookup);
      if (value === undefined) throw new Error("internal error: a secret source has no value");
      return secret(value);
    },
  };
}
