import type { Integration as ApiIntegration, PublishIntegrationBody } from "../client";
import { isNotFound } from "../client/errors";
import { contentDigest, secretDigests, sha256, type Digest } from "./digest";
import { type Created, type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type ResourceArgs, type StoredOf, type ValueSchema, declaredAmong, limit, orGone, ORGANIZATION_FIELD, patchedFields } from "./kind";
import { makeProvider } from "./provider";

export type { Digest } from "./digest";

const TEXT = { type: "string" } as ValueSchema<string>;
const STRINGS = { type: "array", items: { type: "string" } } as ValueSchema<string[]>;
/** Blocks and content sources: objects whose shape is the API's (see their field docs). */
const OBJECTS = { type: "array", items: { type: "object", additionalProperties: true } } as ValueSchema<Record<string, unknown>[]>;

/**
 * A base64 image or the script: the diff compares digests, so the state never needs the content.
 * `more` keeps its literal type, so that the stack file's entry type knows what is required and how it is spelled.
 */
function content<const M extends Partial<FieldSpec>>(doc: string, more: M): FieldSpec<string> & M {
  return { schema: { type: "string" } as ValueSchema<string>, doc, normalize: contentDigest, ...more };
}

/**
 * The fields of an Integration: its one declaration. Every field but the organisation and the name (in
 * the path) is the publish body's field of the same name (`patched`); the organisation goes as
 * `organization`. The script, the images and the secrets are sent on every publish but never kept in
 * the outputs: the outputs hold their SHA-256 digests (see {@link Digest}), which is what diff compares.
 */
