/**
 * The stack-file JSON Schema, compiled once per process, and the translation of ajv's errors into
 * sentences that name the field and the limit.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { default as Ajv, SchemaObject, ValidateFunction } from "ajv";
import { escapePointer, explain, propertiesOf, type SchemaIssue } from "../phrases";
import { KEY_PATTERN } from "../rules";
import { ajvWithLimits, compiledSchemas, loadPrecompiled, standaloneCode } from "../validators";

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

/** The texts of `limits.json` and `stack.schema.json`, read once. */
let texts: { limits: string; stack: string } | undefined;
function schemaTexts(): { limits: string; stack: string } {
  if (texts) return texts;
  const dir = schemasDir();
  texts = { limits: fs.readFileSync(path.join(dir, "limits.json"), "utf8"), stack: fs.readFileSync(path.join(dir, "stack.schema.json"), "utf8") };
  return texts;
}

/** A fingerprint of the schemas a precompiled validator was made from (it serves only these). */
function schemasHash(): string {
  const { limits, stack } = schemaTexts();
  return createHash("sha256").update(limits).update("\0").update(stack).digest("hex");
}

/**
 * An ajv instance with `limits.json` and the given schemas; `source` keeps the generated code, for
 * {@link precompiledValidators} (see validators.ts: a run with a precompiled validator never loads ajv).
 */
function newAjv(schemas: object[], source: boolean): Ajv {
  const ajv = ajvWithLimits(JSON.parse(schemaTexts().limits) as object, { strictTypes: false }, source ? { outDir: path.dirname(PRECOMPILED_FILE) } : false);
  // Annotations of the generated schema (see stackSchema.ts): for editors, the loader's cross-checks and
  // the values read when the program runs (x-file, x-secretSources; see sources.ts).
  ajv.addVocabulary(["markdownDescription", "x-naturalKey", "x-ref", "x-file", "x-secretSources", "x-secretSource", "x-because", "x-fileMaxJsonBytes"]);
  for (const schema of schemas) ajv.addSchema(schema);
  return ajv;
}

let document: SchemaObject | undefined;

/** The stack-file schema as a document (its annotations drive the cross-checks of `checks.ts`). */
export function stackSchemaDocument(): SchemaObject {
  document ??= JSON.parse(schemaTexts().stack) as SchemaObject;
  return document;
}

let compiled: ValidateFunction | undefined;

