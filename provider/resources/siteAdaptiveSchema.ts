import type { AdaptiveJsonSchema } from "../client";
import { type KindDefinition, type ResourceArgs, orGone, ORGANIZATION_FIELD, SITE_FIELD } from "./kind";
import { jsonEqual, makeProvider } from "./provider";

/** Inputs of a SiteAdaptiveSchema: the visitor-attribute schema of a site's adaptive content. */
export interface SiteAdaptiveSchemaInputs {
  organizationId: string;
  /** Create-only: one schema per site; the resource ID is the site ID. */
  siteId: string;
  /** A draft-07 JSON Schema of boolean visitor claims (`properties.unsigned` for unsigned ones). */
  jsonSchema: AdaptiveJsonSchema;
}

/** Outputs of a SiteAdaptiveSchema. */
export interface SiteAdaptiveSchemaOutputs {
  organizationId: string;
  siteId: string;
  jsonSchema: AdaptiveJsonSchema;
  updatedAt: string | null;
}

/** The schema of a site that never had one: what delete restores. */
export const EMPTY_ADAPTIVE_SCHEMA: AdaptiveJsonSchema = { type: "object", properties: {}, additionalProperties: false };

/** The SiteAdaptiveSchema kind: create/update = PUT, read = GET, delete = PUT the empty default. */
export const siteAdaptiveSchemaKind = {
  name: "SiteAdaptiveSchema",
  doc: "The adaptive-content visitor schema of a site.",
  outputs: ["updatedAt"],
  definitions: {
    claim: {
      type: "object",
      required: ["type"],
      properties: { type: { const: "boolean" }, description: { type: "string" } },
      description: "A visitor claim: a boolean with a description.",
    },
  },
  fields: {
    organizationId: ORGANIZATION_FIELD,
    siteId: { ...SITE_FIELD, doc: "ID of the site: one schema per site, the resource ID is the site ID." },
    // Compared structurally (jsonEqual): key order never shows as drift.
    jsonSchema: { schema: {"type": "object", "required": ["type", "properties"], "properties": {"$schema": {"type": "string"}, "$id": {"type": "string"}, "type": {"const": "object"}, "additionalProperties": {"const": false}, "properties": {"type": "object", "properties": {"unsigned": {"type": "object", "properties": {"type": {"const": "object"}, "properties": {"type": "object", "additionalProperties": {"$ref": "#/definitions/claim"}}}}}, "additionalProperties": {"$ref": "#/definitions/claim"}}}}, doc: "A draft-07 JSON Schema of boolean visitor claims (properties.unsigned for unsigned ones).", required: true, stack: "context" },
  },


  async create(ctx, inputs) {
    // A site has a schema from its creation on: write only when it differs (adopting a hand-made one writes nothing).
    const live = await ctx.client.sites.getAdaptiveSchema(inputs.organizationId, inputs.siteId);
    const res = jsonEqual(live.jsonSchema, inputs.jsonSchema)
      ? live
      : await ctx.client.sites.putAdaptiveSchema(inputs.organizationId, inputs.siteId, { jsonSchema: inputs.jsonSchema });
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
    const res = await ctx.client.sites.putAdaptiveSchema(olds.organizationId, id, { jsonSchema: news.jsonSchema });
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
