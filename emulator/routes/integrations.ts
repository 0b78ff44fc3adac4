/** Integrations: list (with filters), get, publish (create or new version), unpublish. */
import { secretDigest } from "../digest";
import { badRequest, forbidden, notFound, patternRefused } from "../errors";
import { bodySchema, fromBody, type PostBody } from "../columns";
import { BOOLEAN, STRING, limit, listQuery, type Schema } from "../schema";
import { paginate, type ListQuery } from "../paging";
import { roleIn, view } from "../access";
import type { Ctx, Route } from "../context";
import { roleAtLeast, type IntegrationRow, type OrgRow } from "../model";
import { presentIntegration, type View } from "../present";
import { INTEGRATION } from "../tables";

type NameP = { integrationName: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

const NAME = /^[a-zA-Z0-9-_.]+$/;

function isVisibleTo(ctx: AnyCtx, g: IntegrationRow): boolean {
  return g.visibility !== "private" || ctx.store.get("members", `${g.owner}:${ctx.user}`) !== undefined;
}

/** The integration named in the path, when the caller may see it; else a 404. */
export function findIntegration(ctx: AnyCtx, name: string): IntegrationRow {
  const g = NAME.test(name) && name.length <= 100 ? ctx.store.get("integrations", name) : undefined;
  if (!g || !isVisibleTo(ctx, g)) throw notFound("integration", name);
  return g;
}

function requireOwnerAdmin(ctx: AnyCtx, org: OrgRow, what: string): void {
  if (!roleAtLeast(roleIn(ctx, org.id), "admin")) throw forbidden(`only an admin of organization '${org.id}' may ${what}`);
}

function viewFor(ctx: AnyCtx, g: IntegrationRow): View {
  return view(ctx, roleIn(ctx, g.owner));
}

/** A publish: the integration's columns (tables.ts), its script, the publishing organization and the secrets' values. */
type PublishBody = PostBody<IntegrationRow, typeof INTEGRATION> & { script: string; organization: string; secrets?: Record<string, string> };

/** One filter of a list: its query parameter's schema, and whether an integration passes for a value given. */
function filter<V>(schema: Schema, keeps: (g: IntegrationRow, value: V) => boolean) {
  return { schema, keeps };
}

/** The filters of the integrations list, in the order its page cursors name their values. */
const FILTERS = {
  search: filter<string>(STRING, (g, text) => g.id.toLowerCase().includes(text) || g.title.toLowerCase().includes(text)),
  category: filter<string>(STRING, (g, category) => g.categories.includes(category)),
  blockDomain: filter<string>(limit("integrationName"), (g, domain) => g.blocks.some((b) => Array.isArray(b.urlUnfurl) && b.urlUnfurl.some((u) => typeof u === "string" && u.includes(domain)))),
  blocks: filter<boolean>(BOOLEAN, (g, has) => g.blocks.length > 0 === has),
  contentSources: filter<boolean>(BOOLEAN, (g, has) => g.contentSources.length > 0 === has),
  owner: filter<string>(STRING, (g, owner) => g.owner === owner),
  scope: filter<string>(STRING, (g, scope) => g.scopes.includes(scope)),
  target: filter<string>(STRING, (g, target) => g.target === target),
};
const FILTER_NAMES = Object.keys(FILTERS) as (keyof typeof FILTERS)[];
type IntegrationQuery = ListQuery & { [F in keyof typeof FILTERS]?: Parameters<(typeof FILTERS)[F]["keeps"]>[1] };

export function registerIntegrations(route: Route): void {
  const base = "/v1/integrations";

  route<Record<string, never>, IntegrationQuery>({
    method: "GET",
    url: base,
    query: listQuery(Object.fromEntries(Object.entries(FILTERS).map(([name, f]) => [name, f.schema]))),
    handler: (ctx) => {
      // `search` matches names and titles in any case.
      const q: IntegrationQuery = { ...ctx.query, search: ctx.query.search?.toLowerCase() };
      const given = FILTER_NAMES.filter((name) => q[name] !== undefined);
      const items = [...ctx.store.all("integrations")].filter((g) => isVisibleTo(ctx, g) && given.every((name) => (FILTERS[name].keeps as (g: IntegrationRow, value: unknown) => boolean)(g, q[name])));
      const key = `integrations:${JSON.stringify(FILTER_NAMES.map((name) => q[name]))}`;
      return { status: 200, body: paginate(items, q, key, (g) => presentIntegration(viewFor(ctx, g), g)) };
    },
  });

  route<NameP>({
    method: "GET",
    url: `${base}/:integrationName`,
    handler: (ctx) => {
      const g = findIntegration(ctx, ctx.params.integrationName);
      return { status: 200, body: presentIntegration(viewFor(ctx, g), g) };
    },
  });

  route<NameP, Record<string, never>, PublishBody>({
    method: "POST",
    url: `${base}/:integrationName`,
    body: bodySchema(INTEGRATION, { script: STRING, organization: STRING, secrets: { type: "object", additionalProperties: STRING } }, ["script", "organization"]),
    handler: (ctx) => {
      const name = ctx.params.integrationName;
      if (!NAME.test(name) || name.length > 100) throw patternRefused("params/integrationName", "integrationName", "at most 100 characters");
      const b = ctx.body;
      const org = ctx.store.get("orgs", b.organization) ?? [...ctx.store.all("orgs")].find((o) => o.hostname === b.organization);
      if (!org) throw badRequest("body/organization", `names no organization (by ID or subdomain): '${b.organization}'`);
      requireOwnerAdmin(ctx, org, "publish integrations");
      const existing = ctx.store.get("integrations", name);
      if (existing && existing.owner !== org.id) throw forbidden(`integration '${name}' is owned by another organization`);
      const now = ctx.store.nowIso();
      const g: IntegrationRow = {
        id: name,
        owner: org.id,
        version: (existing?.version ?? 0) + 1,
        ...fromBody(INTEGRATION, b),
        secretNames: Object.keys(b.secrets ?? {}),
        script: b.script,
        secretDigests: Object.fromEntries(Object.entries(b.secrets ?? {}).map(([k, v]) => [k, secretDigest(v)])),
        verified: existing?.verified ?? false,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      };
      ctx.store.put("integrations", g);
      return { status: 200, body: presentIntegration(viewFor(ctx, g), g) };
    },
  });

  route<NameP>({
    method: "DELETE",
    url: `${base}/:integrationName`,
    handler: (ctx) => {
      const g = findIntegration(ctx, ctx.params.integrationName);
      requireOwnerAdmin(ctx, ctx.store.get("orgs", g.owner)!, "unpublish integrations");
      for (const i of [...ctx.store.all("installations")]) if (i.integration === g.id) ctx.store.del("installations", i.id);
      for (const i of [...ctx.store.all("targetInstallations")]) if (i.integration === g.id) ctx.store.del("targetInstallations", i.id);
      ctx.store.del("integrations", g.id);
      return { status: 204 };
    },
  });
}
