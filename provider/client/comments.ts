import { changeRequestSegment, type ChangeRequestRef, type PageSize } from "./changeRequests";
import type { Query, RequestCore } from "./core";
import { path } from "./path";
import type { Comment, CommentReply, ContentFormat, ListCommentsQuery, PostCommentBody, UpdateCommentBody, UpdateCommentReplyBody } from "./contentTypes";
import type { User } from "./types";

/** A list query on the wire: `authors` goes as one comma-separated value. */
function listQuery(q: ListCommentsQuery & PageSize): Query {
  const { authors, ...rest } = q;
  return { ...rest, ...(authors === undefined ? {} : { authors: authors.join(",") }) };
}

function formatQuery(format: ContentFormat | undefined): Query {
  return format === undefined ? {} : { format };
}

/**
 * Comments and replies on a space's main content, and on a change request (the `…InChangeRequest`
 * methods). Posting a comment or reply is never retried once sent (a repeat would post it twice);
 * updates (body, `resolved`, reactions per caller) and deletes are safe to repeat. A delete of
 * something already gone answers 404: treat `isNotFound` as done.
 */
export class CommentsApi {
  constructor(private readonly core: RequestCore) {}

  // -- on the space --

  /** Comments on the space's main content (newest first unless `order: "asc"`). */
  list(spaceId: string, query: ListCommentsQuery & PageSize = {}): Promise<Comment[]> {
    return this.core.listAll(path`/v1/spaces/${spaceId}/comments`, listQuery(query));
  }
  iterate(spaceId: string, query: ListCommentsQuery & PageSize = {}): AsyncIterableIterator<Comment> {
    return this.core.paginate(path`/v1/spaces/${spaceId}/comments`, listQuery(query));
  }
  post(spaceId: string, body: PostCommentBody): Promise<Comment> {
    return this.core.request("POST", path`/v1/spaces/${spaceId}/comments`, { body });
  }
  get(spaceId: string, commentId: string, query: { format?: ContentFormat } = {}): Promise<Comment> {
    return this.core.request("GET", path`/v1/spaces/${spaceId}/comments/${commentId}`, { query: formatQuery(query.format) });
  }
  /** Edits the body (author only), resolves or reopens, adds or removes the caller's reactions. */
  update(spaceId: string, commentId: string, body: UpdateCommentBody): Promise<Comment> {
    return this.core.request("PUT", path`/v1/spaces/${spaceId}/comments/${commentId}`, { body });
  }
  delete(spaceId: string, commentId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/spaces/${spaceId}/comments/${commentId}`);
  }
  postReply(spaceId: string, commentId: string, body: { body: { markdown: string } }): Promise<CommentReply> {
    return this.core.request("POST", path`/v1/spaces/${spaceId}/comments/${commentId}/replies`, { body });
  }
  getReply(spaceId: string, commentId: string, replyId: string, query: { format?: ContentFormat } = {}): Promise<CommentReply> {
    return this.core.request("GET", path`/v1/spaces/${spaceId}/comments/${commentId}/replies/${replyId}`, { query: formatQuery(query.format) });
  }
  updateReply(spaceId: string, commentId: string, replyId: string, body: UpdateCommentReplyBody): Promise<CommentReply> {
    return this.core.request("PUT", path`/v1/spaces/${spaceId}/comments/${commentId}/replies/${replyId}`, { body });
  }
  deleteReply(spaceId: string, commentId: string, replyId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/spaces/${spaceId}/comments/${commentId}/replies/${replyId}`);
  }
  /** Users who commented or replied in the space. */
  listCommenters(spaceId: string, query: PageSize = {}): Promise<User[]> {
    return this.core.listAll(path`/v1/spaces/${spaceId}/comments/users`, { ...query });
  }
  iterateCommenters(spaceId: string, query: PageSize = {}): AsyncIterableIterator<User> {
    return this.core.paginate(path`/v1/spaces/${spaceId}/comments/users`, { ...query });
  }

  // -- on a change request --

  #cr(spaceId: string, ref: ChangeRequestRef): string {
    return path`/v1/spaces/${spaceId}/change-requests/${changeRequestSegment(ref)}/comments`;
  }

  listInChangeRequest(spaceId: string, ref: ChangeRequestRef, query: ListCommentsQuery & PageSize = {}): Promise<Comment[]> {
    return this.core.listAll(this.#cr(spaceId, ref), listQuery(query));
  }
  iterateInChangeRequest(spaceId: string, ref: ChangeRequestRef, query: ListCommentsQuery & PageSize = {}): AsyncIterableIterator<Comment> {
    return this.core.paginate(this.#cr(spaceId, ref), listQuery(query));
  }
  postInChangeRequest(spaceId: string, ref: ChangeRequestRef, body: PostCommentBody): Promise<Comment> {
    return this.core.request("POST", this.#cr(spaceId, ref), { body });
  }
  getInChangeRequest(spaceId: string, ref: ChangeRequestRef, commentId: string, query: { format?: ContentFormat } = {}): Promise<Comment> {
    return this.core.request("GET", `${this.#cr(spaceId, ref)}${path`/${commentId}`}`, { query: formatQuery(query.format) });
  }
  updateInChangeRequest(spaceId: string, ref: ChangeRequestRef, commentId: string, body: UpdateCommentBody): Promise<Comment> {
    return this.core.request("PUT", `${this.#cr(spaceId, ref)}${path`/${commentId}`}`, { body });
  }
  deleteInChangeRequest(spaceId: string, ref: ChangeRequestRef, commentId: string): Promise<void> {
    return this.core.request("DELETE", `${this.#cr(spaceId, ref)}${path`/${commentId}`}`);
  }
  listRepliesInChangeRequest(spaceId: string, ref: ChangeRequestRef, commentId: string, query: { format?: ContentFormat } & PageSize = {}): Promise<CommentReply[]> {
    return this.core.listAll(`${this.#cr(spaceId, ref)}${path`/${commentId}`}/replies`, { ...query });
  }
  iterateRepliesInChangeRequest(spaceId: string, ref: ChangeRequestRef, commentId: string, query: { format?: ContentFormat } & PageSize = {}): AsyncIterableIterator<CommentReply> {
    return this.core.paginate(`${this.#cr(spaceId, ref)}${path`/${commentId}`}/replies`, { ...query });
  }
  postReplyInChangeRequest(spaceId: string, ref: ChangeRequestRef, commentId: string, body: { body: { markdown: string } }, query: { format?: ContentFormat } = {}): Promise<CommentReply> {
    return this.core.request("POST", `${this.#cr(spaceId, ref)}${path`/${commentId}`}/replies`, { body, query: formatQuery(query.format) });
  }
  getReplyInChangeRequest(spaceId: string, ref: ChangeRequestRef, commentId: string, replyId: string, query: { format?: ContentFormat } = {}): Promise<CommentReply> {
    return this.core.request("GET", `${this.#cr(spaceId, ref)}${path`/${commentId}/replies/${replyId}`}`, { query: formatQuery(query.format) });
  }
}
