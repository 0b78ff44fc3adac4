/**
 * Comments and replies on a space's main content and on change requests: markdown bodies, reactions per
 * user, resolution, filters (`status`, `authors`, `targetPage`), `order`, and rights per caller.
 */
import { badRequest, forbidden, notFound } from "../errors";
import { BOOLEAN, STRING, limit, listQuery, obj, type Schema } from "../schema";
import { paginate, type ListQuery } from "../paging";
import { view } from "../access";
import type { Ctx, Route } from "../context";
import { newId } from "../seed";
import { roleAtLeast, type ChangeRequestRow, type CommentReplyRow, type CommentRow, type Role, type RevisionRow, type SpaceRow } from "../model";
import { countReplies, findPage, presentComment, presentReply, react, recount, revisionOf } from "../content";
import { presentUser } from "../present";
import { findChangeRequest, liveSpace } from "./changeRequests";

type AnyCtx = Ctx<unknown, unknown, unknown>;
type SpaceP = { spaceId: string; changeRequestId?: string };
type CommentP = SpaceP & { commentId: string };
type ReplyP = CommentP & { commentReplyId: string };

const BODY: Schema = obj({ markdown: limit("commentMarkdown") }, ["markdown"]);
const REACTIONS: Schema = { type: "array", maxItems: 20, items: limit("reactionEmoji") };
const FORMAT: Schema = { enum: ["markdown", "document"] };
/** `authors`: repeated (`authors=a&authors=b`) or comma-separated (`authors=a,b`) user IDs. */
const AUTHORS: Schema = { type: "array", maxItems: 100, items: { type: "string", maxLength: 2048 } };

interface ListCommentsQuery extends ListQuery {
  order?: "asc" | "desc";
  status?: "open" | "resolved" | "all";
  format?: string;
  targetPage?: string;
  authors?: string[];
}
interface PostBody {
  node?: string;
  page?: string;
  body: { markdown: string };
}
interface PutBody {
  resolved?: boolean;
  body?: { markdown: string };
  addedReactions?: string[];
  removedReactions?: string[];
}

/** Where comments live: the space's main content, or one change request. */
interface Scope {
  space: SpaceRow;
  cr: ChangeRequestRow | null;
  role: Role | null;
  /** The content comments of this scope point into. */
  revision: RevisionRow;
  /** `/v1/spaces/<id>` or `/v1/spaces/<id>/change-requests/<crId>` */
  path: string;
}

function scopeOf(ctx: Ctx<SpaceP, unknown, unknown>, need: Role, action: string): Scope {
  const { space, role } = liveSpace(ctx, ctx.params.spaceId, need, action);
  if (ctx.params.changeRequestId === undefined) {
    return { space, cr: null, role, revision: revisionOf(ctx.store, space), path: `/v1/spaces/${space.id}` };
  }
  const cr = findChangeRequest(ctx, space, ctx.params.changeRequestId);
  return { space, cr, role, revision: revisionOf(ctx.store, space, cr.revision), path: `/v1/spaces/${space.id}/change-requests/${cr.id}` };
}

/** The scope the caller may act on, and the comment of it the request names. */
function commentOf(ctx: Ctx<CommentP, unknown, unknown>, action: string): { scope: Scope; c: CommentRow } {
  const scope = scopeOf(ctx, "read", action);
  const id = ctx.params.commentId;
  const c = ctx.store.get("comments", id);
  if (!c || c.space !== scope.space.id || c.changeRequest !== (scope.cr?.id ?? null)) throw notFound("comment", id);
  return { scope, c };
}

/** The scope, the comment and the reply to it the request names. */
function replyOf(ctx: Ctx<ReplyP, unknown, unknown>, action: string): { scope: Scope; c: CommentRow; r: CommentReplyRow } {
  const { scope, c } = commentOf(ctx, action);
  const id = ctx.params.commentReplyId;
  const r = ctx.store.get("commentReplies", id);
  if (!r || r.comment !== c.id) throw notFound("comment reply", id);
  return { scope, c, r };
}

function requireCommenter(scope: Scope, action: string): void {
  if (!roleAtLeast(scope.role, "comment")) throw forbidden(`only a member with role comment or above of organization '${scope.space.org}' may ${action}`);
}

