/** Stored rows of the emulator: the live data behind every /v1 resource, one table per kind. */

/** Role of a member in an organization, or default level of content. */
export type Role = "admin" | "create" | "review" | "edit" | "comment" | "read";
/** Role in a team. */
export type TeamRole = "owner" | "member";

/** Roles from most to least powerful; a role may do what every role after it may do. */
export const ROLES: readonly Role[] = ["admin", "create", "review", "edit", "comment", "read"];

/** True when `role` is at least `needed` (a null role, a guest, only passes `read`). */
export function roleAtLeast(role: Role | null, needed: Role): boolean {
  if (role === null) return needed === "read";
  return ROLES.indexOf(role) <= ROLES.indexOf(needed);
}

/** A JSON value as stored and served. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

export interface UserRow {
  id: string;
  email: string;
  displayName: string;
  photoURL: string | null;
}

/** What an organization's admins set: the fields a PATCH may change, and those a snapshot reports beside the ID. */
export interface OrgSettings {
  title: string;
  emailDomains: string[];
  hostname: string | null;
  defaultRole: Role | null;
  defaultContent: { type: "site"; site: string } | null;
  logo: string | null;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
}

export interface OrgRow extends OrgSettings {
  id: string;
  createdAt: string;
  type: string;
  useCase: string | null;
  communityType: string | null;
  plan: string;
  /** IDs of open invite links (only deletable through the API). */
  invites: string[];
  /** The organisation's agent instructions; absent until first written (an empty document is served). */
  agentInstructions?: { document: JsonObject; updatedAt: string; updatedBy: string };
}

export interface MemberRow {
  /** `<org>:<user>` */
  id: string;
  org: string;
  user: string;
  role: Role | null;
  disabled: boolean;
  joinedAt: string;
  lastSeenAt: string | null;
  sso: boolean;
}

export interface TeamRow {
  id: string;
  org: string;
  title: string;
  createdAt: string;
  members: { user: string; role: TeamRole }[];
}

export interface CollectionRow {
  id: string;
  org: string;
  title: string;
  description: string | null;
  parent: string | null;
  defaultLevel: Role | null;
  createdAt: string;
  updatedAt: string;
}

export type SpaceVisibility = "public" | "unlisted" | "share-link" | "visitor-auth" | "in-collection" | "private";

