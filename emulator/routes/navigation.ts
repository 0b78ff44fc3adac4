/**
 * A site's navigation as one tree: the structure read, its sort, navigation external links, publish and
 * unpublish, and the duplicate of a site space. The root level and each section group's children share one
 * display order with the deprecated move operations (structure.ts).
 */
import { badRequest, notFound } from "../errors";
import { bodyProperties, bodySchema, fromBody, patchRow, type PatchBody, type PostBody } from "../columns";
import { BOOLEAN, ID, STRING, nullable, obj, type Schema } from "../schema";
import { ownedRow, requireSite, view } from "../access";
import { preferred, type Ctx, type Route } from "../context";
import { newId } from "../seed";
import type { ExternalLinkRow, SectionRow, SiteRow } from "../model";
import { presentExternalLink, presentSite, presentSiteSpace, presentStructureItem, sectionIdsInOrder, siteLocation, type View } from "../present";
import type { Store } from "../store";
import { EXTERNAL_LINK } from "../tables";
import { copySpace } from "./spaces";
import { addSection, addSiteSpace, attachItem, bodyGroup, childrenOf, detachItem, insertAt, parentOf, removeFrom } from "../structure";

type SiteP = { organizationId: string; siteId: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

const SITES = "/v1/orgs/:organizationId/sites/:siteId";

const POINTER_TYPES = ["site-space", "site-section", "site-section-group", "site-external-link"] as const;
type PointerType = (typeof POINTER_TYPES)[number];
interface Pointer {
  type: PointerType;
  id: string;
}
const POINTER: Schema = { ...obj({ type: { type: "string", enum: [...POINTER_TYPES] }, id: ID }, ["type", "id"]), additionalProperties: false };

/** True when a site's structure is made of sections (and groups and links) rather than root site spaces. */
function sectionsSite(site: SiteRow): boolean {
  return site.structure.length > 0 || site.rootSiteSpaces.length === 0;
}

/** The structure of a site: its sections, groups and links, or its root site spaces, in display order (drafts included). */
export function presentStructure(v: View, site: SiteRow): Record<string, unknown> {
  if (sectionsSite(site)) {
    return { type: "sections", structure: site.structure.map((id) => presentStructureItem(v, site, id)) };
  }
  return { type: "siteSpaces", structure: site.rootSiteSpaces.map((id) => presentSiteSpace(v, site, v.store.get("siteSpaces", id)!)) };
}

/** The display-order list a pointed-at item sits in, or a 404 when the site has no such item. */
function levelOf(store: Store, site: SiteRow, p: Pointer): { list: string[]; present: (v: View) => Record<string, unknown> } {
  const unknown = () => notFound(p.type.replace(/-/g, " "), p.id);
  if (p.type === "site-space") {
    const ss = store.get("siteSpaces", p.id);
    if (!ss || ss.site !== site.id) throw unknown();
    const section = ss.section ? store.get("sections", ss.section)! : null;
    return { list: section ? section.siteSpaces : site.rootSiteSpaces, present: (v) => presentSiteSpace(v, site, ss) };
  }
  const row = p.type === "site-section" ? store.get("sections", p.id) : p.type === "site-section-group" ? store.get("sectionGroups", p.id) : store.get("externalLinks", p.id);
  if (!row || row.site !== site.id) throw unknown();
  return { list: childrenOf(store, site, parentOf(store, p.id) ?? null), present: (v) => presentStructureItem(v, site, p.id) };
}

function touchAll(store: Store, site: SiteRow): void {
  store.touch("sites", site);
  for (const id of sectionIdsInOrder(store, site)) store.touch("sections", store.get("sections", id)!);
  for (const g of store.all("sectionGroups")) if (g.site === site.id) store.touch("sectionGroups", g);
}

function findLink(ctx: AnyCtx, site: SiteRow, id: string): ExternalLinkRow {
  return ownedRow(ctx, "externalLinks", id, "site", site.id, "external link");
}

/** A link's body: its columns (tables.ts), and the group it goes into as `parent`. */
type LinkPost = PostBody<ExternalLinkRow, typeof EXTERNAL_LINK> & { parent?: string };
type LinkPatch = PatchBody<ExternalLinkRow, typeof EXTERNAL_LINK> & { parent?: string | null };

type LinkP = SiteP & { siteExternalLinkId: string };
type SiteSpaceP = SiteP & { siteSpaceId: string };

/** Registers a site's structure, external-link, publishing and site-space duplicate routes. */
export function registerNavigation(route: Route): void {
  registerSiteStructure(route);
  registerExternalLinks(route);
  registerPublishing(route);
  registerSiteSpaceDuplicate(route);
}

/** A site's structure: read and sort. */
function registerSiteStructure(route: Route): void {
  route<SiteP, { shareKey?: string }>({
    method: "GET",
    url: `${SITES}/structure`,
    query: obj({ shareKey: STRING }),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      return { status: 200, body: presentStructure(view(ctx, role), site) };
    },
  });

  route<SiteP, Record<string, never>, { item: Pointer; position?: { before?: Pointer; after?: Pointer } }>({
    method: "PATCH",
    url: `${SITES}/structure/sort`,
    body: obj({ item: POINTER, position: { ...obj({ before: POINTER, after: POINTER }), additionalProperties: false } }, ["item"]),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const { item, position = {} } = ctx.body;
      if (position.before !== undefined && position.after !== undefined) throw badRequest("body/position", "must have at most one of 'before' or 'after'");
      const moving = levelOf(ctx.store, site, item);
      const target = position.before ?? position.after;
      if (target !== undefined) {
        if (target.id === item.id) throw badRequest("body/position", "cannot place an item next to itself");
        const at = levelOf(ctx.store, site, target);
        if (at.list !== moving.list) throw badRequest("body/position", `'${target.id}' is not at the same level as '${item.id}': sort orders siblings only (move the item first)`);
        removeFrom(moving.list, item.id);
        insertAt(moving.list, item.id, target.id, position.after !== undefined);
      } else {
        // No position: to the end of its level.
        removeFrom(moving.list, item.id);
        moving.list.push(item.id);
      }
      touchAll(ctx.store, site);
      return preferred(ctx, moving.present(view(ctx, role)));
    },
  });
}

