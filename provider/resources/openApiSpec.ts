import type { OpenAPISource, OpenAPISpec as ApiOpenAPISpec, OpenAPIVisibility } from "../client";
import { isConflict } from "../client/errors";
import limits from "../../schemas/limits.json";
import { contentDigest, sha256, type Digest } from "./digest";
import { type Created, type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type ResourceArgs, type StoredOf, orGone, limit, ORGANIZATION_FIELD, reported, UNKNOWN } from "./kind";
import { makeProvider } from "./provider";

/**
 * The most bytes a spec's text may take once JSON-escaped: the platform refuses a request body over
 * 1 MiB, and the rest of the body (slug, envelope) is given the remainder (`schemas/limits.json`).
 */
export const OPENAPI_TEXT_MAX_JSON_BYTES: number = limits.definitions.openapiSourceText["x-maxJsonBytes"];

/** The fields of an OpenAPISpec: its one declaration, from which its types and schema derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  slug: { schema: limit("openapiSlug"), doc: "Slug of the spec, 1 to 100 characters of lowercase letters, digits and single hyphens; unique in the organisation. Changing it replaces the spec.", required: true, createOnly: true },
  sourceURL: {
    schema: limit("openapiSourceURL"),
    doc: "URL the spec is fetched from, an absolute URI of at most 2048 characters. Give exactly one of sourceURL and file. Changing it adds a new version.",
    absent: "unmanaged",
  },
  text: {
    schema: limit("openapiSourceText"),
    doc: "The specification itself, sent inline (the platform takes no upload): at most 1,048,000 bytes once JSON-escaped, within the platform's 1 MiB body limit. The state keeps its SHA-256 only, so an edited file is one update and an unchanged one makes no call. Give exactly one of sourceURL and file.",
    absent: "unmanaged",
    normalize: contentDigest,
    stack: { file: "text", as: "file", maxJsonBytes: OPENAPI_TEXT_MAX_JSON_BYTES },
    addedLater: true,
  },
  visibility: {
    schema: limit<OpenAPIVisibility>("openapiVisibility"),
    doc: "Who can read the spec: private, or public (anyone with its public link). Set after creation (a new spec is private, so a public one takes a second call).",
    absent: "unmanaged",
    initial: "private",
    addedLater: true,
  },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of an OpenAPISpec (`slug`, unique in the organisation, is the natural key). */
export type OpenAPISpecInputs = InputsOf<typeof fields>;

