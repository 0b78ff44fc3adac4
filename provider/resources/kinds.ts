import type { AnyKind, StackList } from "./kind";
import { collectionKind } from "./collection";
import { integrationKind } from "./integration";
import { integrationInstallationKind } from "./integrationInstallation";
import { permissionsKind } from "./permissions";
import { visitorAuthKind } from "./visitorAuth";
import { siteGitSyncKind } from "./siteGitSync";
import { memberRoleKind } from "./memberRole";
import { openApiSpecKind } from "./openApiSpec";
import { organizationSettingsKind } from "./organizationSettings";
import { samlProviderKind } from "./samlProvider";
import { spaceKind } from "./space";
import { teamKind } from "./team";
import { teamMembersKind } from "./teamMembers";
import { translationSettingsKind } from "./translationSettings";
import { shareLinkKind } from "./shareLink";
import { siteRedirectsKind } from "./siteRedirects";
import { siteCustomizationKind } from "./siteCustomization";
import { siteSpaceCustomizationKind } from "./siteSpaceCustomization";
import { siteExternalLinkKind } from "./siteExternalLink";
import { siteKind } from "./site";
import { siteAdaptiveSchemaKind } from "./siteAdaptiveSchema";
import { siteSectionKind } from "./siteSection";
import { siteSectionGroupKind } from "./siteSectionGroup";
import { siteSpaceKind } from "./siteSpace";
import { siteStructureOrderKind } from "./siteStructureOrder";
import { siteMcpServerKind } from "./siteMcpServer";
import { siteAgentSettingsKind } from "./siteAgentSettings";
import { siteAgentChannelKind } from "./siteAgentChannel";
import { siteContextConnectionKind } from "./siteContextConnection";
import { siteStyleGuideKind } from "./siteStyleGuide";
import { styleGuideKind } from "./styleGuide";
import { agentInstructionsKind } from "./agentInstructions";

/**
 * THE list of resource kinds: the stack loader, the generated schemas and reference, the component,
 * export, the view and the table-driven tests walk it. Adding a kind is its declaration under
 * provider/resources/ (with its `list` when the stack file lists it as plain keyed entries), its shim
 * under provider/providers/, one row here and one in provider/classes/index.ts, its exports in
 * provider/index.ts; then `npm run schemas` (README, "Adding a kind").
 */
export const kinds = [
  // Site structure
  siteKind,
  siteSectionKind,
  siteSectionGroupKind,
  siteSpaceKind,
  siteStructureOrderKind,
  siteAdaptiveSchemaKind,
  shareLinkKind,
  siteRedirectsKind,
  siteCustomizationKind,
  siteSpaceCustomizationKind,
  siteExternalLinkKind,
  siteStyleGuideKind,
  // Organisation
  teamKind,
  teamMembersKind,
  samlProviderKind,
  openApiSpecKind,
  collectionKind,
  spaceKind,
  organizationSettingsKind,
  memberRoleKind,
  translationSettingsKind,
  integrationKind,
  styleGuideKind,
  agentInstructionsKind,
  // Access
  permissionsKind,
  visitorAuthKind,
  integrationInstallationKind,
  // Git Sync
  siteGitSyncKind,
  // The site's assistant
  siteMcpServerKind,
  siteAgentSettingsKind,
  siteAgentChannelKind,
  siteContextConnectionKind,
] as const satisfies readonly AnyKind[];

/** Name of a registered kind. */
export type KindName = (typeof kinds)[number]["name"];

/** The registered kind with that name, or undefined. */
export function kindByName(name: string): AnyKind | undefined {
  return kinds.find((k) => k.name === name);
}

/** A kind the stack file lists as plain keyed entries of the organisation (see `StackList`). */
export type ListedKind = Extract<(typeof kinds)[number], { list: StackList }>;

/** The kinds the stack file lists as plain keyed entries of the organisation, in the order of the list of kinds. */
export function listedKinds(): (AnyKind & { list: StackList })[] {
  return (kinds as readonly AnyKind[]).filter((k): k is AnyKind & { list: StackList } => k.list !== undefined);
}
