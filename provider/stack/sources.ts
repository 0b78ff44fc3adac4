/**
 * What a stack file names rather than holds: files next to it (an integration's script and images)
 * and the sources of secret values (a Pulumi config key or an environment variable). Both are found
 * through the kinds' declarations (`{file}` and `"secretSources"` spellings, marked `x-file` and
 * `x-secretSources` in the generated stack schema), never by field name.
 *
 * Files are checked by the loader, which knows where the stack file is (`docsplatform validate` and
 * the component both report a missing file). Secret sources are checked by the component only: the
 * loader is offline and has no Pulumi config. Both report `file:line:col` of the entry's value.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { DeclaredSources } from "./declared";
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
  secrets: boolean;
}

type SchemaNode = { $ref?: string; items?: SchemaNode; properties?: Record<string, SchemaNode>; "x-file"?: "text" | "base64"; "x-secretSources"?: boolean };

let marked: { list: string; fields: { as: string; file?: "text" | "base64"; secrets: boolean }[] }[] | undefined;

/**
 * The top-level lists whose entries have fields marked `x-file` or `x-secretSources` in the stack
 * schema (generated from the kinds' declarations), with those fields. Read from the schema, not the
 * kinds, so that the loader stays free of the provider's modules.
 */
function markedLists(): NonNullable<typeof marked> {
  if (marked) return marked;
  const schema = stackSchemaDocument() as SchemaNode & { definitions: Record<string, SchemaNode> };
  marked = [];
  for (const [list, node] of Object.entries(schema.properties ?? {})) {
    const ref = node.items?.$ref;
    const entry = ref?.startsWith("#/definitions/") ? schema.definitions[ref.slice("#/definitions/".length)] : undefined;
    const fields = Object.entries(entry?.properties ?? {})
      .filter(([, f]) => f["x-file"] !== undefined || f["x-secretSources"] === true)
      .map(([as, f]) => ({ as, ...(f["x-file"] ? { file: f["x-file"] } : {}), secrets: f["x-secretSources"] === true }));
    if (fields.length > 0) marked.push({ list, fields });
  }
  return marked;
}

/** Every value of the file that names a file or secret sources (guarded: the data may have failed the schema). */
function runtimeValues(stack: unknown): RuntimeValue[] {
  const out: RuntimeValue[] = [];
  if (stack === null || typeof stack !== "object") return out;
  for (const { list, fields } of markedLists()) {
    const entries = (stack as Record<string, unknown>)[list];
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, i) => {
      if (entry === null || typeof entry !== "object") return;
      for (const f of fields) {
        const value = (entry as Record<string, unknown>)[f.as];
        if (value === undefined || value === null) continue;
        out.push({ pointer: `/${list}/${i}/${f.as}`, value, ...(f.file ? { file: f.file } : {}), secrets: f.secrets });
      }
    });
  }
  return out;
}

/** A missing or unreadable file named by the stack file in `baseDir` (the stack file's folder). */
export function fileIssues(stack: unknown, baseDir: string): SourceIssue[] {
  const issues: SourceIssue[] = [];
  for (const v of runtimeValues(stack)) {
    if (!v.file) continue;
    const paths = Array.isArray(v.value) ? v.value.map((p, i) => [`${v.pointer}/${i}`, p] as const) : [[v.pointer, v.value] as const];
    for (const [pointer, p] of paths) {
      if (typeof p !== "string" || p === "") continue;
      let reason: string | undefined;
      try {
        if (!fs.statSync(path.resolve(baseDir, p)).isFile()) reason = `${JSON.stringify(p)} is not a file`;
      } catch {
        reason = `no file ${JSON.stringify(p)} next to the stack file (paths are relative to the stack file's folder)`;
      }
      if (reason) issues.push({ pointer, reason });
    }
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
 * The reader the component passes to `declaredInputs`: files relative to `baseDir`, secret sources
 * through `lookup`, the values wrapped by `secret` (the component's `pulumi.secret`). Sources were
 * checked first ({@link secretSourceIssues}), so an unset one here is a bug.
 */
export function runtimeSources(baseDir: string, lookup: SecretLookup, secret: (values: Record<string, string>) => unknown): DeclaredSources {
  return {
    file(p, how) {
      const bytes = fs.readFileSync(path.resolve(baseDir, p));
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
  };
}
