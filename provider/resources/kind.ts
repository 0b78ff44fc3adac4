import type { CustomResourceOptions, Input } from "@pulumi/pulumi";
import type { ApiClient } from "../client";
import { isNotFound } from "../client/errors";

/**
 * The contract every resource kind fills in. A kind module describes one declarative object of
 * the API (its inputs, outputs, schema and CRUD against the client); `makeProvider` in
 * `provider.ts` turns it into a Pulumi dynamic `ResourceProvider` with generic check, diff,
 * adopt, error and output handling.
 */

/** The string Pulumi sends for a value unknown during preview (a whole unknown object/array is this one string). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** What every kind method receives: the process-wide client for the configured API URL and token. */
export interface KindContext {
  /** Process-wide per base URL: one agent, one concurrency bound, one rate-limit state. */
  client: ApiClient;
  /**
   * Set by the framework while a create runs. A kind calls it as soon as the object exists (its
   * POST answered, or an existing object was taken over) with the outputs it has so far, and again
   * after each follow-up request that changes them. When create then fails (a follow-up PATCH,
   * move or default answered 409, 4xx, 5xx after retries, or timed out), the framework reports a
   * partial create with the last outputs given here: the engine keeps the object in state with the
   * error, the next update finishes it and destroy deletes it, so nothing is left orphaned.
   */
  created?(id: string, outs: object): void;
}

/**
 * A JSON Schema of one value (usually a `$ref` into `schemas/limits.json`, see {@link limit}). `T`, the
 * TypeScript type of the value, exists in the type only (the `~value` property is never set): a kind's input and
 * output types are derived from its field declarations through it ({@link InputsOf}, {@link StoredOf}).
 */
export type ValueSchema<T = unknown> = Record<string, unknown> & { readonly "~value"?: T };

/** `$id` of `schemas/limits.json`: the single source of the API's lengths, patterns and enums. */
export const LIMITS_ID = "https://docsplatform.dev/schemas/limits.json";

/** The schema of a value limited as `limits.json#/definitions/<name>` says; `T` is its type (a string unless said). */
export function limit<T = string>(name: string): ValueSchema<NoInfer<T>> {
  return { $ref: `${LIMITS_ID}#/definitions/${name}` };
}

/** The schema of `true` or `false`. */
export function boolean(): ValueSchema<boolean> {
  return { type: "boolean" };
}

/**
 * What leaving an optional field out of the declaration means, one rule per field:
 * - `"clear"`: the API can remove the value (`null` in its PATCH body). Absence (or `null`) removes it
 *   from the platform, and a value set by hand is drift that the next `up` removes.
 * - `{ reset: v }`: managed; absence resets the field to `v`, the value the API gives it when none is given.
 * - `"unmanaged"`: absence leaves the live value alone; it is never drift. For fields the API cannot
 *   remove, and where a reset would surprise (it would publish, replace or reopen something).
 * - `"restore"`: absence puts back the value the object had when the resource first applied (recorded
 *   then, because the platform does not publish its defaults); a value set by hand is drift. The kind
 *   stores `null` for a field whose live value is the recorded one.
 */
export type Absence = "clear" | { reset: unknown } | "unmanaged" | "restore";

/** A reference to another object of the stack file: its key, or `{id}` of an object outside the file. */
export interface RefSpelling {
  /** The list of the stack file whose keys it names. */
  ref: "teams" | "collections" | "spaces" | "sites";
  /** The stack file's name of the field, when it differs. */
  as?: string;
  /** The input value for the referenced ID (default: the ID itself). */
  wrap?: (id: string) => unknown;
  /** The referenced ID in an input or output value (the inverse of `wrap`). */
  unwrap?: (value: unknown) => string | null;
}

/**
 * A field whose value is the content of files: the stack file gives a path relative to itself (a list
 * of paths for an array field), and the component reads it at run time, as text or as base64.
 */
export interface FileSpelling {
  file: "text" | "base64";
  /** The stack file's name of the field, when it differs (an OpenAPI spec's `file` holds its `text`). */
  as?: string;
  /**
   * The most bytes the content may take once JSON-escaped, as it is sent inline in a request body: the
   * loader refuses a larger file (and an empty one) before any call.
   */
  maxJsonBytes?: number;
}