/** Outputs of an OpenAPISpec: the declared fields (a source URL the API does not say is null; the text as its digest) plus the processing state of its latest version. */
export type OpenAPISpecOutputs = Omit<StoredOf<typeof fields>, "sourceURL" | "text" | "visibility"> & {
  sourceURL: string | null;
  /** The SHA-256 of the text the spec holds; null for a spec fetched from a URL. */
  text: Digest | null;
  visibility: OpenAPIVisibility | null;
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

function toOutputs(organizationId: string, spec: ApiOpenAPISpec, text: Digest | null): OpenAPISpecOutputs {
  return {
    organizationId,
    ...reported(spec, ["slug", "sourceURL", "visibility", "processingState", "lastVersion", "lastProcessedAt", "lastProcessErrorCode", "createdAt", "updatedAt"]),
    text,
    url: spec.urls?.location ?? null,
    appUrl: spec.urls?.app ?? null,
  };
}

/** The source a declaration sends: its text (a file's content) or its URL. */
function sourceOf(inputs: OpenAPISpecInputs): OpenAPISource {
  return typeof inputs.text === "string" ? { text: inputs.text } : { url: inputs.sourceURL as string };
}

/** The digest of the text a declaration sends; null for a URL source. */
const sentText = (inputs: OpenAPISpecInputs): Digest | null => (typeof inputs.text === "string" ? sha256(inputs.text) : null);

/**
 * The digest of the text the live spec holds (its raw content), read only for a spec without a source
 * URL: a text spec edited by hand is drift. Null when the platform serves no raw content.
 */
async function liveText(ctx: KindContext, organizationId: string, spec: ApiOpenAPISpec): Promise<Digest | null> {
  if (spec.sourceURL) return null;
  const raw = await orGone(ctx.client.openapi.rawContent(organizationId, spec.slug));
  return raw ? sha256(raw.text) : null;
}

/** Sets a declared visibility the spec does not have yet (POST and PUT cannot set it). */
async function settleVisibility(ctx: KindContext, inputs: OpenAPISpecInputs, spec: ApiOpenAPISpec): Promise<ApiOpenAPISpec> {
  if (inputs.visibility === undefined || inputs.visibility === (spec.visibility ?? "private")) return spec;
  return ctx.client.openapi.setVisibility(inputs.organizationId, inputs.slug, { visibility: inputs.visibility });
}

/** The spec with this slug (slugs are unique in an organization). */
async function adopt(ctx: KindContext, inputs: OpenAPISpecInputs): Promise<Created<OpenAPISpecOutputs> | undefined> {
  const spec = await orGone(ctx.client.openapi.get(inputs.organizationId, inputs.slug));
  return spec ? { id: spec.id, outs: toOutputs(inputs.organizationId, spec, await liveText(ctx, inputs.organizationId, spec)) } : undefined;
}

/** The OpenAPISpec kind: POST `{slug, source}` (a URL or the file's text), a new source with `PUT /openapi/{slug}`, visibility with `PATCH /openapi/{slug}`. */
export const openApiSpecKind = {
  name: "OpenAPISpec",
  noun: { one: "OpenAPI spec", many: "OpenAPI specs" },
  doc: "An OpenAPI specification stored by the platform, fetched from a source URL or sent from a file of the project.",
  list: {
    property: "openapi",
    after: "saml",
    definition: "openapiSpec",
    name: "openapi",
    doc: "OpenAPI specifications stored by the platform, each fetched from a source URL or sent from a file next to the stack file. Slugs are unique in an organisation.",
    entryDoc: "A stored OpenAPI specification: exactly one of sourceURL and file.",
    exactlyOne: ["sourceURL", "file"],
    // A spec that does not carry its source URL declares the one of its latest version (a text spec: none).
    readAll: async (client, org, tick) =>
      Promise.all(
        (await client.openapi.list(org)).map(async (s) => {
          if (s.sourceURL) return s;
          const latest = await client.openapi.latestVersion(org, s.slug).then(
            (v) => (tick(1), v),
            () => undefined,
          );
          // A text spec's versions point at its raw content in the API: no URL a file could declare.
          const url = latest?.url;
          return { ...s, sourceURL: url !== undefined && !url.includes(`/openapi/${s.slug}/versions/`) ? url : undefined };
        }),
      ),
  } as const,
  outputs: ["visibility", "url", "appUrl"],
  fields,

  naturalKey: { field: "slug", scope: "organization", enforced: "spec slugs are unique in an organisation" },

  // The stack file's loader says the same, located; these guard a program of one's own.
  refuse(_olds, news) {
    const problems: { property: string; reason: string }[] = [];
    if ((news.sourceURL === undefined) === (news.text === undefined)) problems.push({ property: "sourceURL", reason: "sourceURL: give exactly one of sourceURL and text" });
    if (typeof news.text === "string" && news.text !== UNKNOWN) {
      const bytes = Buffer.byteLength(JSON.stringify(news.text)) - 2;
      if (bytes > OPENAPI_TEXT_MAX_JSON_BYTES) problems.push({ property: "text", reason: `text: takes ${bytes} bytes once JSON-escaped, over the ${OPENAPI_TEXT_MAX_JSON_BYTES} a text sent inline may take (the platform refuses a request body over 1 MiB)` });
    }
    return problems;
  },

  async create(ctx, inputs) {
    let spec: ApiOpenAPISpec;
    try {
      spec = await ctx.client.openapi.create(inputs.organizationId, { slug: inputs.slug, source: sourceOf(inputs) });
    } catch (e) {
      if (!isConflict(e)) throw e;
      throw new Error(
        `OpenAPISpec: organization ${inputs.organizationId} already has a spec with slug ${JSON.stringify(inputs.slug)}; declare adopt: true to take it over`,
        { cause: e },
      );
    }
    ctx.created?.(spec.id, toOutputs(inputs.organizationId, spec, sentText(inputs)));
    spec = await settleVisibility(ctx, inputs, spec);
    return { id: spec.id, outs: toOutputs(inputs.organizationId, spec, sentText(inputs)) };
  },

  async read(ctx, _id, state) {
    const spec = await orGone(ctx.client.openapi.get(state.organizationId, state.slug));
    return spec ? toOutputs(state.organizationId, spec, await liveText(ctx, state.organizationId, spec)) : undefined;
  },

  // A new source (another URL, an edited file) is one PUT; a visibility one PATCH.
  async update(ctx, _id, olds, news, changed) {
    let spec: ApiOpenAPISpec | undefined;
    let text = olds.text ?? null;
    if (changed.includes("sourceURL") || changed.includes("text")) {
      spec = await ctx.client.openapi.put(olds.organizationId, olds.slug, { source: sourceOf(news) });
      text = sentText(news);
    }
    if (changed.includes("visibility") && news.visibility !== undefined) {
      spec = await ctx.client.openapi.setVisibility(olds.organizationId, olds.slug, { visibility: news.visibility });
    }
    return spec ? toOutputs(olds.organizationId, spec, text) : olds;
  },

  // Export cannot read a text spec back into a file: its outputs carry the digest only.
  outputsOf: (spec: ApiOpenAPISpec, where) => toOutputs(where.organizationId, spec, null),

  async delete(ctx, _id, olds) {
    await ctx.client.openapi.delete(olds.organizationId, olds.slug);
  },

  adopt,
} satisfies KindDefinition<OpenAPISpecInputs, OpenAPISpecOutputs>;

/** The dynamic provider of OpenAPISpec (serialised through `provider/providers/openApiSpec`). */
export const openApiSpecProvider = makeProvider<OpenAPISpecInputs, OpenAPISpecOutputs>(openApiSpecKind);

/** Arguments of an OpenAPISpec. */
export type OpenAPISpecArgs = ResourceArgs<OpenAPISpecInputs>;
