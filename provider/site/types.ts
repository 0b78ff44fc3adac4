/**
 * The resolved site model: each site of a stack file (or of the live organisation) with its levels
 * in display order, every entry carrying what the rules make of it — its default, its path and
 * where the path comes from, the URL a reader sees, its condition and its container. Built once by
 * `siteModels` (from a file) or `liveSiteModel` (from the live organisation); the stack checks, the
 * component, export, `tree` and `diff` read it instead of walking `sites[].sections[]` again.
 *
 * Adding to the structure, one place each:
 * - an entry of a new kind among a site's sections (a navigation link, in display order with them,
 *   at the top level or inside a group): its type here, a member `{ kind: "link"; link }` of
 *   {@link TopEntry} (and of a group's children), read from the file in `build.ts` (from the live
 *   site in `live.ts`), placed by `displayOrder` in `order.ts`; `tree`, `diff` and the component
 *   then walk `entries` as they do for sections and groups;
 * - a flag of entries (a draft, a hidden site space): a field of the entry types here, read in
 *   `build.ts` and `live.ts` (`draft` and `hidden` are);
 * - a plain field of an entry's kind (an icon, a description, a localized title) is not here: `tree`
 *   and `diff` read it from the entry as the kind's declaration shows it (`show`), export and the
 *   component through the declaration too;
 * - a reference by key to a section or a site space (a redirect destination): resolved with
 *   `sectionByKey` / `siteSpaceByKey` (index.ts), whose `url` is the page readers land on.
 */
import type { Key, Ref, StackExternalLink, StackSection, StackSectionGroup, StackShareLink, StackSite, StackSiteSpace } from "../file/model";

/**
 * Where a path comes from: `declared` in the file; `derived` by the platform from a title (none
 * declared); `api`: the platform's to choose (the title is unknown here, or the derived path collides
 * with another of the level, so the platform adds a suffix); `live`: read from the platform.
 */
export type PathSource = "declared" | "derived" | "api" | "live";

/** The path of a section or site space at its level. */
export interface PathInfo {
  /** The path readers get; undefined when the platform chooses it (`api`). */
  value: string | undefined;
  source: PathSource;
  /** The path the platform derives from the title, when the title is known (whether or not a path is declared). */
  derived: string | undefined;
  /**
   * Pointer of the entry of the same level that takes this path before this one (declared paths
   * first, then derived ones in file order); undefined when no other entry does.
   */
  takenBy: string | undefined;
}

/** What every entry of a site carries. */
export interface EntryBase {
  /** The entry's key; empty only in a file the schema refuses (the schema reports it). */
  key: Key;
  previousKeys: Key[];
  /** JSON pointer of the entry in the file, for located messages (`/sites/0/sections/2`). */
  pointer: string;
  /** Position in its list in the file. */
  index: number;
}

/** A site space: the space behind a path, at the root of a site or in a section. */
export interface SiteSpaceEntry extends EntryBase {
  /** The file's reference to its space; undefined when the file gives none. */
  space: Ref | undefined;
  /** Platform ID of the space, when known. */
  spaceId: string | undefined;
  /** Title of the space (the title readers see for the site space), when known. */
  spaceTitle: string | undefined;
  path: PathInfo;
  /** URL path relative to the site (`/`, `/api`, `/api/v1`). */
  url: string;
  /** The default of its level (served at its level's URL). */
  default: boolean;
  condition: string | undefined;
  /** Draft (staged, not live) as declared; undefined when the file leaves it alone. */
  draft: boolean | undefined;
  /** Left out of the site's navigation (the one kind of entry the platform can hide); false when not declared. */
  hidden: boolean;
  /** Key of the section holding it; undefined at the site's root level. */
  section: Key | undefined;
  /** Pointer of its container: the section's, or the site's for a root-level site space. */
  container: string;
  /** Spelled by its section's `space` shorthand: its key is the section's, its pointer the section's. */
  shorthand: boolean;
  /** The entry as the file declares it (for a shorthand, the one site space it stands for). */
  entry: StackSiteSpace;
}

