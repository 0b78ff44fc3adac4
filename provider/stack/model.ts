/**
 * The typed model of a stack file, mirroring `schemas/stack.schema.json` field for field.
 *
 * A value of these types has passed the schema and the cross-object checks of `loadStackFile`:
 * keys are unique, references resolve, paths do not collide.
 */

/** Role in an organisation or default level of content. */
export type Role = "admin" | "create" | "review" | "edit" | "comment" | "read";
/** Role in a team: owners manage the team's members. */
export type TeamRole = "owner" | "member";
/** Who can reach a published site. */
export type SiteVisibility = "public" | "unlisted" | "share-link" | "visitor-auth";
/** Site type; `basic` when omitted. */
export type SiteType = "basic" | "ultimate";
/** Whether AI agents can access a site. */
export type AgentsContext = "excluded" | "included";
/** Whether a space accepts direct edits. */
export type SpaceEditMode = "live" | "locked";

/** Stable name of an object in the file (`^[a-z0-9][a-z0-9_-]{0,62}$`); it becomes the Pulumi resource name. */
export type Key = string;
/** A reference by platform ID to an object outside the file. */
export interface IdRef {
  id: string;
}
/** A reference: a plain string is the key of an object in the file, `{id}` a platform ID. */
export type Ref = Key | IdRef;

/** Fields every keyed object carries. */
export interface Keyed {
  /** Stable name; renaming it replaces the object unless the old key is in `previousKeys`. */
  key: Key;
  /** Former keys, turned into Pulumi aliases. */
  previousKeys?: Key[];
  /** Take over an existing object found by its natural key instead of creating one. */
  adopt?: boolean;
}

/** Settings of the organisation (`PATCH /orgs/{org}`); only the fields given are managed. */
export interface StackOrganizationSettings {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: Role | null;
  defaultContent?: Ref | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
}

/** The role of an existing organisation member. */
export interface StackMember {
  /** User ID or e-mail address. */
  user: string;
  role: Role | null;
  adopt?: boolean;
}

/** A member of a team. */
export interface StackTeamMember {
  /** User ID or e-mail address. */
  user: string;
  /** Default `member`. */
  role?: TeamRole;
}

/** A team; natural key: title. */
export interface StackTeam extends Keyed {
  title: string;
  members?: StackTeamMember[];
}

/** A SAML provider; natural key: label. */
export interface StackSamlProvider extends Keyed {
  label: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  /** A team key of the file or `{id}`. */
  defaultTeam?: Ref;
  defaultRole?: Role | null;
}

/** A stored OpenAPI spec; natural key: slug. */
export interface StackOpenApiSpec extends Keyed {
  slug: string;
  sourceURL: string;
}

/** A collection of spaces; natural key: title. */
export interface StackCollection extends Keyed {
  title: string;
  description?: string;
  defaultLevel?: Role | null;
  /** A collection key of the file or `{id}`. */
  parent?: Ref;
}

/** Settings of an existing space, named by its platform ID. */
export interface StackSpace extends Keyed {
  id: string;
  title?: string;
  emoji?: string;
  editMode?: SpaceEditMode;
  defaultLevel?: Role | null;
  /** A collection key of the file or `{id}`. */
  parent?: Ref;
}

/** Translation settings; natural key: title. */
export interface StackTranslation extends Keyed {
  title: string;
}

/** A site space, at the root of a site or inside a section; natural key: path. */
export interface StackSiteSpace extends Keyed {
  /** A space key of the file or `{id}`. */
  space: Ref;
  path?: string;
  condition?: string;
}

/** A section of a site; natural key: path. Exactly one of `space` and `siteSpaces` is set. */
export interface StackSection extends Keyed {
  title: string;
  /** Shorthand for one site space whose key is the section's key. */
  space?: Ref;
  /** Site spaces in display order; the first is created with the section. */
  siteSpaces?: StackSiteSpace[];
  /** Key of one of this section's site spaces. */
  defaultSiteSpace?: Key;
  path?: string;
  description?: string;
  icon?: string;
  condition?: string;
}

/** A group of sections of a site; natural key: title. */
export interface StackSectionGroup extends Keyed {
  title: string;
  icon?: string;
  /** Section keys of the same site. */
  sections: Key[];
}

/** A share link of a site; natural key: name. */
export interface StackShareLink extends Keyed {
  name: string;
  active?: boolean;
}

