import type { RequestCore } from "./core";
import { path } from "./path";
import type { CreateSectionGroupBody, MovePosition, SiteSectionGroup, UpdateSectionGroupBody } from "./types";

/** Section groups of a site (in display order). */
export class SectionGroupsApi {
  constructor(private readonly core: RequestCore) {}

  list(orgId: string, siteId: string): Promise<SiteSectionGroup[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/sites/${siteId}/section-groups`);
  }
  iterate(orgId: string, siteId: string): AsyncIterableIterator<SiteSectionGroup> {
    return this.core.paginate(path`/v1/orgs/${orgId}/sites/${siteId}/section-groups`);
  }
  create(orgId: string, siteId: string, body: CreateSectionGroupBody): Promise<SiteSectionGroup> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/section-groups`, { body });
  }
  update(orgId: string, siteId: string, groupId: string, body: UpdateSectionGroupBody): Promise<SiteSectionGroup> {
    return this.core.request("PATCH", path`/v1/orgs/${orgId}/sites/${siteId}/section-groups/${groupId}`, { body });
  }
  /** Deletes the group; its sections move back to the root. */
  delete(orgId: string, siteId: string, groupId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/sites/${siteId}/section-groups/${groupId}`);
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
