import type { RequestCore } from "./core";
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

/** Docs sites of an organisation, their adaptive-content schema and published view. */
export class SitesApi {
  constructor(private readonly core: RequestCore) {}

  list(orgId: string, query: ListSitesQuery = {}): Promise<Site[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/sites`, { ...query });
  }
  iterate(orgId: string, query: ListSitesQuery = {}): AsyncIterableIterator<Site> {
    return this.core.paginate(path`/v1/orgs/${orgId}/sites`, { ...query });
  }
  get(orgId: string, siteId: string): Promise<Site> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/sites/${siteId}`);
  }
  /** Creates a site (never retried blindly: an unknown outcome raises ApiError.outcomeUnknown). */
  create(orgId: string, body: CreateSiteBody): Promise<Site> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites`, { body });
  }
  update(orgId: string, siteId: string, body: UpdateSiteBody): Promise<Site> {
    return this.core.request("PATCH", path`/v1/orgs/${orgId}/sites/${siteId}`, { body });
  }
  /** Makes the site reachable (its `published` field, as an update sets it). */
  publish(orgId: string, siteId: string): Promise<Site> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/publish`, { idempotent: true });
  }
  /** Takes the site offline; its configuration and content stay. */
  unpublish(orgId: string, siteId: string): Promise<Site> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/unpublish`, { idempotent: true });
  }
  /** Deletes the site with its sections, groups, site spaces, share links and schema. */
  delete(orgId: string, siteId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/sites/${siteId}`);
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