/** A boolean visitor claim of an adaptive schema. */
export interface StackClaim {
  type: "boolean";
  description?: string;
}

/** Claims visitors may set without a signed token. */
export interface StackUnsignedClaims {
  type: "object";
  description?: string;
  properties: Record<string, StackClaim>;
  additionalProperties?: false;
}

/** The adaptive-content visitor schema of a site (a JSON Schema draft-07 object). */
export interface StackAdaptiveSchema {
  $schema?: string;
  $id?: string;
  title?: string;
  description?: string;
  type: "object";
  /** Claims by name; the name `unsigned` holds a {@link StackUnsignedClaims}. */
  properties: Record<string, StackClaim | StackUnsignedClaims>;
  required?: string[];
  additionalProperties?: false;
}

/** A docs site with its structure; natural key: title. */
export interface StackSite extends Keyed {
  title: string;
  type?: SiteType;
  visibility?: SiteVisibility;
  published?: boolean;
  basename?: string;
  hostname?: string;
  proxy?: string;
  agentsContext?: AgentsContext;
  adaptiveContent?: { enabled: boolean };
  /** Key of one of this site's sections. */
  defaultSiteSection?: Key;
  /** Key of one of this site's root-level site spaces (sites without sections). */
  defaultSiteSpace?: Key;
  adaptiveSchema?: StackAdaptiveSchema;
  sections?: StackSection[];
  sectionGroups?: StackSectionGroup[];
  /** Root-level site spaces; only for sites without sections. */
  siteSpaces?: StackSiteSpace[];
  shareLinks?: StackShareLink[];
}

/** A whole stack file. */
export interface StackFile {
  $schema?: string;
  /** Organisation every object belongs to. */
  organization: string;
  settings?: StackOrganizationSettings;
  members?: StackMember[];
  teams?: StackTeam[];
  saml?: StackSamlProvider[];
  openapi?: StackOpenApiSpec[];
  collections?: StackCollection[];
  spaces?: StackSpace[];
  translations?: StackTranslation[];
  sites?: StackSite[];
}

/** True when a reference names a platform ID rather than a key of the file. */
export function isIdRef(ref: Ref): ref is IdRef {
  return typeof ref === "object" && ref !== null;
}

/**
 * The site spaces of a section in display order, expanding the `space` shorthand into one site space
 * whose key is the section's key. The first one is the site space the section is created with.
 */
export function sectionSiteSpaces(section: StackSection): StackSiteSpace[] {
  if (section.siteSpaces !== undefined) return section.siteSpaces;
  if (section.space === undefined) return [];
  return [{ key: section.key, space: section.space, ...(section.adopt === undefined ? {} : { adopt: section.adopt }) }];
}

/** Kinds of object a stack file declares, as counted in summaries. */
export type StackObjectKind =
  | "settings"
  | "member"
  | "team"
  | "teamMember"
  | "saml"
  | "openapi"
  | "collection"
  | "space"
  | "translation"
  | "site"
  | "section"
  | "sectionGroup"
  | "siteSpace"
  | "shareLink"
  | "adaptiveSchema";

/** Number of objects of each kind a stack declares (site spaces include those of the `space` shorthand). */
export function countObjects(stack: StackFile): Record<StackObjectKind, number> {
  const sites = stack.sites ?? [];
  const sections = sites.flatMap((s) => s.sections ?? []);
  return {
    settings: stack.settings === undefined ? 0 : 1,
    member: stack.members?.length ?? 0,
    team: stack.teams?.length ?? 0,
    teamMember: (stack.teams ?? []).reduce((n, t) => n + (t.members?.length ?? 0), 0),
    saml: stack.saml?.length ?? 0,
    openapi: stack.openapi?.length ?? 0,
    collection: stack.collections?.length ?? 0,
    space: stack.spaces?.length ?? 0,
    translation: stack.translations?.length ?? 0,
    site: sites.length,
    section: sections.length,
    sectionGroup: sites.reduce((n, s) => n + (s.sectionGroups?.length ?? 0), 0),
    siteSpace:
      sites.reduce((n, s) => n + (s.siteSpaces?.length ?? 0), 0) +
      sections.reduce((n, s) => n + sectionSiteSpaces(s).length, 0),
    shareLink: sites.reduce((n, s) => n + (s.shareLinks?.length ?? 0), 0),
    adaptiveSchema: sites.filter((s) => s.adaptiveSchema !== undefined).length,
  };
}
