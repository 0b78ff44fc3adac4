/**
 * The typed model of a stack file: its structure (lists, keys, references, nesting) written here,
 * each entry's fields derived from its kind's declaration (see {@link Declared}).
 *
 * A value of these types has passed the schema and the cross-object checks of `loadStackFile`:
 * keys are unique, references resolve, paths do not collide.
 */

import type { collectionKind, CollectionInputs } from "../resources/collection";
import type { memberRoleKind, MemberRoleInputs } from "../resources/memberRole";
import type { organizationSettingsKind, OrganizationSettingsInputs } from "../resources/organizationSettings";
import type { agentInstructionsKind, AgentInstructionsInputs } from "../resources/agentInstructions";
import type { shareLinkKind, ShareLinkInputs } from "../resources/shareLink";
import type { siteKind, SiteInputs } from "../resources/site";
import type { siteSectionKind, SiteSectionInputs } from "../resources/siteSection";
import type { siteSectionGroupKind, SiteSectionGroupInputs } from "../resources/siteSectionGroup";
import type { siteExternalLinkKind, SiteExternalLinkInputs } from "../resources/siteExternalLink";
import type { siteCustomizationKind, SiteCustomizationInputs } from "../resources/siteCustomization";
import type { siteSpaceCustomizationKind, SiteSpaceCustomizationInputs } from "../resources/siteSpaceCustomization";
import type { siteSpaceKind, SiteSpaceInputs } from "../resources/siteSpace";
import type { spaceKind, SpaceInputs } from "../resources/space";
import type { siteGitSyncKind, SiteGitSyncInputs } from "../resources/siteGitSync";
import type { teamKind, TeamInputs } from "../resources/team";
import type { ListedKind } from "../resources/kinds";
import type { StackRedirect } from "../redirects/rules";
import type { StackAccess, StackInstallation, StackVisitorAuth } from "../access/model";
import type { Key, Keyed, Ref } from "./refs";
import type { Declared, StackSecretSource } from "./declared";
import type { StackAssistant } from "../assistant/model";

export * from "./refs";
export type { Declared, StackSecretSource } from "./declared";

import type { TeamRole } from "../client";

export type { AgentsContext, Role, SiteVisibility, TeamRole } from "../client";
export type { EditMode as SpaceEditMode } from "../client";
/** Site type; `basic` when omitted. */
export type SiteType = "basic" | "ultimate";

/** Settings of the organisation (`PATCH /orgs/{org}`). */
export type StackOrganizationSettings = Declared<typeof organizationSettingsKind, OrganizationSettingsInputs>;

/** The organisation's agent instructions, as markdown. */
export type StackAgentInstructions = Declared<typeof agentInstructionsKind, AgentInstructionsInputs>;

/** The role of an existing organisation member. */
export type StackMember = Declared<typeof memberRoleKind, MemberRoleInputs> & { adopt?: boolean };

/** A member of a team. */
export interface StackTeamMember {
  /** User ID or e-mail address. */
  user: string;
  /** Default `member`. */
  role?: TeamRole;
}

/** A team; natural key: title. */
export type StackTeam = Keyed & Declared<typeof teamKind, TeamInputs> & { members?: StackTeamMember[] };

/** A collection of spaces; natural key: title. */
export type StackCollection = Keyed & Declared<typeof collectionKind, CollectionInputs> & StackAccess;

/** Settings of an existing space, named by its platform ID. */
export type StackSpace = Keyed & Declared<typeof spaceKind, SpaceInputs> & StackAccess;

/** A site's Git Sync installation, as the stack file spells it. */
export type StackGitSync = Declared<typeof siteGitSyncKind, SiteGitSyncInputs> & {
  /** Child installations: a space of the file (by key) or `{id}`, and the folder it syncs with. */
  spaces?: { space: Ref; projectDirectory: string }[];
};

/** The inputs of a kind, as its declaration's `create` takes them. */
type InputsOf<K> = K extends { create(ctx: never, inputs: infer I): unknown } ? I : never;

/** An entry of a listed kind's top-level list: its key and the fields the kind declares. */
export type StackListEntry<K extends ListedKind> = Keyed & Declared<K, InputsOf<K>>;

/** The lists of the kinds listed as plain keyed entries of the organisation, by their property in the file. */
export type StackLists = { [K in ListedKind as K["list"]["property"]]?: StackListEntry<K>[] };

/** A site's customization: members of the API's settings, each declared partly (the rest keeps the recorded look). */
export type StackSiteCustomization = Declared<typeof siteCustomizationKind, SiteCustomizationInputs>;

/** A site space's overrides of its site's customization. */
export type StackSiteSpaceCustomization = Declared<typeof siteSpaceCustomizationKind, SiteSpaceCustomizationInputs>;

