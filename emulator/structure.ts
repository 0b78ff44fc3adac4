/**
 * The operations on a site's structure that more than one area performs: adding and deleting sections
 * and site spaces (with their levels' defaults and unique paths), deleting a site with everything in it,
 * and the navigation tree, where the root level and each group's children share one display order.
 */
import type { Ctx } from "./context";
import { badRequest } from "./errors";
import type { SectionRow, SiteRow, SiteSpaceRow, SpaceRow } from "./model";
import { groupIdsInOrder, sectionIdsInOrder } from "./present";
import { newId } from "./seed";
import { slugify, uniquePath } from "./slug";
import type { Store } from "./store";

type AnyCtx = Ctx<unknown, unknown, unknown>;

/** A live space of the organization named by a body field, or a 400 naming the field. */
export function bodySpace(ctx: AnyCtx, orgId: string, spaceId: string, field: string): SpaceRow {
  const space = ctx.store.get("spaces", spaceId);
  if (!space || space.org !== orgId || space.deletedAt !== null) throw badRequest(field, `names no live space of organization '${orgId}': '${spaceId}'`);
  return space;
}

/** Site-space IDs of one level: a section's, or the site's root level. */
export function level(site: SiteRow, section: SectionRow | null): string[] {
  return section ? section.siteSpaces : site.rootSiteSpaces;
}

/** The paths taken at a level, but `except`'s. */
export function levelPaths(store: Store, ids: string[], except?: string): Set<string> {
  return new Set(ids.filter((id) => id !== except).map((id) => store.get("siteSpaces", id)!.path));
}

/** Adds a site space for `space` at the end of a level; the first at a level becomes its default. */
export function addSiteSpace(store: Store, site: SiteRow, section: SectionRow | null, space: SpaceRow, draft = false): SiteSpaceRow {
  const ids = level(site, section);
  const row: SiteSpaceRow = {
    id: newId("sitesp_"),
    site: site.id,
    section: section?.id ?? null,
    space: space.id,
    path: uniquePath(slugify(space.title, "space"), levelPaths(store, ids)),
    condition: null,
    draft,
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

/** Takes `id` out of `list`, where it is. */
export function removeFrom(list: string[], id: string): void {
  const i = list.indexOf(id);
  if (i !== -1) list.splice(i, 1);
}

/** Deletes a site space; the next one at its level becomes the default if it was. */
export function deleteSiteSpace(store: Store, site: SiteRow, ss: SiteSpaceRow): void {
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

/** The paths of a site's sections, but `except`'s. */
export function sectionPaths(store: Store, site: SiteRow, except?: string): Set<string> {
  return new Set(sectionIdsInOrder(store, site).filter((id) => id !== except).map((id) => store.get("sections", id)!.path));
}

/** Creates a section at the end of a level (the root, or a group) with a site space for `space`; the first section is the default. */
export function addSection(store: Store, site: SiteRow, space: SpaceRow, title: string, icon: string | null, opts: { group?: string | null; draft?: boolean } = {}): SectionRow {
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
    draft: opts.draft ?? false,
    createdAt: store.nowIso(),
  };
  store.put("sections", section);
  attachItem(store, site, section.id, opts.group ?? null);
  site.defaultSection ??= section.id;
  store.touch("sites", site);
  addSiteSpace(store, site, section, space, opts.draft ?? false);
  return section;
}

/** Deletes a section and its site spaces; the first remaining section becomes the default if it was. */
export function deleteSection(store: Store, site: SiteRow, section: SectionRow): void {
  for (const id of [...section.siteSpaces]) store.del("siteSpaces", id);
  detachItem(store, site, section.id);
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
  for (const id of groupIdsInOrder(store, site)) store.del("sectionGroups", id);
  for (const l of [...store.all("externalLinks")]) if (l.site === site.id) store.del("externalLinks", l.id);
  for (const id of site.rootSiteSpaces) store.del("siteSpaces", id);
  for (const l of [...store.all("shareLinks")]) if (l.site === site.id) store.del("shareLinks", l.id);
  for (const r of [...store.all("redirects")]) if (r.site === site.id) store.del("redirects", r.id);
  for (const g of [...store.all("gitInstallations")]) if (g.target.siteId === site.id) store.del("gitInstallations", g.id);
  for (const table of ["mcpServers", "channels", "contextConnections"] as const) for (const r of [...store.all(table)]) if (r.site === site.id) store.del(table, r.id);
  store.del("agentSettings", site.id);
  store.del("sites", site.id);
}

/** Puts `id` into `list` before or after `targetId`. */
export function insertAt(list: string[], id: string, targetId: string, after: boolean): void {
  const i = list.indexOf(targetId);
  list.splice(after ? i + 1 : i, 0, id);
}

// ---- the navigation tree: the root level and each group's children share one display order ----

/** The display-order list of a level: a group's children, or the site's root level (null). */
export function childrenOf(store: Store, site: SiteRow, group: string | null): string[] {
  return group === null ? site.structure : store.get("sectionGroups", group)!.children;
}

/** The group a section, section group or external link sits in (null: the root); undefined for anything else. */
export function parentOf(store: Store, id: string): string | null | undefined {
  const section = store.get("sections", id);
  if (section) return section.group;
  const group = store.get("sectionGroups", id);
  if (group) return group.parent ?? null;
  const link = store.get("externalLinks", id);
  if (link) return link.group;
  return undefined;
}

/** Records the group an item sits in (null: the root). */
export function setParent(store: Store, id: string, group: string | null): void {
  const section = store.get("sections", id);
  if (section) {
    section.group = group;
    store.touch("sections", section);
  }
  const g = store.get("sectionGroups", id);
  if (g) {
    g.parent = group;
    store.touch("sectionGroups", g);
  }
  const link = store.get("externalLinks", id);
  if (link) {
    link.group = group;
    store.touch("externalLinks", link);
  }
}

/** Marks a level changed: the site for its root, else the group. */
export function touchLevel(store: Store, site: SiteRow, group: string | null): void {
  if (group === null) store.touch("sites", site);
  else store.touch("sectionGroups", store.get("sectionGroups", group)!);
}

/** Takes a section, section group or external link out of its level (it stays stored). */
export function detachItem(store: Store, site: SiteRow, id: string): void {
  const group = parentOf(store, id) ?? null;
  removeFrom(childrenOf(store, site, group), id);
  touchLevel(store, site, group);
}

/** Puts a detached item into a level: next to `at.target` (before, or after), or at the end. */
export function attachItem(store: Store, site: SiteRow, id: string, group: string | null, at?: { target: string; after: boolean }): void {
  const list = childrenOf(store, site, group);
  if (at) insertAt(list, id, at.target, at.after);
  else list.push(id);
  setParent(store, id, group);
  touchLevel(store, site, group);
}

/** True when `group` is `ancestor` or nested (at any depth) inside it. */
export function isWithin(store: Store, group: string | null, ancestor: string): boolean {
  for (let g = group; g !== null; g = store.get("sectionGroups", g)?.parent ?? null) if (g === ancestor) return true;
  return false;
}

/** A section group of `site` named by a body field (null: the root), or a 400 naming the field. */
export function bodyGroup(ctx: AnyCtx, site: SiteRow, id: string | null | undefined, field: string): string | null {
  if (id === undefined || id === null) return null;
  const g = ctx.store.get("sectionGroups", id);
  if (!g || g.site !== site.id) throw badRequest(field, `names no section group of site '${site.id}': '${id}'`);
  return g.id;
}
