/**
 * Types of the /v1 API: resources and request bodies as the platform's API description gives
 * them (see the client's README). Fields the description marks optional are optional;
 * `null` appears where the API allows it.
 */

/** The list envelope of every list operation. */
export interface ListEnvelope<T> {
  items: T[];
  count: number;
  /** Absent on the last page; `page` is an opaque cursor. */
  next?: { page: string };
}

/** Member role in an organisation and default level of content. */
export type Role = "admin" | "create" | "review" | "edit" | "comment" | "read";
/** All roles, most powerful first. */
export const ROLES: readonly Role[] = ["admin", "create", "review", "edit", "comment", "read"];
/** Role of a member within a team. */
export type TeamRole = "owner" | "member";
export const TEAM_ROLES: readonly TeamRole[] = ["owner", "member"];

export type SpaceVisibility = "public" | "unlisted" | "share-link" | "visitor-auth" | "in-collection" | "private";
export type SiteVisibility = "public" | "unlisted" | "share-link" | "visitor-auth";
export const SITE_VISIBILITIES: readonly SiteVisibility[] = ["public", "unlisted", "share-link", "visitor-auth"];
export type EditMode = "live" | "locked";
export type AgentsContext = "excluded" | "included";
/** Site type: `basic` is the documented value; others exist but are not listed. */
export type SiteType = "basic" | (string & {});

export interface User {
  object: "user";
  id: string;
  displayName: string;
  email?: string;
  photoURL?: string;
  urls?: { location?: string };
}

export interface Organization {
  object: "organization";
  id: string;
  title: string;
  createdAt: string;
  emailDomains: string[];
  hostname?: string;
  type: string;
  useCase?: string;
  communityType?: string;
  defaultRole?: Role | null;
  defaultContent?: { type: "site"; site: string } | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks: boolean;
  plan: string;
  customHostname?: string;
  billing?: { interval?: string; endDate?: string; hasPaymentFailed?: boolean; isScheduledToCancel?: boolean };
  urls?: { location?: string; app?: string; logo?: string };
  trial?: { status?: string; endDate?: string; decision?: string };
  blocked?: { reason?: string };
  permissions?: Partial<
    Record<
      | "view"
      | "admin"
      | "ownTeam"
      | "createContent"
      | "createOpenAPISpec"
      | "ingestConversations"
      | "viewBilling"
      | "listMembers"
      | "listTeams"
      | "listIntegrations",
      boolean
    >
  >;
}

export interface UpdateOrganizationBody {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: Role | null;
  defaultContent?: { type: "site"; site: string } | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
}

/** An item of the organisation content search. */
export interface SearchResultItem {
  id: string;
  title: string;
  pages: {
    id: string;
    title: string;
    path: string;
    sections?: { id: string; title: string; path: string; body: string; urls?: { app?: string } }[];
    urls?: { app?: string };
  }[];
}

export interface Member {
  object: "member";
  id: string;
  /** null for guests. */
  role: Role | null;
  user: User;
  disabled?: boolean;
  joinedAt?: string;
  lastSeenAt?: string;
  sso?: boolean;
  spaces?: number;
  teams?: number;
}

export interface ListMembersQuery {
  order?: "asc" | "desc";
  role?: Role;
  search?: string;
  sort?: "joinedAt" | "lastSeenAt";
}

export interface UpdateMemberBody {
  role?: Role | null;
}

export interface MemberSpaceItem {
  permission: string;
  space: Space;
}

export interface MemberTeamItem {
  team: Team;
  member: { role: TeamRole };
}

export interface Team {
  object: "team";
  id: string;
  title?: string;
  members?: number;
  spaces?: number;
  createdAt?: string;
  permissions?: { admin?: boolean; view?: boolean };
}

export interface CreateTeamBody {
  title: string;
  /** Member user IDs or e-mail addresses. */
  members?: string[];
}

export interface UpdateTeamBody {
  title: string;
}

/** An item of a team's member list. */
export interface TeamMemberItem {
  organization: Member;
  team: { role: TeamRole };
  permissions?: { view?: boolean };
}