/** The author, or an admin of the organization. */
function requireAuthorOrAdmin(ctx: AnyCtx, scope: Scope, author: string, what: string): void {
  if (ctx.user !== author && scope.role !== "admin") throw forbidden(`only the author of the ${what} or an admin of organization '${scope.space.org}' may delete it`);
}

function splitAuthors(authors: string[] | undefined): Set<string> | undefined {
  if (authors === undefined) return undefined;
  return new Set(authors.flatMap((a) => a.split(",")).map((a) => a.trim()).filter((a) => a !== ""));
}

function commentLocation(ctx: AnyCtx, scope: Scope, c: CommentRow): string {
  return `${ctx.base}${scope.path}/comments/${c.id}`;
}

function replyLocation(ctx: AnyCtx, scope: Scope, c: CommentRow, r: CommentReplyRow): string {
  return `${commentLocation(ctx, scope, c)}/replies/${r.id}`;
}

/** A comment as the caller sees it, in `format`. */
function showComment(ctx: AnyCtx, scope: Scope, c: CommentRow, format?: string): Record<string, unknown> {
  return presentComment(view(ctx, scope.role), ctx.user, scope.space, c, scope.revision, commentLocation(ctx, scope, c), format);
}

/** A reply as the caller sees it, in `format`. */
function showReply(ctx: AnyCtx, scope: Scope, c: CommentRow, r: CommentReplyRow, format?: string): Record<string, unknown> {
  return presentReply(view(ctx, scope.role), ctx.user, r, replyLocation(ctx, scope, c, r), format);
}

/** How errors name a comment and a reply, and several of them. */
const NAMES = { comment: { one: "comment", many: "comments" }, reply: { one: "reply", many: "replies" } } as const;

/** Replaces the markdown of a comment or reply: only its author may, with role comment or above. */
function editBody(ctx: AnyCtx, scope: Scope, post: CommentRow | CommentReplyRow, kind: keyof typeof NAMES, markdown: string, now: string): void {
  if (ctx.user !== post.postedBy) throw forbidden(`only the author of the ${NAMES[kind].one} may edit its body`);
  requireCommenter(scope, `edit ${NAMES[kind].many}`);
  post.markdown = markdown;
  post.editedAt = now;
}

/** Adds and removes the caller's reactions to a comment or reply (role comment or above). */
function reactTo(ctx: AnyCtx, scope: Scope, post: CommentRow | CommentReplyRow, kind: keyof typeof NAMES, b: Pick<PutBody, "addedReactions" | "removedReactions">, now: string): void {
  if (b.addedReactions === undefined && b.removedReactions === undefined) return;
  requireCommenter(scope, `react to ${NAMES[kind].many}`);
  post.reactions = react(post.reactions, ctx.user, b.addedReactions, b.removedReactions, now);
}

/** Registers the comment and reply routes of spaces and of change requests. */
export function registerComments(route: Route): void {
  for (const base of ["/v1/spaces/:spaceId", "/v1/spaces/:spaceId/change-requests/:changeRequestId"]) {
    registerCommentsAt(route, base);
    registerRepliesAt(route, base);
  }
}