export interface SpaceRow {
  id: string;
  org: string;
  title: string;
  emoji: string;
  visibility: SpaceVisibility;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  editMode: "live" | "locked";
  parent: string | null;
  defaultLevel: Role | null;
  /** Content language (absent on rows written before spaces could be created with one). */
  language?: string | null;
  /** `styleguide` for a style guide space (absent: an ordinary space). */
  type?: "styleguide";
  /** A style guide space: the site it was made for (`POST {site}/styleguide` returns it again for that site). */
  styleguideFor?: string;
  revision: string;
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

export type SiteVisibility = "public" | "unlisted" | "share-link" | "visitor-auth";

export interface SiteRow {
  id: string;
  org: string;
  title: string;
  type: "basic" | "ultimate";
  visibility: SiteVisibility;
  published: boolean;
  hostname: string | null;
  basename: string | null;
  proxy: string | null;
  adaptiveContent: { enabled: boolean };
  agentsContext: "excluded" | "included";
  createdAt: string;
  updatedAt: string;
  /** Root level of the structure in display order: section, section-group and external-link IDs. */
  structure: string[];
  /** Root-level site spaces in display order. */
  rootSiteSpaces: string[];
  defaultSection: string | null;
  /** Default site space of the root level. */
  defaultSiteSpace: string | null;
  adaptiveSchema: { jsonSchema: JsonObject; updatedAt: string } | null;
  /** The whole customization settings; absent until first written (the defaults apply). */
  customization?: { settings: JsonObject; updatedAt: string };
  /** Default level of access to the site: a role, null (guests) or `inherit` (absent on older rows: `inherit`). */
  defaultLevel?: Role | null | "inherit";
  /** The attached style guide's space (absent or null: none). */
  styleguide?: string | null;
  /** Style guide runs, newest last. */
  styleguideRuns?: StyleguideRunRow[];
}

/** One style guide run of a site: the guide checked against up to three content spaces. */
export interface StyleguideRunRow {
  id: string;
  styleguide: string;
  spaces: string[];
  createdAt: string;
  createdBy: string;
  changeRequests: string[];
}

export interface SectionRow {
  id: string;
  site: string;
  title: string;
  path: string;
  description: string | null;
  condition: string | null;
  icon: string | null;
  /** Title per language; absent on rows written before it. */
  localizedTitle?: JsonObject | null;
  group: string | null;
  /** Site spaces of the section in display order. */
  siteSpaces: string[];
  defaultSiteSpace: string | null;
  /** Staged, not live (absent: false). */
  draft?: boolean;
  createdAt: string;
}

export interface SectionGroupRow {
  id: string;
  site: string;
  title: string;
  icon: string | null;
  /** Children of the group in display order: section, nested section-group and external-link IDs. */
  children: string[];
  /** The containing group of a nested group; null (or absent) at the root. */
  parent?: string | null;
  /** Staged, not live (absent: false). */
  draft?: boolean;
  createdAt: string;
}

export interface ExternalLinkRow {
  id: string;
  site: string;
  /** The containing section group; null at the root. */
  group: string | null;
  title: string;
  localizedTitle: JsonObject | null;
  description: string | null;
  localizedDescription: JsonObject | null;
  icon: string | null;
  url: string;
  draft: boolean;
  condition: string | null;
  createdAt: string;
}

export interface SiteSpaceRow {
  id: string;
  site: string;
  section: string | null;
  space: string;
  path: string;
  condition: string | null;
  /** Staged, not live (absent: false). */
  draft?: boolean;
  /** Left out of the site's navigation (absent: false, shown). */
  hidden?: boolean;
  /** Customization overrides of this site space (absent or empty: none). */
  overrides?: JsonObject;
  createdAt: string;
}

export interface ShareLinkRow {
  id: string;
  site: string;
  name: string | null;
  active: boolean;
  /** The secret that grants access; part of `urls.published`. */
  secret: string;
  createdAt: string;
}

/** Where a redirect points, as stored and served (an input `path` destination is stored resolved, as `site-page`). */
export type RedirectDestination =
  | { kind: "site-section"; siteSectionId: string }
  | { kind: "site-space"; siteSpaceId: string }
  | { kind: "site-page"; siteSpaceId: string; pageId: string }
  | { kind: "external"; url: string };

/** What a redirect does: where it leads, and how. An upsert of its source and draft state rewrites it whole. */
export interface RedirectRule {
  destination: RedirectDestination;
  captureWildcard: boolean;
  permanent: boolean;
}

/** A site redirect: its rule, kept per site, source path (with an optional trailing wildcard) and draft state. */
export interface RedirectRow extends RedirectRule {
  id: string;
  site: string;
  source: string;
  draft: boolean;
  createdAt: string;
  /** null until first updated. */
  updatedAt: string | null;
}

export interface SamlRow {
  id: string;
  org: string;
  label: string;
  ssoURL: string | null;
  entityID: string | null;
  certificate: string | null;
  defaultTeam: string | null;
  defaultRole: Role | null;
  createdAt: string;
}

export interface OpenApiVersionRow {
  id: string;
  createdAt: string;
  url: string;
}

export interface OpenApiSpecRow {
  id: string;
  org: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  sourceURL: string | null;
  /** The specification as submitted when its source is text (null or absent: fetched from `sourceURL`). */
  text?: string | null;
  /** `private` or `public` (absent on older rows: private). */
  visibility?: "private" | "public";
  /** When the latest version started processing (drives `processingState`). */
  processingStartedAt: string;
  versions: OpenApiVersionRow[];
}

export interface TranslationRow {
  id: string;
  org: string;
  title: string;
  languages: string[];
  createdAt: string;
  updatedAt: string;
}

export interface IntegrationRow {
  /** The integration name (its identifier). */
  id: string;
  owner: string;
  version: number;
  runtime: string;
  title: string;
  description: string;
  summary: string | null;
  icon: string | null;
  previewImages: string[];
  target: string;
  visibility: string;
  scopes: string[];
  categories: string[];
  blocks: JsonObject[];
  contentSources: JsonObject[];
  externalLinks: JsonObject[];
  configurations: JsonObject;
  contentSecurityPolicy: string | null;
  /** Names of the secrets given at publish time (the values are never served). */
  secretNames: string[];
  /** The script of the latest publish, never served (the API has no way to read it back); null for seeded ones. */
  script?: string | null;
  /** SHA-256 of each secret value of the latest publish, by name: what tests compare; never served, values never kept. */
  secretDigests?: Record<string, string>;
  verified: boolean;
  createdAt: string;
  updatedAt: string;
}

export type InstallationStatus = "active" | "pending" | "paused";
export type InstallationSelection = "all" | "selected";

/** What an integration's installation holds, on the organization and on each site or space it is enabled on. */
interface Installed {
  integration: string;
  status: InstallationStatus;
  /** Served as stored (it may hold credentials). */
  configuration: JsonObject;
  externalIds: string[];
  createdAt: string;
}

/** An integration installed on an organization (the account-level installation). */
export interface InstallationRow extends Installed {
  id: string;
  org: string;
  updatedAt: string;
  spaceSelection: InstallationSelection;
  siteSelection: InstallationSelection;
}

/** An installation enabled on one site or one space. */
export interface TargetInstallationRow extends Installed {
  /** `<installation>:<kind>:<target>` */
  id: string;
  installation: string;
  kind: "site" | "space";
  target: string;
}

/** A role granted directly to a team or a user on a site, a space or a collection. */
export interface GrantRow {
  /** `<on>:<target>:<to>:<principal>` */
  id: string;
  org: string;
  on: "site" | "space" | "collection";
  target: string;
  to: "team" | "user";
  principal: string;
  /** null: guest access. */
  role: Role | null;
  createdAt: string;
}

/** A site's visitor-authentication settings and the private key visitor tokens are signed with. */
export interface PublishingAuthRow {
  /** The site ID. */
  id: string;
  org: string;
  backend: "custom" | "integration";
  /** Secret; replaced only by regenerate. */
  privateKey: string;
  fallbackURL: string | null;
  logoutURL: string | null;
  updatedAt: string;
}

// ---- Git Sync (api-extensions area 18) ----

/** What a Git Sync installation sits on: a site, or a space (managed by a site's installation when `siteId` is set). */
export type GitSyncTarget = { type: "site"; siteId: string } | { type: "space"; spaceId: string; siteId?: string };

/** The site file's node a structure object was imported from, by the node's key. */
export interface GitImported {
  type: "section" | "section-group" | "space" | "external-link";
  /** The section, section group, site space or external link. */
  id: string;
  /** For a space node: the space holding its content. */
  space?: string;
}

/** The last sync of a site installation, as the site's `gitSync.operation` reports it. */
export interface GitOperation {
  state: "running" | "failure" | "success" | "timeout";
  direction: "import" | "export";
  startedAt: string;
  endedAt?: string;
  error?: string;
}

/** A Git Sync installation. The GitLab access token is never kept: only its SHA-256, for tests. */
export interface GitInstallationRow {
  id: string;
  org: string;
  target: GitSyncTarget;
  /** The site installation a child space installation belongs to. */
  parent: string | null;
  provider: "github" | "gitlab";
  /** `repositoryId`/`projectId`, `branch`, `customInstanceURL`, without the access token. */
  providerConfiguration: JsonObject;
  accessTokenSha256: string | null;
  projectDirectory: string | null;
  commitMessageTemplate: string | null;
  previewExternalBranches: boolean | null;
  agentInstructions: string[] | null;
  priority: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  /** Node key → the object the last import made of it (site installations with priority git). */
  imported: Record<string, GitImported>;
  operation: GitOperation | null;
}

/** A site file a test placed in a repository: `id` is provider, repository, branch and directory. */
export interface GitSiteFileRow {
  id: string;
  provider: "github" | "gitlab";
  repository: number;
  branch: string;
  /** The project directory, without leading or trailing `/` ("" for the repository root). */
  directory: string;
  /** The file's YAML text. */
  text: string;
  updatedAt: string;
}

// ---- content, change requests and comments ----

/** A page of a revision's tree. IDs stay the same across revisions, so a page is followed through change requests. */
export interface PageNode {
  id: string;
  title: string;
  slug: string;
  emoji: string | null;
  description: string | null;
  /** The page's content. Links: `/a/b` (a page path), `file:<fileId>`, `http(s)://…`. */
  markdown: string;
  createdAt: string;
  updatedAt: string;
  pages: PageNode[];
}

/** A file of a revision. */
export interface FileNode {
  id: string;
  name: string;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
}

/** One immutable state of a space's content: the space's main line or a change request's. */
export interface RevisionRow {
  id: string;
  space: string;
  parents: string[];
  /** `edits` (a change request's own changes, seeds, imports), `update` (pulled main), `merge`. */
  type: "edits" | "update" | "merge";
  createdAt: string;
  /** Who made it (null for the seed). */
  createdBy: string | null;
  pages: PageNode[];
  files: FileNode[];
}

export type ChangeRequestStatus = "draft" | "open" | "merged" | "archived";

export interface ChangeRequestRow {
  id: string;
  space: string;
  /** Incremental within the space, from 1. */
  number: number;
  subject: string;
  status: ChangeRequestStatus;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  revision: string;
  revisionInitial: string;
  revisionMergedAncestor: string | null;
  revisionMerged: string | null;
  /** The main revision the change request's content builds on: the initial one, or the last one pulled. */
  base: string;
  agentTaskId: string | null;
  /** Users who created or changed its content (the `contributor` filter). */
  contributors: string[];
  /** The style guide run that opened it (absent: none). */
  styleguideRun?: string;
}

export interface Reaction {
  emoji: string;
  users: { user: string; reactedAt: string }[];
}

export interface CommentRow {
  id: string;
  space: string;
  /** null: a comment on the space's main content. */
  changeRequest: string | null;
  page: string | null;
  node: string | null;
  /** The revision commented on (the space's or the change request's, when posted). */
  revision: string;
  /** The page's markdown when posted: a later difference makes the target page `outdated`. */
  pageMarkdown: string | null;
  postedBy: string;
  postedAt: string;
  editedAt: string | null;
  markdown: string;
  reactions: Reaction[];
  status: "open" | "resolved";
  resolvedAt: string | null;
  resolvedBy: string | null;
}

export interface CommentReplyRow {
  id: string;
  comment: string;
  postedBy: string;
  postedAt: string;
  editedAt: string | null;
  markdown: string;
  reactions: Reaction[];
}

// ---- the site's AI surface ----

/** An external MCP server whose tools the site's assistant may call. */
export interface McpServerRow {
  id: string;
  site: string;
  name: string;
  url: string;
  transport: "sse" | "http";
  /** Served in full on read (the description returns them); values are credentials. */
  headers: Record<string, string>;
  condition: string | null;
  createdAt: string;
}

/** A site's agent settings (only once a PUT stored them; a site without a row answers the defaults). */
export interface AgentSettingsRow {
  /** The site ID. */
  id: string;
  scans: { topics: "auto" | "never" };
  findings: { changeRequests: "always" | "auto-fixable" | "never" };
  editing: { customInstructions: JsonObject };
  updatedAt: string;
  updatedBy: string;
}

/** A channel: an external tool where the site's agent works. */
export interface ChannelRow {
  id: string;
  site: string;
  type: string;
  setupSettings: JsonObject;
  role: "support" | "collaborator";
  status: "active" | "pending";
  answers: number;
  createdAt: string;
}

/** A context connection: an external source the site's agent learns from. */
export interface ConnectionRow {
  id: string;
  site: string;
  connector: string;
  /** As given, secrets included (Freshdesk `apiKey` and Jira `apiToken` are masked when served). */
  setupSettings: JsonObject;
  usageSettings: { changeRequests: boolean; search: boolean; searchBoost: string; sync?: boolean };
  label: string | null;
  filter: string | null;
  status: "pending" | "syncing" | "succeeded" | "failed";
  records: number;
  syncedAt: string | null;
  createdAt: string;
}

/** Every table and the type of its rows. */
export interface TableRows {
  users: UserRow;
  orgs: OrgRow;
  members: MemberRow;
  teams: TeamRow;
  collections: CollectionRow;
  spaces: SpaceRow;
  sites: SiteRow;
  sections: SectionRow;
  sectionGroups: SectionGroupRow;
  siteSpaces: SiteSpaceRow;
  externalLinks: ExternalLinkRow;
  shareLinks: ShareLinkRow;
  redirects: RedirectRow;
  samlProviders: SamlRow;
  openapiSpecs: OpenApiSpecRow;
  translations: TranslationRow;
  integrations: IntegrationRow;
  installations: InstallationRow;
  targetInstallations: TargetInstallationRow;
  grants: GrantRow;
  publishingAuth: PublishingAuthRow;
  gitInstallations: GitInstallationRow;
  gitSiteFiles: GitSiteFileRow;
  revisions: RevisionRow;
  changeRequests: ChangeRequestRow;
  comments: CommentRow;
  commentReplies: CommentReplyRow;
  mcpServers: McpServerRow;
  agentSettings: AgentSettingsRow;
  channels: ChannelRow;
  contextConnections: ConnectionRow;
}
export type TableName = keyof TableRows;
export const TABLE_NAMES: readonly TableName[] = [
  "users",
  "orgs",
  "members",
  "teams",
  "collections",
  "spaces",
  "sites",
  "sections",
  "sectionGroups",
  "siteSpaces",
  "externalLinks",
  "shareLinks",
  "samlProviders",
  "openapiSpecs",
  "translations",
  "integrations",
  "installations",
  "targetInstallations",
  "grants",
  "publishingAuth",
  "gitInstallations",
  "gitSiteFiles",
  "revisions",
  "changeRequests",
  "comments",
  "commentReplies",
  "redirects",
  "mcpServers",
  "agentSettings",
  "channels",
  "contextConnections",
];