export interface UpdateTeamMembersBody {
  /** User IDs or e-mail addresses. A user in both add and remove is removed. */
  add?: string[];
  remove?: string[];
  memberships?: Record<string, { role: TeamRole }>;
}

export interface PutTeamMemberBody {
  role?: TeamRole;
}

export interface Collection {
  object: "collection";
  id: string;
  title: string;
  description?: string;
  organization: string;
  parent?: string;
  defaultLevel: Role | null;
  urls?: { location?: string; app?: string };
  permissions?: Partial<Record<"view" | "admin" | "viewInviteLinks" | "create", boolean>>;
}

export interface CreateCollectionBody {
  title?: string;
  parent?: string;
}

export interface UpdateCollectionBody {
  title?: string;
  description?: string;
  defaultLevel?: Role | null;
}

/** Position of a moved space or collection among spaces. */
export interface SpacePosition {
  before?: { type: "space"; space: string };
  after?: { type: "space"; space: string };
}

export interface MoveBody {
  parent?: string | null;
  position?: SpacePosition;
}

export interface TransferBody {
  organization: string;
}

export interface Space {
  object: "space";
  id: string;
  title: string;
  emoji: string;
  visibility: SpaceVisibility;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  editMode?: EditMode;
  /** Content language. */
  language?: string;
  urls?: { location?: string; app?: string; published?: string; public?: string; icon?: string };
  organization: string;
  parent?: string;
  gitSync?: { repoName?: string; installationProvider?: string; integration?: string; url?: string; updatedAt?: string };
  visitorAuth?: { backend?: string };
  revision: string;
  defaultLevel: Role | null;
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  permissions?: Partial<
    Record<"view" | "access" | "admin" | "viewInviteLinks" | "edit" | "triggerGitSync" | "comment" | "merge" | "review", boolean>
  >;
}

/** A reference from a link item (`kind` such as `file`, `url`, `page`). */
export interface ContentReference {
  kind: string;
  organization?: string;
  space?: string;
  file?: string;
  [key: string]: unknown;
}

/** An item of a space's link list. */
export interface LinkItem {
  status: "ok" | "broken" | "in-app";
  relation?: string;
  targetReference: ContentReference;
  locationReferences?: ContentReference[];
}

/** The link list: the envelope plus link statistics. */
export interface LinkList extends ListEnvelope<LinkItem> {
  stats: { total: number; broken: { total: number; changeRequest: number } };
}

export interface UpdateSpaceBody {
  editMode?: EditMode;
  title?: string;
  defaultLevel?: Role | null;
  emoji?: string;
}

export interface SiteFeature {
  id: string;
  plan?: string;
  frozen?: boolean;
  customizations?: string[];
}

export interface Site {
  object: "site";
  id: string;
  type: SiteType;
  title: string;
  icon?: { icon: { light: string; dark: string } } | string | null;
  hostname?: string;
  basename?: string;
  proxy?: { origin?: string; target?: string } | null;
  visibility: SiteVisibility;
  published: boolean;
  siteSpaces: number;
  createdAt: string;
  adaptiveContent?: { enabled: boolean };
  ads?: { status?: string; submittable?: boolean };
  agentsContext: AgentsContext;
  features?: SiteFeature[];
  urls?: { location?: string; app?: string; published?: string };
}

export interface ListSitesQuery {
  /** Only sites that include this space. */
  space?: string;
  title?: string;
  published?: boolean;
}

export interface CreateSiteBody {
  type?: SiteType;
  title?: string;
  visibility?: SiteVisibility;
  /** Space IDs to add as root site spaces, or `"new"` for one new empty space. */
  spaces?: string[] | "new";
}

export interface UpdateSiteBody {
  title?: string;
  visibility?: SiteVisibility;
  basename?: string;
  adaptiveContent?: { enabled: boolean };
  agentsContext?: AgentsContext;
  defaultSiteSpace?: string;
  defaultSiteSection?: string;
  /** Host plus path segments, or null to remove the proxy. */
  proxy?: string | null;
  published?: boolean;
}

