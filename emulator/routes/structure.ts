/** The routes of a site's structure: sections, section groups, site spaces and share links (the operations other areas share are emulator/structure.ts). */
import { randomBytes } from "node:crypto";
import { badRequest, conflict, notFound } from "../errors";
import { BOOLEAN, ID, STRING, limit, listQuery, nullable, obj, type Schema } from "../schema";
import { applyPatch } from "../objects";
import { ownedRow, requireSite, view } from "../access";
import { paginate, type ListQuery } from "../paging";
import type { Ctx, Route } from "../context";
import { newId } from "../seed";
import type { JsonObject, SectionGroupRow, SectionRow, SiteRow, SiteSpaceRow } from "../model";
import { groupIdsInOrder, presentSection, presentSectionGroup, presentShareLink, presentSiteSpace, sectionIdsInOrder, siteLocation } from "../present";
import {
  addSection,
  addSiteSpace,
  attachItem,
  bodyGroup,
  bodySpace,
  childrenOf,
  deleteSection,
  deleteSiteSpace,
  detachItem,
  insertAt,
  isWithin,
  level,
  levelPaths,
  parentOf,
  removeFrom,
  sectionPaths,
  setParent,
  touchLevel,
} from "../structure";
import { registerSiteCollection } from "./siteCollection";

