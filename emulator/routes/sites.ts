/** Sites: list, create (with site spaces or a new space), get, patch (defaults, publishing, proxy; the hostname is read-only), delete, adaptive schema, published structure. */
import { badRequest } from "../errors";
import { BOOLEAN, ID, STRING, limit, listQuery, nullable, obj, type Schema } from "../schema";
import { applyPatch } from "../objects";
import { paginate, type ListQuery } from "../paging";
import { requireOrg, requireSite, view } from "../access";
import type { Route } from "../context";
import { newId } from "../seed";
import type { JsonObject, SiteRow, SpaceRow } from "../model";
import { presentSection, presentSite, presentSiteSpace, sectionIdsInOrder, siteLocation } from "../present";
import { addSiteSpace, bodySpace, deleteSiteCascade } from "../structure";
import { guideSpace } from "./styleguides";

type OrgP = { organizationId: string };
type SiteP = OrgP & { siteId: string };

const CLAIM: Schema = obj({ type: { const: "boolean" }, description: STRING }, ["type"]);
/** The description the platform requires on the `unsigned` member of a visitor schema. */
const UNSIGNED_DESCRIPTION = "Unsigned claims of the site visitor.";
/** A visitor schema: boolean claims, plus `unsigned` holding unsigned boolean claims. */
const ADAPTIVE_SCHEMA: Schema = {
  type: "object",
  required: ["type", "properties"],
  properties: {
    $schema: STRING,
    $id: STRING,
    type: { const: "object" },
    additionalProperties: { const: false },
    properties: {
      type: "object",
      properties: {
        // The platform fixes the unsigned member's description and closes it to undeclared claims.
        unsigned: {
          type: "object",
          required: ["type", "description", "properties", "additionalProperties"],
          properties: { type: { const: "object" }, description: { const: UNSIGNED_DESCRIPTION }, additionalProperties: { const: false }, properties: { type: "object", additionalProperties: CLAIM } },
        },
      },
      additionalProperties: CLAIM,
    },
  },
};

/** The schema of a site that never had one. */
function defaultAdaptiveSchema(): JsonObject {
  return { type: "object", properties: {}, additionalProperties: false };
}

function presentAdaptive(site: SiteRow): Record<string, unknown> {
  return {
    object: "site-adaptive-schema",
    jsonSchema: site.adaptiveSchema ? structuredClone(site.adaptiveSchema.jsonSchema) : defaultAdaptiveSchema(),
    updatedAt: site.adaptiveSchema?.updatedAt ?? site.createdAt,
  };
}

/** The paths the routes below share. */
const base = "/v1/orgs/:organizationId/sites";

/** Registers the site routes. */
export function registerSites(route: Route): void {
  registerSiteList(route);
  registerSite(route);
  registerSiteSchemaAndPublished(route);
}