/**
 * How the stack file spells a field:
 * - omitted: the same name and value in the kind's entry of the stack file;
 * - `{as}`: the same value under another name;
 * - a {@link RefSpelling}: a reference by key or `{id}`;
 * - a {@link FileSpelling}: paths of files whose content is the value;
 * - `"secretSources"`: a map of names to where each value comes from (`{config}` or `{env}`), never a
 *   value; the component resolves them and passes the map as a secret;
 * - `"secretSource"`: one secret value, spelled as where it comes from (`{config}` or `{env}`), never the
 *   value; the component resolves it and passes it as a secret;
 * - `"context"`: not written in the stack file; the component fills it in from where the entry is
 *   (its organisation, site, section) or from the file's structure (defaults, order, membership).
 */
export type Spelling = { as: string } | RefSpelling | FileSpelling | "secretSources" | "secretSource" | "context";

/** Everything about one input field: its value, its rules and how the stack file spells it. */
export interface FieldSpec<T = unknown> {
  /** The value's schema; `check`, the kind's input schema and the stack-file schema derive from it. */
  schema: ValueSchema<T>;
  /** One sentence for editors and the reference; the absence rule is appended where it is generated. */
  doc: string;
  /** The field must be given. Every other field has an {@link Absence} rule. */
  required?: boolean;
  /** What absence means (required for every optional field). */
  absent?: Absence;
  /** For a field not managed when absent: what a new object has (documentation; export leaves such a value out). */
  initial?: unknown;
  /** A change replaces the object (the API cannot change it in place). */
  createOnly?: boolean;
  /**
   * Maps a value (declared input or stored output) to the form compared by diff, e.g. a
   * canonical JSON form where key order does not matter. Applied to both sides.
   */
  normalize?: (v: unknown) => unknown;
  /** How the stack file spells it (see {@link Spelling}); omitted: same name, same value. */
  stack?: Spelling;
  /** The stack file requires it although the API does not (a section's title). */
  stackRequired?: boolean;
  /**
   * The field was added after the kind's first release: state written before it has no value for
   * it, which is not a change (an upgrade must not show every existing object as changed).
   */
  addedLater?: boolean;
  /** The kind's update request (PATCH) sets it, under the same name: see {@link patchBody}. */
  patched?: boolean;
  /**
   * A setting of the provider, not of the platform (the lock-out guard's, a site space to take over):
   * never compared (its `normalize` maps every value to the same), and registered under its name with
   * {@link INTERNAL_INPUT_PREFIX} so that no preview shows it as a changed property.
   */
  internal?: boolean;
  /** How `tree` and `diff` show it (see {@link FieldShow}); omitted: shown by the structure it belongs to (a title, a path, a condition), or not at all. */
  show?: FieldShow;
}

/**
 * How `tree` and `diff` show a field of an object, which they walk from the kind's declaration: among
 * the facts on the object's line in `tree` (declared, or what its absence rule resets it to; a value
 * that is what a new object has reads as none), and as a change in `diff` (`agents excluded → included`).
 */
export interface FieldShow {
  /** Its name in a review: the words before its value in `tree` (unless `bare`), the name of its change in `diff`. */
  label: string;
  /** Its value in words; default: as the file writes it, a boolean as `yes`/`no` in `diff` and as the label or `not <label>` in `tree`. */
  words?: (value: never) => string;
  /** In `tree`, the words alone, without the label (`public (open and indexed)`). */
  bare?: boolean;
  /** Free text: quoted in both views, and dimmed in `tree` (a description). */
  quoted?: boolean;
  /** In `tree`, left out at these words (adaptive content `off`). */
  quiet?: string;
  /** In `tree`, on the line under the object's facts rather than among them (a site's adaptive content, beside its visitor claims). */
  apart?: boolean;
  /** In `diff`, what readers notice of a change from one value's words to another's (`the site goes live`). */
  means?: (from: string | undefined, to: string | undefined) => string | undefined;
}

