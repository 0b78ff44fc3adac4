import type { RequestCore } from "./core";
import { path } from "./path";
import type { Installation, OrgInstallationItem, SiteInstallation, SpaceInstallation, UpdateInstallationBody, UpdateTargetInstallationBody } from "./accessTypes";

/**
 * Integration installations: on an organisation (configuration, which spaces and sites it applies
 * to), then enabled on sites and spaces. Installs are POSTs and never retried blindly.
 */
export class InstallationsApi {
  constructor(private readonly core: RequestCore) {}

  /** The organisation's installations with their integrations; `search` filters by integration name. */
  listForOrg(orgId: string, query: { search?: string } = {}): Promise<OrgInstallationItem[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/installations`, { ...query });
  }
  install(name: string, organization: string): Promise<Installation> {
    return this.core.request("POST", path`/v1/integrations/${name}/installations`, { body: { organization } });
  }
  list(name: string, query: { externalId?: string } = {}): Promise<Installation[]> {
    return this.core.listAll(path`/v1/integrations/${name}/installations`, { ...query });
  }
  get(name: string, installationId: string): Promise<Installation> {
    return this.core.request("GET", path`/v1/integrations/${name}/installations/${installationId}`);
  }
  update(name: string, installationId: string, body: UpdateInstallationBody): Promise<Installation> {
    return this.core.request("PATCH", path`/v1/integrations/${name}/installations/${installationId}`, { body });
  }
  uninstall(name: string, installationId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/integrations/${name}/installations/${installationId}`);
  }

  listSites(name: string, installationId: string): Promise<SiteInstallation[]> {
    return this.core.listAll(path`/v1/integrations/${name}/installations/${installationId}/sites`);
  }
  enableOnSite(name: string, installationId: string, siteId: string): Promise<SiteInstallation> {
    return this.core.request("POST", path`/v1/integrations/${name}/installations/${installationId}/sites`, { body: { siteId } });
  }
  getSite(name: string, installationId: string, siteId: string): Promise<SiteInstallation> {
    return this.core.request("GET", path`/v1/integrations/${name}/installations/${installationId}/sites/${siteId}`);
  }
  updateSite(name: string, installationId: string, siteId: string, body: UpdateTargetInstallationBody): Promise<SiteInstallation> {
    return this.core.request("PATCH", path`/v1/integrations/${name}/installations/${installationId}/sites/${siteId}`, { body });
  }
  disableOnSite(name: string, installationId: string, siteId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/integrations/${name}/installations/${installationId}/sites/${siteId}`);
  }

  listSpaces(name: string, installationId: string): Promise<SpaceInstallation[]> {
    return this.core.listAll(path`/v1/integrations/${name}/installations/${installationId}/spaces`);
  }
  enableOnSpace(name: string, installationId: string, spaceId: string): Promise<SpaceInstallation> {
    return this.core.request("POST", path`/v1/integrations/${name}/installations/${installationId}/spaces`, { body: { space: spaceId } });
  }
  getSpace(name: string, installationId: string, spaceId: string): Promise<SpaceInstallation> {
    return this.core.request("GET", path`/v1/integrations/${name}/installations/${installationId}/spaces/${spaceId}`);
  }
  updateSpace(name: string, installationId: string, spaceId: string, body: UpdateTargetInstallationBody): Promise<SpaceInstallation> {
    return this.core.request("PATCH", path`/v1/integrations/${name}/installations/${installationId}/spaces/${spaceId}`, { body });
  }
  disableOnSpace(name: string, installationId: string, spaceId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/integrations/${name}/installations/${installationId}/spaces/${spaceId}`);
  }

  /** Every site installation of the integration. */
  allSites(name: string, query: { externalId?: string } = {}): Promise<SiteInstallation[]> {
    return this.core.listAll(path`/v1/integrations/${name}/sites`, { ...query });
  }
  /** Every space installation of the integration. */
  allSpaces(name: string, query: { externalId?: string } = {}): Promise<SpaceInstallation[]> {
    return this.core.listAll(path`/v1/integrations/${name}/spaces`, { ...query });
  }
}
