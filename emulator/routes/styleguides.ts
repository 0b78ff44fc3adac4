/**
 * Style guides and the organisation's agent instructions (extensions, area 15): the organisation's
 * guides and the built-in templates, a site's own guide space (`POST {site}/styleguide`, which returns
 * the one it made for that site if there is one), style guide runs, and the agent instructions (a
 * Document, replaced by PUT). Attaching a guide to a site is the site PATCH's `styleguide` (sites.ts).
 */
import { badRequest, notFound } from "../errors";
import { limit, listQuery, obj, type Schema } from "../schema";
import { paginate, type ListQuery } from "../paging";
import { requireOrg, requireSite, view } from "../access";
import type { Ctx, Route } from "../context";
import { newId } from "../seed";
import { newRevision } from "../content";
import type { JsonObject, SiteRow, SpaceRow, StyleguideRunRow } from "../model";
import { presentChangeRequest } from "../content";
import { presentSite, presentSpace } from "../present";
import { openDraft } from "./changeRequests";

type OrgP = { organizationId: string };
type SiteP = OrgP & { siteId: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

const ORG = "/v1/orgs/:organizationId";
const SITE = `${ORG}/sites/:siteId`;

/** The built-in templates: a guide made from one starts with one page holding its markdown. */
export const STYLEGUIDE_TEMPLATES = [
  {
    id: "technical-writing",
    title: "Technical writing",
    subtitle: "Plain, precise product documentation",
    emoji: "📐",
    markdown: "# Voice\n\nWrite in the second person and the present tense.\n\n# Words\n\nPrefer short, common words; define every term once.",
  },
  {
    id: "api-reference",
    title: "API reference",
    subtitle: "Consistent endpoint and field descriptions",
    emoji: "🔌",
    markdown: "# Endpoints\n\nStart each description with a verb.\n\n# Fields\n\nName the unit and the limits of every value.",
  },
] as const;

/**
 * The style guide space `id` names for `site`'s organisation: a live space of type `styleguide`, or a
 * 400 naming the member (a space that is not a guide is refused: the description does not say the
 * error, so the emulator answers 400).
 */
export function guideSpace(ctx: AnyCtx, site: SiteRow, id: string, at = "body/styleguide"): SpaceRow {
  const space = ctx.store.get("spaces", id);
  if (!space || space.org !== site.org || space.deletedAt !== null) throw badRequest(at, `names no space of organization '${site.org}': '${id}'`);
  if (space.type !== "styleguide") throw badRequest(at, `space '${id}' is not a style guide (its type is not styleguide)`);
  return space;
}

/** The empty document of instructions never written. */
const EMPTY_DOCUMENT: JsonObject = { object: "document", data: {}, nodes: [] };

const DOCUMENT: Schema = { type: "object", required: ["object", "data", "nodes"], properties: { object: { const: "document" }, data: { type: "object" }, nodes: { type: "array" } } };

export function registerStyleguides(route: Route): void {
  registerGuideLists(route);
  registerSiteGuide(route);
  registerRuns(route);
  registerAgentInstructions(route);
}

/** The organisation's guides (each with the sites it is attached to) and the templates. */
function registerGuideLists(route: Route): void {
  route<OrgP>({
    method: "GET",
    url: `${ORG}/styleguides`,
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      const v = view(ctx, role);
      const sites = [...ctx.store.all("sites")].filter((s) => s.org === org.id);
      const guides = [...ctx.store.all("spaces")].filter((s) => s.org === org.id && s.type === "styleguide" && s.deletedAt === null);
      const styleguides = guides.map((g) => ({ space: presentSpace(v, g), sites: sites.filter((s) => s.styleguide === g.id).map((s) => presentSite(v, s)) }));
      return { status: 200, body: { styleguides } };
    },
  });
  route<OrgP>({
    method: "GET",
    url: `${ORG}/styleguide-templates`,
    handler: (ctx) => {
      requireOrg(ctx, ctx.params.organizationId, "read");
      return { status: 200, body: { templates: STYLEGUIDE_TEMPLATES.map((t) => ({ ...t })) } };
    },
  });
}

/**
 * `POST {site}/styleguide`: the site's own guide space, made on the first call (blank, or with the
 * template's page) and returned unchanged afterwards (a template then changes nothing). It does not
 * attach the guide: the site PATCH's `styleguide` does.
 */
