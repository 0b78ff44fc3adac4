/** Site structure: sections, section groups, site spaces and share links, with their display order, defaults and paths. */
import { randomBytes } from "node:crypto";
import { badRequest, conflict, notFound } from "../errors";
import { BOOLEAN, ID, STRING, applyPatch, limit, listQuery, nullable, obj, ownedRow, paginate, requireSite, slugify, uniquePath, view, type Ctx, type ListQuery, type Route, type Schema } from "../context";
import { newId } from "../seed";
import type { SectionGroupRow, SectionRow, ShareLinkRow, SiteRow, SiteSpaceRow, SpaceRow } from "../model";
import { presentSection, presentSectionGroup, presentShareLink, presentSiteSpace, sectionIdsInOrder, siteLocation } from "../present";
import type { Store } from "../store";

type SiteP = { organizationId: string; siteId: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

const SITES = "/v1/orgs/:organizationId/sites/:siteId";

// ---- shared operations (also used by sites.ts) ----

/** A live space of the organization named by a body field, or a 400 naming the field. */
export function bodySpace(ctx: AnyCtx, orgId: string, spaceId: string, field: string): SpaceRow {
  const space = ctx.store.get("spaces", spaceId);
  if (!space || space.org !== orgId || space.deletedAt !== null) throw badRequest(field, `names no live space of organization '${orgId}': '${spaceId}'`);
  return space;
}

/** Site-space IDs of one level: a section's, or the site's root level. */
function level(site: SiteRow, section: SectionRow | null): string[] {
  return section ? section.siteSpaces : site.rootSiteSpaces;
}

function levelPaths(store: Store, ids: string[], except?: string): Set<string> {
  return new Set(ids.filter((id) => id !== except).map((id) => store.get("siteSpaces", id)!.path));
}

/** Adds a site space for `space` at the end of a level; the first at a level becomes its default. */
export function addSiteSpace(store: Store, site: SiteRow, section: SectionRow | null, space: SpaceRow): SiteSpaceRow {
  const ids = level(site, section);
  const row: SiteSpaceRow = {
    id: newId("sitesp_"),
    site: site.id,
    section: section?.id ?? null,
    space: space.id,
    path: uniquePath(slugify(space.title, "space"), levelPaths(store, ids)),
    condition: null,
    createdAt: store.nowIso(),
  };
  store.put("siteSpaces", row);
  ids.push(row.id);
  if (section) {
    section.defaultSiteSpace ??= row.id;
    store.touch("sections", section);
  } else {
    site.defaultSiteSpace ??= row.id;
    store.touch("sites", site);
  }
  return row;
}

function removeFrom(list: string[], id: string): void {
  const i = list.indexOf(id);
  if (i !== -1) list.splice(i, 1);
}

/** Deletes a site space; the next one at its level becomes the default if it was. */
function deleteSiteSpace(store: Store, site: SiteRow, ss: SiteSpaceRow): void {
  const section = ss.section ? store.get("sections", ss.section)! : null;
  const ids = level(site, section);
  removeFrom(ids, ss.id);
  if (section) {
    if (section.defaultSiteSpace === ss.id) section.defaultSiteSpace = section.siteSpaces[0] ?? null;
    store.touch("sections", section);
  } else {
    if (site.defaultSiteSpace === ss.id) site.defaultSiteSpace = site.rootSiteSpaces[0] ?? null;
    store.touch("sites", site);
  }
  store.del("siteSpaces", ss.id);
}

function sectionPaths(store: Store, site: SiteRow, except?: string): Set<string> {
  return new Set(sectionIdsInOrder(store, site).filter((id) => id !== except).map((id) => store.get("sections", id)!.path));
}

/** Creates a section at the end of the root level with a site space for `space`; the first section is the default. */
export function addSection(store: Store, site: SiteRow, space: SpaceRow, title: string, icon: string | null): SectionRow {
  const section: SectionRow = {
    id: newId("sitesc_"),
    site: site.id,
    title,
    path: uniquePath(slugify(title, "section"), sectionPaths(store, site)),
    description: null,
    condition: null,
    icon,
    group: null,
    siteSpaces: [],
    defaultSiteSpace: null,
    createdAt: store.nowIso(),
  };
  store.put("sections", section);
  site.structure.push(section.id);
  site.defaultSection ??= section.id;
  store.touch("sites", site);
  addSiteSpace(store, site, section, space);
  return section;
}

/** Deletes a section and its site spaces; the first remaining section becomes the default if it was. */
function deleteSection(store: Store, site: SiteRow, section: SectionRow): void {
  for (const id of [...section.siteSpaces]) store.del("siteSpaces", id);
  if (section.group) {
    const group = store.get("sectionGroups", section.group)!;
    removeFrom(group.sections, section.id);
    store.touch("sectionGroups", group);
  } else removeFrom(site.structure, section.id);
  store.del("sections", section.id);
  if (site.defaultSection === section.id) site.defaultSection = sectionIdsInOrder(store, site)[0] ?? null;
  store.touch("sites", site);
}

/** Deletes a site and everything in it. */
export function deleteSiteCascade(store: Store, site: SiteRow): void {
  for (const id of sectionIdsInOrder(store, site)) {
    const section = store.get("sections", id)!;
    for (const ssid of section.siteSpaces) store.del("siteSpaces", ssid);
    store.del("sections", id);
  }
  for (const id of site.structure) if (store.get("sectionGroups", id)) store.del("sectionGroups", id);
  for (const id of site.rootSiteSpaces) store.del("siteSpaces", id);
  for (const l of [...store.all("shareLinks")]) if (l.site === site.id) store.del("shareLinks", l.id);
  for (const r of [...store.all("redirects")]) if (r.site === site.id) store.del("redirects", r.id);
  store.del("sites", site.id);
}

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

function insertAt(list: string[], id: string, targetId: string, after: boolean): void {
  const i = list.indexOf(targetId);
  list.splice(after ? i + 1 : i, 0, id);
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
function findShareLink(ctx: AnyCtx, site: SiteRow, id: string): ShareLinkRow {
  return ownedRow(ctx, "shareLinks", id, "site", site.id, "share link");
}

/** Moves a section out of its container (root or group) without deleting it. */
function detachSection(store: Store, site: SiteRow, section: SectionRow): void {
  if (section.group) {
    const g = store.get("sectionGroups", section.group)!;
    removeFrom(g.sections, section.id);
    store.touch("sectionGroups", g);
  } else removeFrom(site.structure, section.id);
  section.group = null;
}

export function registerStructure(route: Route): void {
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

  route<SiteP, Record<string, never>, { spaceId: string; title?: string | null; icon?: string | null }>({
    method: "POST",
    url: `${SITES}/sections`,
    body: obj({ spaceId: ID, title: nullable(limit("sectionTitle")), icon: nullable(limit("icon")) }, ["spaceId"]),
    handler: (ctx) => {
      const { org, site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const space = bodySpace(ctx, org.id, ctx.body.spaceId, "body/spaceId");
      const title = ctx.body.title ?? (space.title.length >= 2 ? space.title.slice(0, 128) : "Section");
      const section = addSection(ctx.store, site, space, title, ctx.body.icon ?? null);
      const location = `${siteLocation(view(ctx, role), site)}/sections/${section.id}`;
      return { status: 201, body: presentSection(view(ctx, role), site, section), location };
    },
  });

  type SectionP = SiteP & { siteSectionId: string };
  route<SectionP, Record<string, never>, { title?: string; path?: string; defaultSiteSpace?: string; condition?: string | null; icon?: string | null; description?: string | null }>({
    method: "PATCH",
    url: `${SITES}/sections/:siteSectionId`,
    body: obj({
      title: limit("sectionTitle"),
      path: limit("sectionPath"),
      defaultSiteSpace: ID,
      condition: nullable(limit("condition")),
      icon: nullable(limit("icon")),
      description: nullable(limit("sectionDescription")),
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
      applyPatch(section, b, ["title", "path", "defaultSiteSpace", "condition", "icon", "description"]);
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
      const targetSection = ctx.store.get("sections", id);
      const targetGroup = ctx.store.get("sectionGroups", id);
      if (targetSection?.site === site.id) {
        detachSection(ctx.store, site, section);
        if (targetSection.group) {
          const g = ctx.store.get("sectionGroups", targetSection.group)!;
          insertAt(g.sections, section.id, targetSection.id, after);
          section.group = g.id;
          ctx.store.touch("sectionGroups", g);
        } else insertAt(site.structure, section.id, targetSection.id, after);
      } else if (targetGroup?.site === site.id) {
        detachSection(ctx.store, site, section);
        insertAt(site.structure, section.id, targetGroup.id, after);
      } else throw badRequest("body/position", `names no section or section group of site '${site.id}': '${id}'`);
      ctx.store.touch("sections", section);
      ctx.store.touch("sites", site);
      return { status: 200, body: presentSection(view(ctx, role), site, section) };
    },
  });

  // -- section groups --
  route<SiteP, ListQuery>({
    method: "GET",
    url: `${SITES}/section-groups`,
    query: listQuery(),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      const v = view(ctx, role);
      const groups = site.structure.map((id) => ctx.store.get("sectionGroups", id)).filter((g): g is SectionGroupRow => g !== undefined);
      return { status: 200, body: paginate(groups, ctx.query, `section-groups:${site.id}`, (g) => presentSectionGroup(v, site, g)) };
    },
  });

  route<SiteP, Record<string, never>, { title: string; icon?: string | null; sections?: string[] }>({
    method: "POST",
    url: `${SITES}/section-groups`,
    body: obj({ title: limit("sectionGroupTitle"), icon: nullable(limit("icon")), sections: { type: "array", items: ID } }, ["title"]),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const sections = (ctx.body.sections ?? []).map((id, i) => {
        const s = ctx.store.get("sections", id);
        if (!s || s.site !== site.id) throw badRequest(`body/sections/${i}`, `names no section of site '${site.id}': '${id}'`);
        return s;
      });
      const group: SectionGroupRow = { id: newId("sitesg_"), site: site.id, title: ctx.body.title, icon: ctx.body.icon ?? null, sections: [], createdAt: ctx.store.nowIso() };
      // The group takes the place of its first section (or goes last).
      const anchor = sections.find((s) => s.group === null);
      if (anchor) insertAt(site.structure, group.id, anchor.id, false);
      else site.structure.push(group.id);
      for (const s of sections) {
        detachSection(ctx.store, site, s);
        s.group = group.id;
        group.sections.push(s.id);
        ctx.store.touch("sections", s);
      }
      ctx.store.put("sectionGroups", group);
      ctx.store.touch("sites", site);
      const location = `${siteLocation(view(ctx, role), site)}/section-groups/${group.id}`;
      return { status: 201, body: presentSectionGroup(view(ctx, role), site, group), location };
    },
  });

  type GroupP = SiteP & { siteSectionGroupId: string };
  route<GroupP, Record<string, never>, { title?: string; icon?: string | null }>({
    method: "PATCH",
    url: `${SITES}/section-groups/:siteSectionGroupId`,
    body: obj({ title: limit("sectionGroupTitle"), icon: nullable(limit("icon")) }),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const group = findGroup(ctx, site, ctx.params.siteSectionGroupId);
      const b = ctx.body ?? {};
      applyPatch(group, b, ["title", "icon"]);
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
      // Its sections go back to the root level, where the group was.
      const i = site.structure.indexOf(group.id);
      site.structure.splice(i, 1, ...group.sections);
      for (const id of group.sections) {
        const s = ctx.store.get("sections", id)!;
        s.group = null;
        ctx.store.touch("sections", s);
      }
      ctx.store.del("sectionGroups", group.id);
      ctx.store.touch("sites", site);
      return { status: 205 };
    },
  });

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
        detachSection(ctx.store, site, section);
        section.group = group.id;
        group.sections.push(section.id);
        ctx.store.touch("sections", section);
        ctx.store.touch("sectionGroups", group);
        ctx.store.touch("sites", site);
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
      removeFrom(group.sections, section.id);
      section.group = null;
      // Back to the root level, right after the group.
      insertAt(site.structure, section.id, group.id, true);
      ctx.store.touch("sections", section);
      ctx.store.touch("sectionGroups", group);
      ctx.store.touch("sites", site);
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
      const target = ctx.store.get("sections", id) ?? ctx.store.get("sectionGroups", id);
      if (!target || target.site !== site.id) throw badRequest("body/position", `names no section or section group of site '${site.id}': '${id}'`);
      // Groups live at the root: a section inside a group anchors through its group.
      const anchor = "group" in target && target.group ? target.group : target.id;
      if (anchor === group.id) throw badRequest("body/position", "cannot place a section group next to one of its own sections");
      removeFrom(site.structure, group.id);
      insertAt(site.structure, group.id, anchor, after);
      ctx.store.touch("sites", site);
      return { status: 200, body: presentSectionGroup(view(ctx, role), site, group) };
    },
  });

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

  route<SiteP, Record<string, never>, { spaceId: string; sectionId?: string }>({
    method: "POST",
    url: `${SITES}/site-spaces`,
    body: obj({ spaceId: ID, sectionId: ID }, ["spaceId"]),
    handler: (ctx) => {
      const { org, site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const space = bodySpace(ctx, org.id, ctx.body.spaceId, "body/spaceId");
      let section: SectionRow | null = null;
      if (ctx.body.sectionId !== undefined) {
        section = ctx.store.get("sections", ctx.body.sectionId) ?? null;
        if (!section || section.site !== site.id) throw badRequest("body/sectionId", `names no section of site '${site.id}': '${ctx.body.sectionId}'`);
      } else if (site.defaultSection) section = ctx.store.get("sections", site.defaultSection)!;
      const ss = addSiteSpace(ctx.store, site, section, space);
      const location = `${siteLocation(view(ctx, role), site)}/site-spaces/${ss.id}`;
      return { status: 201, body: presentSiteSpace(view(ctx, role), site, ss), location };
    },
  });

  type SiteSpaceP = SiteP & { siteSpaceId: string };
  route<SiteSpaceP, Record<string, never>, { path?: string; condition?: string | null; spaceId?: string }>({
    method: "PATCH",
    url: `${SITES}/site-spaces/:siteSpaceId`,
    body: obj({ path: limit("siteSpacePath"), condition: nullable(limit("condition")), spaceId: ID }),
    handler: (ctx) => {
      const { org, site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const ss = findSiteSpace(ctx, site, ctx.params.siteSpaceId);
      const b = ctx.body ?? {};
      const section = ss.section ? ctx.store.get("sections", ss.section)! : null;
      if (b.path !== undefined && b.path !== ss.path && levelPaths(ctx.store, level(site, section), ss.id).has(b.path)) {
        throw conflict(`path '${b.path}' is already used by another site space at the same level of site '${site.id}'`);
      }
      const space = b.spaceId !== undefined ? bodySpace(ctx, org.id, b.spaceId, "body/spaceId") : undefined;
      applyPatch(ss, b, ["path", "condition"]);
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

  // -- share links --
  route<SiteP, ListQuery>({
    method: "GET",
    url: `${SITES}/share-links`,
    query: listQuery(),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin", "read share links");
      const v = view(ctx, role);
      const items = [...ctx.store.all("shareLinks")].filter((l) => l.site === site.id);
      return { status: 200, body: paginate(items, ctx.query, `share-links:${site.id}`, (l) => presentShareLink(v, site, l)) };
    },
  });

  route<SiteP, Record<string, never>, { name: string; active?: boolean }>({
    method: "POST",
    url: `${SITES}/share-links`,
    body: obj({ name: limit("shareLinkName"), active: BOOLEAN }, ["name"]),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const link: ShareLinkRow = {
        id: newId("sl_"),
        site: site.id,
        name: ctx.body.name,
        active: ctx.body.active ?? true,
        secret: randomBytes(24).toString("base64url"),
        createdAt: ctx.store.nowIso(),
      };
      ctx.store.put("shareLinks", link);
      const location = `${siteLocation(view(ctx, role), site)}/share-links/${link.id}`;
      return { status: 201, body: presentShareLink(view(ctx, role), site, link), location };
    },
  });

  type LinkP = SiteP & { shareLinkId: string };
  route<LinkP, Record<string, never>, { name?: string; active?: boolean }>({
    method: "PATCH",
    url: `${SITES}/share-links/:shareLinkId`,
    body: obj({ name: limit("shareLinkName"), active: BOOLEAN }),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const link = findShareLink(ctx, site, ctx.params.shareLinkId);
      const b = ctx.body ?? {};
      applyPatch(link, b, ["name", "active"]);
      ctx.store.touch("shareLinks", link);
      return { status: 200, body: presentShareLink(view(ctx, role), site, link) };
    },
  });

  route<LinkP>({
    method: "DELETE",
    url: `${SITES}/share-links/:shareLinkId`,
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      ctx.store.del("shareLinks", findShareLink(ctx, site, ctx.params.shareLinkId).id);
      return { status: 205 };
    },
  });
}