/** A site space, at the root of a site or inside a section; natural key: path. */
export type StackSiteSpace = Keyed & Declared<typeof siteSpaceKind, SiteSpaceInputs> & { customization?: StackSiteSpaceCustomization };

/** A navigation entry leading away from the site: an entry of a site's `sections` with `url`; natural key: title. */
export type StackExternalLink = Keyed & Declared<typeof siteExternalLinkKind, SiteExternalLinkInputs>;

/** A section of a site; natural key: path. Exactly one of `space` and `siteSpaces` is set. */
export type StackSection = Keyed &
  Declared<typeof siteSectionKind, SiteSectionInputs> & {
    /** Shorthand for one site space whose key is the section's key. */
    space?: Ref;
    /** Site spaces in display order; the first is created with the section. */
    siteSpaces?: StackSiteSpace[];
    /** Key of one of this section's site spaces. */
    defaultSiteSpace?: Key;
  };

/** A group of sections of a site; natural key: title. */
export type StackSectionGroup = Keyed &
  Declared<typeof siteSectionGroupKind, SiteSectionGroupInputs> & {
    /** Keys of sections and external links of the same site, in display order. */
    sections: Key[];
  };

/** A share link of a site; natural key: name. */
export type StackShareLink = Keyed & Declared<typeof shareLinkKind, ShareLinkInputs>;

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

/** A site's `structure` in docs.yaml. */
export interface StackSiteStructure {
  /** The site file, relative to docs.yaml, inside the project; its name is `gitbook-docs.yaml`. */
  file: string;
  /** Space node key → the space it shows, where it is not the space of docs.yaml with the node's key. */
  spaces?: Record<string, Ref>;
  /** Node key → the entry's former keys (a site file cannot hold them), turned into Pulumi aliases as an entry's `previousKeys` are. */
  previousKeys?: Record<string, string[]>;
  /** Take over the live objects the file's nodes name, as `adopt: true` on each entry would. */
  adopt?: boolean;
}

/** A docs site with its structure; natural key: title. */
export type StackSite = Keyed &
  Declared<typeof siteKind, SiteInputs> &
  StackAccess &
  StackAssistant & {
    /** The style guide attached to the site: a key of `styleGuides`, or `{id}` of a guide space. */
    styleGuide?: Ref;
    /** How visitors authenticate: required when visibility is visitor-auth (refused without it: readers could not sign in). */
    visitorAuth?: StackVisitorAuth;
    /** The site's Git Sync installation; with priority git the repository owns the site's structure. */
    gitSync?: StackGitSync;
    /** The site file its sections, groups, site spaces and links come from (filled in by the loader: see structureExpand.ts). */
    structure?: StackSiteStructure;
    /** Key of one of this site's sections. */
    defaultSiteSection?: Key;
    /** Key of one of this site's root-level site spaces (sites without sections). */
    defaultSiteSpace?: Key;
    adaptiveSchema?: StackAdaptiveSchema;
    /** Sections and external links in display order. */
    sections?: (StackSection | StackExternalLink)[];
    sectionGroups?: StackSectionGroup[];
    customization?: StackSiteCustomization;
    /** Root-level site spaces; only for sites without sections. */
    siteSpaces?: StackSiteSpace[];
    shareLinks?: StackShareLink[];
    /** The site's whole redirect set when present; omitted: not managed. */
    redirects?: StackRedirect[];
  };

/** A whole stack file: its structure, and the lists of the kinds without structure of their own. */
export interface StackFile extends StackLists {
  $schema?: string;
  /** Organisation every object belongs to. */
  organization: string;
  /** The user the API token acts as, for the lock-out guard. */
  caller?: string;
  /** Integrations installed on the organisation. */
  installations?: StackInstallation[];
  settings?: StackOrganizationSettings;
  agentInstructions?: StackAgentInstructions;
  members?: StackMember[];
  teams?: StackTeam[];
  collections?: StackCollection[];
  spaces?: StackSpace[];
  sites?: StackSite[];
}

/** True when an entry of a site's `sections` is an external link (it gives `url` instead of a space). */
export function isExternalLink(entry: StackSection | StackExternalLink): entry is StackExternalLink {
  return (entry as { url?: unknown }).url !== undefined;
}

/** The sections among a site's `sections` (its external links left out). */
export function sectionsOf(site: StackSite): StackSection[] {
  return (site.sections ?? []).filter((e): e is StackSection => !isExternalLink(e));
}

/** The entries of a listed kind's list in a stack file. */
export function listEntries(stack: StackFile, property: string): (Keyed & Record<string, unknown>)[] {
  return ((stack as unknown as Record<string, unknown>)[property] ?? []) as (Keyed & Record<string, unknown>)[];
}
