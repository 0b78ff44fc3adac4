/** The /v1 API's types that every area shares: the list envelope, roles, visibilities, the error body. */

/** The list envelope of every list operation. */
export interface ListEnvelope<T> {
  items: T[];
  count: number;
  /** Absent on the last page; `page` is an opaque cursor. */
  next?: { page: string };
}

/** Member role in an organisation and default level of content. */
export type Role = "admin" | "create" | "review" | "edit" | "comment" | "read";
/** All roles, most powerful first. */
export const ROLES: readonly Role[] = ["admin", "create", "review", "edit", "comment", "read"];
/** Role of a member within a team. */
export type TeamRole = "owner" | "member";
export const TEAM_ROLES: readonly TeamRole[] = ["owner", "member"];

export type SpaceVisibility = "public" | "unlisted" | "share-link" | "visitor-auth" | "in-collection" | "private";
export type SiteVisibility = "public" | "unlisted" | "share-link" | "visitor-auth";
export const SITE_VISIBILITIES: readonly SiteVisibility[] = ["public", "unlisted", "share-link", "visitor-auth"];
export type EditMode = "live" | "locked";
export type AgentsContext = "excluded" | "included";
/** Site type: `basic` is the documented value; others exist but are not listed. */
export type SiteType = "basic" | (string & {});

/** Error body of every error status. */
export interface ErrorBody {
  error: { code: number; message: string };
}
