import type { Site as ApiSite, SiteVisibility, AgentsContext, UpdateSiteBody } from "../client";
import { type KindContext, type KindDefinition, type ResourceArgs, orGone, limit, ORGANIZATION_FIELD, adoptOne } from "./kind";
import { makeProvider } from "./provider";

/** Inputs of a Site. */
export interface SiteInputs {
  organizationId: string;
  /** Create-only; `basic` by default. */
  type?: string;
  /** 2 to 128 characters; the natural key `adopt` looks up by. */
  title: string;
  visibility?: SiteVisibility;
  basename?: string;
  /** Host plus one or more path segments; `null` removes the proxy. */
  proxy?: string | null;
  agentsContext?: AgentsContext;
  adaptiveContent?: { enabled: boolean };
  published?: boolean;
}

/** Outputs of a Site. */
export interface SiteOutputs {
  organizationId: string;
  type: string;
  title: string;
  visibility: SiteVisibility;
  basename: string | null;
  /** The custom hostname: read-only in the API (no request body takes it). */
  hostname: string | null;
  proxy: string | null;
  agentsContext: AgentsContext;
  adaptiveContent: { enabled: boolean } | null;
  published: boolean;
  /** Number of site spaces. */
  siteSpaces: number;
  createdAt: string | null;
  urls: { location: string | null; app: string | null; published: string | null };
}

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

/** Fields set by PATCH (all but type, which is create-only, and title/visibility, which POST takes too). */
const PATCHED = ["title", "visibility", "basename", "proxy", "agentsContext", "adaptiveContent", "published"] as const;

function patchBody(news: SiteInputs, fields: readonly string[]): UpdateSiteBody {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    if ((PATCHED as readonly string[]).includes(f)) body[f] = news[f as keyof SiteInputs];
  }
  return body as UpdateSiteBody;
}

function adopt(ctx: KindContext, inputs: SiteInputs) {
  const what = `sites of organization ${inputs.organizationId} are titled ${JSON.stringify(inputs.title)}`;
  return adoptOne("Site", what, ctx.client.sites.list(inputs.organizationId, { title: inputs.title }), (s) => s.title === inputs.title, (s) => toOutputs(inputs.organizationId, s));
}

/** The Site kind: POST `{type, title, visibility}`, then one PATCH for the fields only settable after creation. */
export const siteKind = {
  name: "Site",
  doc: "A docs site of an organisation.",
  outputs: ["type", "visibility", "published", "siteSpaces", "createdAt", "urls"],
  fields: {
    organizationId: ORGANIZATION_FIELD,
    title: { schema: limit("siteTitle"), doc: "Site title, 2 to 128 characters.", required: true },
    type: { schema: limit("siteType"), doc: "Site type: basic or ultimate; a new site is basic unless declared. Set on creation only: changing it replaces the site.", createOnly: true, absent: "unmanaged", initial: "basic" },
    visibility: { schema: limit("siteVisibility"), doc: "Who can reach the published site: public (open and indexed), unlisted (open, not indexed), share-link (secret token in the URL), visitor-auth (JWT-authenticated visitors). A new site is public unless declared; not reset on removal, so deleting the line never opens a site to the public.", absent: "unmanaged" },
    published: { schema: { type: "boolean" }, doc: "Whether the site is reachable by the audience set by visibility. A new site starts unpublished.", absent: { reset: false } },
    basename: { schema: limit("siteBasename"), doc: "Base path of the site, 1 to 100 characters. The API cannot remove a basename once set.", absent: "unmanaged" },
    proxy: { schema: limit("siteProxy"), doc: "Serve the site behind a proxy: a host plus one or more path segments (e.g. example.com/docs), at most 512 characters.", absent: "clear" },
    agentsContext: { schema: limit("agentsContext"), doc: "Whether AI agents can access the site: included or excluded.", absent: { reset: "excluded" } },
    adaptiveContent: { schema: { type: "object", additionalProperties: false, required: ["enabled"], properties: { enabled: { type: "boolean", description: "Turn adaptive content on or off." } } }, doc: "Adaptive content: show or hide sections and site spaces by visitor claims (see adaptiveSchema and the condition fields).", absent: { reset: { enabled: false } } },
  },

  naturalKey: { field: "title", scope: "organization" },

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
    const pending = PATCHED.filter((f) => declared[f] !== undefined && JSON.stringify(declared[f]) !== JSON.stringify(created[f]));
    if (pending.length > 0) site = await ctx.client.sites.update(org, site.id, patchBody(inputs, pending));
    return { id: site.id, outs: toOutputs(org, site) };
  },

  async read(ctx, id, state) {
    const site = await orGone(ctx.client.sites.get(state.organizationId, id));
    return site ? toOutputs(state.organizationId, site) : undefined;
  },

  async update(ctx, id, olds, news, changed) {
    const site = await ctx.client.sites.update(olds.organizationId, id, patchBody(news, changed));
    return toOutputs(olds.organizationId, site);
  },

  outputsOf: (site: ApiSite, where) => toOutputs(where.organizationId, site),

  async delete(ctx, id, olds) {
    await ctx.client.sites.delete(olds.organizationId, id);
  },

  adopt,
} satisfies KindDefinition<SiteInputs, SiteOutputs>;

/** The dynamic provider of Site (serialised through `provider/providers/site`). */
export const siteProvider = makeProvider<SiteInputs, SiteOutputs>(siteKind);

/** Arguments of a Site. */
export type SiteArgs = ResourceArgs<SiteInputs>;