type SiteP = { organizationId: string; siteId: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

const SITES = "/v1/orgs/:organizationId/sites/:siteId";

// ---- positions (deprecated move operations) ----

const POSITION_TARGET: Schema = {
  anyOf: [ID, { type: "object", properties: { type: STRING, id: ID, siteSection: ID, siteSectionGroup: ID, siteSpace: ID } }],
};
const POSITION: Schema = obj({ before: POSITION_TARGET, after: POSITION_TARGET });

type PositionTarget = string | { type?: string; id?: string; siteSection?: string; siteSectionGroup?: string; siteSpace?: string };
interface Position {
  before?: PositionTarget;
  after?: PositionTarget;
}

function readPosition(pos: Position | undefined): { id: string; after: boolean } {
  const target = pos?.before ?? pos?.after;
  if (!pos || target === undefined || (pos.before !== undefined && pos.after !== undefined)) {
    throw badRequest("body/position", "must have exactly one of 'before' or 'after'");
  }
  const id = typeof target === "string" ? target : (target.siteSection ?? target.siteSectionGroup ?? target.siteSpace ?? target.id);
  if (!id) throw badRequest("body/position", "must name the object to move next to");
  return { id, after: pos.after !== undefined };
}

/** The section, section group or external link of `site` a position names, or a 400. */
function structureItem(ctx: AnyCtx, site: SiteRow, id: string): string {
  const row = ctx.store.get("sections", id) ?? ctx.store.get("sectionGroups", id) ?? ctx.store.get("externalLinks", id);
  if (!row || row.site !== site.id) throw badRequest("body/position", `names no section, section group or external link of site '${site.id}': '${id}'`);
  return row.id;
}

// ---- routes ----

function findSection(ctx: AnyCtx, site: SiteRow, id: string): SectionRow {
  return ownedRow(ctx, "sections", id, "site", site.id, "section");
}
function findGroup(ctx: AnyCtx, site: SiteRow, id: string): SectionGroupRow {
  return ownedRow(ctx, "sectionGroups", id, "site", site.id, "section group");
}
function findSiteSpace(ctx: AnyCtx, site: SiteRow, id: string): SiteSpaceRow {
  return ownedRow(ctx, "siteSpaces", id, "site", site.id, "site space");
}


type SectionP = SiteP & { siteSectionId: string };
type SectionPatch = { title?: string; path?: string; defaultSiteSpace?: string; condition?: string | null; icon?: string | null; description?: string | null; localizedTitle?: JsonObject | null; draft?: boolean; siteSectionGroupId?: string | null };
type GroupP = SiteP & { siteSectionGroupId: string };
type SiteSpaceP = SiteP & { siteSpaceId: string };

/** Registers a site's section, section-group, site-space and share-link routes. */
export function registerStructure(route: Route): void {
  registerSections(route);
  registerSectionGroups(route);
  registerSectionGroupMembers(route);
  registerSiteSpaces(route);
  registerShareLinks(route);
}

/** A site's sections: list, create, update, delete, move. */
function registerSections(route: Route): void {
  // -- sections --
  route<SiteP, ListQuery & { shareKey?: string }>({
    method: "GET",
    url: `${SITES}/sections`,
    query: listQuery({ shareKey: STRING }),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      const v = view(ctx, role);
      const items = sectionIdsInOrder(ctx.store, site).map((id) => ctx.store.get("sections", id)!);
      return { status: 200, body: paginate(items, ctx.query, `sections:${site.id}`, (s) => presentSection(v, site, s)) };
    },
  });

  route<SiteP, Record<string, never>, { spaceId: string; title?: string | null; icon?: string | null; siteSectionGroupId?: string; draft?: boolean }>({
    method: "POST",
    url: `${SITES}/sections`,
    body: obj({ spaceId: ID, title: nullable(limit("sectionTitle")), icon: nullable(limit("icon")), siteSectionGroupId: ID, draft: BOOLEAN }, ["spaceId"]),
    handler: (ctx) => {
      const { org, site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const space = bodySpace(ctx, org.id, ctx.body.spaceId, "body/spaceId");
      const group = bodyGroup(ctx, site, ctx.body.siteSectionGroupId, "body/siteSectionGroupId");
      const title = ctx.body.title ?? (space.title.length >= 2 ? space.title.slice(0, 128) : "Section");
      const section = addSection(ctx.store, site, space, title, ctx.body.icon ?? null, { group, draft: ctx.body.draft });
      const location = `${siteLocation(view(ctx, role), site)}/sections/${section.id}`;
      return { status: 201, body: presentSection(view(ctx, role), site, section), location };
    },
  });

  route<SectionP, Record<string, never>, SectionPatch>({
    method: "PATCH",
    url: `${SITES}/sections/:siteSectionId`,
    body: obj({
      title: limit("sectionTitle"),
      path: limit("sectionPath"),
      defaultSiteSpace: ID,
      condition: nullable(limit("condition")),
      icon: nullable(limit("icon")),
      description: nullable(limit("sectionDescription")),
      localizedTitle: nullable(limit("loc128")),
      draft: BOOLEAN,
      siteSectionGroupId: nullable(ID),
    }),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const section = findSection(ctx, site, ctx.params.siteSectionId);
      const b = ctx.body ?? {};
      if (b.path !== undefined && b.path !== section.path && sectionPaths(ctx.store, site, section.id).has(b.path)) {
        throw conflict(`path '${b.path}' is already used by another section of site '${site.id}'`);
      }
      if (b.defaultSiteSpace !== undefined && !section.siteSpaces.includes(b.defaultSiteSpace)) {
        throw badRequest("body/defaultSiteSpace", `names no site space of section '${section.id}': '${b.defaultSiteSpace}'`);
      }
      const group = b.siteSectionGroupId === undefined ? undefined : bodyGroup(ctx, site, b.siteSectionGroupId, "body/siteSectionGroupId");
      applyPatch(section, b, ["title", "path", "defaultSiteSpace", "condition", "icon", "description", "localizedTitle", "draft"]);
      // Into a group (or back to the root): at the end of that level, as the API says to sort afterwards.
      if (group !== undefined && group !== section.group) {
        detachItem(ctx.store, site, section.id);
        attachItem(ctx.store, site, section.id, group);
      }
      ctx.store.touch("sections", section);
      return { status: 200, body: presentSection(view(ctx, role), site, section) };
    },
  });

  route<SectionP>({
    method: "DELETE",
    url: `${SITES}/sections/:siteSectionId`,
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      deleteSection(ctx.store, site, findSection(ctx, site, ctx.params.siteSectionId));
      return { status: 205 };
    },
  });

  route<SectionP, Record<string, never>, { position: Position }>({
    method: "POST",
    url: `${SITES}/sections/:siteSectionId/move`,
    body: obj({ position: POSITION }, ["position"]),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const section = findSection(ctx, site, ctx.params.siteSectionId);
      const { id, after } = readPosition(ctx.body.position);
      if (id === section.id) throw badRequest("body/position", "cannot place a section next to itself");
      // Next to any item of the navigation: the section joins that item's level.
      const target = structureItem(ctx, site, id);
      detachItem(ctx.store, site, section.id);
      attachItem(ctx.store, site, section.id, parentOf(ctx.store, target) ?? null, { target, after });
      ctx.store.touch("sections", section);
      ctx.store.touch("sites", site);
      return { status: 200, body: presentSection(view(ctx, role), site, section) };
    },
  });
}