/** An organisation's sites: list and create. */
function registerSiteList(route: Route): void {
  route<OrgP, ListQuery & { space?: string; title?: string; published?: boolean }>({
    method: "GET",
    url: base,
    query: listQuery({ space: STRING, title: STRING, published: BOOLEAN }),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      const q = ctx.query;
      const v = view(ctx, role);
      const hasSpace = (site: SiteRow, spaceId: string) =>
        site.rootSiteSpaces.some((id) => ctx.store.get("siteSpaces", id)!.space === spaceId) ||
        sectionIdsInOrder(ctx.store, site).some((sid) => ctx.store.get("sections", sid)!.siteSpaces.some((id) => ctx.store.get("siteSpaces", id)!.space === spaceId));
      const items = [...ctx.store.all("sites")].filter(
        (s) =>
          s.org === org.id &&
          (q.title === undefined || s.title.toLowerCase().includes(q.title.toLowerCase())) &&
          (q.published === undefined || s.published === q.published) &&
          (q.space === undefined || hasSpace(s, q.space)),
      );
      return { status: 200, body: paginate(items, q, `sites:${org.id}:${q.title ?? ""}:${String(q.published)}:${q.space ?? ""}`, (s) => presentSite(v, s)) };
    },
  });

  route<OrgP, Record<string, never>, { type?: "basic" | "ultimate"; title?: string; visibility?: SiteRow["visibility"]; spaces?: string[] | "new" }>({
    method: "POST",
    url: base,
    body: obj({
      type: limit("siteType"),
      title: limit("siteTitle"),
      visibility: limit("siteVisibility"),
      spaces: { anyOf: [{ type: "array", items: ID }, { const: "new" }] },
    }),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "admin", "manage sites");
      const b = ctx.body ?? {};
      const title = b.title ?? "Untitled site";
      const spaces: SpaceRow[] = Array.isArray(b.spaces) ? b.spaces.map((id, i) => bodySpace(ctx, org.id, id, `body/spaces/${i}`)) : [];
      const now = ctx.store.nowIso();
      if (b.spaces === "new") {
        const space: SpaceRow = {
          id: newId("space_"), org: org.id, title: title.slice(0, 50), emoji: "", visibility: "private", createdAt: now, updatedAt: now,
          deletedAt: null, editMode: "live", parent: null, defaultLevel: null, revision: newId("rev_"), comments: 0, changeRequests: 0,
          changeRequestsOpen: 0, changeRequestsDraft: 0,
        };
        ctx.store.put("spaces", space);
        spaces.push(space);
      }
      const site: SiteRow = {
        id: newId("site_"), org: org.id, title, type: b.type ?? "basic", visibility: b.visibility ?? "public", published: false,
        hostname: null, basename: null, proxy: null, adaptiveContent: { enabled: false }, agentsContext: "excluded", createdAt: now, updatedAt: now,
        structure: [], rootSiteSpaces: [], defaultSection: null, defaultSiteSpace: null, adaptiveSchema: null,
      };
      ctx.store.put("sites", site);
      for (const space of spaces) addSiteSpace(ctx.store, site, null, space);
      const v = view(ctx, role);
      return { status: 201, body: presentSite(v, site), location: siteLocation(v, site) };
    },
  });
}

/** One site: read, delete, update. */
function registerSite(route: Route): void {
  route<SiteP>({
    method: "GET",
    url: `${base}/:siteId`,
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      return { status: 200, body: presentSite(view(ctx, role), site) };
    },
  });

  route<SiteP>({
    method: "DELETE",
    url: `${base}/:siteId`,
    handler: (ctx) => {
      const { org, site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      deleteSiteCascade(ctx.store, site);
      if (org.defaultContent?.site === site.id) {
        org.defaultContent = null;
        ctx.store.touch("orgs", org);
      }
      return { status: 205 };
    },
  });

  const closed = (properties: Record<string, Schema>): Schema => ({ ...obj(properties), additionalProperties: false });
  interface SitePatch {
    title?: string;
    type?: "basic" | "ultimate";
    visibility?: SiteRow["visibility"];
    basename?: string | null;
    adaptiveContent?: { enabled: boolean };
    agentsContext?: SiteRow["agentsContext"];
    defaultSiteSpace?: string;
    defaultSiteSection?: string;
    proxy?: string | null;
    published?: boolean;
    defaultLevel?: SiteRow["defaultLevel"];
    styleguide?: string | null;
  }
  route<SiteP, Record<string, never>, SitePatch>({
    method: "PATCH",
    url: `${base}/:siteId`,
    // Closed: the API's PATCH body takes only these fields (the hostname, for one, is read-only).
    body: closed({
      title: limit("siteTitle"),
      type: limit("siteType"),
      visibility: limit("siteVisibility"),
      basename: nullable(limit("siteBasename")),
      adaptiveContent: obj({ enabled: BOOLEAN }, ["enabled"]),
      agentsContext: limit("agentsContext"),
      defaultSiteSpace: ID,
      defaultSiteSection: ID,
      proxy: nullable(limit("siteProxy")),
      published: BOOLEAN,
      defaultLevel: limit("siteDefaultLevel"),
      styleguide: nullable(ID),
    }),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const b = ctx.body ?? {};
      // Check every reference before changing anything.
      if (b.defaultSiteSection !== undefined) {
        const s = ctx.store.get("sections", b.defaultSiteSection);
        if (!s || s.site !== site.id) throw badRequest("body/defaultSiteSection", `names no section of site '${site.id}': '${b.defaultSiteSection}'`);
      }
      const defaultSectionAfter = b.defaultSiteSection ?? site.defaultSection;
      let defaultSpaceSection: string | null = null;
      if (b.defaultSiteSpace !== undefined) {
        const ss = ctx.store.get("siteSpaces", b.defaultSiteSpace);
        if (!ss || ss.site !== site.id) throw badRequest("body/defaultSiteSpace", `names no site space of site '${site.id}': '${b.defaultSiteSpace}'`);
        if (ss.section !== null && ss.section !== defaultSectionAfter) {
          throw badRequest("body/defaultSiteSpace", `must be a site space at the root or in the default section; '${ss.id}' is in section '${ss.section}'`);
        }
        defaultSpaceSection = ss.section;
      }
      if (b.styleguide) guideSpace(ctx, site, b.styleguide);
      applyPatch(site, b, ["title", "type", "visibility", "basename", "agentsContext", "proxy", "published", "defaultLevel", "styleguide"]);
      if (b.adaptiveContent !== undefined) site.adaptiveContent = { enabled: b.adaptiveContent.enabled };
      if (b.defaultSiteSection !== undefined) site.defaultSection = b.defaultSiteSection;
      if (b.defaultSiteSpace !== undefined) {
        if (defaultSpaceSection === null) site.defaultSiteSpace = b.defaultSiteSpace;
        else {
          const section = ctx.store.get("sections", defaultSpaceSection)!;
          section.defaultSiteSpace = b.defaultSiteSpace;
          ctx.store.touch("sections", section);
        }
      }
      site.updatedAt = ctx.store.nowIso();
      ctx.store.touch("sites", site);
      return { status: 200, body: presentSite(view(ctx, role), site) };
    },
  });
}

