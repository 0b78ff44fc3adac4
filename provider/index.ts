/**
 * pulumi-docsplatform: Pulumi dynamic resources for every declarative object of the docs
 * platform's /v1 API. Each kind exports its class, its args/outputs types and its provider.
 */

export { kinds, kindByName, type KindName } from "./resources/kinds";
export type { KindDefinition, KindContext, FieldSpec, ResourceArgs, AdoptInput, AnyKind } from "./resources/kind";
export { makeProvider, CONFIG } from "./resources/provider";

// Site structure
export { Site } from "./classes/site";
export { siteProvider, siteKind, type SiteArgs, type SiteInputs, type SiteOutputs } from "./resources/site";
export { ShareLink } from "./classes/shareLink";
export { shareLinkProvider, shareLinkKind, type ShareLinkArgs, type ShareLinkInputs, type ShareLinkOutputs } from "./resources/shareLink";

export { SiteSection } from "./classes/siteSection";
export { siteSectionProvider, siteSectionKind, type SiteSectionArgs, type SiteSectionInputs, type SiteSectionOutputs } from "./resources/siteSection";
export { SiteSectionGroup } from "./classes/siteSectionGroup";
export { siteSectionGroupProvider, siteSectionGroupKind, type SiteSectionGroupArgs, type SiteSectionGroupInputs, type SiteSectionGroupOutputs } from "./resources/siteSectionGroup";
export { SiteSpace } from "./classes/siteSpace";
export { siteSpaceProvider, siteSpaceKind, type SiteSpaceArgs, type SiteSpaceInputs, type SiteSpaceOutputs } from "./resources/siteSpace";
export { SiteStructureOrder } from "./classes/siteStructureOrder";
export { siteStructureOrderProvider, siteStructureOrderKind, type SiteStructureOrderArgs, type SiteStructureOrderInputs, type SiteStructureOrderOutputs } from "./resources/siteStructureOrder";
export { SiteAdaptiveSchema } from "./classes/siteAdaptiveSchema";
export { siteAdaptiveSchemaProvider, siteAdaptiveSchemaKind, type SiteAdaptiveSchemaArgs, type SiteAdaptiveSchemaInputs, type SiteAdaptiveSchemaOutputs } from "./resources/siteAdaptiveSchema";
export { ROOT_LEVEL, planMoves, type Move } from "./resources/siteStructureOrder";
export { EMPTY_ADAPTIVE_SCHEMA } from "./resources/siteAdaptiveSchema";

// Organisation
export { Team } from "./classes/team";
export { teamProvider, teamKind, type TeamArgs, type TeamInputs, type TeamOutputs } from "./resources/team";
export { TeamMembers } from "./classes/teamMembers";
export { teamMembersProvider, teamMembersKind, type TeamMembersArgs, type TeamMembersInputs, type TeamMembersOutputs, type TeamMember, type ResolvedTeamMember } from "./resources/teamMembers";
export { SamlProvider } from "./classes/samlProvider";
export { samlProviderProvider, samlProviderKind, type SamlProviderArgs, type SamlProviderInputs, type SamlProviderOutputs } from "./resources/samlProvider";
export { OpenAPISpec } from "./classes/openApiSpec";
export { openApiSpecProvider, openApiSpecKind, type OpenAPISpecArgs, type OpenAPISpecInputs, type OpenAPISpecOutputs } from "./resources/openApiSpec";
export { Collection } from "./classes/collection";
export { collectionProvider, collectionKind, type CollectionArgs, type CollectionInputs, type CollectionOutputs } from "./resources/collection";
export { Space } from "./classes/space";
export { spaceProvider, spaceKind, type SpaceArgs, type SpaceInputs, type SpaceOutputs, type SpaceSettings } from "./resources/space";
export { OrganizationSettings } from "./classes/organizationSettings";
export { organizationSettingsProvider, organizationSettingsKind, type OrganizationSettingsArgs, type OrganizationSettingsInputs, type OrganizationSettingsOutputs, type OrganizationSettingsValues, type LiveOrganizationSettings, type DefaultContent } from "./resources/organizationSettings";
export { MemberRole } from "./classes/memberRole";
export { memberRoleProvider, memberRoleKind, type MemberRoleArgs, type MemberRoleInputs, type MemberRoleOutputs } from "./resources/memberRole";
export { TranslationSettings } from "./classes/translationSettings";
export { translationSettingsProvider, translationSettingsKind, type TranslationSettingsArgs, type TranslationSettingsInputs, type TranslationSettingsOutputs } from "./resources/translationSettings";
export { Integration } from "./classes/integration";
export { integrationProvider, integrationKind, type IntegrationArgs, type IntegrationInputs, type IntegrationOutputs, type Digest } from "./resources/integration";

// Stack file (component and loader)
export * from "./stack";