/** How a section names its site spaces in the file. */
export type SectionForm = "space" | "siteSpaces" | "both" | "neither";

/** A section with its site spaces in display order. */
export interface SectionEntry extends EntryBase {
  title: string;
  path: PathInfo;
  url: string;
  default: boolean;
  condition: string | undefined;
  /** Draft (staged, not live) as declared; undefined when the file leaves it alone. */
  draft: boolean | undefined;
  /** Key of the group holding it, if any. */
  group: Key | undefined;
  /** The site's pointer. */
  container: string;
  /** Site spaces in display order; the first is the one the section is created with. */
  siteSpaces: SiteSpaceEntry[];
  /** The `defaultSiteSpace` the file declares, as written (the resolved one is the site space with `default`). */
  declaredDefault: unknown;
  form: SectionForm;
  entry: StackSection;
}

/** One listing of a section in a group's `sections`, as the file writes it. */
export interface GroupMember {
  key: unknown;
  pointer: string;
}

/** A section group with its sections in display order. */
export interface GroupEntry extends EntryBase {
  title: string;
  /** Draft (staged, not live) as declared; undefined when the file leaves it alone. */
  draft: boolean | undefined;
  /** The site's pointer. */
  container: string;
  /** Its sections in display order (a section listed by two groups belongs to the first). */
  sections: SectionEntry[];
  /** Its sections and external links in display order. */
  children: GroupChild[];
  /** Its `sections` as the file lists them. */
  members: GroupMember[];
  entry: StackSectionGroup;
}

/** A share link, by name: its URL carries a secret token and is never in the model. */
export interface ShareLinkEntry extends EntryBase {
  name: string;
  active: boolean;
  entry: StackShareLink;
}

/** A navigation entry leading away from the site: an entry of `sections` with `url` instead of a space. */
export interface LinkEntry extends EntryBase {
  title: string;
  /** Where it leads: an absolute http(s) URL. */
  target: string;
  condition: string | undefined;
  /** Draft (staged, not live) as declared; undefined when the file leaves it alone. */
  draft: boolean | undefined;
  /** Key of the group holding it, if any. */
  group: Key | undefined;
  /** The site's pointer. */
  container: string;
  entry: StackExternalLink;
}

/** An entry of `sections` as the file lists it: a section or an external link. */
export type ListedEntry = { kind: "section"; section: SectionEntry } | { kind: "link"; link: LinkEntry };

/** One child of a group, in display order. */
export type GroupChild = ListedEntry;

/** One entry of a site's top level, in display order: an ungrouped section or external link, or a group. */
export type TopEntry = ListedEntry | { kind: "group"; group: GroupEntry };

/** A site with its structure resolved. */
export interface SiteModel extends EntryBase {
  title: string;
  /** Top level in display order. */
  entries: TopEntry[];
  /** Every section in display order (groups expanded). */
  sections: SectionEntry[];
  /** Every section as the file lists them (`sections:`). */
  sectionList: SectionEntry[];
  /** Every external link in display order (groups expanded). */
  links: LinkEntry[];
  /** Every external link as the file lists them (among `sections:`). */
  linkList: LinkEntry[];
  /** Every group in display order (groups without sections last). */
  groups: GroupEntry[];
  /** Every group as the file lists them (`sectionGroups:`). */
  groupList: GroupEntry[];
  /** Root-level site spaces (sites without sections), in display order. */
  rootSiteSpaces: SiteSpaceEntry[];
  /** Every site space: the root level's, then each section's, in display order. */
  siteSpaces: SiteSpaceEntry[];
  /** Share links as the file lists them. */
  shareLinks: ShareLinkEntry[];
  /** The defaults the file declares, as written. */
  declaredDefaults: { section: unknown; siteSpace: unknown };
  /** The site as the file declares it. */
  entry: StackSite;
}