/** The whole-file validator (tests and tools; the loader validates in units); compiled on first use. */
export function stackValidator(): ValidateFunction {
  if (compiled) return compiled;
  const validate = newAjv([JSON.parse(schemaTexts().stack) as object], false).getSchema(STACK_SCHEMA_ID);
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
interface UnitLayout {
  /** Per unit (`""` for the top level, else a definition): property → definition of that list's items. */
  splits: Record<string, Record<string, string>>;
  /**
   * Per unit: where an item schema is left in the copy only as a type hint (it keeps `uniqueItems`
   * linear), as the `schemaPath` of its errors: those are the item's own, reported by the item's unit.
   */
  hints: Record<string, string[]>;
}

/** The unit schema and its layout, from the stack schema. */
function unitSchema(schema: SchemaObject): { schema: SchemaObject; layout: UnitLayout } {
  schema.$id = UNITS_SCHEMA_ID;
  const definitions = (schema.definitions ?? {}) as Record<string, SchemaObject>;
  const layout: UnitLayout = { splits: {}, hints: {} };
  const wholeOnly = referencedWhole(schema, definitions);
  const split = (name: string, owner: SchemaObject): void => {
    const props = propertiesOf(owner) as Record<string, SchemaObject>;
    const lists: Record<string, string> = {};
    for (const [prop, sub] of Object.entries(props)) {
      const target = localDefinition(sub.items);
      if (target === undefined || typeof definitions[target] !== "object" || wholeOnly.has(target)) continue;
      lists[prop] = target;
      // ajv checks uniqueItems in linear time only when it knows the items are scalars of one type.
      const type: unknown = definitions[target].type;
      const hint = sub.uniqueItems === true && typeof type === "string" && type !== "object" && type !== "array" ? { type } : undefined;
      if (hint) (layout.hints[name] ??= []).push(`#/properties/${prop}/items/type`);
      sub.items = hint ?? true;
    }
    if (Object.keys(lists).length > 0) layout.splits[name] = lists;
  };
  split("", schema);
  for (const [name, definition] of Object.entries(definitions)) split(name, definition);
  return { schema, layout };
}

/**
 * The definitions also referenced from inside another object (not only as the items of a list): those
 * are validated there, whole, and are no unit of their own.
 */
function referencedWhole(schema: SchemaObject, definitions: Record<string, SchemaObject>): Set<string> {
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
  return wholeOnly;
}

/** The units validated on their own: the top level and every definition some list splits off. */
function unitNames(layout: UnitLayout): string[] {
  return ["", ...new Set(Object.values(layout.splits).flatMap((lists) => Object.values(lists)))];
}

/** The unit schema's `$ref` of a unit. */
function unitRef(unit: string): string {
  return unit === "" ? UNITS_SCHEMA_ID : `${UNITS_SCHEMA_ID}#/definitions/${unit}`;
}

/** What the loader validates with: a validator per unit, and the layout. */
interface UnitValidators {
  validators: Map<string, ValidateFunction>;
  layout: UnitLayout;
  /** Made at build time (`npm run build`), or compiled by this process. */
  precompiled: boolean;
}

/** The file `npm run build` writes next to this module: the unit validators as ajv standalone code. */
export const PRECOMPILED_FILE = path.join(__dirname, "stackValidators.js");

/**
 * The source of the precompiled unit validators (ajv standalone code): one exported function per
 * unit, the layout, and the fingerprint of the schemas they were made from. `npm run build` writes it
 * to {@link PRECOMPILED_FILE} beside this module, so a run validates without compiling anything.
 */
export function precompiledValidators(): string {
  const { schema, layout } = unitSchema(JSON.parse(schemaTexts().stack) as SchemaObject);
  const ajv = newAjv([schema], true);
  const units = unitNames(layout);
  const exportsOf = Object.fromEntries(units.map((unit, i) => [`unit${i}`, unitRef(unit)]));
  const code = standaloneCode(ajv, exportsOf);
  const meta = { schemas: schemasHash(), units, layout };
  return `${code}\nexports.meta = ${JSON.stringify(meta)};\n`;
}

/** The precompiled validators beside this module, if they were made from the schemas there now. */
function precompiledUnits(): UnitValidators | undefined {
  type Made = Record<string, ValidateFunction> & { meta: { schemas: string; units: string[]; layout: UnitLayout } };
  const mod = loadPrecompiled<Made>(PRECOMPILED_FILE, (made) => made.meta.schemas === schemasHash());
  return mod && { validators: new Map(mod.meta.units.map((unit, i) => [unit, mod[`unit${i}`]!])), layout: mod.meta.layout, precompiled: true };
}

/** The unit validators compiled now (no precompiled file, or one made from other schemas). */
function compileUnits(): UnitValidators {
  const { schema, layout } = unitSchema(JSON.parse(schemaTexts().stack) as SchemaObject);
  const compiled = compiledSchemas(newAjv([schema], false), Object.fromEntries(unitNames(layout).map((unit) => [unit, unitRef(unit)])));
  return { validators: new Map(Object.entries(compiled)), layout, precompiled: false };
}

let units: UnitValidators | undefined;

function unitValidators(): UnitValidators {
  units ??= precompiledUnits() ?? compileUnits();
  return units;
}

/** Whether this process validates stack files with the validators precompiled at build time. */
export function validatesPrecompiled(): boolean {
  return unitValidators().precompiled;
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
  const { validators, layout } = unitValidators();
  const issues: SchemaIssue[] = [];
  const seen = new Set<string>();
  let total = 0;
  const pending: Unit[] = [{ definition: "", value: data, pointer: "" }];
  while (pending.length > 0) {
    const unit = pending.pop() as Unit;
    const validate = validators.get(unit.definition)!;
    if (!validate(unit.value)) {
      const hinted = layout.hints[unit.definition] ?? [];
      const errors = (validate.errors ?? []).filter((e) => !hinted.includes(e.schemaPath));
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
    // A stack: the last pushed is validated first, so push in reverse to keep document order.
    const children = childUnits(unit, layout.splits[unit.definition]);
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return { issues, total };
}

/** One object validated on its own: its unit, its value, its JSON pointer in the file. */
interface Unit {
  definition: string;
  value: unknown;
  pointer: string;
}

/** The items of the lists a unit splits off, each a unit of its own, in document order. */
function childUnits(unit: Unit, lists: Record<string, string> | undefined): Unit[] {
  const value = unit.value;
  if (lists === undefined || typeof value !== "object" || value === null || Array.isArray(value)) return [];
  const children: Unit[] = [];
  for (const [prop, items] of Object.entries(value as Record<string, unknown>)) {
    const definition = Object.hasOwn(lists, prop) ? lists[prop] : undefined;
    if (definition === undefined || !Array.isArray(items)) continue;
    const at = `${unit.pointer}/${escapePointer(prop)}`;
    items.forEach((item: unknown, i) => children.push({ definition, value: item, pointer: `${at}/${i}` }));
  }
  return children;
}

/** Validate a parsed stack file against the schema; one issue per distinct problem. */
export function schemaIssues(data: unknown): SchemaIssue[] {
  return schemaReport(data).issues;
}

/** Pattern of object keys, as in the schema's `definitions/key`. */
export { KEY_PATTERN };


export { closest, escapePointer, explain, kindOf, show, type SchemaIssue } from "../phrases";
