import type { RequestCore } from "./core";
import { type InOrganization, OwnedItems } from "./ownedList";
import { path } from "./path";
import type { CreateTeamBody, PutTeamMemberBody, Team, TeamMemberItem, UpdateTeamBody, UpdateTeamMembersBody } from "./types";

/** Teams of an organisation and their members. A team is created with `PUT /teams`, which creates on every call: never retried blindly. */
export class TeamsApi extends OwnedItems<InOrganization, Team, CreateTeamBody, UpdateTeamBody, { owner?: string; title?: string }> {
  constructor(core: RequestCore) {
    super(core, { collection: "/v1/orgs/{}/teams", create: "PUT" });
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
