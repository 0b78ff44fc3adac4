/**
 * The stack-file JSON Schema, compiled once per process, and the translation of ajv's errors into
 * sentences that name the field and the limit.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv, { type SchemaObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { escapePointer, explain, propertiesOf, type SchemaIssue } from "../phrases";
import { KEY_PATTERN } from "../rules";

/** `$id` of the stack-file schema. */
export const STACK_SCHEMA_ID = "https://docsplatform.dev/schemas/stack.schema.json";


/** The folder holding `stack.schema.json` and `limits.json`, found from the source tree or from `dist/`. */
export function schemasDir(): string {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, "schemas");
    if (fs.existsSync(path.join(candidate, "stack.schema.json"))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error(`schemas/stack.schema.json not found above ${__dirname}`);
}

let compiled: ValidateFunction | undefined;
let instance: Ajv | undefined;

/** The one ajv instance: `limits.json`, the stack schema and its unit schema (see `unitValidators`). */
function schemaAjv(): Ajv {
  if (instance) return instance;
  const dir = schemasDir();
  const ajv = new Ajv({ allErrors: true, verbose: true, strictTypes: false });
  addFormats(ajv);
  // Annotations of the generated schema (see stackSchema.ts): for editors, the loader's cross-checks and
  // the values read when the program runs (x-file, x-secretSources; see sources.ts).
  ajv.addVocabulary(["markdownDescription", "x-naturalKey", "x-ref", "x-file", "x-secretSources"]);
  ajv.addSchema(JSON.parse(fs.readFileSync(path.join(dir, "limits.json"), "utf8")) as object);
  ajv.addSchema(JSON.parse(fs.readFileSync(path.join(dir, "stack.schema.json"), "utf8")) as object);
  instance = ajv;
  return ajv;
}

let document: SchemaObject | undefined;

/** The stack-file schema as a document (its annotations drive the cross-checks of `checks.ts`). */
export function stackSchemaDocument(): SchemaObject {
  document ??= JSON.parse(fs.readFileSync(path.join(schemasDir(), "stack.schema.json"), "utf8")) as SchemaObject;
  return document;
}

/** The compiled stack-file validator; compiled on first use and cached for the life of the process. */
export function stackValidator(): ValidateFunction {
  if (compiled) return compiled;
  const validate = schemaAjv().getSchema(STACK_SCHEMA_ID);
  if (!validate) throw new Error(`${STACK_SCHEMA_ID} did not compile`);
  compiled = validate;
  return compiled;
}

/** `$id` of the unit schema: the stack schema with the items of its lists of objects left to their own units. */
const UNITS_SCHEMA_ID = "https://docsplatform.dev/schemas/stack.units.schema.json";

/**
 * Validation in units. ajv with `allErrors` gathers the errors of a `$ref` callee by concatenating them
 * onto every error found so far, so one validation of a whole file costs O(errors²): 60,000 wrong list
 * items took 40 s. Here each item of a list of `$ref` objects (`sites`, `sections`, `siteSpaces`, ...)
 * is validated on its own against its definition, with its parent validated against a copy of the
 * parent's schema whose list keeps every keyword but `items`. The same keywords apply to the same
 * values, so the issues are the same; each validation only sees the errors of one object.
 */
interface UnitValidators {
  /** Validator of the top level, or of one definition, with its lists of objects split off. */
  validator(definition: string): ValidateFunction;
  /** Per definition (`""` for the top level): property → definition of that list's items. */
  splits: Map<string, Map<string, string>>;
  /** Item schemas left in the copies only as a type hint (they keep `uniqueItems` linear): their errors are the item's own. */
  hints: Set<object>;
}

let units: UnitValidators | undefined;