/**
 * The prefix under which an internal field is registered: the Pulumi CLI leaves a property whose name
 * starts with `__` out of every diff it shows (as it does the dynamic provider's `__provider`), so a
 * guard setting that changed (a line moved) never shows beside the change it rides along with.
 */
export const INTERNAL_INPUT_PREFIX = "__";

/** The inputs as a kind's class registers them: each internal field under its `__` name. */
export function registeredInputs(fields: Record<string, FieldSpec>, props: Record<string, unknown>): Record<string, unknown> {
  const out = { ...props };
  for (const [name, spec] of Object.entries(fields)) {
    if (!spec.internal || !(name in out)) continue;
    out[`${INTERNAL_INPUT_PREFIX}${name}`] = out[name];
    delete out[name];
  }
  return out;
}

/** Registered inputs as the kind declares them: each internal field back under its own name (a state written before the prefix has it there already). */
export function declaredInputs<T extends object>(fields: Record<string, FieldSpec>, values: T): T {
  const out = { ...values } as Record<string, unknown>;
  for (const [name, spec] of Object.entries(fields)) {
    const registered = `${INTERNAL_INPUT_PREFIX}${name}`;
    if (!spec.internal || !(registered in out)) continue;
    out[name] = out[registered];
    delete out[registered];
  }
  return out as T;
}

/** The TypeScript type of a declared field's value. */
export type ValueOf<F> = F extends { schema: ValueSchema<infer T> } ? T : never;

/** The names of the declared fields that must be given. */
type RequiredNames<Fs> = { [K in keyof Fs]: Fs[K] extends { required: true } ? K : never }[keyof Fs];

/** `null` where the field's absence clears it (a declaration may say `null` for the same). */
type ClearedBy<F> = F extends { absent: "clear" } ? null : F extends { absent: { reset: null } } ? null : never;

/** An intersection of object types, shown as one. */
type Flat<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A kind's inputs, derived from its field declarations: a required field is its value, every other
 * field optional (and `null` allowed where its absence clears it). The declaration is the one place
 * the fields are spelled; the type follows it.
 */
export type InputsOf<Fs> = Flat<
  { [K in RequiredNames<Fs>]: ValueOf<Fs[K]> } & { [K in Exclude<keyof Fs, RequiredNames<Fs>>]?: ValueOf<Fs[K]> | ClearedBy<Fs[K]> }
>;

/**
 * The declared fields as a kind's outputs store them: every field present, `null` where absence clears
 * it (a live value that was never set). A kind's outputs are these and what the API adds.
 */
export type StoredOf<Fs> = Flat<{ [K in keyof Fs]: ValueOf<Fs[K]> | ClearedBy<Fs[K]> }>;

/**
 * The declared fields as the API reports a live object: every field present, `null` where the API says
 * nothing (a kind intersects it with the fields always present, e.g. `{ title: string }`).
 */
export type LiveOf<Fs> = Flat<{ [K in keyof Fs]: ValueOf<Fs[K]> | null }>;

/** A value as the API reports it: `null` where the API says nothing. */
export type Reported<V> = undefined extends V ? Exclude<V, undefined> | null : V;

/**
 * The fields `names` of a live object as a kind's outputs keep them, under the same names: `null`
 * where the API says nothing (outputs never carry `undefined`).
 */
export function reported<A extends object, N extends keyof A & string>(live: A, names: readonly N[]): { [K in N]: Reported<A[K]> } {
  const out: Record<string, unknown> = {};
  for (const name of names) out[name] = live[name] ?? null;
  return out as { [K in N]: Reported<A[K]> };
}

/** The fields a kind's update request sets (`patched` in the declaration), in declaration order. */
export function patchedFields(fields: Record<string, FieldSpec>): string[] {
  return Object.keys(fields).filter((name) => fields[name]!.patched === true);
}

/**
 * The update request's body: the declared values of the patched fields among `names` (the changed ones,
 * say), `null` kept (a cleared field). Kinds whose request is not one field per input keep their own.
 */
