import type { RequestCore } from "./core";
import { path } from "./path";
import type { CreateSiteSpaceBody, ListSiteSpacesQuery, MovePosition, SiteSpace, UpdateSiteSpaceBody } from "./types";

/** Site spaces of a site (in display order). No single-object GET exists: read through the list. */
export class SiteSpacesApi {
  constructor(private readonly core: RequestCore) {}

  list(orgId: string, siteId: string, query: ListSiteSpacesQuery = {}): Promise<SiteSpace[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/sites/${siteId}/site-spaces`, { ...query });
  }
  iterate(orgId: string, siteId: string, query: ListSiteSpacesQuery = {}): AsyncIterableIterator<SiteSpace> {
    return this.core.paginate(path`/v1/orgs/${orgId}/sites/${siteId}/site-spaces`, { ...query });
  }
  create(orgId: string, siteId: string, body: CreateSiteSpaceBody): Promise<SiteSpace> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/site-spaces`, { body });
  }
  update(orgId: string, siteId: string, siteSpaceId: string, body: UpdateSiteSpaceBody): Promise<SiteSpace> {
    return this.core.request("PATCH", path`/v1/orgs/${orgId}/sites/${siteId}/site-spaces/${siteSpaceId}`, { body });
  }
  /** A full copy of the site space's space, beside it (or in a new section when it was its section's only variant); never retried blindly. */
  duplicate(orgId: string, siteId: string, siteSpaceId: string, body: { draft?: boolean } = {}): Promise<SiteSpace> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/site-spaces/${siteSpaceId}/duplicate`, { body });
  }
  delete(orgId: string, siteId: string, siteSpaceId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/sites/${siteId}/site-spaces/${siteSpaceId}`);
  }
  /** Moves the site space before or after a sibling site space. */
  move(orgId: string, siteId: string, siteSpaceId: string, to: MovePosition): Promise<SiteSpace> {
    const position = {
      ...(to.before === undefined ? {} : { before: { type: "site-space", siteSpace: to.before } }),
      ...(to.after === undefined ? {} : { after: { type: "site-space", siteSpace: to.after } }),
    };
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/site-spaces/${siteSpaceId}/move`, {
      body: { position },
      idempotent: true,
    });
  }
}
