import type { OpenAPISpec as ApiOpenAPISpec } from "../client";
import { isConflict } from "../client/errors";
import { type Created, type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type ResourceArgs, type StoredOf, orGone, limit, ORGANIZATION_FIELD, reported } from "./kind";
import { makeProvider } from "./provider";

/** The fields of an OpenAPISpec: its one declaration, from which its types and schema derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  slug: { schema: limit("openapiSlug"), doc: "Slug of the spec, 1 to 100 characters of lowercase letters, digits and single hyphens; unique in the organisation. Changing it replaces the spec.", required: true, createOnly: true },
  sourceURL: { schema: limit("openapiSourceURL"), doc: "URL the spec is fetched from, an absolute URI of at most 2048 characters. Changing it adds a new version.", required: true },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of an OpenAPISpec (`slug`, unique in the organisation, is the natural key). */
export type OpenAPISpecInputs = InputsOf<typeof fields>;

/** Outputs of an OpenAPISpec: the declared fields (a source URL the API does not say is null) plus the processing state of its latest version. */
export type OpenAPISpecOutputs = Omit<StoredOf<typeof fields>, "sourceURL"> & {
  sourceURL: string | null;
  /** `pending` → `progress` → `complete`, as the platform processes the latest version. */
  processingState: string | null;
  lastVersion: string | null;
  lastProcessedAt: string | null;
  /** e.g. `FETCH_ERROR`, `FETCH_TIMEOUT`, `PARSE_ERROR` when the latest version failed. */
  lastProcessErrorCode: string | null;
  url: string | null;
  appUrl: string | null;
  createdAt: string | null;
  updatedAt: string | null;
};

function toOutputs(organizationId: string, spec: ApiOpenAPISpec): OpenAPISpecOutputs {
  return {
    organizationId,
    ...reported(spec, ["slug", "sourceURL", "processingState", "lastVersion", "lastProcessedAt", "lastProcessErrorCode", "createdAt", "updatedAt"]),
    url: spec.urls?.location ?? null,
    appUrl: spec.urls?.app ?? null,
  };
}

/** The spec with this slug (slugs are unique in an organization). */
async function adopt(ctx: KindContext, inputs: OpenAPISpecInputs): Promise<Created<OpenAPISpecOutputs> | undefined> {
  const spec = await orGone(ctx.client.openapi.get(inputs.organizationId, inputs.slug));
  return spec ? { id: spec.id, outs: toOutputs(inputs.organizationId, spec) } : undefined;
}

/** The OpenAPISpec kind: POST `{slug, source: {url}}`, a new source URL with `PUT /openapi/{slug}`. */
export const openApiSpecKind = {
  name: "OpenAPISpec",
  noun: { one: "OpenAPI spec", many: "OpenAPI specs" },
  doc: "An OpenAPI specification stored by the platform, fetched from a source URL.",
  list: {
    property: "openapi",
    after: "saml",
    definition: "openapiSpec",
    name: "openapi",
    doc: "OpenAPI specifications stored by the platform, each fetched from a source URL. Slugs are unique in an organisation.",
    entryDoc: "A stored OpenAPI specification.",
    // A spec that does not carry its source URL declares the one of its latest version.
    readAll: async (client, org, tick) =>
      Promise.all(
        (await client.openapi.list(org)).map(async (s) => {
          if (s.sourceURL) return s;
          const latest = await client.openapi.latestVersion(org, s.slug).then(
            (v) => (tick(1), v),
            () => undefined,
          );
          return { ...s, sourceURL: latest?.url };
        }),
      ),
  } as const,
  outputs: ["processingState", "lastVersion", "lastProcessedAt", "lastProcessErrorCode", "url", "appUrl", "createdAt", "updatedAt"],
  fields,

  naturalKey: { field: "slug", scope: "organization", enforced: "spec slugs are unique in an organisation" },

  async create(ctx, inputs) {
    try {
      const spec = await ctx.client.openapi.create(inputs.organizationId, { slug: inputs.slug, source: { url: inputs.sourceURL } });
      return { id: spec.id, outs: toOutputs(inputs.organizationId, spec) };
    } catch (e) {
      if (!isConflict(e)) throw e;
      throw new Error(
        `OpenAPISpec: organization ${inputs.organizationId} already has a spec with slug ${JSON.stringify(inputs.slug)}; declare adopt: true to take it over`,
        { cause: e },
      );
    }
  },

  async read(ctx, _id, state) {
    const spec = await orGone(ctx.client.openapi.get(state.organizationId, state.slug));
    return spec ? toOutputs(state.organizationId, spec) : undefined;
  },

  async update(ctx, _id, olds, news, changed) {
    if (!changed.includes("sourceURL")) return olds;
    const spec = await ctx.client.openapi.put(olds.organizationId, olds.slug, { source: { url: news.sourceURL } });
    return toOutputs(olds.organizationId, spec);
  },

  outputsOf: (spec: ApiOpenAPISpec, where) => toOutputs(where.organizationId, spec),

  async delete(ctx, _id, olds) {
    await ctx.client.openapi.delete(olds.organizationId, olds.slug);
  },

  adopt,
} satisfies KindDefinition<OpenAPISpecInputs, OpenAPISpecOutputs>;

/** The dynamic provider of OpenAPISpec (serialised through `provider/providers/openApiSpec`). */
export const openApiSpecProvider = makeProvider<OpenAPISpecInputs, OpenAPISpecOutputs>(openApiSpecKind);

/** Arguments of an OpenAPISpec. */
export type OpenAPISpecArgs = ResourceArgs<OpenAPISpecInputs>;