export function patchBody<B>(fields: Record<string, FieldSpec>, inputs: object, names: readonly string[]): B {
  return declaredAmong<B>(inputs, patchedFields(fields), names);
}

/** The organisation an object belongs to: every kind's first field, filled in from the stack file's `organization`. */
export const ORGANIZATION_FIELD = {
  schema: limit("id"),
  doc: "ID of the organisation.",
  required: true,
  createOnly: true,
  stack: "context",
} as const satisfies FieldSpec;

/** The site an object of a site's structure belongs to, filled in from the enclosing site. */
export const SITE_FIELD = {
  schema: limit("id"),
  doc: "ID of the site.",
  required: true,
  createOnly: true,
  stack: "context",
} as const satisfies FieldSpec;

/** Where a natural key is unique, and whether the API itself refuses a duplicate. */
export interface NaturalKey<F extends string = string> {
  /** The input adopt looks the object up by. */
  field: F;
  /** `level`: one level (root or section) of one site. */
  scope: "organization" | "site" | "level";
  /** Set when the API refuses a second object with the same key: the reason a duplicate in the file is an error. */
  enforced?: string;
  /**
   * Where `field` alone does not name one object: the whole key from an object's inputs (a stack-file
   * entry spells them alike), compared offline and named in adoption messages, and what else it is
   * made of, in words. The kind's `adopt` matches by it.
   */
  compound?: { of(values: Readonly<Record<string, unknown>>): string | undefined; words: string };
}

/** The value a declaration stands for: what was declared, or what its absence means (`undefined`: not managed). */
export function desiredValue(spec: FieldSpec, declared: unknown): unknown {
  if (declared !== undefined) return declared;
  const rule = spec.absent;
  if (rule === "clear" || rule === "restore") return null;
  if (typeof rule === "object") return rule.reset;
  return undefined;
}

/** True when a live value is what the field's absence stands for (export leaves such a field out). */
export function isAbsentValue(spec: FieldSpec, live: unknown): boolean {
  const rule = spec.absent;
  const same = (a: unknown, b: unknown): boolean => {
    const norm = spec.normalize ?? ((v: unknown) => v);
    return JSON.stringify(norm(a ?? null) ?? null) === JSON.stringify(norm(b ?? null) ?? null);
  };
  if (rule === "clear" || rule === "restore") return live === null || live === undefined;
  if (typeof rule === "object") return same(live, rule.reset);
  return "initial" in spec && same(live, spec.initial);
}

/** A field's rule in words: the line the schema descriptions and the reference carry. */
export function absenceText(spec: FieldSpec): string {
  if (spec.required) return "Required.";
  const rule = spec.absent;
  if (rule === "clear") return "Omitted or null: removed from the platform (a value set by hand is drift).";
  if (rule === "restore") return "Omitted: back to the value recorded when the block first applied (a value set by hand is drift).";
  if (typeof rule === "object") return `Omitted: reset to the API's default, ${JSON.stringify(rule.reset)}.`;
  const initial = "initial" in spec ? ` A new object gets ${JSON.stringify(spec.initial)}.` : "";
  return `Omitted: not managed (the live value is kept and never shown as drift).${initial}`;
}

/** A kind's module and schema file name: `Site` → `site`, `OpenAPISpec` → `openApiSpec`. */
export function kindFileName(kindName: string): string {
  const name = kindName.replace(/API/g, "Api");
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** The kind's input schema, used by `check`: derived from its fields, plus `adopt`. */
export function inputSchema(kind: { name: string; doc?: string; fields: Record<string, FieldSpec>; definitions?: Record<string, object> }): object {
  const properties: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(kind.fields)) properties[name] = fieldSchema(spec);
  properties.adopt = { type: "boolean", description: "Take over an existing object found by the natural key instead of creating one." };
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: `https://docsplatform.dev/schemas/kinds/${kindFileName(kind.name)}.json`,
    title: kind.name,
    ...(kind.doc === undefined ? {} : { description: kind.doc }),
    type: "object",
    additionalProperties: false,
    required: Object.entries(kind.fields)
      .filter(([, spec]) => spec.required)
      .map(([name]) => name),
    properties,
    ...(kind.definitions === undefined ? {} : { definitions: kind.definitions }),
  };
}

