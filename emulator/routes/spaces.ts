/** Spaces (get, patch, soft delete with a 7-day restore window, restore, move, transfer, duplicate, links) and collections. */
import { badRequest, forbidden, notFound } from "../errors";
import { BOOLEAN, ID, STRING, limit, listQuery, nullable, obj, type Schema } from "../schema";
import { applyPatch } from "../objects";
import { paginate, type ListQuery } from "../paging";
import { requireOrg, requireSpace, roleIn, view } from "../access";
import type { Ctx, Route } from "../context";
import { newId } from "../seed";
import { roleAtLeast, type CollectionRow, type Role, type SpaceRow } from "../model";
import { presentCollection, presentSpace } from "../present";
import { linkStats, newRevision, presentPages, revisionLinks, revisionOf, spaceApp } from "../content";
import type { Store } from "../store";

type SpaceP = { spaceId: string };
type CollectionP = { collectionId: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

/** A space that is not deleted, for operations other than get and restore. */
function liveSpace(ctx: AnyCtx, spaceId: string, need: Role, action: string): { space: SpaceRow; role: Role | null } {
  const found = requireSpace(ctx, spaceId, need, action);
  if (found.space.deletedAt !== null) throw notFound("space", spaceId);
  return found;
}

const MOVE_TARGET: Schema = { anyOf: [ID, obj({ type: STRING, space: ID, collection: ID })] };
const POSITION: Schema = obj({ before: MOVE_TARGET, after: MOVE_TARGET });
type MoveTarget = string | { type?: string; space?: string; collection?: string };
interface Position {
  before?: MoveTarget;
  after?: MoveTarget;
}

/** Checks a move position: exactly one of before/after, naming a live space or collection of the organization. */
function checkPosition(store: Store, orgId: string, pos: Position | undefined): void {
  if (pos === undefined) return;
  const target = pos.before ?? pos.after;
  if (target === undefined || (pos.before !== undefined && pos.after !== undefined)) throw badRequest("body/position", "must have exactly one of 'before' or 'after'");
  const id = typeof target === "string" ? target : (target.space ?? target.collection);
  const space = id ? store.get("spaces", id) : undefined;
  const collection = id ? store.get("collections", id) : undefined;
  if (!((space && space.org === orgId && space.deletedAt === null) || (collection && collection.org === orgId))) {
    throw badRequest("body/position", `names no space or collection of organization '${orgId}': '${id ?? ""}'`);
  }
}

/** The parent collection named in a body, checked to belong to the organization. */
function bodyParent(store: Store, orgId: string, parent: string | null | undefined, field: string): string | null | undefined {
  if (parent === undefined || parent === null) return parent;
  const c = store.get("collections", parent);
  if (!c || c.org !== orgId) throw badRequest(field, `names no collection of organization '${orgId}': '${parent}'`);
  return c.id;
}

/** The caller must be an admin of the target organization of a transfer. */
function transferTarget(ctx: AnyCtx, orgId: string): string {
  const org = ctx.store.get("orgs", orgId);
  if (!org) throw badRequest("body/organization", `names no organization: '${orgId}'`);
  if (!roleAtLeast(ctx.store.get("members", `${org.id}:${ctx.user}`)?.role ?? null, "admin")) {
    throw forbidden(`only an admin of organization '${org.id}' may transfer content into it`);
  }
  return org.id;
}

function descendants(store: Store, collectionId: string): CollectionRow[] {
  const out: CollectionRow[] = [];
  const walk = (id: string) => {
    for (const c of store.all("collections")) {
      if (c.parent === id) {
        out.push(c);
        walk(c.id);
      }
    }
  };
  walk(collectionId);
  return out;
}

/** A copy of a space titled "<title> (copy)", starting from the same content in a revision of its own. */
export function copySpace(store: Store, space: SpaceRow, user: string): SpaceRow {
  const now = store.nowIso();
  const id = newId("space_");
  const content = revisionOf(store, space);
  const revision = newRevision(store, { ...space, id }, { parents: [], type: "edits", createdBy: user, pages: structuredClone(content.pages), files: structuredClone(content.files) });
  const copy: SpaceRow = {
    ...structuredClone(space),
    id,
    title: `${space.title} (copy)`.slice(0, 50),
    createdAt: now,
    updatedAt: now,
    revision: revision.id,
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
  };
  store.put("spaces", copy);
  return copy;
}

/** Registers the space and collection routes. */
export function registerSpaces(route: Route): void {
  registerSpace(route);
  registerSpaceContent(route);
  registerCollection(route);
  registerOrgCollections(route);
}

/** One space: read, update, delete, restore, duplicate, move, transfer. */
function registerSpace(route: Route): void {
  route<SpaceP, { shareKey?: string }>({
    method: "GET",
    url: "/v1/spaces/:spaceId",
    query: obj({ shareKey: STRING }),
    handler: (ctx) => {
      const { space, role } = requireSpace(ctx, ctx.params.spaceId, "read");
      return { status: 200, body: presentSpace(view(ctx, role), space) };
    },
  });

  route<SpaceP, Record<string, never>, { editMode?: SpaceRow["editMode"]; title?: string; defaultLevel?: Role | null; emoji?: string; visibility?: SpaceRow["visibility"] }>({
    method: "PATCH",
    url: "/v1/spaces/:spaceId",
    body: obj({ editMode: limit("spaceEditMode"), title: limit("spaceTitle"), defaultLevel: limit("role"), emoji: limit("spaceEmoji"), visibility: limit("spaceVisibility") }),
    handler: (ctx) => {
      const { space, role } = liveSpace(ctx, ctx.params.spaceId, "edit", "change spaces");
      const b = ctx.body ?? {};
      if (b.visibility === "in-collection" && space.parent === null) throw badRequest("body/visibility", "'in-collection' is only for spaces in a collection");
      applyPatch(space, b, ["editMode", "title", "defaultLevel", "emoji", "visibility"]);
      space.updatedAt = ctx.store.nowIso();
      ctx.store.touch("spaces", space);
      return { status: 200, body: presentSpace(view(ctx, role), space) };
    },
  });

  route<SpaceP>({
    method: "DELETE",
    url: "/v1/spaces/:spaceId",
    handler: (ctx) => {
      const { space } = liveSpace(ctx, ctx.params.spaceId, "admin", "delete spaces");
      space.deletedAt = ctx.store.nowIso();
      ctx.store.touch("spaces", space);
      return { status: 205 };
    },
  });

  route<SpaceP>({
    method: "POST",
    url: "/v1/spaces/:spaceId/restore",
    handler: (ctx) => {
      // A space past its window is gone: requireSpace answers 404.
      const { space, role } = requireSpace(ctx, ctx.params.spaceId, "admin", "restore spaces");
      if (space.deletedAt !== null) {
        space.deletedAt = null;
        if (space.parent && !ctx.store.get("collections", space.parent)) space.parent = null;
        space.updatedAt = ctx.store.nowIso();
        ctx.store.touch("spaces", space);
      }
      return { status: 200, body: presentSpace(view(ctx, role), space) };
    },
  });

  route<SpaceP>({
    method: "POST",
    url: "/v1/spaces/:spaceId/duplicate",
    handler: (ctx) => {
      const { space, role } = liveSpace(ctx, ctx.params.spaceId, "create", "duplicate spaces");
      const copy = copySpace(ctx.store, space, ctx.user);
      const v = view(ctx, role);
      return { status: 201, body: presentSpace(v, copy), location: `${ctx.base}/v1/spaces/${copy.id}` };
    },
  });

  route<SpaceP, Record<string, never>, { parent?: string | null; position?: Position }>({
    method: "POST",
    url: "/v1/spaces/:spaceId/move",
    body: obj({ parent: nullable(ID), position: POSITION }),
    handler: (ctx) => {
      const { space, role } = liveSpace(ctx, ctx.params.spaceId, "create", "move spaces");
      const parent = bodyParent(ctx.store, space.org, ctx.body.parent, "body/parent");
      checkPosition(ctx.store, space.org, ctx.body.position);
      if (parent !== undefined) {
        space.parent = parent;
        if (parent === null && space.visibility === "in-collection") space.visibility = "private";
      }
      space.updatedAt = ctx.store.nowIso();
      ctx.store.touch("spaces", space);
      return { status: 200, body: presentSpace(view(ctx, role), space) };
    },
  });

  route<SpaceP, Record<string, never>, { organization: string; parent?: string | null }>({
    method: "POST",
    url: "/v1/spaces/:spaceId/transfer",
    body: obj({ organization: ID, parent: nullable(ID) }, ["organization"]),
    handler: (ctx) => {
      const { space } = liveSpace(ctx, ctx.params.spaceId, "admin", "transfer spaces");
      const target = transferTarget(ctx, ctx.body.organization);
      const parent = bodyParent(ctx.store, target, ctx.body.parent, "body/parent") ?? null;
      space.org = target;
      space.parent = parent;
      if (parent === null && space.visibility === "in-collection") space.visibility = "private";
      space.updatedAt = ctx.store.nowIso();
      ctx.store.touch("spaces", space);
      return { status: 200, body: presentSpace(view(ctx, roleIn(ctx, target)), space) };
    },
  });
}

/** A space's link report and its current content's page tree. */
function registerSpaceContent(route: Route): void {
  route<SpaceP, ListQuery & { status?: "ok" | "broken" | "in-app" }>({
    method: "GET",
    url: "/v1/spaces/:spaceId/links",
    query: listQuery({ status: { enum: ["ok", "broken", "in-app"] } }),
    handler: (ctx) => {
      const { space } = liveSpace(ctx, ctx.params.spaceId, "read", "read spaces");
      // The links of the space's current content; `stats` describe the whole list, whatever the filter.
      const all = revisionLinks(space.org, revisionOf(ctx.store, space));
      const items = ctx.query.status === undefined ? all : all.filter((l) => l.status === ctx.query.status);
      const page = paginate(items, ctx.query, `links:${space.id}:${ctx.query.status ?? ""}`, (x) => x);
      return { status: 200, body: { ...page, stats: linkStats(all) } };
    },
  });

  // Not in the contract (it reads only a change request's content); the platform's own description serves
  // the current content's page tree here, in the same shape: what a preview checks a redirect's page path against.
  route<SpaceP, { metadata?: boolean; computed?: boolean }>({
    method: "GET",
    url: "/v1/spaces/:spaceId/content/pages",
    query: obj({ metadata: BOOLEAN, computed: BOOLEAN }),
    handler: (ctx) => {
      const { space } = liveSpace(ctx, ctx.params.spaceId, "read", "read spaces");
      return { status: 200, body: { pages: presentPages(revisionOf(ctx.store, space), spaceApp(space.id)) } };
    },
  });
}

/** One collection: read, delete, update, its spaces, move, transfer. */
function registerCollection(route: Route): void {
  // -- collections --
  function findCollection(ctx: AnyCtx, id: string, need: Role, action: string): { collection: CollectionRow; role: Role | null } {
    const c = ctx.store.get("collections", id);
    if (!c) throw notFound("collection", id);
    const member = ctx.store.get("members", `${c.org}:${ctx.user}`);
    if (!member || member.disabled) throw notFound("collection", id);
    if (!roleAtLeast(member.role, need)) throw forbidden(`only a member with role ${need} or above of organization '${c.org}' may ${action}`);
    return { collection: c, role: member.role };
  }

  route<CollectionP>({
    method: "GET",
    url: "/v1/collections/:collectionId",
    handler: (ctx) => {
      const { collection, role } = findCollection(ctx, ctx.params.collectionId, "read", "read collections");
      return { status: 200, body: presentCollection(view(ctx, role), collection) };
    },
  });

  route<CollectionP>({
    method: "DELETE",
    url: "/v1/collections/:collectionId",
    handler: (ctx) => {
      const { collection } = findCollection(ctx, ctx.params.collectionId, "admin", "delete collections");
      // Nested collections go with it; their spaces are deleted (restorable for 7 days, back at the root).
      const gone = [collection, ...descendants(ctx.store, collection.id)];
      const ids = new Set(gone.map((c) => c.id));
      const now = ctx.store.nowIso();
      for (const s of ctx.store.all("spaces")) {
        if (s.parent !== null && ids.has(s.parent)) {
          if (s.deletedAt === null) s.deletedAt = now;
          s.parent = null;
          if (s.visibility === "in-collection") s.visibility = "private";
          ctx.store.touch("spaces", s);
        }
      }
      for (const c of gone) ctx.store.del("collections", c.id);
      return { status: 205 };
    },
  });

  route<CollectionP, Record<string, never>, { title?: string; description?: string | null; defaultLevel?: Role | null }>({
    method: "PATCH",
    url: "/v1/collections/:collectionId",
    body: obj({ title: limit("collectionTitle"), description: nullable(limit("collectionDescription")), defaultLevel: limit("role") }),
    handler: (ctx) => {
      const { collection, role } = findCollection(ctx, ctx.params.collectionId, "create", "change collections");
      const b = ctx.body ?? {};
      applyPatch(collection, b, ["title", "description", "defaultLevel"]);
      collection.updatedAt = ctx.store.nowIso();
      ctx.store.touch("collections", collection);
      return { status: 200, body: presentCollection(view(ctx, role), collection) };
    },
  });

  route<CollectionP, ListQuery>({
    method: "GET",
    url: "/v1/collections/:collectionId/spaces",
    query: listQuery(),
    handler: (ctx) => {
      const { collection, role } = findCollection(ctx, ctx.params.collectionId, "read", "read collections");
      const spaces = [...ctx.store.all("spaces")].filter((s) => s.parent === collection.id && s.deletedAt === null);
      return { status: 200, body: paginate(spaces, ctx.query, `collection-spaces:${collection.id}`, (s) => presentSpace(view(ctx, role), s)) };
    },
  });

  route<CollectionP, Record<string, never>, { parent?: string | null; position?: Position }>({
    method: "POST",
    url: "/v1/collections/:collectionId/move",
    body: obj({ parent: nullable(ID), position: POSITION }),
    handler: (ctx) => {
      const { collection, role } = findCollection(ctx, ctx.params.collectionId, "create", "move collections");
      const parent = bodyParent(ctx.store, collection.org, ctx.body.parent, "body/parent");
      if (parent && (parent === collection.id || descendants(ctx.store, collection.id).some((c) => c.id === parent))) {
        throw badRequest("body/parent", "cannot move a collection into itself or one of its descendants");
      }
      checkPosition(ctx.store, collection.org, ctx.body.position);
      if (parent !== undefined) collection.parent = parent;
      collection.updatedAt = ctx.store.nowIso();
      ctx.store.touch("collections", collection);
      return { status: 200, body: presentCollection(view(ctx, role), collection) };
    },
  });

  route<CollectionP, Record<string, never>, { organization: string }>({
    method: "POST",
    url: "/v1/collections/:collectionId/transfer",
    body: obj({ organization: ID }, ["organization"]),
    handler: (ctx) => {
      const { collection } = findCollection(ctx, ctx.params.collectionId, "admin", "transfer collections");
      const target = transferTarget(ctx, ctx.body.organization);
      const moved = [collection, ...descendants(ctx.store, collection.id)];
      const ids = new Set(moved.map((c) => c.id));
      for (const c of moved) {
        c.org = target;
        ctx.store.touch("collections", c);
      }
      collection.parent = null;
      for (const s of ctx.store.all("spaces")) {
        if (s.parent !== null && ids.has(s.parent)) {
          s.org = target;
          ctx.store.touch("spaces", s);
        }
      }
      return { status: 200, body: presentCollection(view(ctx, roleIn(ctx, target)), collection) };
    },
  });
}

/** An organisation's collections: list and create. */
function registerOrgCollections(route: Route): void {
  route<{ organizationId: string }, ListQuery & { nested?: boolean }>({
    method: "GET",
    url: "/v1/orgs/:organizationId/collections",
    query: listQuery({ nested: BOOLEAN }),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      const nested = ctx.query.nested ?? true;
      const items = [...ctx.store.all("collections")].filter((c) => c.org === org.id && (nested || c.parent === null));
      return { status: 200, body: paginate(items, ctx.query, `collections:${org.id}:${String(nested)}`, (c) => presentCollection(view(ctx, role), c)) };
    },
  });

  route<{ organizationId: string }, Record<string, never>, { title?: string; parent?: string }>({
    method: "POST",
    url: "/v1/orgs/:organizationId/collections",
    body: obj({ title: limit("collectionTitle"), parent: ID }),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "create", "create collections");
      const parent = bodyParent(ctx.store, org.id, ctx.body.parent, "body/parent") ?? null;
      const now = ctx.store.nowIso();
      const c: CollectionRow = { id: newId("col_"), org: org.id, title: ctx.body.title ?? "Untitled", description: null, parent, defaultLevel: null, createdAt: now, updatedAt: now };
      ctx.store.put("collections", c);
      return { status: 201, body: presentCollection(view(ctx, role), c), location: `${ctx.base}/v1/collections/${c.id}` };
    },
  });
}
