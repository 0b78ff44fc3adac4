/**
 * Integration installations: an integration installed on an organization (its configuration and which
 * spaces and sites it applies to), then enabled on chosen sites and spaces; and the organization's list
 * of its installations.
 */
import { conflict, notFound } from "../errors";
import { BOOLEAN, STRING, limit, listQuery, obj, type Schema } from "../schema";
import { paginate, type ListQuery } from "../paging";
import { requireOrg, roleIn, view } from "../access";
import type { Ctx, Route } from "../context";
import type { InstallationRow, InstallationSelection, JsonObject, TargetInstallationRow } from "../model";
import { APP_URL, presentIntegration, presentSite, presentSpace } from "../present";
import { newId } from "../seed";
import { findIntegration } from "./integrations";

type AnyCtx = Ctx<unknown, unknown, unknown>;
type NameP = { integrationName: string };
type InstP = NameP & { installationId: string };
type Extended = { extended?: boolean };

const PUBLIC_ENDPOINT = "https://integrations.docsplatform.dev/v1/integrations";
const CONFIGURATION: Schema = { type: "object" };

/** The installation, when the caller is a member of the organization it is installed on; else a 404. */
function findInstallation(ctx: Ctx<InstP, unknown, unknown>): InstallationRow {
  const g = findIntegration(ctx, ctx.params.integrationName);
  const i = ctx.store.get("installations", ctx.params.installationId);
  if (!i || i.integration !== g.id || !ctx.store.get("members", `${i.org}:${ctx.user}`)) throw notFound("installation", ctx.params.installationId);
  return i;
}

/** Like {@link findInstallation}, for a change: only an admin of the organization may make it. */
function installationToChange(ctx: Ctx<InstP, unknown, unknown>): InstallationRow {
  const i = findInstallation(ctx);
  requireOrg(ctx, i.org, "admin", "manage integration installations");
  return i;
}

function targetsOf(ctx: AnyCtx, installation: string, kind: "site" | "space"): TargetInstallationRow[] {
  return [...ctx.store.all("targetInstallations")].filter((t) => t.installation === installation && t.kind === kind);
}

function presentInstallation(ctx: AnyCtx, i: InstallationRow): Record<string, unknown> {
  const spaces = i.spaceSelection === "all" ? [...ctx.store.all("spaces")].filter((s) => s.org === i.org && s.deletedAt === null).length : targetsOf(ctx, i.id, "space").length;
  const endpoint = `${PUBLIC_ENDPOINT}/${i.integration}/installations/${i.id}`;
  return {
    id: i.id,
    status: i.status,
    space_selection: i.spaceSelection,
    site_selection: i.siteSelection,
    spaces,
    configuration: structuredClone(i.configuration),
    externalIds: [...i.externalIds],
    target: { organization: i.org },
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
    urls: {
      location: `${ctx.base}/v1/integrations/${i.integration}/installations/${i.id}`,
      app: `${APP_URL}/o/${i.org}/integrations/${i.integration}`,
      publicEndpoint: endpoint,
      publicContentEndpoint: endpoint,
    },
  };
}

function presentTarget(ctx: AnyCtx, t: TargetInstallationRow, extended: boolean | undefined): Record<string, unknown> {
  const location = `${ctx.base}/v1/integrations/${t.integration}/installations/${t.installation}/${t.kind}s/${t.target}`;
  const endpoint = `${PUBLIC_ENDPOINT}/${t.integration}/installations/${t.installation}/${t.kind}s/${t.target}`;
  let target: unknown = t.target;
  if (extended) {
    const v = view(ctx, roleIn(ctx, ctx.store.get("installations", t.installation)!.org));
    target = t.kind === "site" ? presentSite(v, ctx.store.get("sites", t.target)!) : presentSpace(v, ctx.store.get("spaces", t.target)!);
  }
  return {
    integration: t.integration,
    installation: t.installation,
    status: t.status,
    configuration: structuredClone(t.configuration),
    externalIds: [...t.externalIds],
    urls: { location, publicEndpoint: endpoint, publicContentEndpoint: endpoint },
    [t.kind]: target,
  };
}

/** Site or space installations whose site or space still exists. */
function live(ctx: AnyCtx, rows: TargetInstallationRow[]): TargetInstallationRow[] {
  return rows.filter((t) => (t.kind === "site" ? ctx.store.get("sites", t.target) !== undefined : ctx.store.get("spaces", t.target)?.deletedAt === null));
}

interface TargetPatch {
  externalIds?: string[];
  configuration?: JsonObject;
}

