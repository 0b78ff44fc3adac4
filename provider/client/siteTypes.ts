import type { Space } from "./spaceTypes";
import type { AgentsContext, Role, SiteType, SiteVisibility } from "./baseTypes";

/** Types of the /v1 API for sites: sites, adaptive schemas, sections, section groups, site spaces and share links. */

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
  /** Default level of access to the site's content: a role, null for guests, or `inherit` (extensions §6, §15). */
  defaultLevel?: SiteDefaultLevel;
  /** The site's style guide, while one is attached (extensions §15). */
  styleguide?: { kind: "space"; space: string } | null;
  features?: SiteFeature[];
  urls?: { location?: string; app?: string; published?: string };
}

/** A site's default level: a role, null (guests) or `inherit`. */
export type SiteDefaultLevel = Role | null | "inherit";

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
  defaultLevel?: SiteDefaultLevel;
  /** A style guide space of the organisation to attach, or null to detach the site's guide. */
  styleguide?: string | null;
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
  /** Title per language (non-default languages). */
  localizedTitle?: Record<string, string>;
  /** Description per language (non-default languages). */
  localizedDescription?: Record<string, string>;
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
  /** Null removes every localized title. */
  localizedTitle?: Record<string, string> | null;
  /** Null removes every localized description. */
  localizedDescription?: Record<string, string> | null;
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
  /** Left out of the site's navigation (extensions §12); set only by an update. */
  hidden?: boolean;
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
  hidden?: boolean;
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
