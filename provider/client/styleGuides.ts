import type { RequestCore } from "./core";
import type { ChangeRequest } from "./contentTypes";
import type { ContentDocument, EnsureStyleGuideBody, OrganizationAgentInstructions, StyleGuideEntry, StyleGuideRun, StyleGuideTemplate } from "./guideTypes";
import { path } from "./path";
import type { Space } from "./spaceTypes";

/**
 * Style guides (spaces of type `styleguide` the platform's editing agent checks edits against) and the
 * organisation's agent instructions. A site's guide is attached by the site update's `styleguide`.
 */
export class StyleGuidesApi {
  constructor(private readonly core: RequestCore) {}

  /** Every guide of the organisation, each with the sites it is attached to (none for a guide no site uses). */
  async list(orgId: string): Promise<StyleGuideEntry[]> {
    return (await this.core.request<{ styleguides: StyleGuideEntry[] }>("GET", path`/v1/orgs/${orgId}/styleguides`)).styleguides;
  }
  /** The built-in templates a new guide can start from. */
  async templates(orgId: string): Promise<StyleGuideTemplate[]> {
    return (await this.core.request<{ templates: StyleGuideTemplate[] }>("GET", path`/v1/orgs/${orgId}/styleguide-templates`)).templates;
  }
  /** The site's own guide space: made on the first call (from `template`, else blank), the same space afterwards. */
  ensure(orgId: string, siteId: string, body: EnsureStyleGuideBody = {}): Promise<Space> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/styleguide`, { body });
  }
  /** Runs the site's guide over 1 to 3 of its content spaces: a draft change request of fixes each. */
  run(orgId: string, siteId: string, spaces: string[]): Promise<{ run: StyleGuideRun; changeRequests: ChangeRequest[] }> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/styleguide/runs`, { body: { spaces } });
  }
  /** The site's runs, newest first. */
  runs(orgId: string, siteId: string): Promise<StyleGuideRun[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/sites/${siteId}/styleguide/runs`);
  }
  agentInstructions(orgId: string): Promise<OrganizationAgentInstructions> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/agent-instructions`);
  }
  /** Replaces the organisation's agent instructions. */
  setAgentInstructions(orgId: string, instructions: ContentDocument): Promise<OrganizationAgentInstructions> {
    return this.core.request("PUT", path`/v1/orgs/${orgId}/agent-instructions`, { body: { instructions } });
  }
}
