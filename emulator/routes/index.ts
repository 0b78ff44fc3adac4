/** Every /v1 area, registered in one place. */
import type { Route } from "../context";
import { registerChangeRequests } from "./changeRequests";
import { registerComments } from "./comments";
import { registerGitSync } from "./gitSync";
import { registerInstallations } from "./installations";
import { registerCustomization } from "./customization";
import { registerIntegrations } from "./integrations";
import { registerNavigation } from "./navigation";
import { registerOpenApi } from "./openapi";
import { registerOrgs } from "./orgs";
import { registerPermissions } from "./permissions";
import { registerPublishingAuth } from "./publishingAuth";
import { registerRedirects } from "./redirects";
import { registerContextConnections } from "./contextConnections";
import { registerSiteAgent } from "./siteAgent";
import { registerSiteChannels } from "./siteChannels";
import { registerSites } from "./sites";
import { registerSpaceCreation } from "./spaceCreation";
import { registerSpaces } from "./spaces";
import { registerSso } from "./sso";
import { registerStructure } from "./structure";
import { registerStyleguides } from "./styleguides";
import { registerTeams } from "./teams";
import { registerTranslations } from "./translations";

/** Registers every /v1 route. */
export function registerAll(route: Route): void {
  registerOrgs(route);
  registerTeams(route);
  registerSpaces(route);
  registerSites(route);
  registerStructure(route);
  registerNavigation(route);
  registerCustomization(route);
  registerSpaceCreation(route);
  registerSso(route);
  registerOpenApi(route);
  registerTranslations(route);
  registerIntegrations(route);
  registerInstallations(route);
  registerPermissions(route);
  registerPublishingAuth(route);
  registerChangeRequests(route);
  registerComments(route);
  registerRedirects(route);
  registerGitSync(route);
  registerSiteAgent(route);
  registerSiteChannels(route);
  registerContextConnections(route);
  registerStyleguides(route);
}