/** `null` is accepted where it means the same as absence. */
function acceptsNull(spec: FieldSpec): boolean {
  return spec.absent === "clear" || (typeof spec.absent === "object" && spec.absent.reset === null);
}

/** One field's schema with its description: `null` accepted where absence clears. */
export function fieldSchema(spec: FieldSpec, description = `${spec.doc} ${absenceText(spec)}`): Record<string, unknown> {
  if (acceptsNull(spec)) return { anyOf: [spec.schema, { type: "null" }], description };
  return { ...spec.schema, description };
}

/** Inputs every kind accepts besides its own: `adopt` takes over an existing object by its natural key. */
export interface AdoptInput {
  /** Take over an existing object found by the kind's natural key instead of creating a second one. */
  adopt?: boolean;
}

/**
 * How the stack file lists a kind whose objects are plain keyed entries of the organisation (no
 * structure of their own): one top-level list, each entry its `key`, `previousKeys`, the kind's fields
 * as the stack file spells them, and `adopt`. The stack schema's list and entry, the model's type, the
 * component's resources, `validate`'s summary, `diff` and export derive from it; kinds with structure
 * (sites, teams with members, collections, spaces) are laid out in provider/stack/layout.json instead.
 */
export interface StackList {
  /** The stack file's property holding the list (`translations`). */
  property: string;
  /** The top-level property the list follows in the stack file (and in an exported file). */
  after: string;
  /** The stack schema's definition of one entry (`translation`). */
  definition: string;
  /** Short name: the key export gives an entry whose natural key spells none. */
  name: string;
  /** The output export makes an entry's key from, where the natural key is an ID (a style guide's title); default: the natural key. */
  keyFrom?: string;
  /** The list's description in the stack schema. */
  doc: string;
  /** One entry's description in the stack schema (the natural key is appended). */
  entryDoc: string;
  /** Fields (as the stack file spells them) of which an entry gives exactly one: the loader refuses none or both. */
  exactlyOne?: readonly [string, string];
  /** Its entries refer to sites of the file: the component declares them after the sites. */
  afterSites?: boolean;
  /**
   * Export: the organisation's live objects, each as the kind's `outputsOf` takes it. `tick` counts
   * the objects of each further read.
   */
  readAll(client: ApiClient, organizationId: string, tick: (objects: number) => void): Promise<object[]>;
}

/** Structural equality of JSON values; object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(rb, k) && jsonEqual(ra[k], rb[k]));
}

/**
 * Whether a kind's create makes an object of its own, with a new ID, which a create may also find and take
 * over by its natural key. A kind keyed by the object it configures (`siteId`, `spaceId`, `userId`, …), or
 * by none (a site's look, adaptive schema, visitor auth, structure order, permissions), makes nothing new:
 * its create converges, and its ID is often the configured object's (a site's), which its create did not make.
 */
export function makesObjects(kind: { naturalKey?: { field: string } }): boolean {
  return kind.naturalKey !== undefined && !/Id$/.test(kind.naturalKey.field);
}

/**
 * The reserved input under which the component gives a resource the last run did not hold the IDs its
 * siblings of the same kind held (classes/held.ts): a create never takes one of those over by its natural key.
 */
export const HELD_INPUT = "__held";

/**
 * What the state keeps of a kind's outputs: the declared fields the file manages (required ones, those
 * whose absence clears, resets or restores, those that cannot change in place or came after the first
 * release, and the others where declared: `declared(name)`; a value that is what the field's absence means
 * is left out, see {@link storedValue}), the kind's
 * {@link KindDefinition.outputs} and its secret outputs. The live value of a field left unmanaged is not
 * kept: no diff reads it, and a change by hand would show in every refresh. Export reads live objects
 * through `outputsOf`, which keeps everything.
 */