/** A site's section groups: list, create, update, delete. */
function registerSectionGroups(route: Route): void {
  // -- section groups --
  route<SiteP, ListQuery>({
    method: "GET",
    url: `${SITES}/section-groups`,
    query: listQuery(),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      const v = view(ctx, role);
      const groups = groupIdsInOrder(ctx.store, site).map((id) => ctx.store.get("sectionGroups", id)!);
      return { status: 200, body: paginate(groups, ctx.query, `section-groups:${site.id}`, (g) => presentSectionGroup(v, site, g)) };
    },
  });

  route<SiteP, Record<string, never>, { title: string; icon?: string | null; sections?: string[]; parent?: string; draft?: boolean }>({
    method: "POST",
    url: `${SITES}/section-groups`,
    body: obj({ title: limit("sectionGroupTitle"), icon: nullable(limit("icon")), sections: { type: "array", items: ID }, parent: ID, draft: BOOLEAN }, ["title"]),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const sections = (ctx.body.sections ?? []).map((id, i) => {
        const s = ctx.store.get("sections", id);
        if (!s || s.site !== site.id) throw badRequest(`body/sections/${i}`, `names no section of site '${site.id}': '${id}'`);
        return s;
      });
      const parent = bodyGroup(ctx, site, ctx.body.parent, "body/parent");
      const group: SectionGroupRow = {
        id: newId("sitesg_"), site: site.id, title: ctx.body.title, icon: ctx.body.icon ?? null, children: [], parent, draft: ctx.body.draft ?? false, createdAt: ctx.store.nowIso(),
      };
      ctx.store.put("sectionGroups", group);
      // The group takes the place of its first section of the same level (or goes last).
      const anchor = sections.find((s) => s.group === parent);
      if (anchor) attachItem(ctx.store, site, group.id, parent, { target: anchor.id, after: false });
      else attachItem(ctx.store, site, group.id, parent);
      for (const s of sections) {
        detachItem(ctx.store, site, s.id);
        attachItem(ctx.store, site, s.id, group.id);
      }
      const location = `${siteLocation(view(ctx, role), site)}/section-groups/${group.id}`;
      return { status: 201, body: presentSectionGroup(view(ctx, role), site, group), location };
    },
  });

  route<GroupP, Record<string, never>, { title?: string; icon?: string | null; draft?: boolean; parentSectionGroupId?: string | null }>({
    method: "PATCH",
    url: `${SITES}/section-groups/:siteSectionGroupId`,
    body: obj({ title: limit("sectionGroupTitle"), icon: nullable(limit("icon")), draft: BOOLEAN, parentSectionGroupId: nullable(ID) }),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const group = findGroup(ctx, site, ctx.params.siteSectionGroupId);
      const b = ctx.body ?? {};
      const parent = b.parentSectionGroupId === undefined ? undefined : bodyGroup(ctx, site, b.parentSectionGroupId, "body/parentSectionGroupId");
      if (parent !== undefined && parent !== null && isWithin(ctx.store, parent, group.id)) {
        throw badRequest("body/parentSectionGroupId", `cannot put section group '${group.id}' inside itself or one of its own groups`);
      }
      applyPatch(group, b, ["title", "icon", "draft"]);
      if (parent !== undefined && parent !== (group.parent ?? null)) {
        detachItem(ctx.store, site, group.id);
        attachItem(ctx.store, site, group.id, parent);
      }
      ctx.store.touch("sectionGroups", group);
      return { status: 200, body: presentSectionGroup(view(ctx, role), site, group) };
    },
  });

  route<GroupP>({
    method: "DELETE",
    url: `${SITES}/section-groups/:siteSectionGroupId`,
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const group = findGroup(ctx, site, ctx.params.siteSectionGroupId);
      // Its children (sections, nested groups, external links) go up one level, where the group was.
      const parent = group.parent ?? null;
      const level = childrenOf(ctx.store, site, parent);
      level.splice(level.indexOf(group.id), 1, ...group.children);
      for (const id of group.children) setParent(ctx.store, id, parent);
      ctx.store.del("sectionGroups", group.id);
      touchLevel(ctx.store, site, parent);
      return { status: 205 };
    },
  });
}