/** The routes of site (or space) installations under one installation. */
function registerTargets(route: Route, kind: "site" | "space"): void {
  const base = `/v1/integrations/:integrationName/installations/:installationId/${kind}s`;
  const param = kind === "site" ? "siteId" : "spaceId";
  type OneP = InstP & Record<string, string>;

  /** The site or space of the installation's organization named by `id`, or a 404. */
  const targetOf = (ctx: AnyCtx, i: InstallationRow, id: string): string => {
    const found = kind === "site" ? ctx.store.get("sites", id) : ctx.store.get("spaces", id);
    const gone = found === undefined || found.org !== i.org || (kind === "space" && ctx.store.get("spaces", id)!.deletedAt !== null);
    if (gone) throw notFound(kind, id);
    return id;
  };
  const one = (ctx: Ctx<OneP, unknown, unknown>, i: InstallationRow): TargetInstallationRow => {
    const row = ctx.store.get("targetInstallations", `${i.id}:${kind}:${ctx.params[param]}`);
    if (!row || live(ctx, [row]).length === 0) throw notFound(`${kind} installation`, ctx.params[param]!);
    return row;
  };

  route<InstP, ListQuery & Extended>({
    method: "GET",
    url: base,
    query: listQuery({ extended: BOOLEAN }),
    handler: (ctx) => {
      const i = findInstallation(ctx);
      const items = live(ctx, targetsOf(ctx, i.id, kind));
      return { status: 200, body: paginate(items, ctx.query, `${kind}-installations:${i.id}:${ctx.query.extended === true}`, (t) => presentTarget(ctx, t, ctx.query.extended)) };
    },
  });

  route<InstP, Extended, Record<string, string>>({
    method: "POST",
    url: base,
    query: obj({ extended: BOOLEAN }),
    body: kind === "site" ? obj({ siteId: limit("id") }, ["siteId"]) : obj({ space: limit("id") }, ["space"]),
    handler: (ctx) => {
      const i = installationToChange(ctx);
      const target = targetOf(ctx, i, kind === "site" ? ctx.body.siteId! : ctx.body.space!);
      const id = `${i.id}:${kind}:${target}`;
      if (ctx.store.get("targetInstallations", id)) throw conflict(`integration '${i.integration}' is already enabled on ${kind} '${target}'`);
      const row = ctx.store.put("targetInstallations", {
        id, installation: i.id, integration: i.integration, kind, target, status: "active", configuration: {}, externalIds: [], createdAt: ctx.store.nowIso(),
      });
      const body = presentTarget(ctx, row, ctx.query.extended);
      return { status: 201, body, location: (body.urls as { location: string }).location };
    },
  });

  route<OneP, Extended>({
    method: "GET",
    url: `${base}/:${param}`,
    query: obj({ extended: BOOLEAN }),
    handler: (ctx) => ({ status: 200, body: presentTarget(ctx, one(ctx, findInstallation(ctx)), ctx.query.extended) }),
  });

  route<OneP, Extended, TargetPatch | undefined>({
    method: "PATCH",
    url: `${base}/:${param}`,
    query: obj({ extended: BOOLEAN }),
    body: obj({ externalIds: limit("externalIds"), configuration: CONFIGURATION }),
    handler: (ctx) => {
      const row = one(ctx, installationToChange(ctx));
      if (ctx.body?.externalIds !== undefined) row.externalIds = [...ctx.body.externalIds];
      if (ctx.body?.configuration !== undefined) row.configuration = structuredClone(ctx.body.configuration);
      ctx.store.touch("targetInstallations", row);
      return { status: 200, body: presentTarget(ctx, row, ctx.query.extended) };
    },
  });

  route<OneP>({
    method: "DELETE",
    url: `${base}/:${param}`,
    handler: (ctx) => {
      ctx.store.del("targetInstallations", one(ctx, installationToChange(ctx)).id);
      return { status: 205 };
    },
  });

  // Every site (or space) installation of the integration the caller can see.
  route<NameP, ListQuery & Extended & { externalId?: string }>({
    method: "GET",
    url: `/v1/integrations/:integrationName/${kind}s`,
    query: listQuery({ extended: BOOLEAN, externalId: STRING }),
    handler: (ctx) => {
      const g = findIntegration(ctx, ctx.params.integrationName);
      const q = ctx.query;
      const items = live(ctx, [...ctx.store.all("targetInstallations")]).filter(
        (t) =>
          t.integration === g.id &&
          t.kind === kind &&
          ctx.store.get("members", `${ctx.store.get("installations", t.installation)!.org}:${ctx.user}`) !== undefined &&
          (q.externalId === undefined || t.externalIds.includes(q.externalId)),
      );
      return { status: 200, body: paginate(items, q, `integration-${kind}s:${g.id}:${q.externalId ?? ""}:${q.extended === true}`, (t) => presentTarget(ctx, t, q.extended)) };
    },
  });
}

