/**
 * The stack-file JSON Schema, compiled once per process, and the translation of ajv's errors into
 * sentences that name the field and the limit.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv, { type ErrorObject, type SchemaObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

/** `$id` of the stack-file schema. */
export const STACK_SCHEMA_ID = "https://docsplatform.dev/schemas/stack.schema.json";

/** A schema violation before it is given a position: where (JSON pointer), what, and whether it points at a key. */
export interface SchemaIssue {
  /** JSON pointer of the offending value (or of the property whose key is wrong). */
  pointer: string;
  /** Human sentence without the field path. */
  reason: string;
  /** Point at the mapping key rather than the value (unknown fields). */
  atKey: boolean;
}

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
  // Annotations of the generated schema (see stackSchema.ts): for editors and the loader's cross-checks.
  ajv.addVocabulary(["markdownDescription", "x-naturalKey", "x-ref"]);
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
export const KEY_PATTERN = "^[a-z0-9][a-z0-9_-]{0,62}$";

/** Human phrases for the patterns of the schemas, keyed by the pattern source. */
const PATTERN_PHRASES: Record<string, string> = {
  [KEY_PATTERN]:
    "must be a key: lowercase letters, digits, '-' and '_', starting with a letter or digit, at most 63 characters",
  "^[a-z0-9]+(?:-[a-z0-9]+)*$": "must be lowercase letters and digits in words joined by single hyphens, like my-api",
  "^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$":
    "must be a lowercase DNS name with at least three labels, like docs.example.com",
  "^[^/\\s]+(/[^/\\s]+)+$": "must be a host followed by one or more path segments, like example.com/docs",
  "^[^/?#\\s]+$": "must be a platform ID without '/', '?', '#' or spaces",
};

const FORMAT_PHRASES: Record<string, string> = {
  uri: "must be an absolute URI, like https://example.com/path",
  hostname: "must be a domain name, like example.com",
  email: "must be an e-mail address",
};

/** Turn ajv errors into issues: collapse the branches of `oneOf`, drop `if`, phrase each keyword. */
export function explain(errors: readonly ErrorObject[]): SchemaIssue[] {
  const unions = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    if (e.keyword === "oneOf" || e.keyword === "anyOf") {
      unions.set(e.instancePath, [...(unions.get(e.instancePath) ?? []), e]);
    }
  }
  // The nearest union at or above the error's path: O(depth), not O(unions), per error.
  const underUnion = (e: ErrorObject): string | undefined => {
    if (unions.size === 0) return undefined;
    for (let p = e.instancePath; ; p = p.slice(0, p.lastIndexOf("/"))) {
      if (unions.has(p)) return p;
      if (p === "") return undefined;
    }
  };

  const issues: SchemaIssue[] = [];
  const typeMisses = new Map<string, { expected: string[]; data: unknown }>();
  const explained = new Set<string>();
  for (const e of errors) {
    if (e.keyword === "if" || e.keyword === "oneOf" || e.keyword === "anyOf") continue;
    const union = underUnion(e);
    if (union !== undefined && e.keyword === "type" && e.instancePath === union) {
      // A branch of a union whose type does not fit the value: only worth saying if no branch fits.
      const miss = typeMisses.get(union) ?? { expected: [], data: e.data };
      miss.expected.push(...typeList(e.params.type));
      typeMisses.set(union, miss);
      continue;
    }
    if (union !== undefined) explained.add(union);
    issues.push(phrase(e));
  }
  for (const [pointer, miss] of typeMisses) {
    if (explained.has(pointer)) continue;
    issues.push({ pointer, reason: `must be ${describeTypes(miss.expected)} (got ${kindOf(miss.data)})`, atKey: false });
  }
  return dedupe(issues);
}