const fields = {
  organizationId: { ...ORGANIZATION_FIELD, doc: "ID of the publishing organisation." },
  name: {
    schema: limit("integrationName"),
    doc: "Name of the integration: letters, digits, '-', '_' and '.', at most 100 characters; unique on the whole platform, not only in the organisation. Changing it publishes a new integration and unpublishes the old one.",
    required: true,
    createOnly: true,
  },
  title: { schema: limit("integrationTitle"), doc: "Title, 2 to 30 characters.", required: true, patched: true },
  description: { schema: limit("integrationDescription"), doc: "Description, at most 100 characters.", required: true, patched: true },
  summary: { schema: limit("integrationSummary"), doc: "Summary in markdown, at most 2048 characters.", absent: "clear", patched: true },
  icon: content("The icon image, base64; the state keeps its SHA-256 only.", { absent: "clear", stack: { file: "base64" }, patched: true }),
  previewImages: {
    schema: limit<string[]>("integrationPreviewImages"),
    doc: "At most 3 preview images, base64; the state keeps their SHA-256 only.",
    absent: { reset: [] },
    normalize: (v) => (Array.isArray(v) ? v.map(contentDigest) : v),
    stack: { file: "base64" },
    patched: true,
  },
  visibility: { schema: TEXT, doc: "Who can see and install it (e.g. public, private).", absent: { reset: "private" }, patched: true },
  target: { schema: TEXT, doc: "Where it can be installed (e.g. all).", absent: { reset: "all" }, patched: true },
  scopes: { schema: STRINGS, doc: "Permission scopes it asks for (e.g. space:views:read).", absent: { reset: [] }, patched: true },
  categories: { schema: STRINGS, doc: "Categories it is listed under (e.g. analytics).", absent: { reset: [] }, patched: true },
  blocks: { schema: OBJECTS, doc: "Blocks it provides: {id, title, description, icon, urlUnfurl, markdown}.", absent: { reset: [] }, patched: true },
  contentSources: { schema: OBJECTS, doc: "Content sources it provides: {id, title, description, icon, configuration}.", absent: { reset: [] }, patched: true },
  externalLinks: {
    schema: { type: "array", items: { type: "object", required: ["url", "label"], additionalProperties: false, properties: { url: { type: "string", format: "followed-url", description: "Address of the link: an https or http URL readers follow." }, label: { type: "string", description: "Text of the link." } } } } as ValueSchema<{ url: string; label: string }[]>,
    doc: "Links shown with it: {url, label}.",
    absent: { reset: [] },
    patched: true,
  },
  configurations: { schema: { type: "object", additionalProperties: true } as ValueSchema<Record<string, unknown>>, doc: "Configuration schemas of its installations: account, space, site, each {properties, required}.", absent: { reset: {} }, patched: true },
  contentSecurityPolicy: { schema: TEXT, doc: "Content security policy sent with its script.", absent: "clear", patched: true },
  runtime: { schema: TEXT, doc: "Runtime of the script.", absent: { reset: "v1" }, patched: true },
  script: content("The script's content; the state keeps its SHA-256 only, so an edited script is an update.", { required: true, stack: { file: "text" }, patched: true }),
  secrets: {
    schema: { type: "object", additionalProperties: { type: "string" } } as ValueSchema<Record<string, string>>,
    doc: "Secret values by name, sent with every publish; the state keeps a SHA-256 of each name and value, as a secret, so a rotated value publishes again.",
    absent: { reset: {} },
    normalize: secretDigests,
    stack: "secretSources",
    patched: true,
  },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of an Integration: the whole publish body and the organisation (`name`, unique on the whole platform, is the natural key). */
export type IntegrationInputs = InputsOf<typeof fields>;

/** The inputs whose content the outputs keep as digests only. */
type Digested = "icon" | "previewImages" | "script" | "secrets";

/** Outputs of an Integration: the declared fields (digests for the script, images and secrets) and what the API reports. */
export type IntegrationOutputs = Omit<StoredOf<typeof fields>, Digested> & {
  icon: Digest | null;
  previewImages: Digest[];
  script: Digest | null;
  /** One digest per secret name (stored as a secret): a rotated value changes it. */
  secrets: Record<string, Digest>;
  /** The version the platform gave the latest publish. */
  version: number | null;
  verified: boolean | null;
  url: string | null;
  appUrl: string | null;
  publicEndpoint: string | null;
};

/**
 * The publish body for the desired inputs (absent fields already at their reset values; a cleared one left
 * out). `scopes` is always sent, `[]` when none is declared: the platform's description requires it, and
 * the older contract, which has it optional, accepts it too.
 */
function publishBody(inputs: IntegrationInputs): PublishIntegrationBody {
  const body: Record<string, unknown> = { organization: inputs.organizationId };
  for (const [k, v] of Object.entries(declaredAmong<Record<string, unknown>>(inputs, patchedFields(fields)))) if (v !== null) body[k] = v;
  body.scopes ??= [];
  return body as unknown as PublishIntegrationBody;
}

/** Outputs from the live integration; what the API never returns (script, images, secrets, runtime) comes from `kept`. */
function toOutputs(organizationId: string, g: ApiIntegration, kept: Pick<IntegrationOutputs, Digested | "runtime">): IntegrationOutputs {
  return {
    organizationId,
    name: g.name,
    title: g.title,
    description: g.description ?? "",
    summary: g.summary ?? null,
    icon: kept.icon,
    previewImages: kept.previewImages,
    visibility: g.visibility ?? "private",
    target: g.target ?? "all",
    scopes: g.scopes ?? [],
    categories: g.categories ?? [],
    blocks: (g.blocks ?? []) as unknown as Record<string, unknown>[],
    contentSources: (g.contentSources ?? []) as unknown as Record<string, unknown>[],
    externalLinks: g.externalLinks ?? [],
    configurations: (g.configurations ?? {}) as Record<string, unknown>,
    contentSecurityPolicy: g.contentSecurityPolicy ?? null,
    runtime: kept.runtime,
    script: kept.script,
    secrets: kept.secrets,
    version: g.version ?? null,
    verified: g.verified ?? null,
    url: g.urls?.location ?? null,
    appUrl: g.urls?.app ?? null,
    publicEndpoint: g.urls?.publicEndpoint ?? null,
  };
}

/** The digests of what a publish sent: the only trace of the script, images and secrets in the outputs. */
function sentDigests(inputs: IntegrationInputs): Pick<IntegrationOutputs, Digested | "runtime"> {
  return {
    icon: inputs.icon == null ? null : sha256(inputs.icon),
    previewImages: (inputs.previewImages ?? []).map(sha256),
    runtime: inputs.runtime ?? "v1",
    script: sha256(inputs.script),
    secrets: secretDigests(inputs.secrets ?? {}) as Record<string, Digest>,
  };
}

/** Nothing of the script, images and secrets is known from the API alone. */
const UNREAD = { icon: null, previewImages: [], runtime: "v1", script: null, secrets: {} } as const;

async function publish(ctx: KindContext, inputs: IntegrationInputs): Promise<Created<IntegrationOutputs>> {
  const g = await ctx.client.integrations.publish(inputs.name, publishBody(inputs));
  return { id: g.name, outs: toOutputs(inputs.organizationId, g, sentDigests(inputs)) };
}

/** The integration with this name, when the organisation owns it (names are global: another owner's is not adoptable). */
async function adopt(ctx: KindContext, inputs: IntegrationInputs): Promise<Created<IntegrationOutputs> | undefined> {
  const g = await orGone(ctx.client.integrations.get(inputs.name));
  if (!g) return undefined;
  const owner = g.owner?.id;
  if (owner !== undefined && owner !== inputs.organizationId) {
    throw new Error(`Integration: ${JSON.stringify(inputs.name)} is published by organization ${owner}; integration names are global, choose another name`);
  }
  return { id: g.name, outs: toOutputs(inputs.organizationId, g, { ...UNREAD, previewImages: [], secrets: {} }) };
}

/** The Integration kind: publish (`POST /integrations/{name}`) on create and every update, unpublish on delete. */
export const integrationKind = {
  name: "Integration",
  noun: { one: "integration", many: "integrations" },
  doc: "An integration published by the organisation: its manifest, its script and its secrets.",
  list: {
    property: "integrations",
    after: "translations",
    definition: "integration",
    name: "integration",
    doc: "Integrations the organisation publishes, each with its script (a file next to the stack file), images and secrets (named by their source, never by value). Integration names are unique on the whole platform.",
    entryDoc: "An integration published by the organisation: publish on create and on every change (an edited script, image or secret value included), unpublish on delete.",
    // The platform lists everyone's integrations: the organisation's own are those it owns.
    readAll: async (client, org) => (await client.integrations.list({ owner: org })).filter((g) => g.owner?.id === org),
  } as const,
  outputs: [
    "summary", "icon", "previewImages", "visibility", "target", "scopes", "categories", "blocks", "contentSources", "externalLinks",
    "configurations", "contentSecurityPolicy", "runtime", "secrets", "version", "url", "appUrl", "publicEndpoint",
  ],
  fields,

  secretOutputs: ["secrets"],
  naturalKey: { field: "name", scope: "organization", enforced: "integration names are unique on the whole platform" },

  async create(ctx, inputs) {
    // Publishing over an integration published by hand would replace it unseen: that takes `adopt: true`.
    const existing = await orGone(ctx.client.integrations.get(inputs.name));
    if (existing) {
      const owner = existing.owner?.id;
      throw new Error(
        owner !== undefined && owner !== inputs.organizationId
          ? `Integration: ${JSON.stringify(inputs.name)} is published by organization ${owner}; integration names are global, choose another name`
          : `Integration: ${JSON.stringify(inputs.name)} is already published; declare adopt: true to take it over`,
      );
    }
    return publish(ctx, inputs);
  },

  async read(ctx, id, state) {
    // The ID is the name: a read with no state (Resource.get) looks it up by ID.
    const g = await orGone(ctx.client.integrations.get(state.name ?? id));
    // Unpublished, or its name now belongs to another organisation: not this integration any more.
    if (!g || (g.owner?.id !== undefined && g.owner.id !== state.organizationId)) return undefined;
    return toOutputs(state.organizationId, g, {
      icon: state.icon ?? null,
      previewImages: state.previewImages ?? [],
      runtime: state.runtime ?? "v1",
      script: state.script ?? null,
      secrets: state.secrets ?? {},
    });
  },

  // A publish takes the whole integration: every change sends everything declared.
  async update(ctx, _id, _olds, news) {
    return (await publish(ctx, news)).outs;
  },

  // As read: nothing of the script, images and secrets (export writes a placeholder for the script).
  outputsOf: (g: ApiIntegration, where) => toOutputs(where.organizationId, g, { ...UNREAD, previewImages: [], secrets: {} }),

  async delete(ctx, _id, olds) {
    try {
      await ctx.client.integrations.unpublish(olds.name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  },

  adopt,
} satisfies KindDefinition<IntegrationInputs, IntegrationOutputs>;

/** The dynamic provider of Integration (serialised through `provider/providers/integration`). */
export const integrationProvider = makeProvider<IntegrationInputs, IntegrationOutputs>(integrationKind);

/** Arguments of an Integration. */
export type IntegrationArgs = ResourceArgs<IntegrationInputs>;
