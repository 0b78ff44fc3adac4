import type { RequestCore } from "./core";
import { path, segment } from "./path";
import type { Role } from "./types";
import type { InviteBody, RoleOrGuest, SiteAggregateQuery, TeamPermission, UserPermission, UserSitePermission } from "./accessTypes";

/**
 * The permission operations of one site, space or collection: direct grants of teams and users.
 * An invite sets the role of every listed team and user, so repeating it is safe.
 */
export class Grants<A> {
  constructor(
    private readonly core: RequestCore,
    private readonly base: string,
  ) {}

  /** Grants `role` to the listed teams and users in one call. */
  invite(body: InviteBody): Promise<void> {
    return this.core.request("POST", this.base, { body, idempotent: true });
  }
  listTeams(): Promise<TeamPermission[]> {
    return this.core.listAll(`${this.base}/teams`);
  }
  listUsers(): Promise<UserPermission[]> {
    return this.core.listAll(`${this.base}/users`);
  }
  updateTeam(teamId: string, role: RoleOrGuest): Promise<void> {
    return this.core.request("PATCH", `${this.base}/teams/${segment(teamId, "team ID")}`, { body: { role } });
  }
  updateUser(userId: string, role: RoleOrGuest): Promise<void> {
    return this.core.request("PATCH", `${this.base}/users/${segment(userId, "user ID")}`, { body: { role } });
  }
  removeTeam(teamId: string): Promise<void> {
    return this.core.request("DELETE", `${this.base}/teams/${segment(teamId, "team ID")}`);
  }
  removeUser(userId: string): Promise<void> {
    return this.core.request("DELETE", `${this.base}/users/${segment(userId, "user ID")}`);
  }
  /** Everyone who can reach the object, whatever gives the access (organisation, teams, direct grants). */
  aggregate(query: A = {} as A): Promise<(A extends SiteAggregateQuery ? UserSitePermission : { permission: RoleOrGuest; user: UserPermission["user"] })[]> {
    return this.core.listAll(`${this.base}/aggregate`, { ...(query as object) });
  }
}

/** Permissions of sites, spaces and collections. */
export class PermissionsApi {
  constructor(private readonly core: RequestCore) {}

  site(orgId: string, siteId: string): Grants<SiteAggregateQuery> {
    return new Grants(this.core, path`/v1/orgs/${orgId}/sites/${siteId}/permissions`);
  }
  space(spaceId: string): Grants<{ role?: Role }> {
    return new Grants(this.core, path`/v1/spaces/${spaceId}/permissions`);
  }
  collection(collectionId: string): Grants<{ role?: Role }> {
    return new Grants(this.core, path`/v1/collections/${collectionId}/permissions`);
  }
}