function phrase(e: ErrorObject): SchemaIssue {
  const at = (reason: string): SchemaIssue => ({ pointer: e.instancePath, reason, atKey: false });
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "type":
      return at(`must be ${describeTypes(typeList(params.type))} (got ${kindOf(e.data)})`);
    case "minLength": {
      const limit = Number(params.limit);
      if (limit === 1) return at("must not be empty");
      return at(`must be at least ${limit} characters (got ${charCount(e.data)})`);
    }
    case "maxLength":
      return at(`must be at most ${Number(params.limit)} characters (got ${charCount(e.data)})`);
    case "pattern": {
      const pattern = String(params.pattern);
      const sentence = PATTERN_PHRASES[pattern] ?? `must match the pattern ${pattern}`;
      return at(`${sentence} (got ${show(e.data)})`);
    }
    case "format": {
      const format = String(params.format);
      return at(`${FORMAT_PHRASES[format] ?? `must be a valid ${format}`} (got ${show(e.data)})`);
    }
    case "enum": {
      const allowed = (Array.isArray(e.schema) ? (e.schema as unknown[]) : []).map((v) => (v === null ? "null" : String(v)));
      return at(`must be one of ${allowed.join(", ")} (got ${show(e.data)})`);
    }
    case "const":
      return at(`must be ${show(params.allowedValue)} (got ${show(e.data)})`);
    case "required": {
      const missing = String(params.missingProperty);
      const when = e.schemaPath.endsWith("/then/required") ? " when adopt is true (it is the natural key adopt looks for)" : "";
      return { pointer: `${e.instancePath}/${escapePointer(missing)}`, reason: `is required${when}`, atKey: false };
    }
    case "additionalProperties": {
      const field = String(params.additionalProperty);
      const known = Object.keys(propertiesOf(e.parentSchema));
      const guess = closest(field, known);
      const hint = guess
        ? `; did you mean '${guess}'?`
        : known.length > 0
          ? `; allowed fields: ${known.join(", ")}`
          : "";
      return { pointer: `${e.instancePath}/${escapePointer(field)}`, reason: `unknown field${hint}`, atKey: true };
    }
    case "minItems":
      return at(`must have at least ${Number(params.limit)} item${Number(params.limit) === 1 ? "" : "s"} (got ${lengthOf(e.data)})`);
    case "maxItems":
      return at(`must have at most ${Number(params.limit)} items (got ${lengthOf(e.data)})`);
    case "uniqueItems": {
      const later = Math.max(Number(params.i), Number(params.j));
      const earlier = Math.min(Number(params.i), Number(params.j));
      return {
        pointer: `${e.instancePath}/${later}`,
        reason: `repeats item ${earlier} (${show(Array.isArray(e.data) ? e.data[later] : undefined)}); each value may appear once`,
        atKey: false,
      };
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return at(`${e.message ?? "is out of range"} (got ${show(e.data)})`);
    default:
      return at(e.message ?? `fails ${e.keyword}`);
  }
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  if (typeof schema === "object" && schema !== null && "properties" in schema) {
    const props = (schema as { properties: unknown }).properties;
    if (typeof props === "object" && props !== null) return props as Record<string, unknown>;
  }
  return {};
}

function typeList(t: unknown): string[] {
  return Array.isArray(t) ? t.map(String) : [String(t)];
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "true or false",
  object: "a mapping",
  array: "a list",
  null: "null",
};

function describeTypes(types: string[]): string {
  const names = [...new Set(types)].map((t) => TYPE_NAMES[t] ?? t);
  if (names.length <= 1) return names[0] ?? "a value";
  return `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** How a YAML author would name the kind of a value. */
export function kindOf(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "a list";
  switch (typeof v) {
    case "string":
      return "a string";
    case "number":
      return Number.isInteger(v) ? "an integer" : "a number";
    case "boolean":
      return "a boolean";
    case "object":
      return "a mapping";
    default:
      return typeof v;
  }
}

/** A short, quoted rendering of a value for messages. */
export function show(v: unknown): string {
  if (typeof v === "string") {
    const chars = [...v];
    return JSON.stringify(chars.length > 60 ? `${chars.slice(0, 57).join("")}...` : v);
  }
  if (v === undefined) return "nothing";
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

// ajv counts code points, so the "got" count must too.
function charCount(v: unknown): number {
  return typeof v === "string" ? [...v].length : 0;
}

function lengthOf(v: unknown): number {
  return Array.isArray(v) ? v.length : 0;
}

/** Escape one JSON pointer segment. */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function dedupe(issues: SchemaIssue[]): SchemaIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const id = `${i.pointer}\u0000${i.reason}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** The known name closest to a misspelt one, when it is close enough to be a likely typo. */
export function closest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const tolerance = word.length <= 4 ? 1 : word.length <= 8 ? 2 : 3;
  for (const candidate of known) {
    // The distance is at least the difference in length: a far longer word (a pasted paragraph) costs nothing.
    if (Math.abs(word.length - candidate.length) > tolerance) continue;
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= tolerance ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