interface InstallationPatch {
  externalIds?: string[];
  configuration?: JsonObject;
  space_selection?: InstallationSelection;
  site_selection?: InstallationSelection;
}

export function registerInstallations(route: Route): void {
  const base = "/v1/integrations/:integrationName/installations";

  route<NameP, Record<string, never>, { organization: string }>({
    method: "POST",
    url: base,
    body: obj({ organization: limit("id") }, ["organization"]),
    handler: (ctx) => {
      const g = findIntegration(ctx, ctx.params.integrationName);
      const org = ctx.store.get("orgs", ctx.body.organization);
      if (!org) throw notFound("organization", ctx.body.organization);
      requireOrg(ctx, org.id, "admin", "install integrations");
      if (g.visibility === "private" && g.owner !== org.id) throw notFound("integration", g.id);
      if ([...ctx.store.all("installations")].some((i) => i.integration === g.id && i.org === org.id)) {
        throw conflict(`integration '${g.id}' is already installed on organization '${org.id}'`);
      }
      const now = ctx.store.nowIso();
      const i = ctx.store.put("installations", {
        id: newId("inst-"), integration: g.id, org: org.id, externalIds: [], createdAt: now, updatedAt: now,
        status: "active", spaceSelection: "selected", siteSelection: "selected", configuration: {},
      });
      const body = presentInstallation(ctx, i);
      return { status: 201, body, location: (body.urls as { location: string }).location };
    },
  });

  route<NameP, ListQuery & { externalId?: string }>({
    method: "GET",
    url: base,
    query: listQuery({ externalId: STRING }),
    handler: (ctx) => {
      const g = findIntegration(ctx, ctx.params.integrationName);
      const items = [...ctx.store.all("installations")].filter(
        (i) => i.integration === g.id && ctx.store.get("members", `${i.org}:${ctx.user}`) !== undefined && (ctx.query.externalId === undefined || i.externalIds.includes(ctx.query.externalId)),
      );
      return { status: 200, body: paginate(items, ctx.query, `installations:${g.id}:${ctx.query.externalId ?? ""}`, (i) => presentInstallation(ctx, i)) };
    },
  });

  route<InstP>({
    method: "GET",
    url: `${base}/:installationId`,
    handler: (ctx) => ({ status: 200, body: presentInstallation(ctx, findInstallation(ctx)) }),
  });

  route<InstP, Record<string, never>, InstallationPatch | undefined>({
    method: "PATCH",
    url: `${base}/:installationId`,
    body: obj({
      externalIds: limit("externalIds"),
      configuration: CONFIGURATION,
      space_selection: limit("installationSelection"),
      site_selection: limit("installationSelection"),
    }),
    handler: (ctx) => {
      const i = installationToChange(ctx);
      const b = ctx.body ?? {};
      if (b.externalIds !== undefined) i.externalIds = [...b.externalIds];
      // The configuration given replaces the stored one whole.
      if (b.configuration !== undefined) i.configuration = structuredClone(b.configuration);
      if (b.space_selection !== undefined) i.spaceSelection = b.space_selection;
      if (b.site_selection !== undefined) i.siteSelection = b.site_selection;
      i.updatedAt = ctx.store.nowIso();
      ctx.store.touch("installations", i);
      return { status: 200, body: presentInstallation(ctx, i) };
    },
  });

  route<InstP>({
    method: "DELETE",
    url: `${base}/:installationId`,
    handler: (ctx) => {
      const i = installationToChange(ctx);
      for (const t of [...ctx.store.all("targetInstallations")]) if (t.installation === i.id) ctx.store.del("targetInstallations", t.id);
      ctx.store.del("installations", i.id);
      return { status: 205 };
    },
  });

  registerTargets(route, "site");
  registerTargets(route, "space");

  route<{ organizationId: string }, ListQuery & { search?: string }>({
    method: "GET",
    url: "/v1/orgs/:organizationId/installations",
    query: listQuery({ search: STRING }),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      const search = ctx.query.search?.toLowerCase();
      const items = [...ctx.store.all("installations")].filter((i) => {
        const g = ctx.store.get("integrations", i.integration);
        return i.org === org.id && g !== undefined && (search === undefined || g.id.toLowerCase().includes(search) || g.title.toLowerCase().includes(search));
      });
      const v = view(ctx, role);
      return {
        status: 200,
        body: paginate(items, ctx.query, `org-installations:${org.id}:${search ?? ""}`, (i) => ({
          integration: presentIntegration(v, ctx.store.get("integrations", i.integration)!),
          installation: presentInstallation(ctx, i),
        })),
      };
    },
  });
}

