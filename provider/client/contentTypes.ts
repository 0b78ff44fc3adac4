/**
 * Types of comments, change requests and change-request content (revisions, pages, files, links).
 * Fields the API marks optional are optional; unlisted variants stay open (`string & {}`).
 */
import type { ContentReference, LinkList, ListEnvelope, User } from "./types";

/** A reaction on a comment or reply: one emoji and who reacted with it. */
export interface CommentReaction {
  emoji: string;
  count: number;
  users: { user: User; reactedAt: string }[];
}

/** A comment body: `markdown` (the default format) or `document` (with `format: "document"`). */
export interface CommentBody {
  markdown?: string;
  document?: Record<string, unknown>;
}

/** What every page shows of itself. */
export interface PageSummary {
  id: string;
  title: string;
  emoji?: string;
  icon?: string;
  createdAt?: string;
  updatedAt?: string;
}

/** The page a comment points at; `outdated` when its content changed since the comment was posted. */
export interface CommentTargetPage extends PageSummary {
  path: string;
  outdated: boolean;
}

/** What a comment points at: a page, a block (`node`), a change request, a revision. */
export interface CommentTarget {
  node?: { id: string; preview: string };
  changeRequest?: string;
  review?: string;
  page?: CommentTargetPage;
  space?: string;
  revision?: string;
}

/** What the caller may do with a comment or reply. */
export type CommentPermissions = Partial<Record<"view" | "edit" | "reply" | "delete", boolean>>;

/** `resolved` is documented; the emulator also answers `open`. */
export type CommentStatus = "open" | "resolved" | (string & {});

/** A comment on a space's main content or on a change request. */
export interface Comment {
  object: "comment";
  id: string;
  postedBy: User;
  postedAt: string;
  editedAt?: string;
  reactions: CommentReaction[];
  /** Number of replies. */
  replies: number;
  body: CommentBody;
  target?: CommentTarget;
  urls?: { location?: string };
  permissions?: CommentPermissions;
  status?: CommentStatus;
  resolvedAt?: string;
  resolvedBy?: User;
}

/** A reply to a comment. */
export interface CommentReply {
  object: "comment-reply";
  id: string;
  postedBy: User;
  postedAt: string;
  editedAt?: string;
  reactions: CommentReaction[];
  body: CommentBody;
  urls?: { location?: string };
  permissions?: CommentPermissions;
}

/** Format of comment bodies and pages in answers. */
export type ContentFormat = "markdown" | "document" | (string & {});

/** Filters and order of a comment list. */
export interface ListCommentsQuery {
  /** By posting time; default `desc`. */
  order?: "asc" | "desc";
  /** Default `all`. */
  status?: "open" | "resolved" | "all" | (string & {});
  format?: ContentFormat;
  /** Only comments on this page ID. */
  targetPage?: string;
  /** Only comments by these user IDs. */
  authors?: string[];
}

/** A new comment: a markdown body, optionally on a page or block. */
export interface PostCommentBody {
  /** ID of the block commented on. */
  node?: string;
  /** ID of the page commented on. */
  page?: string;
  body: { markdown: string };
}

/** Changes to a comment; reactions are the caller's own. */
export interface UpdateCommentBody {
  resolved?: boolean;
  body?: { markdown: string };
  /** Emoji the caller reacts with. */
  addedReactions?: string[];
  /** Emoji the caller takes their reaction back from. */
  removedReactions?: string[];
}

/** Changes to a reply (replies cannot be resolved). */
export type UpdateCommentReplyBody = Omit<UpdateCommentBody, "resolved">;

/** Status of a change request; `merged` is reached only by merging. */
export type ChangeRequestStatus = "draft" | "open" | "merged" | "archived" | (string & {});

/** Proposed edits to a space, with a revision of their own. */
export interface ChangeRequest {
  object: "change-request";
  id: string;
  /** Incremental within the space; addresses the change request as well as its ID. */
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  createdBy?: User;
  createdAt: string;
  updatedAt: string;
  /** Its current revision. */
  revision: string;
  /** The space's revision it was created from. */
  revisionInitial: string;
  /** The main revision last pulled in by `update`. */
  revisionMergedAncestor?: string;
  /** Once merged: the revision the merge produced. */
  revisionMerged?: string;
  /** Open comments. */
  comments: number;
  /** True when main moved on since it was created or last updated. */
  outdated: boolean;
  urls?: { app?: string; location?: string };
}

/** Filters of a change request list. */
export interface ListChangeRequestsQuery {
  /** Default `open`. */
  status?: ChangeRequestStatus;
  /** Only change requests this user ID contributed to. */
  contributor?: string;
}

/** A new change request. */
export interface CreateChangeRequestBody {
  subject?: string;
  agentTaskId?: string;
}

/** Changes to a change request. */
export interface UpdateChangeRequestBody {
  subject?: string;
  status?: ChangeRequestStatus;
}

/** The answer of `merge` and `update`: the resulting revision. */
export interface ChangeRequestRevisionResult {
  revision: string;
  result: "merge" | "update" | (string & {});
}

/** A page of a revision; `markdown` or `document` only when one page is fetched. */
export interface Page extends PageSummary {
  kind?: string;
  type?: "document" | (string & {});
  urls?: { app?: string };
  slug: string;
  path: string;
  description?: string;
  documentId?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  pages?: Page[];
  markdown?: string;
  document?: Record<string, unknown>;
  git?: { oid?: string; path?: string };
  variables?: Record<string, string>;
  [key: string]: unknown;
}

/** A file of a revision. */
export interface RevisionFile {
  id: string;
  name: string;
  contentType: string;
  downloadURL: string;
  size: number;
  dimensions?: { width: number; height: number };
  git?: { oid?: string; path?: string };
}

/** A revision: the content of a change request at one point. */
export interface Revision {
  object: "revision";
  id: string;
  parents: string[];
  pages: Page[];
  files: RevisionFile[];
  reusableContents?: { id: string; title: string; document?: string; git?: { oid?: string; path?: string } }[];
  variables?: Record<string, string>;
  createdAt: string;
  git?: { oid?: string; message?: string; createdByService?: boolean; url?: string; ref?: string };
  urls?: { app?: string; published?: string; public?: string };
  type?: "edits" | (string & {});
  [key: string]: unknown;
}

/** Options of content reads. */
export interface ContentQuery {
  /** Default true; false leaves out mutable git metadata. */
  metadata?: boolean;
  /** Default true; false skips computing content. */
  computed?: boolean;
}

/** Options of a single page read. */
export interface PageQuery extends ContentQuery {
  format?: ContentFormat;
  /** Default false. */
  evaluated?: boolean;
}

/** What to import into a change request. */
export interface ImportContentBody {
  /** Where the content is. */
  url: string;
  /** `website` is the documented value. */
  source: "website" | (string & {});
}

/** The revision an import produced and how much it imported. */
export interface ImportContentResult {
  revision: string;
  importedResources: number;
  totalResources: number;
}

/** A link list page (the envelope plus `stats` over the whole list). */
export type PageLinkList = LinkList;

/** A backlink: the place that references a file. */
export type Backlink = ContentReference;

/** A list envelope of backlinks. */
export type BacklinkList = ListEnvelope<Backlink>;