/** A site's external links: create, update, delete. */
function registerExternalLinks(route: Route): void {
  // -- external links --
  route<SiteP, Record<string, never>, LinkPost>({
    method: "POST",
    url: `${SITES}/external-links`,
    body: { ...bodySchema(EXTERNAL_LINK, { parent: ID }), additionalProperties: false },
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      if (!sectionsSite(site)) throw badRequest("body", `site '${site.id}' publishes site spaces at its root: external links need a site organised in sections`);
      const group = bodyGroup(ctx, site, ctx.body.parent, "body/parent");
      const link: ExternalLinkRow = { id: newId("sitelk_"), site: site.id, group: null, ...fromBody(EXTERNAL_LINK, ctx.body), createdAt: ctx.store.nowIso() };
      ctx.store.put("externalLinks", link);
      // A new link goes last in its level.
      attachItem(ctx.store, site, link.id, group);
      const location = `${siteLocation(view(ctx, role), site)}/external-links/${link.id}`;
      return { status: 201, body: presentExternalLink(link), location };
    },
  });

  route<LinkP, Record<string, never>, LinkPatch>({
    method: "PATCH",
    url: `${SITES}/external-links/:siteExternalLinkId`,
    body: { ...obj({ ...bodyProperties(EXTERNAL_LINK), parent: nullable(ID) }), additionalProperties: false },
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const link = findLink(ctx, site, ctx.params.siteExternalLinkId);
      const b = ctx.body ?? {};
      const group = b.parent === undefined ? undefined : bodyGroup(ctx, site, b.parent, "body/parent");
      patchRow(EXTERNAL_LINK, link, b);
      ctx.store.touch("externalLinks", link);
      // To another level: at its end, as the API says to sort afterwards.
      if (group !== undefined && group !== link.group) {
        detachItem(ctx.store, site, link.id);
        attachItem(ctx.store, site, link.id, group);
      }
      return preferred(ctx, presentExternalLink(link));
    },
  });

  route<LinkP>({
    method: "DELETE",
    url: `${SITES}/external-links/:siteExternalLinkId`,
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const link = findLink(ctx, site, ctx.params.siteExternalLinkId);
      detachItem(ctx.store, site, link.id);
      ctx.store.del("externalLinks", link.id);
      return { status: 205 };
    },
  });
}

/** Publishing and unpublishing a site. */
function registerPublishing(route: Route): void {
  // -- publish / unpublish: the same `published` field as the site PATCH --
  for (const [action, published] of [["publish", true], ["unpublish", false]] as const) {
    route<SiteP>({
      method: "POST",
      url: `${SITES}/${action}`,
      handler: (ctx) => {
        const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin", `${action} sites`);
        if (site.published !== published) {
          site.published = published;
          site.updatedAt = ctx.store.nowIso();
          ctx.store.touch("sites", site);
        }
        return { status: 200, body: presentSite(view(ctx, role), site) };
      },
    });
  }
}

/** Duplicating a site space (a full copy of its space). */
function registerSiteSpaceDuplicate(route: Route): void {
  // -- duplicate a site space (a full copy of its space) --
  route<SiteSpaceP, Record<string, never>, { draft?: boolean }>({
    method: "POST",
    url: `${SITES}/site-spaces/:siteSpaceId/duplicate`,
    body: { ...obj({ draft: BOOLEAN }), additionalProperties: false },
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const ss = ownedRow(ctx, "siteSpaces", ctx.params.siteSpaceId, "site", site.id, "site space");
      const original = ctx.store.get("spaces", ss.space);
      if (!original || original.deletedAt !== null) throw badRequest("siteSpaceId", `the space of site space '${ss.id}' is gone`);
      const draft = ctx.body?.draft ?? false;
      const copy = copySpace(ctx.store, original, ctx.user);
      const section = ss.section ? ctx.store.get("sections", ss.section)! : null;
      let added;
      if (section && section.siteSpaces.length === 1) {
        // The only variant of its section: the copy goes into a new sibling section, right after it.
        const sibling: SectionRow = addSection(ctx.store, site, copy, section.title, section.icon, { group: section.group, draft });
        detachItem(ctx.store, site, sibling.id);
        attachItem(ctx.store, site, sibling.id, section.group, { target: section.id, after: true });
        added = ctx.store.get("siteSpaces", sibling.siteSpaces[0]!)!;
      } else added = addSiteSpace(ctx.store, site, section, copy, draft);
      const v = view(ctx, role);
      return { status: 201, body: presentSiteSpace(v, site, added), location: `${siteLocation(v, site)}/site-spaces/${added.id}` };
    },
  });
}
