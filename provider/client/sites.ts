import type { RequestCore } from "./core";
import { type InOrganization, OwnedItems } from "./ownedList";
import { path } from "./path";
import type {
  CreateSiteBody,
  ListSitesQuery,
  PublishedContentSite,
  PutAdaptiveSchemaBody,
  Site,
  SiteAdaptiveSchema,
  TemplateCondition,
  UpdateSiteBody,
} from "./types";

/** Docs sites of an organisation, their adaptive-content schema and published view. Deleting a site deletes its sections, groups, site spaces, share links and schema. */
export class SitesApi extends OwnedItems<InOrganization, Site, CreateSiteBody, UpdateSiteBody, ListSitesQuery> {
  constructor(core: RequestCore) {
    super(core, { collection: "/v1/orgs/{}/sites" });
  }

  /** Makes the site reachable (its `published` field, as an update sets it). */
  publish(orgId: string, siteId: string): Promise<Site> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/publish`, { idempotent: true });
  }
  /** Takes the site offline; its configuration and content stay. */
  unpublish(orgId: string, siteId: string): Promise<Site> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/unpublish`, { idempotent: true });
  }
  getAdaptiveSchema(orgId: string, siteId: string): Promise<SiteAdaptiveSchema> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/sites/${siteId}/adaptive-schema`);
  }
  putAdaptiveSchema(orgId: string, siteId: string, body: PutAdaptiveSchemaBody): Promise<SiteAdaptiveSchema> {
    return this.core.request("PUT", path`/v1/orgs/${orgId}/sites/${siteId}/adaptive-schema`, { body });
  }
  async templateConditions(orgId: string, siteId: string): Promise<TemplateCondition[]> {
    const res = await this.core.request<{ items: TemplateCondition[] }>(
      "GET",
      path`/v1/orgs/${orgId}/sites/${siteId}/adaptive-schema/template-conditions`,
    );
    return res.items;
  }
  /** The published structure: sections with their site spaces (or root site spaces). */
  published(orgId: string, siteId: string, query: { shareKey?: string } = {}): Promise<PublishedContentSite> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/sites/${siteId}/published`, { query: { ...query } });
  }
}
