import type { RequestCore } from "./core";
import { path } from "./path";
import type { CreateSectionBody, MovePosition, SiteSection, UpdateSectionBody } from "./types";

/** Sections of a site (in display order). No single-object GET exists: read through the list. */
export class SectionsApi {
  constructor(private readonly core: RequestCore) {}

  list(orgId: string, siteId: string, query: { shareKey?: string } = {}): Promise<SiteSection[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/sites/${siteId}/sections`, { ...query });
  }
  iterate(orgId: string, siteId: string, query: { shareKey?: string } = {}): AsyncIterableIterator<SiteSection> {
    return this.core.paginate(path`/v1/orgs/${orgId}/sites/${siteId}/sections`, { ...query });
  }
  /** Creates a section and, inside it, a site space for `spaceId` (the section's default). */
  create(orgId: string, siteId: string, body: CreateSectionBody): Promise<SiteSection> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/sections`, { body });
  }
  update(orgId: string, siteId: string, sectionId: string, body: UpdateSectionBody): Promise<SiteSection> {
    return this.core.request("PATCH", path`/v1/orgs/${orgId}/sites/${siteId}/sections/${sectionId}`, { body });
  }
  /** Deletes the section and its site spaces. */
  delete(orgId: string, siteId: string, sectionId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/sites/${siteId}/sections/${sectionId}`);
  }
  /** Moves the section before or after a sibling section. */
  move(orgId: string, siteId: string, sectionId: string, to: MovePosition): Promise<SiteSection> {
    const position = {
      ...(to.before === undefined ? {} : { before: { type: "site-section", siteSection: to.before } }),
      ...(to.after === undefined ? {} : { after: { type: "site-section", siteSection: to.after } }),
    };
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/sections/${sectionId}/move`, {
      body: { position },
      idempotent: true,
    });
  }
}
