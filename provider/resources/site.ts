import type { Site as ApiSite, SiteDefaultLevel, SiteVisibility, AgentsContext, UpdateSiteBody } from "../client";
import { type FieldSpec, type InputsOf, type KindDefinition, type ResourceArgs, type StoredOf, type ValueSchema, boolean, limit, ORGANIZATION_FIELD, patchBody, patchedFields } from "./kind";
import { siteReads } from "./lists";
import { organizationObject } from "./organizationObject";
import { makeProvider } from "./provider";

/** Who can read a published site, in words (`tree`, `diff`). */
export const VISIBILITY: Record<string, string> = {
  public: "public (open and indexed)",
  unlisted: "unlisted (open, not indexed)",
  "share-link": "share-link (readers with a share link)",
  "visitor-auth": "visitor-auth (visitors who sign in)",
};

/** The fields of a Site: its one declaration, from which its types, schema and patch body derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  title: { schema: limit("siteTitle"), doc: "Site title, 2 to 128 characters.", required: true, patched: true },
  type: { schema: limit("siteType"), doc: "Site type: basic or ultimate; a new site is basic unless declared. Set on creation only: changing it replaces the site.", createOnly: true, absent: "unmanaged", initial: "basic", show: { label: "type", bare: true } },
  visibility: { schema: limit<SiteVisibility>("siteVisibility"), doc: "Who can reach the published site: public (open and indexed), unlisted (open, not indexed), share-link (secret token in the URL), visitor-auth (JWT-authenticated visitors). A new site is public unless declared; not reset on removal, so deleting the line never opens a site to the public.", absent: "unmanaged", patched: true, show: { label: "visibility", bare: true, words: (v: string) => VISIBILITY[v] ?? v } },
  published: { schema: boolean(), doc: "Whether the site is reachable by the audience set by visibility. A new site starts unpublished.", absent: { reset: false }, patched: true, show: { label: "published", means: (from, to) => (from === "yes" && to === "no" ? "readers lose access to the site" : to === "yes" ? "the site goes live" : undefined) } },
  basename: { schema: limit("siteBasename"), doc: "Base path of the site, 1 to 100 characters. The API cannot remove a basename once set.", absent: "unmanaged", patched: true, show: { label: "basename", means: (_, to) => (to === undefined ? undefined : "every URL of the site changes") } },
  proxy: { schema: limit("siteProxy"), doc: "Serve the site behind a proxy: a host plus one or more path segments (e.g. example.com/docs), at most 512 characters.", absent: "clear", patched: true, show: { label: "proxy" } },
  agentsContext: { schema: limit<AgentsContext>("agentsContext"), doc: "Whether AI agents can access the site: included or excluded.", absent: { reset: "excluded" }, patched: true, show: { label: "agents" } },
  defaultLevel: {
    schema: limit<SiteDefaultLevel>("siteDefaultLevel"),
    doc: "Default level of access to the site's content: admin, create, review, edit, comment or read; null for guests; inherit: the organisation's. A new site inherits. Not managed when omitted (null is a value of its own), so removing the line never changes who can read the site.",
    absent: "unmanaged",
    initial: "inherit",
    addedLater: true,
    patched: true,
  },
  adaptiveContent: { schema: { type: "object", additionalProperties: false, required: ["enabled"], properties: { enabled: { type: "boolean", description: "Turn adaptive content on or off." } } } as ValueSchema<{ enabled: boolean }>, doc: "Adaptive content: show or hide sections and site spaces by visitor claims (see adaptiveSchema and the condition fields).", absent: { reset: { enabled: false } }, patched: true, show: { label: "adaptive content", words: (v: { enabled: boolean }) => (v.enabled ? "on" : "off"), quiet: "off", apart: true } },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a Site (its declared fields). */
export type SiteInputs = InputsOf<typeof fields>;

/** Outputs of a Site: its fields as stored (a basename or adaptive content never set is null), and what the API adds. */
export type SiteOutputs = Omit<StoredOf<typeof fields>, "basename" | "adaptiveContent"> & {
  basename: string | null;
  adaptiveContent: { enabled: boolean } | null;
  /** The custom hostname: read-only in the API (no request body takes it). */
  hostname: string | null;
  /** Number of site spaces. */
  siteSpaces: number;
  createdAt: string | null;
  urls: { location: string | null; app: string | null; published: string | null };
};

/** The proxy in the form it is declared: the response's origin without its scheme. */
function proxyOf(site: ApiSite): string | null {
  const origin = site.proxy?.origin;
  if (!origin) return null;
  return origin.replace(/^[a-z]+:\/\//i, "").replace(/\/+$/, "");
}

function toOutputs(organizationId: string, site: ApiSite): SiteOutputs {
  return {
    organizationId,
    type: site.type,
    title: site.title,
    visibility: site.visibility,
    basename: site.basename ?? null,
    hostname: site.hostname ?? null,
    proxy: proxyOf(site),
    agentsContext: site.agentsContext,
    // Every Site answer carries it; one that does not (an older platform) is a site that inherits.
    defaultLevel: site.defaultLevel === undefined ? "inherit" : site.defaultLevel,
    adaptiveContent: site.adaptiveContent ? { enabled: site.adaptiveContent.enabled } : null,
    published: site.published,
    siteSpaces: site.siteSpaces,
    createdAt: site.createdAt ?? null,
    urls: {
      location: site.urls?.location ?? null,
      app: site.urls?.app ?? null,
      published: site.urls?.published ?? null,
    },
  };
}

/** The Site kind: POST `{type, title, visibility}`, then one PATCH for the fields only settable after creation. */
export const siteKind = {
  name: "Site",
  noun: { one: "site", many: "sites" },
  doc: "A docs site of an organisation.",
  outputs: ["type", "visibility", "published", "defaultLevel", "urls"],
  fields,

  // Read and deleted by ID, PATCH the changed fields, adopt by title (the API filters sites by title).
  ...organizationObject<SiteInputs, SiteOutputs, ApiSite, UpdateSiteBody>({
    kind: "Site",
    area: (client) => client.sites,
    toOutputs,
    fields,
    naturalKey: { field: "title" },
    objects: "sites",
    verb: "are titled",
    query: (inputs) => ({ title: inputs.title }),
    // Shared with the site's attached style guide, which a refresh reads from the same answer.
    get: siteReads.site,
  }),

  async create(ctx, inputs) {
    const org = inputs.organizationId;
    let site = await ctx.client.sites.create(org, {
      title: inputs.title,
      ...(inputs.type === undefined ? {} : { type: inputs.type }),
      ...(inputs.visibility === undefined ? {} : { visibility: inputs.visibility }),
    });
    ctx.created?.(site.id, toOutputs(org, site));
    const created = toOutputs(org, site) as unknown as Record<string, unknown>;
    const declared = inputs as unknown as Record<string, unknown>;
    const pending = patchedFields(fields).filter((f) => declared[f] !== undefined && JSON.stringify(declared[f]) !== JSON.stringify(created[f]));
    if (pending.length > 0) site = await ctx.client.sites.update(org, site.id, patchBody<UpdateSiteBody>(fields, inputs, pending));
    return { id: site.id, outs: toOutputs(org, site) };
  },
} satisfies KindDefinition<SiteInputs, SiteOutputs>;

/** The dynamic provider of Site (serialised through `provider/providers/site`). */
export const siteProvider = makeProvider<SiteInputs, SiteOutputs>(siteKind);

/** Arguments of a Site. */
export type SiteArgs = ResourceArgs<SiteInputs>;
