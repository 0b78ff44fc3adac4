import type { RequestCore } from "./core";
import { path } from "./path";
import type { PublishingAuth, UpdatePublishingAuthBody } from "./accessTypes";

/** A site's visitor authentication settings. Every answer carries the secret private key. */
export class PublishingAuthApi {
  constructor(private readonly core: RequestCore) {}

  get(orgId: string, siteId: string): Promise<PublishingAuth> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/sites/${siteId}/publishing/auth`);
  }
  update(orgId: string, siteId: string, body: UpdatePublishingAuthBody): Promise<PublishingAuth> {
    return this.core.request("PATCH", path`/v1/orgs/${orgId}/sites/${siteId}/publishing/auth`, { body });
  }
  /** Replaces the private key (tokens signed with the old one stop working); a POST, never retried blindly. */
  regenerate(orgId: string, siteId: string): Promise<PublishingAuth> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/publishing/auth/regenerate`);
  }
}