/** The comments of one scope (`base`: a space's main content, or one of its change requests): list, post, read, update, delete. */
function registerCommentsAt(route: Route, base: string): void {
  const comments = `${base}/comments`;
  const one = `${comments}/:commentId`;

  route<SpaceP, ListCommentsQuery>({
    method: "GET",
    url: comments,
    query: listQuery({ order: { enum: ["asc", "desc"] }, status: { enum: ["open", "resolved", "all"] }, format: FORMAT, targetPage: STRING, authors: AUTHORS }),
    handler: (ctx) => {
      const scope = scopeOf(ctx, "read", "read comments");
      const q = ctx.query;
      const status = q.status ?? "all";
      const authors = splitAuthors(q.authors);
      let items = [...ctx.store.all("comments")].filter(
        (c) =>
          c.space === scope.space.id &&
          c.changeRequest === (scope.cr?.id ?? null) &&
          (status === "all" || c.status === status) &&
          (q.targetPage === undefined || c.page === q.targetPage) &&
          (authors === undefined || authors.has(c.postedBy)),
      );
      if ((q.order ?? "desc") === "desc") items = items.reverse();
      const v = view(ctx, scope.role);
      const key = `comments:${scope.path}:${q.order ?? "desc"}:${status}:${q.targetPage ?? ""}:${[...(authors ?? [])].join(",")}`;
      const replies = countReplies(ctx.store, new Set(items.map((c) => c.id)));
      return { status: 200, body: paginate(items, q, key, (c) => presentComment(v, ctx.user, scope.space, c, scope.revision, commentLocation(ctx, scope, c), q.format, replies)) };
    },
  });

  route<SpaceP, Record<string, never>, PostBody>({
    method: "POST",
    url: comments,
    body: obj({ node: limit("id"), page: limit("id"), body: BODY }, ["body"]),
    handler: (ctx) => {
      const scope = scopeOf(ctx, "read", "comment");
      requireCommenter(scope, "comment");
      const b = ctx.body;
      let pageMarkdown: string | null = null;
      if (b.page !== undefined) {
        const placed = findPage(scope.revision, b.page);
        if (!placed) throw badRequest("body/page", `names no page of ${scope.cr ? `change request #${scope.cr.number}` : `space '${scope.space.id}'`}: '${b.page}'`);
        pageMarkdown = placed.page.markdown;
      }
      const now = ctx.store.nowIso();
      const c: CommentRow = {
        id: newId("comment_"),
        space: scope.space.id,
        changeRequest: scope.cr?.id ?? null,
        page: b.page ?? null,
        node: b.node ?? null,
        revision: scope.revision.id,
        pageMarkdown,
        postedBy: ctx.user,
        postedAt: now,
        editedAt: null,
        markdown: b.body.markdown,
        reactions: [],
        status: "open",
        resolvedAt: null,
        resolvedBy: null,
      };
      ctx.store.put("comments", c);
      recount(ctx.store, scope.space);
      // The description answers 200 (not 201) for a posted comment.
      return { status: 200, body: showComment(ctx, scope, c), location: commentLocation(ctx, scope, c) };
    },
  });

  route<CommentP, { format?: string }>({
    method: "GET",
    url: one,
    query: obj({ format: FORMAT }),
    handler: (ctx) => {
      const { scope, c } = commentOf(ctx, "read comments");
      return { status: 200, body: showComment(ctx, scope, c, ctx.query.format) };
    },
  });

  route<CommentP, Record<string, never>, PutBody>({
    method: "PUT",
    url: one,
    body: obj({ resolved: BOOLEAN, body: BODY, addedReactions: REACTIONS, removedReactions: REACTIONS }),
    handler: (ctx) => {
      const { scope, c } = commentOf(ctx, "change comments");
      const b = ctx.body ?? {};
      const now = ctx.store.nowIso();
      if (b.body !== undefined) editBody(ctx, scope, c, "comment", b.body.markdown, now);
      if (b.resolved !== undefined) requireCommenter(scope, "resolve comments");
      if (b.resolved === true && c.status !== "resolved") {
        c.status = "resolved";
        c.resolvedAt = now;
        c.resolvedBy = ctx.user;
      } else if (b.resolved === false && c.status !== "open") {
        c.status = "open";
        c.resolvedAt = null;
        c.resolvedBy = null;
      }
      reactTo(ctx, scope, c, "comment", b, now);
      ctx.store.touch("comments", c);
      recount(ctx.store, scope.space);
      return { status: 200, body: showComment(ctx, scope, c) };
    },
  });

  route<CommentP>({
    method: "DELETE",
    url: one,
    handler: (ctx) => {
      const { scope, c } = commentOf(ctx, "delete comments");
      requireAuthorOrAdmin(ctx, scope, c.postedBy, "comment");
      for (const r of [...ctx.store.all("commentReplies")]) if (r.comment === c.id) ctx.store.del("commentReplies", r.id);
      ctx.store.del("comments", c.id);
      recount(ctx.store, scope.space);
      return { status: 205 };
    },
  });
}

/** The replies to a comment of one scope, and (on main content) editing them and the list of commenters. */
function registerRepliesAt(route: Route, base: string): void {
  const inCr = base.includes("change-requests");
  const comments = `${base}/comments`;
  const one = `${comments}/:commentId`;
  const replies = `${one}/replies`;
  const reply = `${replies}/:commentReplyId`;

  if (inCr) {
    route<CommentP, ListQuery & { format?: string }>({
      method: "GET",
      url: replies,
      query: listQuery({ format: FORMAT }),
      handler: (ctx) => {
        const { scope, c } = commentOf(ctx, "read comments");
        const items = [...ctx.store.all("commentReplies")].filter((r) => r.comment === c.id);
        return { status: 200, body: paginate(items, ctx.query, `replies:${c.id}`, (r) => showReply(ctx, scope, c, r, ctx.query.format)) };
      },
    });
  }

  route<CommentP, { format?: string }, { body: { markdown: string } }>({
    method: "POST",
    url: replies,
    ...(inCr ? { query: obj({ format: FORMAT }) } : {}),
    body: obj({ body: BODY }, ["body"]),
    handler: (ctx) => {
      const { scope, c } = commentOf(ctx, "reply to comments");
      requireCommenter(scope, "reply to comments");
      const r: CommentReplyRow = { id: newId("reply_"), comment: c.id, postedBy: ctx.user, postedAt: ctx.store.nowIso(), editedAt: null, markdown: ctx.body.body.markdown, reactions: [] };
      ctx.store.put("commentReplies", r);
      return { status: 200, body: showReply(ctx, scope, c, r, ctx.query?.format), location: replyLocation(ctx, scope, c, r) };
    },
  });

  route<ReplyP, { format?: string }>({
    method: "GET",
    url: reply,
    query: obj({ format: FORMAT }),
    handler: (ctx) => {
      const { scope, c, r } = replyOf(ctx, "read comments");
      return { status: 200, body: showReply(ctx, scope, c, r, ctx.query.format) };
    },
  });

  if (!inCr) {
    route<ReplyP, Record<string, never>, Omit<PutBody, "resolved">>({
      method: "PUT",
      url: reply,
      body: obj({ body: BODY, addedReactions: REACTIONS, removedReactions: REACTIONS }),
      handler: (ctx) => {
        const { scope, c, r } = replyOf(ctx, "change comments");
        const b = ctx.body ?? {};
        const now = ctx.store.nowIso();
        if (b.body !== undefined) editBody(ctx, scope, r, "reply", b.body.markdown, now);
        reactTo(ctx, scope, r, "reply", b, now);
        ctx.store.touch("commentReplies", r);
        return { status: 200, body: showReply(ctx, scope, c, r) };
      },
    });

    route<ReplyP>({
      method: "DELETE",
      url: reply,
      handler: (ctx) => {
        const { scope, r } = replyOf(ctx, "delete replies");
        requireAuthorOrAdmin(ctx, scope, r.postedBy, "reply");
        ctx.store.del("commentReplies", r.id);
        return { status: 205 };
      },
    });

    // Users who commented or replied in the space (main content and change requests): comment authors, then reply authors, each once.
    route<SpaceP, ListQuery>({
      method: "GET",
      url: `${comments}/users`,
      query: listQuery(),
      handler: (ctx) => {
        const scope = scopeOf(ctx, "read", "read comments");
        const ids: string[] = [];
        const add = (u: string) => {
          if (!ids.includes(u)) ids.push(u);
        };
        const inSpace = new Set<string>();
        for (const c of ctx.store.all("comments")) {
          if (c.space !== scope.space.id) continue;
          inSpace.add(c.id);
          add(c.postedBy);
        }
        for (const r of ctx.store.all("commentReplies")) if (inSpace.has(r.comment)) add(r.postedBy);
        const users = ids.map((id) => ctx.store.get("users", id)).filter((u) => u !== undefined);
        const v = view(ctx, scope.role);
        return { status: 200, body: paginate(users, ctx.query, `commenters:${scope.space.id}`, (u) => presentUser(v, u)) };
      },
    });
  }
}
