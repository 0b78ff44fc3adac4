import type { RequestCore, Query } from "./core";
import { path } from "./path";
import type { ListEnvelope, Organization, SearchResultItem, UpdateOrganizationBody } from "./types";

/** Organisations of the authenticated identity. */
export class OrgsApi {
  constructor(private readonly core: RequestCore) {}

  /** Every organisation the token's identity belongs to. */
  list(): Promise<Organization[]> {
    return this.core.listAll("/v1/orgs");
  }
  iterate(): AsyncIterableIterator<Organization> {
    return this.core.paginate("/v1/orgs");
  }
  get(orgId: string): Promise<Organization> {
    return this.core.request("GET", path`/v1/orgs/${orgId}`);
  }
  update(orgId: string, body: UpdateOrganizationBody): Promise<Organization> {
    return this.core.request("PATCH", path`/v1/orgs/${orgId}`, { body });
  }
  /** Full-text search of the organisation's content: one page (`query` max 512). */
  search(orgId: string, query: string, page?: { page?: string; limit?: number }): Promise<ListEnvelope<SearchResultItem>> {
    const q: Query = { query, ...page };
    return this.core.request("GET", path`/v1/orgs/${orgId}/search`, { query: q });
  }
  /** Organisations that claim an e-mail domain. */
  async byEmailDomain(emailDomain: string): Promise<Organization[]> {
    const res = await this.core.request<{ organizations: Organization[] }>("GET", path`/v1/email-domains/${emailDomain}/orgs`);
    return res.organizations;
  }
  deleteLinkInvite(orgId: string, inviteId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/link-invites/${inviteId}`);
  }
  /** Updates the caller's last-seen time; may return visitor claims (a JWT) to attach. */
  ping(orgId: string): Promise<{ serviceVisitorClaims?: string }> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/ping`, { idempotent: true });
  }
}