export function storedOutputs<O extends object>(
  kind: { fields: Record<string, FieldSpec>; outputs?: readonly string[]; secretOutputs?: readonly string[] },
  outs: O,
  declared: (name: string) => boolean,
): O {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(outs)) {
    if (!isStored(kind, name, declared)) continue;
    // A field whose live value is what its absence means is left out: read back as that value (storedValue).
    const spec = kind.fields[name];
    if (spec !== undefined && !spec.required && !spec.addedLater && isAbsenceValue(spec, value)) continue;
    kept[name] = value;
  }
  return kept as O;
}

/** The value a field's absence from the file stands for, as stored: `null` where absence does not reset it to a value. */
function absenceValue(spec: FieldSpec): unknown {
  return desiredValue(spec, undefined) ?? null;
}

/** Whether `value` is what the field's absence stands for ({@link absenceValue}), compared in the field's normal form. */
function isAbsenceValue(spec: FieldSpec, value: unknown): boolean {
  const norm = spec.normalize ?? ((v: unknown) => v);
  return jsonEqual(norm(value ?? null) ?? null, norm(absenceValue(spec)) ?? null);
}

/**
 * The stored outputs as a kind's read, update and delete take them: each managed field left out (its
 * value what its absence means, see {@link storedOutputs}) given that value again.
 */
export function expandedOutputs<O extends object>(kind: { fields: Record<string, FieldSpec> }, outs: O): O {
  const out: Record<string, unknown> = { ...(outs as Record<string, unknown>) };
  for (const [name, spec] of Object.entries(kind.fields)) {
    if (Object.prototype.hasOwnProperty.call(out, name) || spec.required || spec.addedLater || spec.absent === undefined || spec.absent === "unmanaged") continue;
    out[name] = absenceValue(spec);
  }
  return out as O;
}

/**
 * A field's stored value in a kind's outputs: the value kept, or, where none is kept, what its absence
 * stands for ({@link storedOutputs} leaves such a value out). A field added after the first release has no
 * value in a state from before it: undefined.
 */
export function storedValue(spec: FieldSpec, outs: object, name: string): unknown {
  const o = outs as Record<string, unknown>;
  if (Object.prototype.hasOwnProperty.call(o, name)) return o[name] ?? null;
  return spec.addedLater ? undefined : absenceValue(spec);
}

/** Whether the state keeps output `name` of a kind ({@link storedOutputs}). */
export function isStored(kind: { fields: Record<string, FieldSpec>; outputs?: readonly string[]; secretOutputs?: readonly string[] }, name: string, declared: (name: string) => boolean): boolean {
  if (kind.outputs?.includes(name) || kind.secretOutputs?.includes(name)) return true;
  const spec = kind.fields[name] ?? (name.startsWith(INTERNAL_INPUT_PREFIX) ? kind.fields[name.slice(INTERNAL_INPUT_PREFIX.length)] : undefined);
  if (spec === undefined) return false;
  // Kept always: a field that cannot change in place (declaring it later compares with the live value instead of
  // replacing), and one added after the first release (its absence from the state means a state from before it).
  if (spec.required === true || spec.createOnly === true || spec.addedLater === true) return true;
  return (spec.absent !== undefined && spec.absent !== "unmanaged") || declared(name);
}

/** A created or adopted object: its ID and its outputs. */
export interface Created<O> {
  id: string;
  outs: O;
}

