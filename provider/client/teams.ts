import type { RequestCore } from "./core";
import { path } from "./path";
import type { CreateTeamBody, PutTeamMemberBody, Team, TeamMemberItem, UpdateTeamBody, UpdateTeamMembersBody } from "./types";

/** Teams of an organisation and their members. */
export class TeamsApi {
  constructor(private readonly core: RequestCore) {}

  list(orgId: string, query: { owner?: string; title?: string } = {}): Promise<Team[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/teams`, { ...query });
  }
  iterate(orgId: string, query: { owner?: string; title?: string } = {}): AsyncIterableIterator<Team> {
    return this.core.paginate(path`/v1/orgs/${orgId}/teams`, { ...query });
  }
  get(orgId: string, teamId: string): Promise<Team> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/teams/${teamId}`);
  }
  /** Creates a team. `PUT /teams` creates on every call, so it is never retried blindly. */
  create(orgId: string, body: CreateTeamBody): Promise<Team> {
    return this.core.request("PUT", path`/v1/orgs/${orgId}/teams`, { body, idempotent: false });
  }
  update(orgId: string, teamId: string, body: UpdateTeamBody): Promise<Team> {
    return this.core.request("PATCH", path`/v1/orgs/${orgId}/teams/${teamId}`, { body });
  }
  delete(orgId: string, teamId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/teams/${teamId}`);
  }
  listMembers(orgId: string, teamId: string): Promise<TeamMemberItem[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/teams/${teamId}/members`);
  }
  iterateMembers(orgId: string, teamId: string): AsyncIterableIterator<TeamMemberItem> {
    return this.core.paginate(path`/v1/orgs/${orgId}/teams/${teamId}/members`);
  }
  /** Adds, removes and re-roles members in one call. */
  updateMembers(orgId: string, teamId: string, body: UpdateTeamMembersBody): Promise<void> {
    return this.core.request("PUT", path`/v1/orgs/${orgId}/teams/${teamId}/members`, { body });
  }
  /** Adds a member or updates their team role. */
  putMember(orgId: string, teamId: string, userId: string, body: PutTeamMemberBody = {}): Promise<void> {
    return this.core.request("PUT", path`/v1/orgs/${orgId}/teams/${teamId}/members/${userId}`, { body });
  }
  removeMember(orgId: string, teamId: string, userId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/teams/${teamId}/members/${userId}`);
  }
}
