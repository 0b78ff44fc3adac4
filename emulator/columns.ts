/**
 * A stored kind as a table of columns, one per field of its rows: the schema a request body gives the
 * field, what a row without a value means, and the name responses serve it under. The kind's table
 * drives its presenter (`served`) and, for a kind created and changed through a body, the body's schema
 * (`bodySchema`), the fields of a new row (`fromBody`) and a PATCH (`patchRow`): a field is added in
 * one row of the table (see tables.ts).
 */
import { applyPatch } from "./objects";
import { obj, type Schema } from "./schema";
import type { Json } from "./model";

/** One field of a stored kind. */
export interface Column {
  /** Its schema in request bodies; omitted: no body sets it (the emulator, or a route's own rule, does). */
  body?: Schema;
  /**
   * What a row without a value means (null, or absent on rows written before the field): what a POST
   * that leaves the field out stores, and what responses show; `null` there is left out of responses.
   * Omitted: a POST must give the field (when a body sets it), and responses show the value as stored.
   */
  empty?: Json;
  /** `null` is a value of its own (a guest's role): responses show it rather than leave the field out. */
  servesNull?: true;
  /** The name responses give it (default: its own); `false`: the presenter serves it in a form of its own, or not at all. */
  as?: string | false;
}

/** The columns of a kind whose rows are `R`, in the order responses list them. */
export type Columns<R> = { readonly [K in keyof R & string]?: Column };

/** Columns with no rule of their own: served as stored, under their own names (spread into a table, in its order). */
export function asStored<N extends string>(...names: N[]): { readonly [K in N]: Column } {
  return Object.fromEntries(names.map((name) => [name, {}])) as { readonly [K in N]: Column };
}

/** The names of the columns a body sets. */
type BodyNames<C> = { [K in keyof C]: C[K] extends { body: Schema } ? K : never }[keyof C];
/** The names of the columns a POST must give. */
type GivenNames<C> = { [K in keyof C]: C[K] extends { body: Schema } ? (C[K] extends { empty: unknown } ? never : K) : never }[keyof C];

/** A PATCH body of a kind: any of the fields a body sets. */
export type PatchBody<R, C> = { [K in BodyNames<C> & keyof R]?: R[K] };
/** A POST body of a kind: the fields a body sets, those without an empty value required. */
export type PostBody<R, C> = PatchBody<R, C> & { [K in GivenNames<C> & keyof R]: R[K] };

/** The stored fields of a row as responses show them: renamed, the empty value for none, `null` left out. */
export function served<R extends object>(columns: Columns<R>, row: R): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, column] of Object.entries(columns) as [string, Column][]) {
    if (column.as === false) continue;
    const stored = (row as Record<string, unknown>)[name];
    const value = "empty" in column ? (stored ?? column.empty) : stored;
    if (value === undefined || (value === null && "empty" in column && !column.servesNull)) continue;
    out[column.as ?? name] = structuredClone(value);
  }
  return out;
}

/** The properties of a kind's body: each column a body sets, with its schema. */
export function bodyProperties<R>(columns: Columns<R>): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const [name, column] of Object.entries(columns) as [string, Column][]) if (column.body !== undefined) out[name] = column.body;
  return out;
}

/** A POST body's schema: the kind's body properties and `extra`, those without an empty value required (with `required`). */
export function bodySchema<R>(columns: Columns<R>, extra: Record<string, Schema> = {}, required: string[] = []): Schema {
  const given = (Object.entries(columns) as [string, Column][]).filter(([, c]) => c.body !== undefined && !("empty" in c)).map(([name]) => name);
  return obj({ ...bodyProperties(columns), ...extra }, [...given, ...required]);
}

/** The fields a POST's body sets on a new row: each as given, or its empty value when the body leaves it out. */
export function fromBody<C extends Record<string, Column>, B extends object>(columns: C, body: B): { [K in keyof B & BodyNames<C>]-?: Exclude<B[K], undefined> } {
  const given = body as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, column] of Object.entries(columns)) {
    if (column.body !== undefined) out[name] = given[name] !== undefined ? given[name] : structuredClone(column.empty);
  }
  return out as { [K in keyof B & BodyNames<C>]-?: Exclude<B[K], undefined> };
}

/** Copies onto `row` each field a PATCH body sets; a field the body leaves out keeps its value. */
export function patchRow<R, C extends Columns<R>>(columns: C, row: R, body: PatchBody<R, C>): void {
  applyPatch(row, body as { [F in keyof R]?: R[F] }, Object.keys(bodyProperties(columns)) as (keyof R)[]);
}
