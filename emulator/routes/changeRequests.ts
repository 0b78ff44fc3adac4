/**
 * Change requests of a space (list, create, get, patch, merge, update from main, PDF) and their content
 * (revision, import from a URL, pages, page, files, file backlinks, page links).
 */
import { badRequest, conflict, notFound } from "../errors";
import { BOOLEAN, STRING, limit, listQuery, obj, type Schema } from "../schema";
import { paginate, type ListQuery } from "../paging";
import { requireSpace, view } from "../access";
import type { Ctx, Route } from "../context";
import { newId } from "../seed";
import type { ChangeRequestRow, ChangeRequestStatus, FileNode, RevisionRow, Role, SpaceRow } from "../model";
import { FILES_URL, changeRequestApp, changedPages, findPage, flatten, importFromUrl, isOutdated, linkStats, mergeTrees, newRevision, pageLinks, presentChangeRequest, presentFile, presentPage, presentPages, presentRevision, recount, revisionOf, type PlacedPage } from "../content";
import { dedupeSlugs } from "../slug";

type SpaceP = { spaceId: string };
type CrP = SpaceP & { changeRequestId: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

const STATUSES: ChangeRequestStatus[] = ["draft", "open", "merged", "archived"];
const CONTENT_QUERY: Record<string, Schema> = { metadata: BOOLEAN, computed: BOOLEAN };

/** A live (not deleted) space the caller may act on with `need`. */
export function liveSpace(ctx: AnyCtx, spaceId: string, need: Role, action: string): { space: SpaceRow; role: Role | null } {
  const found = requireSpace(ctx, spaceId, need, action);
  if (found.space.deletedAt !== null) throw notFound("space", spaceId);
  return found;
}

/** A change request of the space by its ID, or by its number within the space. */
export function findChangeRequest(ctx: AnyCtx, space: SpaceRow, ref: string): ChangeRequestRow {
  const byId = ctx.store.get("changeRequests", ref);
  if (byId && byId.space === space.id) return byId;
  if (/^[1-9][0-9]{0,8}$/.test(ref)) {
    const n = Number(ref);
    for (const cr of ctx.store.all("changeRequests")) if (cr.space === space.id && cr.number === n) return cr;
  }
  throw notFound("change request", ref);
}

/** Space and change request of a request, after checking the caller's role. */
export function changeRequestOf(ctx: Ctx<CrP, unknown, unknown>, need: Role, action: string): { space: SpaceRow; cr: ChangeRequestRow; role: Role | null } {
  const { space, role } = liveSpace(ctx, ctx.params.spaceId, need, action);
  return { space, role, cr: findChangeRequest(ctx, space, ctx.params.changeRequestId) };
}

/** Merged and archived change requests take no more content changes. */
function requireEditable(cr: ChangeRequestRow, action: string): void {
  if (cr.status === "merged" || cr.status === "archived") throw conflict(`change request #${cr.number} is ${cr.status}: it cannot ${action}`);
}

function contributed(cr: ChangeRequestRow, user: string): void {
  if (!cr.contributors.includes(user)) cr.contributors.push(user);
}

/**
 * A new revision joining what the change request changed since its base with main as it is now: a `merge`
 * (main first among the parents) or an `update` of the change request (its revision first).
 */
function joinWithMain(ctx: AnyCtx, space: SpaceRow, cr: ChangeRequestRow, type: "merge" | "update"): { rev: RevisionRow; main: RevisionRow } {
  const baseRev = revisionOf(ctx.store, space, cr.base);
  const ours = revisionOf(ctx.store, space, cr.revision);
  const main = revisionOf(ctx.store, space);
  const rev = newRevision(ctx.store, space, {
    parents: type === "merge" ? [main.id, ours.id] : [ours.id, main.id],
    type,
    createdBy: ctx.user,
    pages: mergeTrees(baseRev.pages, ours.pages, main.pages),
    files: mergeFiles(baseRev.files, ours.files, main.files),
  });
  return { rev, main };
}

/** The content of a change request the caller may read: its space, itself and its current revision. */
function readContent(ctx: Ctx<CrP, unknown, unknown>): { space: SpaceRow; cr: ChangeRequestRow; rev: RevisionRow } {
  const { space, cr } = changeRequestOf(ctx, "read", "read change requests");
  return { space, cr, rev: revisionOf(ctx.store, space, cr.revision) };
}

function pageIn(rev: RevisionRow, pageId: string): PlacedPage {
  const placed = findPage(rev, pageId);
  if (!placed) throw notFound("page", pageId);
  return placed;
}

function fileIn(rev: RevisionRow, fileId: string): FileNode {
  const file = rev.files.find((f) => f.id === fileId);
  if (!file) throw notFound("file", fileId);
  return file;
}

/** The paths the routes below share. */
const base = "/v1/spaces/:spaceId/change-requests";
const one = `${base}/:changeRequestId`;
const content = `${one}/content`;

/** Registers the change request and change-request content routes. */
export function registerChangeRequests(route: Route): void {
  registerChangeRequestItself(route);
  registerChangeRequestActions(route);
  registerChangeRequestPages(route);
  registerChangeRequestFiles(route);
}

/** A space's change requests: list, create, read, update. */
/** A new draft change request of `space` by the caller, on a copy of the space's content (a style guide run's, tagged with it). */
export function openDraft(ctx: AnyCtx, space: SpaceRow, opts: { subject: string; agentTaskId: string | null; styleguideRun?: string }): ChangeRequestRow {
  const main = revisionOf(ctx.store, space);
  const revision = newRevision(ctx.store, space, { parents: [main.id], type: "edits", createdBy: ctx.user, pages: structuredClone(main.pages), files: structuredClone(main.files) });
  let number = 0;
  for (const cr of ctx.store.all("changeRequests")) if (cr.space === space.id) number = Math.max(number, cr.number);
  const now = ctx.store.nowIso();
  const cr: ChangeRequestRow = {
    id: newId("cr_"),
    space: space.id,
    number: number + 1,
    subject: opts.subject,
    status: "draft",
    createdBy: ctx.user,
    createdAt: now,
    updatedAt: now,
    revision: revision.id,
    revisionInitial: main.id,
    revisionMergedAncestor: null,
    revisionMerged: null,
    base: main.id,
    agentTaskId: opts.agentTaskId,
    contributors: [ctx.user],
    ...(opts.styleguideRun === undefined ? {} : { styleguideRun: opts.styleguideRun }),
  };
  ctx.store.put("changeRequests", cr);
  recount(ctx.store, space);
  return cr;
}

function registerChangeRequestItself(route: Route): void {
  route<SpaceP, ListQuery & { status?: ChangeRequestStatus; contributor?: string }>({
    method: "GET",
    url: base,
    query: listQuery({ status: { enum: STATUSES }, contributor: STRING }),
    handler: (ctx) => {
      const { space, role } = liveSpace(ctx, ctx.params.spaceId, "read", "read change requests");
      const status = ctx.query.status ?? "open";
      const who = ctx.query.contributor;
      const items = [...ctx.store.all("changeRequests")].filter((cr) => cr.space === space.id && cr.status === status && (who === undefined || cr.contributors.includes(who)));
      const v = view(ctx, role);
      return { status: 200, body: paginate(items, ctx.query, `change-requests:${space.id}:${status}:${who ?? ""}`, (cr) => presentChangeRequest(v, space, cr)) };
    },
  });

  route<SpaceP, Record<string, never>, { subject?: string; agentTaskId?: string }>({
    method: "POST",
    url: base,
    body: obj({ subject: limit("changeRequestSubject"), agentTaskId: { type: "string", maxLength: 256 } }),
    handler: (ctx) => {
      const { space, role } = liveSpace(ctx, ctx.params.spaceId, "edit", "create change requests");
      const cr = openDraft(ctx, space, { subject: ctx.body.subject ?? "", agentTaskId: ctx.body.agentTaskId ?? null });
      const body = presentChangeRequest(view(ctx, role), space, cr);
      return { status: 201, body, location: `${ctx.base}/v1/spaces/${space.id}/change-requests/${cr.id}` };
    },
  });

  route<CrP>({
    method: "GET",
    url: one,
    handler: (ctx) => {
      const { space, cr, role } = changeRequestOf(ctx, "read", "read change requests");
      return { status: 200, body: presentChangeRequest(view(ctx, role), space, cr) };
    },
  });

  route<CrP, Record<string, never>, { subject?: string; status?: ChangeRequestStatus }>({
    method: "PATCH",
    url: one,
    body: obj({ subject: limit("changeRequestSubject"), status: limit("changeRequestStatus") }),
    handler: (ctx) => {
      const { space, cr, role } = changeRequestOf(ctx, "edit", "change change requests");
      const b = ctx.body ?? {};
      if (b.status !== undefined && b.status !== cr.status) {
        if (b.status === "merged") throw badRequest("body/status", "cannot be set to 'merged': merge the change request instead");
        if (cr.status === "merged") throw conflict(`change request #${cr.number} is merged: its status cannot change`);
        cr.status = b.status;
      }
      if (b.subject !== undefined) cr.subject = b.subject;
      cr.updatedAt = ctx.store.nowIso();
      ctx.store.touch("changeRequests", cr);
      recount(ctx.store, space);
      return { status: 200, body: presentChangeRequest(view(ctx, role), space, cr) };
    },
  });
}

/** Merging a change request, updating it from main, and its PDF. */
function registerChangeRequestActions(route: Route): void {
  route<CrP>({
    method: "POST",
    url: `${one}/merge`,
    handler: (ctx) => {
      const { space, cr } = changeRequestOf(ctx, "review", "merge change requests");
      requireEditable(cr, "be merged");
      if (space.editMode === "locked") throw conflict(`space '${space.id}' is locked: nothing can be merged into it`);
      let merged: string;
      if (cr.base === space.revision) {
        // Up to date with main: the change request's revision becomes the space's as it is.
        merged = cr.revision;
      } else {
        merged = joinWithMain(ctx, space, cr, "merge").rev.id;
      }
      const now = ctx.store.nowIso();
      space.revision = merged;
      space.updatedAt = now;
      ctx.store.touch("spaces", space);
      cr.status = "merged";
      cr.revisionMerged = merged;
      cr.updatedAt = now;
      ctx.store.touch("changeRequests", cr);
      recount(ctx.store, space);
      return { status: 200, body: { revision: merged, result: "merge" } };
    },
  });

  route<CrP>({
    method: "POST",
    url: `${one}/update`,
    handler: (ctx) => {
      const { space, cr } = changeRequestOf(ctx, "edit", "update change requests");
      requireEditable(cr, "be updated");
      if (isOutdated(space, cr)) {
        const { rev, main } = joinWithMain(ctx, space, cr, "update");
        cr.revision = rev.id;
        cr.revisionMergedAncestor = main.id;
        cr.base = main.id;
        cr.updatedAt = ctx.store.nowIso();
        ctx.store.touch("changeRequests", cr);
      }
      return { status: 200, body: { revision: cr.revision, result: "update" } };
    },
  });

  route<CrP, { only?: boolean; page?: string }>({
    method: "GET",
    url: `${one}/pdf`,
    query: obj({ only: BOOLEAN, page: STRING }),
    handler: (ctx) => {
      const { space, cr, rev } = readContent(ctx);
      const { only, page } = ctx.query;
      if (only === true && page === undefined) throw badRequest("querystring/only", "needs a 'page' to print that page only");
      if (page !== undefined && !findPage(rev, page)) throw badRequest("querystring/page", `names no page of change request #${cr.number}: '${page}'`);
      const q = page === undefined ? "" : `?page=${encodeURIComponent(page)}${only ? "&only=true" : ""}`;
      return { status: 200, body: { url: `${FILES_URL}/pdf/${space.id}/${cr.revision}.pdf${q}` } };
    },
  });
}

/** A change request's content: its tree, import from a URL, its pages and one page. */
function registerChangeRequestPages(route: Route): void {
  // -- content --

  route<CrP, { metadata?: boolean; computed?: boolean }>({
    method: "GET",
    url: content,
    query: obj(CONTENT_QUERY),
    handler: (ctx) => {
      const { cr, rev } = readContent(ctx);
      return { status: 200, body: presentRevision(rev, changeRequestApp(cr)) };
    },
  });

  route<CrP, Record<string, never>, { url: string; source: string }>({
    method: "POST",
    url: `${content}/import`,
    body: obj({ url: limit("importURL"), source: limit("importSource") }, ["url", "source"]),
    handler: (ctx) => {
      const { space, cr } = changeRequestOf(ctx, "edit", "import content");
      requireEditable(cr, "take imported content");
      const current = revisionOf(ctx.store, space, cr.revision);
      let imported;
      try {
        imported = importFromUrl(ctx.body.url, current.id, ctx.store.nowIso(), new Set(current.pages.map((p) => p.slug)));
      } catch {
        throw badRequest("body/url", "is not a URL content can be imported from");
      }
      const rev = newRevision(ctx.store, space, {
        parents: [current.id],
        type: "edits",
        createdBy: ctx.user,
        pages: dedupeSlugs([...structuredClone(current.pages), ...imported.pages]),
        files: [...structuredClone(current.files), ...imported.files],
      });
      cr.revision = rev.id;
      cr.updatedAt = ctx.store.nowIso();
      contributed(cr, ctx.user);
      ctx.store.touch("changeRequests", cr);
      const total = flatten(imported.pages).length + imported.files.length;
      return {
        status: 201,
        body: { revision: rev.id, importedResources: total, totalResources: total },
        location: `${ctx.base}/v1/spaces/${space.id}/change-requests/${cr.id}/content`,
      };
    },
  });

  route<CrP, { metadata?: boolean; computed?: boolean }>({
    method: "GET",
    url: `${content}/pages`,
    query: obj(CONTENT_QUERY),
    handler: (ctx) => {
      const { cr, rev } = readContent(ctx);
      return { status: 200, body: { pages: presentPages(rev, changeRequestApp(cr)) } };
    },
  });

  route<CrP & { pageId: string }, { format?: string; evaluated?: boolean; metadata?: boolean; computed?: boolean }>({
    method: "GET",
    url: `${content}/page/:pageId`,
    query: obj({ format: { enum: ["document", "markdown"] }, evaluated: BOOLEAN, ...CONTENT_QUERY }),
    handler: (ctx) => {
      const { cr, rev } = readContent(ctx);
      return { status: 200, body: presentPage(rev, pageIn(rev, ctx.params.pageId), changeRequestApp(cr), ctx.query.format) };
    },
  });
}

/** A change request's page links, its files, one file and its backlinks. */
function registerChangeRequestFiles(route: Route): void {
  route<CrP & { pageId: string }, ListQuery>({
    method: "GET",
    url: `${content}/page/:pageId/links`,
    query: listQuery(),
    handler: (ctx) => {
      const { space, cr, rev } = readContent(ctx);
      const placed = pageIn(rev, ctx.params.pageId);
      const items = pageLinks(space.org, rev, placed.page);
      const changed = changedPages(revisionOf(ctx.store, space, cr.base).pages, rev.pages);
      const page = paginate(items, ctx.query, `page-links:${rev.id}:${placed.page.id}`, (x) => x);
      return { status: 200, body: { ...page, stats: linkStats(items, changed) } };
    },
  });

  route<CrP, ListQuery & { metadata?: boolean; computed?: boolean }>({
    method: "GET",
    url: `${content}/files`,
    query: listQuery(CONTENT_QUERY),
    handler: (ctx) => {
      const { space, rev } = readContent(ctx);
      return { status: 200, body: paginate(rev.files, ctx.query, `files:${rev.id}`, (f) => presentFile(space.id, f)) };
    },
  });

  route<CrP & { fileId: string }, { metadata?: boolean; computed?: boolean }>({
    method: "GET",
    url: `${content}/files/:fileId`,
    query: obj(CONTENT_QUERY),
    handler: (ctx) => {
      const { space, rev } = readContent(ctx);
      return { status: 200, body: presentFile(space.id, fileIn(rev, ctx.params.fileId)) };
    },
  });

  route<CrP & { fileId: string }, ListQuery>({
    method: "GET",
    url: `${content}/files/:fileId/backlinks`,
    query: listQuery(),
    handler: (ctx) => {
      const { space, rev } = readContent(ctx);
      const file = fileIn(rev, ctx.params.fileId);
      // Every page that links to the file, once.
      const seen = new Set<string>();
      const items: Record<string, unknown>[] = [];
      for (const p of flatten(rev.pages)) {
        for (const l of pageLinks(space.org, rev, p.page)) {
          if (l.targetReference.kind === "file" && l.targetReference.file === file.id && !seen.has(p.page.id)) {
            seen.add(p.page.id);
            items.push(l.locationReferences[0]!);
          }
        }
      }
      return { status: 200, body: paginate(items, ctx.query, `backlinks:${rev.id}:${file.id}`, (x) => x) };
    },
  });
}

/** Files after a merge: main's, plus the change request's additions, minus its removals (by ID). */
function mergeFiles<F extends { id: string }>(base: F[], ours: F[], theirs: F[]): F[] {
  const baseIds = new Set(base.map((f) => f.id));
  const ourIds = new Set(ours.map((f) => f.id));
  const out = theirs.filter((f) => !(baseIds.has(f.id) && !ourIds.has(f.id))).map((f) => ours.find((o) => o.id === f.id) ?? f);
  for (const f of ours) if (!out.some((o) => o.id === f.id)) out.push(f);
  return structuredClone(out);
}