/** A site's adaptive schema and its published view. */
function registerSiteSchemaAndPublished(route: Route): void {
  route<SiteP>({
    method: "GET",
    url: `${base}/:siteId/adaptive-schema`,
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      return { status: 200, body: presentAdaptive(site) };
    },
  });

  route<SiteP, Record<string, never>, { jsonSchema: JsonObject }>({
    method: "PUT",
    url: `${base}/:siteId/adaptive-schema`,
    body: obj({ jsonSchema: ADAPTIVE_SCHEMA }, ["jsonSchema"]),
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      site.adaptiveSchema = { jsonSchema: structuredClone(ctx.body.jsonSchema), updatedAt: ctx.store.nowIso() };
      ctx.store.touch("sites", site);
      return { status: 200, body: presentAdaptive(site) };
    },
  });

  route<SiteP>({
    method: "GET",
    url: `${base}/:siteId/adaptive-schema/template-conditions`,
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      const schema = site.adaptiveSchema?.jsonSchema ?? defaultAdaptiveSchema();
      const props = (schema.properties ?? {}) as Record<string, { description?: string; properties?: Record<string, { description?: string }> }>;
      const items: { description: string; condition: string }[] = [];
      for (const [name, claim] of Object.entries(props)) {
        if (name === "unsigned") {
          for (const [u, c] of Object.entries(claim.properties ?? {})) items.push({ description: c.description ?? u, condition: `visitor.claims.unsigned.${u}` });
        } else items.push({ description: claim.description ?? name, condition: `visitor.claims.${name}` });
      }
      return { status: 200, body: { items } };
    },
  });

  route<SiteP, { shareKey?: string }>({
    method: "GET",
    url: `${base}/:siteId/published`,
    query: obj({ shareKey: STRING }),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      const v = view(ctx, role);
      const sections = sectionIdsInOrder(ctx.store, site);
      const structure =
        sections.length > 0
          ? { type: "sections", structure: sections.map((id) => presentSection(v, site, ctx.store.get("sections", id)!)) }
          : { type: "siteSpaces", structure: site.rootSiteSpaces.map((id) => presentSiteSpace(v, site, ctx.store.get("siteSpaces", id)!)) };
      return { status: 200, body: { object: "published-content-site", site: presentSite(v, site), structure } };
    },
  });
}
