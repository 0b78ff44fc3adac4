/**
 * The stack file's JSON Schema, derived: the layout (`layout.json`: lists, keys, references,
 * structure) with each kind's entry filled in from the kind's one declaration (its fields' schemas,
 * descriptions with their absence rule, spelling, and the natural key adopt needs). The committed
 * `schemas/stack.schema.json` is this function's output; a test keeps the two equal, and
 * `npm run schemas` writes it again after a declaration changes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { absenceText, inputSchema, kindFileName, type AnyKind, type FieldSpec, type FileSpelling, type RefSpelling, type StackList } from "../resources/kind";
import { kinds, listedKinds } from "../resources/kinds";
import layout from "./layout.json";
import { KEY_PATTERN } from "../rules";
import { STACK_SCHEMA_ID } from "./schema";

type Schema = Record<string, unknown>;

/** The definition of the stack file's layout naming each list of references. */
const REF_DEFINITIONS: Record<RefSpelling["ref"], string> = {
  teams: "#/definitions/teamRef",
  collections: "#/definitions/collectionRef",
  spaces: "#/definitions/spaceRef",
  sites: "#/definitions/siteRef",
};

/** A field as the stack file spells it: its name there, or undefined when the component fills it in. */
export function stackName(name: string, spec: FieldSpec): string | undefined {
  if (spec.stack === "context") return undefined;
  if (spec.stack === "secretSources" || spec.stack === "secretSource" || (typeof spec.stack === "object" && !("as" in spec.stack))) return name;
  return spec.stack?.as ?? name;
}

/** The file spelling of a field, if the stack file gives it as paths of files. */
export function fileOf(spec: FieldSpec): FileSpelling | undefined {
  return typeof spec.stack === "object" && "file" in spec.stack ? spec.stack : undefined;
}

/** The reference a field is spelled as, if any. */
export function refOf(spec: FieldSpec): RefSpelling | undefined {
  return typeof spec.stack === "object" && "ref" in spec.stack ? spec.stack : undefined;
}

/** The fields of a kind the stack file spells, with their stack-file names, in declaration order. */
export function stackFields(kind: AnyKind): { name: string; as: string; spec: FieldSpec }[] {
  const out: { name: string; as: string; spec: FieldSpec }[] = [];
  for (const [name, spec] of Object.entries(kind.fields) as [string, FieldSpec][]) {
    const as = stackName(name, spec);
    if (as !== undefined) out.push({ name, as, spec });
  }
  return out;
}

/** The field of a kind adopt looks its objects up by (its natural key), as the stack file spells it. */
export function naturalField(kind: AnyKind): { name: string; as: string; spec: FieldSpec } | undefined {
  return kind.naturalKey ? stackFields(kind).find((f) => f.name === kind.naturalKey!.field) : undefined;
}

function fieldEntry(spec: FieldSpec): Schema {
  const ref = refOf(spec);
  const file = fileOf(spec);
  const secrets = spec.stack === "secretSources";
  const secret = spec.stack === "secretSource";
  // A path (or a list of paths) has the value's own shape and count limits: strings, at most N of them.
  const spelled = file
    ? ` In the stack file: the path of the file, relative to the stack file (a list of paths for a list), read when the program runs${file.file === "base64" ? " and sent as base64" : ""}.`
    : "";
  const sources = secrets ? " In the stack file: each name maps to where its value comes from, {config: <Pulumi config key>} (set with `pulumi config set --secret`) or {env: <environment variable>}, never to the value." : "";
  const source = secret ? " In the stack file: where the value comes from, {env: <environment variable>} or {config: <Pulumi config key>} (set with `pulumi config set --secret`), never the value itself." : "";
  const description = `${spec.doc}${spelled}${sources}${source} ${absenceText(spec)}`;
  const value: Schema = ref
    ? { $ref: REF_DEFINITIONS[ref.ref] }
    : secrets
      ? { type: "object", propertyNames: { $ref: "#/definitions/secretName" }, additionalProperties: { $ref: "#/definitions/secretSource" } }
      : secret
        ? { $ref: "#/definitions/secretSource" }
        : spec.schema;
  // `x-ref`: the list whose keys a reference names, for the loader's cross-checks. `x-file` / `x-secretSources`:
  // the value names files, or the sources of secrets, read when the program runs (see sources.ts).
  const annotation = ref
    ? { "x-ref": ref.ref }
    : file
      ? { "x-file": file.file, ...(file.maxJsonBytes === undefined ? {} : { "x-fileMaxJsonBytes": file.maxJsonBytes }) }
      : secrets
        ? { "x-secretSources": true }
        : secret
          ? { "x-secretSource": true }
          : {};
  if (spec.absent === "clear") return { anyOf: [value, { type: "null" }], description, ...annotation };
  return { ...value, description, ...annotation };
}

