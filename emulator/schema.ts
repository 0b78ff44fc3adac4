/** The schema DSL routes declare their bodies and queries in: fragments validated with ajv against `schemas/limits.json`. */

/** A JSON Schema fragment (validated with ajv against `schemas/limits.json`). */
export type Schema = Record<string, unknown>;

const LIMITS = "https://docsplatform.dev/schemas/limits.json#/definitions/";

/** A reference to a definition of `schemas/limits.json`. */
export function limit(name: string): Schema {
  return { $ref: LIMITS + name };
}
/** The schema, or null. */
export function nullable(schema: Schema): Schema {
  return { anyOf: [schema, { type: "null" }] };
}
/** An object schema with the given properties and required names. */
export function obj(properties: Record<string, Schema>, required: string[] = []): Schema {
  return { type: "object", properties, required };
}
export const STRING: Schema = { type: "string" };
export const BOOLEAN: Schema = { type: "boolean" };
export const ID: Schema = limit("id");

/** The query of a list operation, plus extra parameters. */
export function listQuery(extra: Record<string, Schema> = {}): Schema {
  return obj({ page: { type: "string" }, limit: limit("limit"), ...extra });
}