/** A section group's sections: add, remove; and moving the group. */
function registerSectionGroupMembers(route: Route): void {
  route<GroupP, Record<string, never>, { sectionId: string }>({
    method: "POST",
    url: `${SITES}/section-groups/:siteSectionGroupId/sections`,
    body: obj({ sectionId: ID }, ["sectionId"]),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const group = findGroup(ctx, site, ctx.params.siteSectionGroupId);
      const section = ctx.store.get("sections", ctx.body.sectionId);
      if (!section || section.site !== site.id) throw badRequest("body/sectionId", `names no section of site '${site.id}': '${ctx.body.sectionId}'`);
      if (section.group !== group.id) {
        detachItem(ctx.store, site, section.id);
        attachItem(ctx.store, site, section.id, group.id);
      }
      const location = `${siteLocation(view(ctx, role), site)}/section-groups/${group.id}`;
      return { status: 201, body: presentSectionGroup(view(ctx, role), site, group), location };
    },
  });

  route<GroupP & { siteSectionId: string }>({
    method: "DELETE",
    url: `${SITES}/section-groups/:siteSectionGroupId/sections/:siteSectionId`,
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const group = findGroup(ctx, site, ctx.params.siteSectionGroupId);
      const section = ctx.store.get("sections", ctx.params.siteSectionId);
      if (!section || section.group !== group.id) throw notFound("section in group", ctx.params.siteSectionId);
      // Up one level, right after the group.
      detachItem(ctx.store, site, section.id);
      attachItem(ctx.store, site, section.id, group.parent ?? null, { target: group.id, after: true });
      return { status: 205 };
    },
  });

  route<GroupP, Record<string, never>, { position: Position }>({
    method: "POST",
    url: `${SITES}/section-groups/:siteSectionGroupId/move`,
    body: obj({ position: POSITION }, ["position"]),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const group = findGroup(ctx, site, ctx.params.siteSectionGroupId);
      const { id, after } = readPosition(ctx.body.position);
      if (id === group.id) throw badRequest("body/position", "cannot place a section group next to itself");
      // Next to any item of the navigation, outside the group itself: the group joins that item's level.
      const target = structureItem(ctx, site, id);
      const level = parentOf(ctx.store, target) ?? null;
      if (isWithin(ctx.store, level, group.id)) throw badRequest("body/position", "cannot place a section group next to one of its own children");
      detachItem(ctx.store, site, group.id);
      attachItem(ctx.store, site, group.id, level, { target, after });
      return { status: 200, body: presentSectionGroup(view(ctx, role), site, group) };
    },
  });
}