/** One resource kind: its name, input schema, fields and CRUD against the API. */
export interface KindDefinition<I extends object, O extends object> {
  /** "Site" → type token `pulumi-nodejs:dynamic/docsplatform:Site`. */
  name: string;
  /** One sentence saying what the object is. */
  doc: string;
  /**
   * What one object of the kind that a stack file declares is called, and several, in `validate`'s and
   * export's summaries and in `diff`; for a kind that holds a set, one member of the set (a redirect, a grant).
   */
  noun: { one: string; many: string };
  /** Schemas the fields' schemas refer to as `#/definitions/<name>`. */
  definitions?: Record<string, object>;
  /** Every input with its rules: the one declaration `check`, diff, the stack file, the component and export derive from. */
  fields: { [K in keyof I & string]-?: FieldSpec };
  /**
   * The outputs the kind's class exposes besides the args it is given: each becomes an Output property
   * of the class (see {@link withOutputSlots}); every output is typed on the class from `O`. With the
   * managed fields and the secret outputs, they are all the state keeps of an object ({@link storedOutputs}):
   * IDs and URLs users and dependents read, and what update, delete or a restore rule needs. Nothing the
   * platform computes that no one reads (timestamps, counts, processing states): it would make the state
   * bigger and show as a change in every refresh.
   */
  outputs?: readonly (keyof O & string)[];
  /** The kind's top-level list in the stack file, for a kind without structure of its own. */
  list?: StackList;
  /**
   * A plan the kind refuses before any write, from the previous declaration (`olds`, empty on create)
   * and this one: each problem with the input it is about. Called by check once the inputs are valid;
   * where the declarations cannot tell, it may read the live object through `context`.
   */
  refuse?(olds: Partial<I>, news: I, context: () => Promise<KindContext>): { property: string; reason: string }[] | Promise<{ property: string; reason: string }[]>;
  /** Outputs holding secrets → `additionalSecretOutputs` of the class. */
  secretOutputs?: string[];
  /**
   * Drift of a field in words of the kind's own (one warning each), where "field is X on the platform,
   * Y in the file" would not say it (objects made by hand in a list); undefined: the usual words.
   * `where`: the stored outputs and the declaration, merged.
   */
  driftWords?(field: string, live: unknown, where: Record<string, unknown>): string[] | undefined;
  /** Replacement deletes the old object first (a new one would collide with it, e.g. on a unique path). */
  deleteBeforeReplace?: boolean;
  /**
   * Whether an object declared with these inputs stays when its declaration goes (its content is people's
   * work): the component then declares its resource with Pulumi's `retainOnDelete`, so the engine's preview
   * shows the delete as `delete[retain]`, and neither removing the entry nor `pulumi destroy` calls
   * `delete`; the object leaves the state. Read before registration, from the values the file declares.
   */
  retainedOnDelete?(inputs: Partial<ResourceArgs<I>>): boolean;
  /** Which input adopt looks the object up by, and where it is unique. */
  naturalKey?: NaturalKey<keyof I & string>;
  /**
   * One POST (plus the PATCH the API needs for fields only settable after creation). Calls
   * `ctx.created` once the object exists, before any follow-up request.
   */
  create(ctx: KindContext, inputs: I): Promise<Created<O>>;
  /** The live object; undefined = gone (only on 404 / absent from its list). */
  read(ctx: KindContext, id: string, state: O): Promise<O | undefined>;
  /** One PATCH/PUT with only the `changed` fields (declared fields whose value differs). */
  update(ctx: KindContext, id: string, olds: O, news: I, changed: string[]): Promise<O>;
  /**
   * The outputs for a live object as the API answers it (`where`: the organisation, and the site of a
   * site's object). Export reads live objects back into stack-file entries through these.
   */
  outputsOf?(live: never, where: { organizationId: string; siteId: string }): O;
  /** Removes the object; a 404 is caught by the framework and counts as done. */
  delete(ctx: KindContext, id: string, olds: O): Promise<void>;
  /** Natural-key lookup, used for `adopt: true` and for creates whose outcome is unknown (unless `recover` is given). */
  adopt?(ctx: KindContext, inputs: I): Promise<Created<O> | undefined>;
  /**
   * Finds the object a create whose outcome is unknown made, by what its POST itself set. Needed
   * when the natural key is only set by a follow-up request (a section's declared path): the POST
   * may have committed while the follow-up never ran, so a lookup by the declared key misses it.
   * Undefined = the create made nothing. Default: `adopt`.
   */
  recover?(ctx: KindContext, inputs: I): Promise<Created<O> | undefined>;
  /**
   * Whether a live object, found at the declared level with the declared key or (that key not yet
   * taken) by what the first request sets, is as that request alone leaves it for these inputs: a
   * create of this shape that died before its follow-up request (only what that request sets differs,
   * and the path is still the one the platform derived). Only kinds whose key is set by a follow-up.
   */
  asPosted?(outs: O, inputs: I): boolean;
}

