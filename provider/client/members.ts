import type { RequestCore } from "./core";
import { path } from "./path";
import type { ListMembersQuery, Member, MemberSpaceItem, MemberTeamItem, UpdateMemberBody } from "./types";

/** Members of an organisation. */
export class MembersApi {
  constructor(private readonly core: RequestCore) {}

  list(orgId: string, query: ListMembersQuery = {}): Promise<Member[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/members`, { ...query });
  }
  iterate(orgId: string, query: ListMembersQuery = {}): AsyncIterableIterator<Member> {
    return this.core.paginate(path`/v1/orgs/${orgId}/members`, { ...query });
  }
  get(orgId: string, userId: string): Promise<Member> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/members/${userId}`);
  }
  /** Changes a member's role (null makes them a guest). */
  update(orgId: string, userId: string, body: UpdateMemberBody): Promise<Member> {
    return this.core.request("PATCH", path`/v1/orgs/${orgId}/members/${userId}`, { body });
  }
  delete(orgId: string, userId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/members/${userId}`);
  }
  /** Marks a member as an SSO member (idempotent). */
  setSso(orgId: string, userId: string): Promise<Member> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/members/${userId}/sso`, { idempotent: true });
  }
  listSpaces(orgId: string, userId: string, query: { order?: "asc" | "desc" } = {}): Promise<MemberSpaceItem[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/members/${userId}/spaces`, { ...query });
  }
  listTeams(orgId: string, userId: string, query: { title?: string } = {}): Promise<MemberTeamItem[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/members/${userId}/teams`, { ...query });
  }
}