function registerSiteGuide(route: Route): void {
  route<SiteP, Record<string, never>, { template?: string } | undefined>({
    method: "POST",
    url: `${SITE}/styleguide`,
    body: obj({ template: limit("styleguideTemplate") }),
    handler: (ctx) => {
      const { org, site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const v = view(ctx, role);
      const existing = [...ctx.store.all("spaces")].find((s) => s.type === "styleguide" && s.styleguideFor === site.id && s.deletedAt === null);
      if (existing) return { status: 200, body: presentSpace(v, existing) };
      const templateId = ctx.body?.template;
      const template = templateId === undefined ? undefined : STYLEGUIDE_TEMPLATES.find((t) => t.id === templateId);
      if (templateId !== undefined && !template) throw badRequest("body/template", `names no style guide template: '${templateId}'`);
      const now = ctx.store.nowIso();
      const space: SpaceRow = {
        id: newId("space_"), org: org.id, title: `${site.title} style guide`.slice(0, 50), emoji: template?.emoji ?? "", visibility: "private",
        createdAt: now, updatedAt: now, deletedAt: null, editMode: "live", parent: null, defaultLevel: null, language: null,
        revision: "", comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0, type: "styleguide", styleguideFor: site.id,
      };
      const pages = template
        ? [{ id: newId("page_"), title: template.title, slug: template.id, emoji: null, description: template.subtitle, markdown: template.markdown, createdAt: now, updatedAt: now, pages: [] }]
        : [];
      space.revision = newRevision(ctx.store, space, { parents: [], type: "edits", createdBy: ctx.user, pages, files: [] }).id;
      ctx.store.put("spaces", space);
      return { status: 200, body: presentSpace(v, space) };
    },
  });
}

/** Style guide runs: the attached guide checked against up to three content spaces of the site. */
function registerRuns(route: Route): void {
  const present = (site: SiteRow, run: StyleguideRunRow) => ({
    object: "styleguide-run",
    id: run.id,
    site: site.id,
    styleguide: run.styleguide,
    spaces: [...run.spaces],
    createdAt: run.createdAt,
    createdBy: { object: "user", id: run.createdBy },
  });

  route<SiteP, Record<string, never>, { spaces: string[] }>({
    method: "POST",
    url: `${SITE}/styleguide/runs`,
    body: obj({ spaces: limit("styleguideRunSpaces") }, ["spaces"]),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      // Without a guide on the site a run fails: the description lists 404 for this operation.
      if (!site.styleguide) throw notFound("style guide of site", site.id);
      const spaces = ctx.body.spaces.map((id, i) => {
        const s = ctx.store.get("spaces", id);
        if (!s || s.org !== site.org || s.deletedAt !== null || s.type === "styleguide") throw badRequest(`body/spaces/${i}`, `names no content space of organization '${site.org}': '${id}'`);
        return s;
      });
      const run: StyleguideRunRow = { id: newId("sgrun_"), styleguide: site.styleguide, spaces: spaces.map((s) => s.id), createdAt: ctx.store.nowIso(), createdBy: ctx.user, changeRequests: [] };
      const v = view(ctx, role);
      const changeRequests = spaces.map((space) => {
        // A check still open is taken over and keeps the tag of the run that opened it.
        const open = [...ctx.store.all("changeRequests")].find((cr) => cr.space === space.id && cr.styleguideRun !== undefined && (cr.status === "draft" || cr.status === "open"));
        const cr = open ?? openDraft(ctx, space, { subject: "Style guide check", agentTaskId: null, styleguideRun: run.id });
        run.changeRequests.push(cr.id);
        return presentChangeRequest(v, space, cr);
      });
      site.styleguideRuns = [...(site.styleguideRuns ?? []), run];
      ctx.store.touch("sites", site);
      return { status: 201, body: { run: present(site, run), changeRequests } };
    },
  });

  route<SiteP, ListQuery>({
    method: "GET",
    url: `${SITE}/styleguide/runs`,
    query: listQuery(),
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      const newestFirst = [...(site.styleguideRuns ?? [])].reverse();
      return { status: 200, body: paginate(newestFirst, ctx.query, `styleguide-runs:${site.id}`, (run) => present(site, run)) };
    },
  });
}

/** The organisation's agent instructions: an empty document until first written; PUT replaces them (admins). */
function registerAgentInstructions(route: Route): void {
  const present = (ctx: AnyCtx, orgId: string, ai: { document: JsonObject; updatedAt: string; updatedBy: string } | undefined, createdAt: string) => ({
    object: "agent-instructions",
    instructions: structuredClone(ai?.document ?? EMPTY_DOCUMENT),
    updatedAt: ai?.updatedAt ?? createdAt,
    updatedBy: ai?.updatedBy ?? "",
    urls: { location: `/v1/orgs/${orgId}/agent-instructions` },
  });
  route<OrgP>({
    method: "GET",
    url: `${ORG}/agent-instructions`,
    handler: (ctx) => {
      const { org } = requireOrg(ctx, ctx.params.organizationId, "read");
      return { status: 200, body: present(ctx, org.id, org.agentInstructions, org.createdAt) };
    },
  });
  route<OrgP, Record<string, never>, { instructions: JsonObject }>({
    method: "PUT",
    url: `${ORG}/agent-instructions`,
    body: obj({ instructions: DOCUMENT }, ["instructions"]),
    handler: (ctx) => {
      const { org } = requireOrg(ctx, ctx.params.organizationId, "admin", "change the agent instructions");
      org.agentInstructions = { document: structuredClone(ctx.body.instructions), updatedAt: ctx.store.nowIso(), updatedBy: ctx.user };
      ctx.store.touch("orgs", org);
      return { status: 200, body: present(ctx, org.id, org.agentInstructions, org.createdAt) };
    },
  });
}
