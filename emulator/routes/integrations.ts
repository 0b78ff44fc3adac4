/** Integrations: list (with filters), get, publish (create or new version), unpublish. */
import { createHash } from "node:crypto";
import { badRequest, forbidden, notFound } from "../errors";
import { BOOLEAN, STRING, limit, listQuery, obj, paginate, roleIn, view, type Ctx, type ListQuery, type Route, type Schema } from "../context";
import { roleAtLeast, type IntegrationRow, type JsonObject, type OrgRow } from "../model";
import { APP_URL, presentIntegration, type View } from "../present";

type NameP = { integrationName: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

const NAME = /^[a-zA-Z0-9-_.]+$/;
const STRINGS: Schema = { type: "array", items: STRING };
const OBJECTS: Schema = { type: "array", items: { type: "object" } };

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

interface PublishBody {
  runtime?: string;
  icon?: string;
  title: string;
  description: string;
  summary?: string;
  previewImages?: string[];
  visibility?: string;
  target?: string;
  scopes?: string[];
  categories?: string[];
  blocks?: JsonObject[];
  contentSources?: JsonObject[];
  externalLinks?: JsonObject[];
  configurations?: JsonObject;
  script: string;
  organization: string;
  secrets?: Record<string, string>;
  contentSecurityPolicy?: string;
}

export function registerIntegrations(route: Route): void {
  const base = "/v1/integrations";

  interface IntegrationQuery extends ListQuery {
    search?: string;
    category?: string;
    blockDomain?: string;
    blocks?: boolean;
    contentSources?: boolean;
    owner?: string;
    scope?: string;
    target?: string;
  }
  route<Record<string, never>, IntegrationQuery>({
    method: "GET",
    url: base,
    query: listQuery({
      search: STRING,
      category: STRING,
      blockDomain: limit("integrationName"),
      blocks: BOOLEAN,
      contentSources: BOOLEAN,
      owner: STRING,
      scope: STRING,
      target: STRING,
    }),
    handler: (ctx) => {
      const q = ctx.query;
      const search = q.search?.toLowerCase();
      const items = [...ctx.store.all("integrations")].filter(
        (g) =>
          isVisibleTo(ctx, g) &&
          (search === undefined || g.id.toLowerCase().includes(search) || g.title.toLowerCase().includes(search)) &&
          (q.category === undefined || g.categories.includes(q.category)) &&
          (q.blocks === undefined || g.blocks.length > 0 === q.blocks) &&
          (q.contentSources === undefined || g.contentSources.length > 0 === q.contentSources) &&
          (q.owner === undefined || g.owner === q.owner) &&
          (q.scope === undefined || g.scopes.includes(q.scope)) &&
          (q.target === undefined || g.target === q.target) &&
          (q.blockDomain === undefined ||
            g.blocks.some((b) => Array.isArray(b.urlUnfurl) && b.urlUnfurl.some((u) => typeof u === "string" && u.includes(q.blockDomain!)))),
      );
      const key = `integrations:${JSON.stringify([search, q.category, q.blockDomain, q.blocks, q.contentSources, q.owner, q.scope, q.target])}`;
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
    body: obj(
      {
        runtime: STRING,
        icon: STRING,
        title: limit("integrationTitle"),
        description: limit("integrationDescription"),
        summary: limit("integrationSummary"),
        previewImages: limit("integrationPreviewImages"),
        visibility: STRING,
        target: STRING,
        scopes: STRINGS,
        categories: STRINGS,
        blocks: OBJECTS,
        contentSources: OBJECTS,
        externalLinks: { type: "array", items: obj({ url: STRING, label: STRING }, ["url"]) },
        configurations: { type: "object" },
        script: STRING,
        organization: STRING,
        secrets: { type: "object", additionalProperties: STRING },
        contentSecurityPolicy: STRING,
      },
      ["title", "description", "script", "organization"],
    ),
    handler: (ctx) => {
      const name = ctx.params.integrationName;
      if (!NAME.test(name) || name.length > 100) throw badRequest("params/integrationName", `must match pattern "${NAME.source}" and have at most 100 characters`);
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
        runtime: b.runtime ?? "v1",
        title: b.title,
        description: b.description,
        summary: b.summary ?? null,
        icon: b.icon ?? null,
        previewImages: b.previewImages ?? [],
        target: b.target ?? "all",
        visibility: b.visibility ?? "private",
        scopes: b.scopes ?? [],
        categories: b.categories ?? [],
        blocks: b.blocks ?? [],
        contentSources: b.contentSources ?? [],
        externalLinks: b.externalLinks ?? [],
        configurations: b.configurations ?? {},
        contentSecurityPolicy: b.contentSecurityPolicy ?? null,
        secretNames: Object.keys(b.secrets ?? {}),
        script: b.script,
        secretDigests: Object.fromEntries(Object.entries(b.secrets ?? {}).map(([k, v]) => [k, createHash("sha256").update(v, "utf8").digest("hex")])),
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