/** The stack-file entry of a kind: the layout's definition with the kind's fields after its key. */
function kindEntry(kind: AnyKind, definition: Schema): Schema {
  const { ["x-kind"]: _kind, properties = {}, required = [], ...rest } = definition as Schema & {
    properties?: Record<string, unknown>;
    required?: string[];
  };
  void _kind;
  const fields = stackFields(kind);
  const layoutProps = Object.entries(properties);
  const head = layoutProps.filter(([k]) => k === "key" || k === "previousKeys");
  const tail = layoutProps.filter(([k]) => k !== "key" && k !== "previousKeys");
  const props: Record<string, unknown> = Object.fromEntries([...head, ...fields.map((f) => [f.as, fieldEntry(f.spec)] as const), ...tail]);
  const requiredFields = fields.filter((f) => f.spec.required || f.spec.stackRequired).map((f) => f.as);
  const out: Schema = { ...rest, ...([...required, ...requiredFields].length > 0 ? { required: [...required, ...requiredFields] } : {}), properties: props };
  // Adopt looks an object up by its natural key: where that key is optional, adopt requires it.
  const natural = naturalField(kind);
  // `x-naturalKey`: the field adopt looks the object up by, and why a duplicate is refused where the API refuses it.
  if (natural) out["x-naturalKey"] = { field: natural.as, ...(kind.naturalKey!.enforced ? { enforced: kind.naturalKey!.enforced } : {}) };
  if (natural && !natural.spec.required && "adopt" in props) {
    // An entry with `url` among a site's sections is an external link, looked up by its title instead.
    out.if = { required: ["adopt"], properties: { adopt: { const: true } }, ...("url" in props ? { not: { required: ["url"] } } : {}) };
    out.then = { required: [natural.as] };
  }
  return out;
}

/** The kind a definition of the stack schema is the entry of. */
export function kindOfDefinition(definition: string): AnyKind | undefined {
  const listed = listedKinds().find((k) => k.list.definition === definition);
  if (listed) return listed;
  const name = (layout.definitions as Record<string, { "x-kind"?: string }>)[definition]?.["x-kind"];
  return name === undefined ? undefined : kinds.find((k) => k.name === name);
}

/** The layout's definition of a listed kind's entry: its key, former keys and `adopt` (the fields come from the kind). */
function listEntryLayout(kind: AnyKind & { list: StackList }): Schema {
  const natural = naturalField(kind);
  return {
    type: "object",
    additionalProperties: false,
    required: ["key"],
    description: `${kind.list.entryDoc}${natural ? ` Natural key for adopt: ${natural.as}.` : ""}`,
    properties: { key: { $ref: "#/definitions/key" }, previousKeys: { $ref: "#/definitions/previousKeys" }, adopt: { $ref: "#/definitions/adopt" } },
  };
}

/** The stack file's schema. */
export function stackSchema(): Schema {
  const { $comment: _comment, definitions, properties, ...top } = layout as Schema & { definitions: Record<string, Schema>; properties: Record<string, Schema> };
  void _comment;
  const listed = listedKinds();
  const defs: Record<string, Schema> = {};
  for (const [name, definition] of Object.entries(definitions)) {
    const kind = kindOfDefinition(name);
    defs[name] = kind ? kindEntry(kind, definition) : definition;
  }
  for (const kind of listed) defs[kind.list.definition] = kindEntry(kind, listEntryLayout(kind));
  defs.key = { ...defs.key, pattern: KEY_PATTERN };
  // Each listed kind's list where its declaration places it: after the property it names.
  const props = Object.entries(properties);
  for (const k of listed) {
    const at = props.findIndex(([name]) => name === k.list.after);
    if (at < 0) throw new Error(`internal error: ${k.name}'s list follows '${k.list.after}', which the stack file does not have`);
    props.splice(at + 1, 0, [k.list.property, { type: "array", description: k.list.doc, items: { $ref: `#/definitions/${k.list.definition}` } }]);
  }
  const { $schema, ...rest } = top;
  return { $schema, $id: STACK_SCHEMA_ID, ...rest, properties: Object.fromEntries(props), definitions: defs };
}