/** A site's site spaces: list, create, update, delete, move. */
function registerSiteSpaces(route: Route): void {
  // -- site spaces --
  route<SiteP, ListQuery & { shareKey?: string; default?: boolean }>({
    method: "GET",
    url: `${SITES}/site-spaces`,
    query: listQuery({ shareKey: STRING, default: BOOLEAN }),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      const v = view(ctx, role);
      const all: { ss: SiteSpaceRow; isDefault: boolean }[] = [];
      for (const id of site.rootSiteSpaces) all.push({ ss: ctx.store.get("siteSpaces", id)!, isDefault: site.defaultSiteSpace === id });
      for (const sid of sectionIdsInOrder(ctx.store, site)) {
        const section = ctx.store.get("sections", sid)!;
        for (const id of section.siteSpaces) all.push({ ss: ctx.store.get("siteSpaces", id)!, isDefault: section.defaultSiteSpace === id });
      }
      const wanted = ctx.query.default;
      const items = wanted === undefined ? all : all.filter((x) => x.isDefault === wanted);
      return { status: 200, body: paginate(items, ctx.query, `site-spaces:${site.id}:${String(wanted)}`, (x) => presentSiteSpace(v, site, x.ss)) };
    },
  });

  route<SiteP, Record<string, never>, { spaceId: string; sectionId?: string; draft?: boolean }>({
    method: "POST",
    url: `${SITES}/site-spaces`,
    body: obj({ spaceId: ID, sectionId: ID, draft: BOOLEAN }, ["spaceId"]),
    handler: (ctx) => {
      const { org, site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const space = bodySpace(ctx, org.id, ctx.body.spaceId, "body/spaceId");
      let section: SectionRow | null = null;
      if (ctx.body.sectionId !== undefined) {
        section = ctx.store.get("sections", ctx.body.sectionId) ?? null;
        if (!section || section.site !== site.id) throw badRequest("body/sectionId", `names no section of site '${site.id}': '${ctx.body.sectionId}'`);
      } else if (site.defaultSection) section = ctx.store.get("sections", site.defaultSection)!;
      const ss = addSiteSpace(ctx.store, site, section, space, ctx.body.draft ?? false);
      const location = `${siteLocation(view(ctx, role), site)}/site-spaces/${ss.id}`;
      return { status: 201, body: presentSiteSpace(view(ctx, role), site, ss), location };
    },
  });

  // `hidden` is set here only: the create body has no such member (a hidden site space is created, then hidden).
  route<SiteSpaceP, Record<string, never>, { path?: string; condition?: string | null; spaceId?: string; draft?: boolean; hidden?: boolean }>({
    method: "PATCH",
    url: `${SITES}/site-spaces/:siteSpaceId`,
    body: obj({ path: limit("siteSpacePath"), condition: nullable(limit("condition")), spaceId: ID, draft: BOOLEAN, hidden: BOOLEAN }),
    handler: (ctx) => {
      const { org, site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const ss = findSiteSpace(ctx, site, ctx.params.siteSpaceId);
      const b = ctx.body ?? {};
      const section = ss.section ? ctx.store.get("sections", ss.section)! : null;
      if (b.path !== undefined && b.path !== ss.path && levelPaths(ctx.store, level(site, section), ss.id).has(b.path)) {
        throw conflict(`path '${b.path}' is already used by another site space at the same level of site '${site.id}'`);
      }
      const space = b.spaceId !== undefined ? bodySpace(ctx, org.id, b.spaceId, "body/spaceId") : undefined;
      applyPatch(ss, b, ["path", "condition", "draft", "hidden"]);
      if (space) ss.space = space.id;
      ctx.store.touch("siteSpaces", ss);
      return { status: 200, body: presentSiteSpace(view(ctx, role), site, ss) };
    },
  });

  route<SiteSpaceP>({
    method: "DELETE",
    url: `${SITES}/site-spaces/:siteSpaceId`,
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      deleteSiteSpace(ctx.store, site, findSiteSpace(ctx, site, ctx.params.siteSpaceId));
      return { status: 205 };
    },
  });

  route<SiteSpaceP, Record<string, never>, { position: Position }>({
    method: "POST",
    url: `${SITES}/site-spaces/:siteSpaceId/move`,
    body: obj({ position: POSITION }, ["position"]),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const ss = findSiteSpace(ctx, site, ctx.params.siteSpaceId);
      const { id, after } = readPosition(ctx.body.position);
      if (id === ss.id) throw badRequest("body/position", "cannot place a site space next to itself");
      const target = ctx.store.get("siteSpaces", id);
      if (!target || target.site !== site.id) throw badRequest("body/position", `names no site space of site '${site.id}': '${id}'`);
      const from = ss.section ? ctx.store.get("sections", ss.section)! : null;
      const to = target.section ? ctx.store.get("sections", target.section)! : null;
      if (from !== to && levelPaths(ctx.store, level(site, to)).has(ss.path)) {
        throw conflict(`path '${ss.path}' is already used at the level of site space '${target.id}'`);
      }
      removeFrom(level(site, from), ss.id);
      insertAt(level(site, to), ss.id, target.id, after);
      if (from !== to) {
        // The moved site space leaves its level: that level's default moves on if it was the one.
        if (from && from.defaultSiteSpace === ss.id) from.defaultSiteSpace = from.siteSpaces[0] ?? null;
        if (!from && site.defaultSiteSpace === ss.id) site.defaultSiteSpace = site.rootSiteSpaces[0] ?? null;
        ss.section = to?.id ?? null;
      }
      if (from) ctx.store.touch("sections", from);
      if (to) ctx.store.touch("sections", to);
      ctx.store.touch("sites", site);
      ctx.store.touch("siteSpaces", ss);
      return { status: 200, body: presentSiteSpace(view(ctx, role), site, ss) };
    },
  });
}

/** A site's share links: list, create, update, delete (no GET of one: read through the list). */
function registerShareLinks(route: Route): void {
  registerSiteCollection<"shareLinks", { name: string; active?: boolean }, { name: string; active: boolean }>(route, {
    path: "share-links",
    param: "shareLinkId",
    table: "shareLinks",
    what: "share link",
    read: { role: "admin", action: "read share links" },
    get: false,
    present: presentShareLink,
    create: {
      body: obj({ name: limit("shareLinkName"), active: BOOLEAN }, ["name"]),
      row: (ctx, site) => ({
        id: newId("sl_"),
        site: site.id,
        name: ctx.body.name,
        active: ctx.body.active ?? true,
        secret: randomBytes(24).toString("base64url"),
        createdAt: ctx.store.nowIso(),
      }),
    },
    update: {
      body: obj({ name: limit("shareLinkName"), active: BOOLEAN }),
      apply: (link, b) => applyPatch(link, b, ["name", "active"]),
    },
  });
}