/** The visitor-attribute JSON Schema (draft-07) of adaptive content. */
export interface AdaptiveJsonSchema {
  $schema?: string;
  $id?: string;
  type: "object";
  properties: Record<string, unknown>;
  additionalProperties: false;
}

export interface SiteAdaptiveSchema {
  object: "site-adaptive-schema";
  jsonSchema: AdaptiveJsonSchema;
  updatedAt?: string;
}

export interface PutAdaptiveSchemaBody {
  jsonSchema: AdaptiveJsonSchema;
}

export interface TemplateCondition {
  description: string;
  condition: string;
}

export interface PublishedContentSite {
  object: "published-content-site";
  site: Site;
  structure: { type: "sections"; structure: SiteSection[] } | { type: "siteSpaces"; structure: SiteSpace[] } | { type: string; structure: unknown };
}

export interface SiteSection {
  object: "site-section";
  id: string;
  title: string;
  description?: string;
  default?: boolean;
  path: string;
  condition?: string;
  sectionGroup?: string;
  icon?: string;
  /** Draft and not live. */
  draft?: boolean;
  siteSpaces?: SiteSpace[];
  urls?: { published?: string };
}

export interface CreateSectionBody {
  /** The space added as the section's first (default) site space. */
  spaceId: string;
  title?: string | null;
  icon?: string | null;
  /** Created inside this group; omitted: the root. */
  siteSectionGroupId?: string;
  /** Default false. */
  draft?: boolean;
}

export interface UpdateSectionBody {
  title?: string;
  path?: string;
  defaultSiteSpace?: string;
  /** Omitted leaves it unchanged; null removes it. */
  condition?: string | null;
  icon?: string | null;
  description?: string | null;
  draft?: boolean;
  /** Moves the section into this group; null: to the root. */
  siteSectionGroupId?: string | null;
}

export interface SiteSectionGroup {
  object: "site-section-group";
  id: string;
  title: string;
  icon?: string;
  /** The containing group of a nested group. */
  sectionGroup?: string;
  draft?: boolean;
  /** Deprecated by the API: the group's own sections only (see `children`). */
  sections?: SiteSection[];
  /** Every child in display order: sections, nested groups and external links. */
  children?: ({ object: string; id: string } & Record<string, unknown>)[];
}

export interface CreateSectionGroupBody {
  title: string;
  icon?: string | null;
  sections?: string[];
  /** The containing group; omitted: the root. */
  parent?: string;
  draft?: boolean;
}

export interface UpdateSectionGroupBody {
  title?: string;
  icon?: string | null;
  draft?: boolean;
  /** Into this group; null: to the root. */
  parentSectionGroupId?: string | null;
}

export interface SiteSpace {
  object: "site-space";
  id: string;
  path: string;
  section?: string;
  space?: Space;
  title: string;
  default?: boolean;
  condition?: string;
  draft?: boolean;
  hasAdvancedCustomizationFeature?: boolean;
  urls?: { published?: string };
}

export interface ListSiteSpacesQuery {
  shareKey?: string;
  /** true: only the default site space; false: only the others. */
  default?: boolean;
}

export interface CreateSiteSpaceBody {
  spaceId: string;
  /** Omitted: the default section, or the root when the site has no sections. */
  sectionId?: string;
  /** Default false. */
  draft?: boolean;
}

export interface UpdateSiteSpaceBody {
  path?: string;
  condition?: string | null;
  spaceId?: string;
  draft?: boolean;
}

/** Where a moved section, section group or site space goes: right before or right after a sibling (by ID). */
export type MovePosition = { before: string; after?: undefined } | { after: string; before?: undefined };

export interface ShareLink {
  object: "share-link";
  id: string;
  createdAt?: string;
  name?: string;
  active?: boolean;
  /** Contains a secret token: treat as a secret. */
  urls?: { published?: string };
}

export interface CreateShareLinkBody {
  name: string;
}

export interface UpdateShareLinkBody {
  active?: boolean;
  name?: string;
}

export interface SamlProvider {
  object: "saml-provider";
  id: string;
  label: string;
  ssoURL?: string;
  entityID?: string;
  certificate?: string;
  defaultTeam?: Team | null;
  defaultRole?: Role | null;
  createdAt?: string;
  status?: string;
  service?: { acsURL?: string; startURL?: string; entityID?: string };
  urls?: { location?: string };
}