/** The generated reference of every kind's fields and their rules (`docs/reference.md`). */
export function referenceMarkdown(): string {
  const out: string[] = [
    "# Stack-file and kind reference",
    "",
    "Generated by `npm run schemas` from each kind's declaration (`provider/resources/<kind>.ts`); a test keeps it current.",
    "",
    "Every field of every kind, with what leaving it out means:",
    "",
    "- **cleared**: removing the line (or writing `null`) removes the value on the platform; a value set by hand is drift, shown by `pulumi refresh` and removed by the next `up`;",
    "- **reset**: removing the line resets the field to the API's default;",
    "- **not managed**: removing the line leaves the live value alone, and it is never drift (fields the API cannot remove, and those where a reset would surprise);",
    "- **context**: not written in the stack file; the component fills it in from where the entry is (its organisation, site, section) or from the structure (defaults, order, group membership).",
    "",
    "What the state keeps of each object: its ID, the fields the file manages (every field but a not-managed one the file leaves out; a value that is what leaving the field out means is not written, it reads back as that value) and the outputs listed under each kind. Nothing else of the live object: a refresh compares what is kept, so what the platform computes (timestamps, counts, processing states) never shows as a change.",
    "",
  ];
  const cell = (t: string): string => t.replace(/\|/g, "\\|").replace(/\n/g, " ");
  for (const kind of kinds as readonly AnyKind[]) {
    out.push(`## ${kind.name}`, "", kind.doc, "");
    if (kind.naturalKey) {
      const scope = { organization: "the organisation", site: "its site", level: "its level of the site (root or section)" }[kind.naturalKey.scope];
      const key = kind.naturalKey.compound ? kind.naturalKey.compound.words : `\`${kind.naturalKey.field}\``;
      out.push(`Natural key (what \`adopt\` looks up by): ${key}, unique in ${scope}${kind.naturalKey.enforced ? ` (the API refuses a duplicate: ${kind.naturalKey.enforced})` : ""}.`, "");
    }
    out.push("| input | in the stack file | when omitted | create-only | description |", "|---|---|---|---|---|");
    for (const [name, spec] of Object.entries(kind.fields) as [string, FieldSpec][]) {
      const ref = refOf(spec);
      const spelled = spec.stack === "context" ? "context" : `\`${stackName(name, spec)}\`${ref ? ` (a key of \`${ref.ref}\` or \`{id}\`)` : ""}`;
      const rule = spec.required ? "required" : spec.absent === "clear" ? "cleared" : spec.absent === "restore" ? "restored (to the value recorded when it first applied)" : typeof spec.absent === "object" ? `reset to \`${JSON.stringify(spec.absent.reset)}\`` : `not managed${"initial" in spec ? ` (new: \`${JSON.stringify(spec.initial)}\`)` : ""}`;
      out.push(`| \`${name}\` | ${spelled} | ${rule} | ${spec.createOnly ? "yes" : ""} | ${cell(spec.doc)} |`);
    }
    const outputs = [...(kind.outputs ?? []), ...(kind.secretOutputs ?? []).filter((o) => !kind.outputs?.includes(o))];
    const secret = new Set(kind.secretOutputs ?? []);
    out.push("", `Outputs (properties of the kind's class, kept in state whether or not the file sets them): ${outputs.length === 0 ? "none" : outputs.map((o) => `\`${o}\`${secret.has(o) ? " (secret)" : ""}`).join(", ")}.`);
    out.push("");
  }
  return out.join("\n");
}

/** The line every file `npm run schemas` writes carries, so that nobody edits one by hand. */
export const GENERATED_MARK = "generated by `npm run schemas` — do not edit";

/**
 * Every generated file, by its path in the repository: the stack file's and each kind's input schema under
 * `schemas/`, and the reference in `docs/`. Each carries {@link GENERATED_MARK}: a JSON file as its first property, `$comment`
 * (JSON Schema's keyword for notes that validators ignore), the Markdown as an HTML comment on its first line.
 */
export function generatedSchemas(): Map<string, string> {
  const files = new Map<string, string>();
  const text = (v: object): string => `${JSON.stringify({ $comment: GENERATED_MARK, ...v }, null, 2)}\n`;
  files.set("schemas/stack.schema.json", text(stackSchema()));
  files.set("docs/reference.md", `<!-- ${GENERATED_MARK} -->\n${referenceMarkdown()}`);
  for (const kind of kinds) files.set(`schemas/kinds/${kindFileName(kind.name)}.json`, text(inputSchema(kind)));
  return files;
}

/** The generated files under the repository root `dir` that are missing or differ from what the declarations generate (edited by hand, or stale). */
export function staleSchemas(dir: string): string[] {
  const stale: string[] = [];
  for (const [file, text] of generatedSchemas()) {
    const target = path.join(dir, file);
    if (!fs.existsSync(target) || fs.readFileSync(target, "utf8") !== text) stale.push(file);
  }
  return stale;
}

/** Writes the generated files under `dir` (the repository's root). */
export function writeSchemas(dir: string): string[] {
  const written: string[] = [];
  for (const [file, text] of generatedSchemas()) {
    const target = path.join(dir, file);
    if (fs.existsSync(target) && fs.readFileSync(target, "utf8") === text) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
    written.push(file);
  }
  return written;
}
