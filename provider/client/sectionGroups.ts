import type { RequestCore } from "./core";
import { type InSite, OwnedList } from "./ownedList";
import { path } from "./path";
import type { CreateSectionGroupBody, MovePosition, SiteSectionGroup, UpdateSectionGroupBody } from "./types";

/** Section groups of a site (in display order; no single-object GET). Deleting a group moves its sections back to the root. */
export class SectionGroupsApi extends OwnedList<InSite, SiteSectionGroup, CreateSectionGroupBody, UpdateSectionGroupBody> {
  constructor(core: RequestCore) {
    super(core, { collection: "/v1/orgs/{}/sites/{}/section-groups" });
  }

  /** Puts a section into the group (repeating it is harmless). */
  addSection(orgId: string, siteId: string, groupId: string, sectionId: string): Promise<SiteSectionGroup> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/section-groups/${groupId}/sections`, {
      body: { sectionId },
      idempotent: true,
    });
  }
  removeSection(orgId: string, siteId: string, groupId: string, sectionId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/sites/${siteId}/section-groups/${groupId}/sections/${sectionId}`);
  }
  /** Moves the group before or after a sibling (deprecated by the API, still the way to order). */
  move(orgId: string, siteId: string, groupId: string, to: MovePosition): Promise<SiteSectionGroup> {
    const position = {
      ...(to.before === undefined ? {} : { before: { type: "site-section", id: to.before } }),
      ...(to.after === undefined ? {} : { after: { type: "site-section", id: to.after } }),
    };
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/section-groups/${groupId}/move`, {
      body: { position },
      idempotent: true,
    });
  }
}
