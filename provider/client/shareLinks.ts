import type { RequestCore } from "./core";
import { path } from "./path";
import type { CreateShareLinkBody, ShareLink, UpdateShareLinkBody } from "./types";

/** Share links of a site. Their `urls.published` holds a secret token. */
export class ShareLinksApi {
  constructor(private readonly core: RequestCore) {}

  list(orgId: string, siteId: string): Promise<ShareLink[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/sites/${siteId}/share-links`);
  }
  iterate(orgId: string, siteId: string): AsyncIterableIterator<ShareLink> {
    return this.core.paginate(path`/v1/orgs/${orgId}/sites/${siteId}/share-links`);
  }
  create(orgId: string, siteId: string, body: CreateShareLinkBody): Promise<ShareLink> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/share-links`, { body });
  }
  update(orgId: string, siteId: string, shareLinkId: string, body: UpdateShareLinkBody): Promise<ShareLink> {
    return this.core.request("PATCH", path`/v1/orgs/${orgId}/sites/${siteId}/share-links/${shareLinkId}`, { body });
  }
  delete(orgId: string, siteId: string, shareLinkId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/sites/${siteId}/share-links/${shareLinkId}`);
  }
}
