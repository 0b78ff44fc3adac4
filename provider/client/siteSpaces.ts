import type { RequestCore } from "./core";
import { type InSite, OwnedList } from "./ownedList";
import { path } from "./path";
import type { CreateSiteSpaceBody, ListSiteSpacesQuery, MovePosition, SiteSpace, UpdateSiteSpaceBody } from "./types";

/** Site spaces of a site (in display order). No single-object GET exists: read through the list. */
export class SiteSpacesApi extends OwnedList<InSite, SiteSpace, CreateSiteSpaceBody, UpdateSiteSpaceBody, ListSiteSpacesQuery> {
  constructor(core: RequestCore) {
    super(core, { collection: "/v1/orgs/{}/sites/{}/site-spaces" });
  }

  /** A full copy of the site space's space, beside it (or in a new section when it was its section's only variant); never retried blindly. */
  duplicate(orgId: string, siteId: string, siteSpaceId: string, body: { draft?: boolean } = {}): Promise<SiteSpace> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/site-spaces/${siteSpaceId}/duplicate`, { body });
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
