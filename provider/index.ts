/**
 * pulumi-docsplatform: Pulumi dynamic resources for every declarative object of the docs
 * platform's /v1 API. Each kind exports its class, its args/outputs types and its provider.
 */

export { kinds, kindByName, type KindName } from "./resources/kinds";
export type { KindDefinition, KindContext, FieldSpec, ResourceArgs, AdoptInput, AnyKind } from "./resources/kind";
export { makeProvider, CONFIG } from "./resources/provider";

// Site structure
export { Site, siteProvider, siteKind, type SiteArgs, type SiteInputs, type SiteOutputs } from "./resources/site";
export {
  ShareLink,
  shareLinkProvider,
  shareLinkKind,
  type ShareLinkArgs,
  type ShareLinkInputs,
  type ShareLinkOutputs,
} from "./resources/shareLink";

export {
  SiteSection,
  siteSectionProvider,
  siteSectionKind,
  type SiteSectionArgs,
  type SiteSectionInputs,
  type SiteSectionOutputs,
} from "./resources/siteSection";
export {
  SiteSectionGroup,
  siteSectionGroupProvider,
  siteSectionGroupKind,
  type SiteSectionGroupArgs,
  type SiteSectionGroupInputs,
  type SiteSectionGroupOutputs,
} from "./resources/siteSectionGroup";
export {
  SiteSpace,
  siteSpaceProvider,
  siteSpaceKind,
  type SiteSpaceArgs,
  type SiteSpaceInputs,
  type SiteSpaceOutputs,
} from "./resources/siteSpace";
export {
  SiteStructureOrder,
  siteStructureOrderProvider,
  siteStructureOrderKind,
  type SiteStructureOrderArgs,
  type SiteStructureOrderInputs,
  type SiteStructureOrderOutputs,
} from "./resources/siteStructureOrder";
export {
  SiteAdaptiveSchema,
  siteAdaptiveSchemaProvider,
  siteAdaptiveSchemaKind,
  type SiteAdaptiveSchemaArgs,
  type SiteAdaptiveSchemaInputs,
  type SiteAdaptiveSchemaOutputs,
} from "./resources/siteAdaptiveSchema";
export { ROOT_LEVEL, planMoves, type Move } from "./resources/siteStructureOrder";
export { EMPTY_ADAPTIVE_SCHEMA } from "./resources/siteAdaptiveSchema";

// Organisation
export { Team, teamProvider, teamKind, type TeamArgs, type TeamInputs, type TeamOutputs } from "./resources/team";
export {
  TeamMembers,
  teamMembersProvider,
  teamMembersKind,
  type TeamMembersArgs,
  type TeamMembersInputs,
  type TeamMembersOutputs,
  type TeamMember,
  type ResolvedTeamMember,
} from "./resources/teamMembers";
export {
  SamlProvider,
  samlProviderProvider,
  samlProviderKind,
  type SamlProviderArgs,
  type SamlProviderInputs,
  type SamlProviderOutputs,
} from "./resources/samlProvider";
export {
  OpenAPISpec,
  openApiSpecProvider,
  openApiSpecKind,
  type OpenAPISpecArgs,
  type OpenAPISpecInputs,
  type OpenAPISpecOutputs,
} from "./resources/openApiSpec";
export {
  Collection,
  collectionProvider,
  collectionKind,
  type CollectionArgs,
  type CollectionInputs,
  type CollectionOutputs,
} from "./resources/collection";
export {
  Space,
  spaceProvider,
  spaceKind,
  type SpaceArgs,
  type SpaceInputs,
  type SpaceOutputs,
  type SpaceSettings,
} from "./resources/space";
export {
  OrganizationSettings,
  organizationSettingsProvider,
  organizationSettingsKind,
  type OrganizationSettingsArgs,
  type OrganizationSettingsInputs,
  type OrganizationSettingsOutputs,
  type OrganizationSettingsValues,
  type LiveOrganizationSettings,
  type DefaultContent,
} from "./resources/organizationSettings";
export {
  MemberRole,
  memberRoleProvider,
  memberRoleKind,
  type MemberRoleArgs,
  type MemberRoleInputs,
  type MemberRoleOutputs,
} from "./resources/memberRole";
export {
  TranslationSettings,
  translationSettingsProvider,
  translationSettingsKind,
  type TranslationSettingsArgs,
  type TranslationSettingsInputs,
  type TranslationSettingsOutputs,
} from "./resources/translationSettings";

// Stack file (component and loader)
export * from "./stack";