/**
 * Whether `path` is the one the platform derives from `title` for a new object: lowercase, accents
 * dropped, each run of other characters than a–z and 0–9 one `-`, none at either end; with a `-2`,
 * `-3`… when that path was taken. A long title (whose derived path is cut short) never matches.
 */
export function isDerivedPath(path: string | null | undefined, title: string | null | undefined): boolean {
  if (typeof path !== "string" || typeof title !== "string") return false;
  const base = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "")
    .join("-");
  if (base === "") return false;
  const suffix = path.startsWith(`${base}-`) ? path.slice(base.length + 1) : "";
  return path === base || (/^\d+$/.test(suffix) && Number(suffix) >= 2);
}

/** A kind with its types erased, as held by the one list of kinds. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- variance: a list of kinds with different I/O
export type AnyKind = KindDefinition<any, any>;

/** True when `v` is, or contains, a preview-unknown value. */
export function containsUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (v !== null && typeof v === "object") return Object.values(v).some(containsUnknown);
  return false;
}

/** The constructor arguments of a kind's class: every input may be a Pulumi Input, plus `adopt`. */
export type ResourceArgs<I extends object> = { [K in keyof I]: Input<I[K]> } & { adopt?: Input<boolean> };

/** The resource option that keeps an object its declaration no longer names, when its kind says so for these inputs. */
export function retention<I extends object>(kind: { retainedOnDelete?(inputs: Partial<ResourceArgs<I>>): boolean }, inputs: Partial<ResourceArgs<I>>): CustomResourceOptions {
  return kind.retainedOnDelete?.(inputs) === true ? { retainOnDelete: true } : {};
}

/** Resource options of a kind's class: the kind's secret outputs added to `additionalSecretOutputs`. */
export function kindOptions(kind: { name: string; secretOutputs?: readonly string[] }, opts: CustomResourceOptions | undefined): CustomResourceOptions {
  const secrets = kind.secretOutputs ?? [];
  if (secrets.length === 0) return opts ?? {};
  return { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets] };
}

/**
 * The props a kind's class passes to `dynamic.Resource`: its args plus an `undefined` slot for
 * every other output it exposes. The SDK creates an Output property for each key (resolved from
 * what the provider returns); an `undefined` slot is not sent, so it is never a declared input.
 */
export function withOutputSlots<A extends object>(args: A, outputs: readonly string[]): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const k of outputs) props[k] = undefined;
  return { ...props, ...args };
}

/** The value of `read()`, or undefined when it fails with 404 (the object is gone). */
export async function orGone<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/**
 * The one object among `matches` that adopt takes over, or undefined when there is none. Two or
 * more is an error: `${kindName}: ${n} ${what}; adopt needs exactly one (${remedy})`, where the
 * remedy by default names the matches' IDs.
 */
export function exactlyOne<T extends { id: string }>(kindName: string, what: string, matches: readonly T[], remedy?: string): T | undefined {
  if (matches.length > 1) {
    throw new Error(`${kindName}: ${matches.length} ${what}; adopt needs exactly one (${remedy ?? `ids: ${matches.map((m) => m.id).join(", ")}`})`);
  }
  return matches[0];
}

/**
 * The declared values of `fields` among `names` (a request body of the changed fields, say); a field
 * not declared is left out, and `null` (a cleared field) is kept.
 */
export function declaredAmong<B>(inputs: object, fields: readonly string[], names: readonly string[] = fields): B {
  const out: Record<string, unknown> = {};
  const values = inputs as Record<string, unknown>;
  for (const f of fields) if (names.includes(f) && values[f] !== undefined) out[f] = values[f];
  return out as B;
}

/** The one object adopt takes over among those listed: the one whose `key` is the declared value (see `exactlyOne`). */
export async function adoptOne<A extends { id: string }, O>(kindName: string, what: string, listed: Promise<readonly A[]>, matches: (a: A) => boolean, toOutputs: (a: A) => O): Promise<Created<O> | undefined> {
  const found = exactlyOne(kindName, what, (await listed).filter(matches));
  return found ? { id: found.id, outs: toOutputs(found) } : undefined;
}