export interface CreateSamlProviderBody {
  label: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeam?: string;
  defaultRole?: Role | null;
}

export type UpdateSamlProviderBody = Partial<CreateSamlProviderBody>;

export interface SsoLoginInfo {
  id: string;
  label: string;
  startURL: string;
}

export type OpenAPIProcessingState = "pending" | "progress" | "complete" | (string & {});

export interface OpenAPISpec {
  object: "openapi-spec";
  id: string;
  createdAt?: string;
  updatedAt?: string;
  slug: string;
  sourceURL?: string;
  processingState: OpenAPIProcessingState;
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: string;
  permissions?: { view?: boolean; edit?: boolean };
  urls?: { location?: string; app?: string };
}

export interface OpenAPISource {
  url: string;
}

export interface CreateOpenAPISpecBody {
  slug: string;
  source: OpenAPISource;
}

export interface PutOpenAPISpecBody {
  source: OpenAPISource;
}

export interface OpenAPISpecVersion {
  object: "openapi-spec-version";
  id: string;
  createdAt?: string;
  url: string;
  urls?: { location?: string };
}

export interface OpenAPISpecContent {
  filesystem: Record<string, unknown>;
  url: string;
}

export interface TranslationSettings {
  object: "translation-settings";
  id: string;
  title: string;
  languages?: string[];
  createdAt?: string;
  updatedAt?: string;
  permissions?: { view?: boolean; edit?: boolean };
  urls?: { location?: string };
}

export interface TranslationSettingsBody {
  title: string;
}

export interface IntegrationConfigurationSchema {
  properties: Record<
    string,
    { title?: string; description?: string; type?: string; default?: unknown; completion_url?: string; enum?: string[] }
  >;
  required?: string[];
}

export interface IntegrationBlock {
  id: string;
  title: string;
  description?: string;
  icon?: string;
  urlUnfurl?: string[];
  markdown?: { codeblock: string; body: string };
}

export interface IntegrationContentSource {
  id: string;
  title: string;
  description?: string;
  icon?: string;
  configuration?: { componentId: string };
}

export interface Integration {
  object: "integration";
  name: string;
  version?: number;
  title: string;
  description?: string;
  summary?: string;
  previewImages?: string[];
  target?: string;
  verified?: boolean;
  visibility?: string;
  scopes?: string[];
  categories?: string[];
  blocks?: IntegrationBlock[];
  contentSources?: IntegrationContentSource[];
  configurations?: Partial<Record<"account" | "space" | "site", IntegrationConfigurationSchema>>;
  externalLinks?: { url: string; label: string }[];
  owner?: Organization;
  urls?: { location?: string; icon?: string; app?: string; assets?: string; publicEndpoint?: string };
  permissions?: { admin?: boolean; install?: boolean };
  contentSecurityPolicy?: string;
}

export interface ListIntegrationsQuery {
  search?: string;
  category?: string;
  blockDomain?: string;
  blocks?: boolean;
  contentSources?: boolean;
  owner?: string;
  scope?: string;
  target?: string;
}

export interface PublishIntegrationBody {
  runtime?: string;
  icon?: string;
  title: string;
  description: string;
  summary?: string;
  previewImages?: string[];
  visibility?: string;
  target?: string;
  scopes?: string[];
  categories?: string[];
  blocks?: IntegrationBlock[];
  contentSources?: IntegrationContentSource[];
  externalLinks?: { url: string; label: string }[];
  configurations?: Partial<Record<"account" | "space" | "site", IntegrationConfigurationSchema>>;
  /** Script content. */
  script: string;
  /** ID or subdomain of the publishing organisation. */
  organization: string;
  /** Secret values: never logged. */
  secrets?: Record<string, string>;
  contentSecurityPolicy?: string;
}

/** An installation of an integration; its shape is not described by the API. */
export type IntegrationInstallation = Record<string, unknown> & { id?: string };

/** Error body of every error status. */
export interface ErrorBody {
  error: { code: number; message: string };
}
