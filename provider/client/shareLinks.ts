import type { RequestCore } from "./core";
import { type InSite, OwnedList } from "./ownedList";
import type { CreateShareLinkBody, ShareLink, UpdateShareLinkBody } from "./types";

/** Share links of a site (no single-object GET: read through the list). Their `urls.published` holds a secret token. */
export class ShareLinksApi extends OwnedList<InSite, ShareLink, CreateShareLinkBody, UpdateShareLinkBody> {
  constructor(core: RequestCore) {
    super(core, { collection: "/v1/orgs/{}/sites/{}/share-links" });
  }
}
