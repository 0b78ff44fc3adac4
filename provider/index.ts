/**
 * pulumi-docsplatform: Pulumi dynamic resources for every declarative object of the docs
 * platform's /v1 API. Each kind exports its class, its args/outputs types and its provider.
 */
import "./compileCache";

export { kinds, kindByName, type KindName } from "./resources/kinds";
export type { KindDefinition, KindContext, FieldSpec, ResourceArgs, AdoptInput, AnyKind } from "./resources/kind";
export { makeProvider, CONFIG } from "./resources/provider";

// The classes of the kinds (`new Site(...)`), and the class factory they are made with
export * from "./classes";

// Site structure
export { siteProvider, siteKind, type SiteArgs, type SiteInputs, type SiteOutputs } from "./resources/site";
export { shareLinkProvider, shareLinkKind, type ShareLinkArgs, type ShareLinkInputs, type ShareLinkOutputs } from "./resources/shareLink";

export { siteSectionProvider, siteSectionKind, type SiteSectionArgs, type SiteSectionInputs, type SiteSectionOutputs } from "./resources/siteSection";
export { siteSectionGroupProvider, siteSectionGroupKind, type SiteSectionGroupArgs, type SiteSectionGroupInputs, type SiteSectionGroupOutputs } from "./resources/siteSectionGroup";
export { siteSpaceProvider, siteSpaceKind, type SiteSpaceArgs, type SiteSpaceInputs, type SiteSpaceOutputs } from "./resources/siteSpace";
export { siteStructureOrderProvider, siteStructureOrderKind, type SiteStructureOrderArgs, type SiteStructureOrderInputs, type SiteStructureOrderOutputs } from "./resources/siteStructureOrder";
export { siteAdaptiveSchemaProvider, siteAdaptiveSchemaKind, type SiteAdaptiveSchemaArgs, type SiteAdaptiveSchemaInputs, type SiteAdaptiveSchemaOutputs } from "./resources/siteAdaptiveSchema";
export { ROOT_LEVEL, planMoves, type Move } from "./resources/siteStructureOrder";
export { EMPTY_ADAPTIVE_SCHEMA } from "./resources/siteAdaptiveSchema";
export { siteRedirectsProvider, siteRedirectsKind, type SiteRedirectsArgs, type SiteRedirectsInputs, type SiteRedirectsOutputs, type RedirectEntry, type StoredRedirect } from "./resources/siteRedirects";
export { siteCustomizationProvider, siteCustomizationKind, type SiteCustomizationArgs, type SiteCustomizationInputs, type SiteCustomizationOutputs } from "./resources/siteCustomization";
export { siteSpaceCustomizationProvider, siteSpaceCustomizationKind, type SiteSpaceCustomizationArgs, type SiteSpaceCustomizationInputs, type SiteSpaceCustomizationOutputs } from "./resources/siteSpaceCustomization";
export { siteExternalLinkProvider, siteExternalLinkKind, type SiteExternalLinkArgs, type SiteExternalLinkInputs, type SiteExternalLinkOutputs } from "./resources/siteExternalLink";

// Organisation
export { teamProvider, teamKind, type TeamArgs, type TeamInputs, type TeamOutputs } from "./resources/team";
export { teamMembersProvider, teamMembersKind, type TeamMembersArgs, type TeamMembersInputs, type TeamMembersOutputs, type TeamMember, type ResolvedTeamMember } from "./resources/teamMembers";
export { samlProviderProvider, samlProviderKind, type SamlProviderArgs, type SamlProviderInputs, type SamlProviderOutputs } from "./resources/samlProvider";
export { openApiSpecProvider, openApiSpecKind, type OpenAPISpecArgs, type OpenAPISpecInputs, type OpenAPISpecOutputs } from "./resources/openApiSpec";
export { styleGuideProvider, styleGuideKind, type StyleGuideArgs, type StyleGuideInputs, type StyleGuideOutputs } from "./resources/styleGuide";
export { siteStyleGuideProvider, siteStyleGuideKind, type SiteStyleGuideArgs, type SiteStyleGuideInputs, type SiteStyleGuideOutputs } from "./resources/siteStyleGuide";
export { agentInstructionsProvider, agentInstructionsKind, type AgentInstructionsArgs, type AgentInstructionsInputs, type AgentInstructionsOutputs } from "./resources/agentInstructions";
export { collectionProvider, collectionKind, type CollectionArgs, type CollectionInputs, type CollectionOutputs } from "./resources/collection";
export { spaceProvider, spaceKind, type SpaceArgs, type SpaceInputs, type SpaceOutputs, type SpaceSettings } from "./resources/space";
export { organizationSettingsProvider, organizationSettingsKind, type OrganizationSettingsArgs, type OrganizationSettingsInputs, type OrganizationSettingsOutputs, type OrganizationSettingsValues, type LiveOrganizationSettings, type DefaultContent } from "./resources/organizationSettings";
export { memberRoleProvider, memberRoleKind, type MemberRoleArgs, type MemberRoleInputs, type MemberRoleOutputs } from "./resources/memberRole";
export { translationSettingsProvider, translationSettingsKind, type TranslationSettingsArgs, type TranslationSettingsInputs, type TranslationSettingsOutputs } from "./resources/translationSettings";
export { integrationProvider, integrationKind, type IntegrationArgs, type IntegrationInputs, type IntegrationOutputs, type Digest } from "./resources/integration";

// Access
export { permissionsProvider, permissionsKind, lockoutProblems, grantPlan, type PermissionsArgs, type PermissionsInputs, type PermissionsOutputs, type Grant, type DirectGrant, type GrantTarget } from "./resources/permissions";
export { visitorAuthProvider, visitorAuthKind, type VisitorAuthArgs, type VisitorAuthInputs, type VisitorAuthOutputs } from "./resources/visitorAuth";
export { siteGitSyncProvider, siteGitSyncKind, PLATFORM_PRIORITY, SITE_FILE_NAME, type SiteGitSyncArgs, type SiteGitSyncInputs, type SiteGitSyncOutputs } from "./resources/siteGitSync";
export { siteMcpServerProvider, siteMcpServerKind, type SiteMcpServerArgs, type SiteMcpServerInputs, type SiteMcpServerOutputs } from "./resources/siteMcpServer";
export { siteAgentSettingsProvider, siteAgentSettingsKind, type SiteAgentSettingsArgs, type SiteAgentSettingsInputs, type SiteAgentSettingsOutputs } from "./resources/siteAgentSettings";
export { siteAgentChannelProvider, siteAgentChannelKind, type SiteAgentChannelArgs, type SiteAgentChannelInputs, type SiteAgentChannelOutputs } from "./resources/siteAgentChannel";
export { siteContextConnectionProvider, siteContextConnectionKind, type SiteContextConnectionArgs, type SiteContextConnectionInputs, type SiteContextConnectionOutputs } from "./resources/siteContextConnection";
export { integrationInstallationProvider, integrationInstallationKind, type IntegrationInstallationArgs, type IntegrationInstallationInputs, type IntegrationInstallationOutputs } from "./resources/integrationInstallation";

// Stack file (component and loader)
export * from "./stack";
export {
  DocsPlatform,
  DOCS_PLATFORM_TYPE,
  StackFileError,
  loadForComponent,
  type DocsPlatformArgs,
  type DocsPlatformResources,
  type SiteResources,
} from "./declare/component";

