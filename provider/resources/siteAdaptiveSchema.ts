import type { AdaptiveJsonSchema } from "../client";
import { type FieldSpec, type InputsOf, type KindDefinition, type ResourceArgs, type StoredOf, type ValueSchema, orGone, ORGANIZATION_FIELD, SITE_FIELD } from "./kind";
import { jsonEqual, makeProvider } from "./provider";

/** The description the platform fixes for the `unsigned` member of a site's schema. */
export const UNSIGNED_DESCRIPTION = "Unsigned claims of the site visitor.";

/**
 * The schema as the platform requires it: the `unsigned` member with its fixed description and
 * `additionalProperties: false`, and the schema's own `additionalProperties: false`, each filled in
 * where the declaration leaves it out (a different description is refused by the check, located in the
 * stack file). Sent on every write and compared in this form, so a declaration that leaves them out
 * shows no drift against the platform's answer.
 */
export function platformForm(schema: AdaptiveJsonSchema): AdaptiveJsonSchema {
  const properties = { ...(schema.properties ?? {}) };
  const unsigned = properties["unsigned"];
  if (unsigned !== null && typeof unsigned === "object" && !Array.isArray(unsigned)) {
    properties["unsigned"] = { ...unsigned, description: UNSIGNED_DESCRIPTION, additionalProperties: false };
  }
  return { ...schema, properties, additionalProperties: false };
}

/** The compared form of a `jsonSchema` value: its platform form (anything else, e.g. a preview unknown, as it is). */
function comparedForm(v: unknown): unknown {
  return v !== null && typeof v === "object" && !Array.isArray(v) && typeof (v as { properties?: unknown }).properties === "object" ? platformForm(v as AdaptiveJsonSchema) : v;
}

/** The schema of a site that never had one: what delete restores. */
export const EMPTY_ADAPTIVE_SCHEMA: AdaptiveJsonSchema = { type: "object", properties: {}, additionalProperties: false };

/** The fields of a SiteAdaptiveSchema: its one declaration, from which its types and schema derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  siteId: { ...SITE_FIELD, doc: "ID of the site: one schema per site, the resource ID is the site ID." },
  // Compared structurally (jsonEqual): key order never shows as drift.
  jsonSchema: { schema: {"type": "object", "required": ["type", "properties"], "properties": {"$schema": {"type": "string"}, "$id": {"type": "string"}, "type": {"const": "object"}, "additionalProperties": {"const": false}, "properties": {"type": "object", "properties": {"unsigned": {"type": "object", "properties": {"type": {"const": "object"}, "description": {"const": UNSIGNED_DESCRIPTION}, "additionalProperties": {"const": false}, "properties": {"type": "object", "additionalProperties": {"$ref": "#/definitions/claim"}}}}}, "additionalProperties": {"$ref": "#/definitions/claim"}}}} as ValueSchema<AdaptiveJsonSchema>, doc: `A draft-07 JSON Schema of boolean visitor claims (properties.unsigned for unsigned ones). The platform fixes the unsigned member's description ("${UNSIGNED_DESCRIPTION}") and additionalProperties (false): left out, they are filled in.`, required: true, normalize: comparedForm, stack: "context" },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a SiteAdaptiveSchema: the visitor-attribute schema of a site's adaptive content (one per site: the resource ID is the site ID). */
export type SiteAdaptiveSchemaInputs = InputsOf<typeof fields>;

/** Outputs of a SiteAdaptiveSchema: its fields as stored, and when the platform last changed the schema. */
export type SiteAdaptiveSchemaOutputs = StoredOf<typeof fields> & { updatedAt: string | null };

/** The SiteAdaptiveSchema kind: create/update = PUT, read = GET, delete = PUT the empty default. */
export const siteAdaptiveSchemaKind = {
  name: "SiteAdaptiveSchema",
  noun: { one: "adaptive schema", many: "adaptive schemas" },
  doc: "The adaptive-content visitor schema of a site.",
  definitions: {
    claim: {
      type: "object",
      required: ["type"],
      properties: { type: { const: "boolean" }, description: { type: "string" } },
      description: "A visitor claim: a boolean with a description.",
    },
  },
  fields,

  async create(ctx, inputs) {
    // A site has a schema from its creation on: write only when it differs (adopting a hand-made one writes nothing).
    const live = await ctx.client.sites.getAdaptiveSchema(inputs.organizationId, inputs.siteId);
    const wanted = platformForm(inputs.jsonSchema);
    const res = jsonEqual(live.jsonSchema, wanted) ? live : await ctx.client.sites.putAdaptiveSchema(inputs.organizationId, inputs.siteId, { jsonSchema: wanted });
    return {
      id: inputs.siteId,
      outs: { organizationId: inputs.organizationId, siteId: inputs.siteId, jsonSchema: res.jsonSchema, updatedAt: res.updatedAt ?? null },
    };
  },

  async read(ctx, id, state) {
    const res = await orGone(ctx.client.sites.getAdaptiveSchema(state.organizationId, id));
    if (!res) return undefined;
    return { organizationId: state.organizationId, siteId: id, jsonSchema: res.jsonSchema, updatedAt: res.updatedAt ?? null };
  },

  async update(ctx, id, olds, news) {
    const res = await ctx.client.sites.putAdaptiveSchema(olds.organizationId, id, { jsonSchema: platformForm(news.jsonSchema) });
    return { organizationId: olds.organizationId, siteId: id, jsonSchema: res.jsonSchema, updatedAt: res.updatedAt ?? null };
  },

  async delete(ctx, id, olds) {
    await ctx.client.sites.putAdaptiveSchema(olds.organizationId, id, { jsonSchema: EMPTY_ADAPTIVE_SCHEMA });
  },
} satisfies KindDefinition<SiteAdaptiveSchemaInputs, SiteAdaptiveSchemaOutputs>;

/** The dynamic provider of SiteAdaptiveSchema (serialised through `provider/providers/siteAdaptiveSchema`). */
export const siteAdaptiveSchemaProvider = makeProvider<SiteAdaptiveSchemaInputs, SiteAdaptiveSchemaOutputs>(siteAdaptiveSchemaKind);

/** Arguments of a SiteAdaptiveSchema. */
export type SiteAdaptiveSchemaArgs = ResourceArgs<SiteAdaptiveSchemaInputs>;