function unitValidators(): UnitValidators {
  if (units) return units;
  const ajv = schemaAjv();
  const schema = JSON.parse(fs.readFileSync(path.join(schemasDir(), "stack.schema.json"), "utf8")) as SchemaObject;
  schema.$id = UNITS_SCHEMA_ID;
  const definitions = (schema.definitions ?? {}) as Record<string, SchemaObject>;
  const splits = new Map<string, Map<string, string>>();
  const hints = new Set<object>();
  // A definition is a unit only if it is reached as a list item and nowhere else: a definition also
  // referenced from inside another object is validated there, whole.
  const listItems = new Set<object>();
  for (const owner of [schema, ...Object.values(definitions)]) {
    for (const sub of Object.values(propertiesOf(owner) as Record<string, SchemaObject>)) {
      if (localDefinition(sub.items) !== undefined) listItems.add(sub.items as object);
    }
  }
  const wholeOnly = new Set<string>();
  const findRefs = (node: unknown): void => {
    if (typeof node !== "object" || node === null) return;
    if (!listItems.has(node) && typeof (node as { $ref?: unknown }).$ref === "string") {
      const ref = (node as { $ref: string }).$ref;
      if (ref.startsWith("#/definitions/")) wholeOnly.add(ref.slice("#/definitions/".length));
    }
    for (const child of Object.values(node)) findRefs(child);
  };
  findRefs(schema);
  const split = (name: string, owner: SchemaObject): void => {
    const props = propertiesOf(owner) as Record<string, SchemaObject>;
    const lists = new Map<string, string>();
    for (const [prop, sub] of Object.entries(props)) {
      const target = localDefinition(sub.items);
      if (target === undefined || typeof definitions[target] !== "object" || wholeOnly.has(target)) continue;
      lists.set(prop, target);
      // ajv checks uniqueItems in linear time only when it knows the items are scalars of one type.
      const type: unknown = definitions[target].type;
      const hint = sub.uniqueItems === true && typeof type === "string" && type !== "object" && type !== "array" ? { type } : undefined;
      if (hint) hints.add(hint);
      sub.items = hint ?? true;
    }
    if (lists.size > 0) splits.set(name, lists);
  };
  split("", schema);
  for (const [name, definition] of Object.entries(definitions)) split(name, definition);
  ajv.addSchema(schema);
  const cache = new Map<string, ValidateFunction>();
  const validator = (definition: string): ValidateFunction => {
    let validate = cache.get(definition);
    if (!validate) {
      const ref = definition === "" ? UNITS_SCHEMA_ID : `${UNITS_SCHEMA_ID}#/definitions/${definition}`;
      validate = ajv.getSchema(ref);
      if (!validate) throw new Error(`${ref} did not compile`);
      cache.set(definition, validate);
    }
    return validate;
  };
  units = { validator, splits, hints };
  return units;
}

/** `name` when a schema is exactly `{"$ref": "#/definitions/<name>"}` (annotations aside). */
function localDefinition(items: unknown): string | undefined {
  if (typeof items !== "object" || items === null) return undefined;
  const { $ref, description, markdownDescription, ...rest } = items as Record<string, unknown>;
  void description;
  void markdownDescription;
  if (Object.keys(rest).length > 0 || typeof $ref !== "string" || !$ref.startsWith("#/definitions/")) return undefined;
  const name = $ref.slice("#/definitions/".length);
  return /^[A-Za-z0-9_-]+$/.test(name) ? name : undefined;
}

/** The first schema issues of a file, in document order, and how many there are in all. */
export interface SchemaReport {
  /** At most the `limit` asked for. */
  issues: SchemaIssue[];
  /** Every distinct issue, listed or not. */
  total: number;
}

/**
 * Validate a parsed stack file against the schema, in units of one object (see `UnitValidators`), in
 * document order. Issues past `limit` are counted, not kept. Time is linear in the size of the data.
 */
export function schemaReport(data: unknown, limit = Infinity): SchemaReport {
  const { validator, splits, hints } = unitValidators();
  const issues: SchemaIssue[] = [];
  const seen = new Set<string>();
  let total = 0;
  const pending: { definition: string; value: unknown; pointer: string }[] = [{ definition: "", value: data, pointer: "" }];
  while (pending.length > 0) {
    const unit = pending.pop() as { definition: string; value: unknown; pointer: string };
    const validate = validator(unit.definition);
    if (!validate(unit.value)) {
      const errors = (validate.errors ?? []).filter((e) => !(typeof e.parentSchema === "object" && hints.has(e.parentSchema)));
      for (const issue of explain(errors)) {
        const located = { ...issue, pointer: unit.pointer + issue.pointer };
        const id = `${located.pointer}\u0000${located.reason}`;
        if (seen.has(id)) continue;
        total++;
        if (issues.length < limit) {
          issues.push(located);
          seen.add(id);
        }
      }
    }
    const lists = splits.get(unit.definition);
    const value = unit.value;
    if (lists === undefined || typeof value !== "object" || value === null || Array.isArray(value)) continue;
    const children: { definition: string; value: unknown; pointer: string }[] = [];
    for (const [prop, items] of Object.entries(value as Record<string, unknown>)) {
      const definition = lists.get(prop);
      if (definition === undefined || !Array.isArray(items)) continue;
      const at = `${unit.pointer}/${escapePointer(prop)}`;
      items.forEach((item: unknown, i) => children.push({ definition, value: item, pointer: `${at}/${i}` }));
    }
    // A stack: the last pushed is validated first, so push in reverse to keep document order.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]);
  }
  return { issues, total };
}

/** Validate a parsed stack file against the schema; one issue per distinct problem. */
export function schemaIssues(data: unknown): SchemaIssue[] {
  return schemaReport(data).issues;
}

/** Pattern of object keys, as in the schema's `definitions/key`. */
export { KEY_PATTERN };


export { closest, escapePointer, explain, kindOf, show, type SchemaIssue } from "../phrases";
