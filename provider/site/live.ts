/**
 * The site model of a live site (export's reading): the platform's sections, groups, site spaces and
 * share links in display order, each given the key export writes, with the paths, defaults and URLs
 * the platform shows. What a stack file cannot declare is left out, with a note saying why: a
 * section without a site space showing a space, root-level site spaces beside sections, groups or
 * share links whose natural key is ambiguous, share links without a name.
 *
 * A section whose one site space has the path the platform would derive on its own, and no
 * condition and not hidden, is spelled by the `space` shorthand (its site space takes the section's key).
 */
import type { Site, SiteExternalLink, SiteSection, SiteSectionGroup, SiteSpace, SiteStructure } from "../client";
import { KeyAllocator } from "../keys";
import { slugKey } from "../rules";
import type { Ref, StackExternalLink, StackSection, StackSectionGroup, StackShareLink, StackSite, StackSiteSpace } from "../file/model";
import { assemble } from "./build";
import { displayOrder } from "./order";
import { derivedPath, PATH_FALLBACK, SITE_URL, urlOf } from "./rules";
import type { GroupEntry, LinkEntry, ListedEntry, PathInfo, SectionEntry, ShareLinkEntry, SiteModel, SiteSpaceEntry } from "./types";

/** Everything read about one live site (share links by name and state only: their URLs carry a secret token). */
export interface LiveSite {
  site: Site;
  sections: SiteSection[];
  groups: SiteSectionGroup[];
  siteSpaces: SiteSpace[];
  shareLinks: { id: string; name?: string; active?: boolean }[];
  /** The navigation as the structure read shows it (its external links and where they stand); absent: not read. */
  structure?: SiteStructure;
}

/** What building a live site's model needs from export: the fields each kind declares, references, notes. */
export interface LiveScope {
  /** The fields a stack-file entry declares for a live object (its kind's declaration), without key or structure. */
  fieldsOf(what: "site" | "section" | "group" | "siteSpace" | "shareLink" | "link", live: object): Record<string, unknown>;
  /** The stack file's reference to a space by its ID: its key in the file, or `{id}`. */
  spaceRef(id: string): Ref;
  /** Something left out of the file, in one sentence. */
  note(text: string): void;
  /** The site's adaptive schema as the file declares it, read after the structure's notes (it may note one of its own). */
  adaptiveSchema(): StackSite["adaptiveSchema"];
}

/** A path as the platform shows it. */
function livePath(path: string, title: string | undefined, fallback: string): PathInfo {
  return { value: path, source: "live", derived: derivedPath(title, fallback), takenBy: undefined };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Groups objects by natural key; those sharing one are ambiguous for adopt. */
export function duplicatesBy<T>(items: readonly T[], natural: (t: T) => string): Set<string> {
  const counts = new Map<string, number>();
  for (const t of items) counts.set(natural(t), (counts.get(natural(t)) ?? 0) + 1);
  return new Set([...counts].filter(([, n]) => n > 1).map(([k]) => k));
}

/** The model of a live site whose key is `key`, at `at` (its pointer in the file export writes). */
export function liveSiteModel(live: LiveSite, key: string, at: string, scope: LiveScope): SiteModel {
  return new LiveReader(live, at, scope).read(key);
}

class LiveReader {
  private readonly where: string;
  /** Site-space keys: one namespace over the whole site. */
  private readonly siteSpaceKeys = new KeyAllocator();

  constructor(
    private readonly live: LiveSite,
    private readonly at: string,
    private readonly scope: LiveScope,
  ) {
    this.where = `site ${JSON.stringify(live.site.title)}`;
  }

  read(key: string): SiteModel {
    const { scope, at } = this;
    const sectionKeyOf = new Map<string, string>();
    const listed = this.sections(sectionKeyOf);
    const rootSiteSpaces = this.rootSiteSpaces(listed.length > 0);
    const adaptiveSchema = scope.adaptiveSchema();
    const links = this.links(sectionKeyOf);
    const groupList = this.groups(sectionKeyOf);
    const groupOf = new Map<string, string>();
    for (const g of groupList) for (const m of g.members) groupOf.set(m.key as string, g.key);
    for (const s of listed) s.group = groupOf.get(s.key);
    for (const l of links) l.group = groupOf.get(l.key);
    const entry = { key, ...scope.fieldsOf("site", this.live.site), ...(adaptiveSchema === undefined ? {} : { adaptiveSchema }), adopt: true } as StackSite;
    return assemble({
      key,
      previousKeys: [],
      pointer: at,
      index: 0,
      title: this.live.site.title,
      ...displayOrder(this.inDisplayOrder(listed, links, sectionKeyOf), groupList),
      sectionList: listed,
      linkList: links,
      groupList,
      rootSiteSpaces,
      shareLinks: this.shareLinks(),
      declaredDefaults: { section: listed.find((s) => s.default)?.key, siteSpace: rootSiteSpaces.find((ss) => ss.default)?.key },
      entry,
    });
  }

  /** Sections in display order, each with its site spaces in display order. */
  private sections(sectionKeyOf: Map<string, string>): SectionEntry[] {
    const { live, where } = this;
    const keys = new KeyAllocator();
    const out: SectionEntry[] = [];
    for (const section of live.sections) {
      const own = live.siteSpaces.filter((ss) => ss.section === section.id);
      const spaced = own.filter((ss) => ss.space?.id);
      if (spaced.length < own.length) {
        this.scope.note(`${where}: ${own.length - spaced.length} site space(s) of section '${section.path}' show no space and are not exported`);
      }
      if (spaced.length === 0) {
        this.scope.note(`${where}: section '${section.path}' has no site space, and a section is declared with its first one; it is not exported`);
        continue;
      }
      const key = keys.from(section.path, "section");
      sectionKeyOf.set(section.id, key);
      out.push(this.section(section, key, spaced, out.length));
    }
    return out;
  }

  private section(section: SiteSection, key: string, spaced: SiteSpace[], n: number): SectionEntry {
    const pointer = `${this.at}/sections/${n}`;
    const path = livePath(section.path, section.title, PATH_FALLBACK.section);
    const isDefault = section.default === true;
    const url = urlOf(SITE_URL, path, isDefault);
    const [first] = spaced;
    // The `space` shorthand only when the platform would give its site space the same path on its own.
    const shorthand = spaced.length === 1 && first !== undefined && !first.condition && first.hidden !== true && first.path === derivedPath(first.space?.title, PATH_FALLBACK.siteSpace) && this.siteSpaceKeys.claim(key);
    const siteSpaces = shorthand
      ? [this.siteSpace(first, key, pointer, 0, url, pointer, key, true)]
      : spaced.map((ss, k) => this.siteSpace(ss, this.siteSpaceKeys.next(`${key}-${slugKey(ss.path, "space")}`.slice(0, 63).replace(/[-_]+$/, "")), `${pointer}/siteSpaces/${k}`, k, url, pointer, key, false));
    const fields = this.scope.fieldsOf("section", section);
    return {
      key,
      previousKeys: [],
      pointer,
      index: n,
      title: section.title,
      path,
      url,
      default: isDefault,
      ...this.navigationItem(section),
      siteSpaces,
      declaredDefault: siteSpaces.find((ss) => ss.default)?.key,
      form: shorthand ? "space" : "siteSpaces",
      entry: { key, ...fields, adopt: true } as StackSection,
    };
  }

  /**
   * What a section and an external link hold alike, as the live navigation shows them: an empty text is
   * none; at the site's level, the group placed afterwards (from the groups' children).
   */
  private navigationItem(item: SiteSection | SiteExternalLink): Pick<SectionEntry & LinkEntry, "condition" | "draft" | "group" | "container"> {
    return { condition: item.condition || undefined, draft: item.draft, group: undefined, container: this.at };
  }

  private siteSpace(ss: SiteSpace, key: string, pointer: string, index: number, levelUrl: string, container: string, section: string | undefined, shorthand: boolean): SiteSpaceEntry {
    const path = livePath(ss.path, ss.space?.title, PATH_FALLBACK.siteSpace);
    const isDefault = ss.default === true;
    const space = this.scope.spaceRef(ss.space!.id);
    return {
      key,
      previousKeys: [],
      pointer,
      index,
      space,
      spaceId: ss.space!.id,
      spaceTitle: ss.space!.title,
      path,
      url: urlOf(levelUrl, path, isDefault),
      default: isDefault,
      condition: ss.condition || undefined,
      draft: ss.draft,
      hidden: ss.hidden === true,
      section,
      container,
      shorthand,
      entry: shorthand ? ({ key, space, adopt: true } as StackSiteSpace) : ({ key, ...this.scope.fieldsOf("siteSpace", ss), adopt: true } as StackSiteSpace),
    };
  }

  /** Root-level site spaces: only for a site without sections. */
  private rootSiteSpaces(hasSections: boolean): SiteSpaceEntry[] {
    const { live, where } = this;
    const roots = live.siteSpaces.filter((ss) => ss.section === undefined || ss.section === null);
    if (roots.length > 0 && hasSections) {
      this.scope.note(`${where}: ${roots.length} root-level site space(s) beside sections cannot be declared in a stack file and are not exported`);
      return [];
    }
    const out: SiteSpaceEntry[] = [];
    for (const ss of roots) {
      if (!ss.space?.id) {
        this.scope.note(`${where}: root-level site space '${ss.path}' shows no space and is not exported`);
        continue;
      }
      out.push(this.siteSpace(ss, this.siteSpaceKeys.from(ss.path, "site-space"), `${this.at}/siteSpaces/${out.length}`, out.length, SITE_URL, this.at, undefined, false));
    }
    return out;
  }

  /** Visits the navigation's items in display order, each group before its children (with the group's ID); false when the structure was not read. */
  private walk(visit: (item: { object: string; id: string }, group: string | undefined) => void): boolean {
    const structure = this.live.structure;
    if (structure?.type !== "sections") return false;
    const walk = (items: readonly { object: string; id: string; children?: unknown }[], group: string | undefined) => {
      for (const item of items) {
        visit(item, group);
        if (item.object === "site-section-group") walk((item.children ?? []) as { object: string; id: string }[], item.id);
      }
    };
    walk(structure.structure, undefined);
    return true;
  }

  /** The IDs of the navigation in display order, groups expanded (sections and external links); undefined when the structure was not read. */
  private flatOrder(): string[] | undefined {
    const out: string[] = [];
    return this.walk((item) => item.object !== "site-section-group" && out.push(item.id)) ? out : undefined;
  }

  /** The external links of the navigation in display order, each with its group's ID; titles shared by several links are left out. */
  private links(keyOf: Map<string, string>): LinkEntry[] {
    const found: SiteExternalLink[] = [];
    this.walk((item) => item.object === "site-external-link" && found.push(item as unknown as SiteExternalLink));
    const dup = duplicatesBy(found, (l) => l.title);
    for (const title of [...dup].sort(cmp)) this.scope.note(`${this.where}: several external links are titled ${JSON.stringify(title)}; adopt needs a unique title, so none of them is exported`);
    const keys = new KeyAllocator();
    for (const k of keyOf.values()) keys.claim(k);
    return found
      .filter((l) => !dup.has(l.title))
      .map((l, i): LinkEntry => {
        const key = keys.from(l.title, "link");
        keyOf.set(l.id, key);
        return {
          key,
          previousKeys: [],
          pointer: `${this.at}/sections/${i}`,
          index: i,
          title: l.title,
          target: l.url,
          ...this.navigationItem(l),
          entry: { key, ...this.scope.fieldsOf("link", l), adopt: true } as StackExternalLink,
        };
      });
  }

  /** Sections and external links as the file lists them: in the navigation's display order, groups expanded. */
  private inDisplayOrder(sections: SectionEntry[], links: LinkEntry[], keyOf: Map<string, string>): ListedEntry[] {
    const order = this.flatOrder();
    const byKey = new Map<string, ListedEntry>([
      ...sections.map((section): [string, ListedEntry] => [section.key, { kind: "section", section }]),
      ...links.map((link): [string, ListedEntry] => [link.key, { kind: "link", link }]),
    ]);
    if (order === undefined) return sections.map((section) => ({ kind: "section", section }));
    return order.map((id) => byKey.get(keyOf.get(id) ?? "")).filter((e): e is ListedEntry => e !== undefined);
  }

  /** Section groups in display order, listing their sections and external links by key; groups sharing a title are left out. */
  private groups(sectionKeyOf: Map<string, string>): GroupEntry[] {
    const { live, where } = this;
    const dup = duplicatesBy(live.groups, (g) => g.title);
    const keys = new KeyAllocator();
    const out: GroupEntry[] = [];
    for (const g of live.groups) {
      if (dup.has(g.title)) continue;
      const key = keys.from(g.title, "group");
      const pointer = `${this.at}/sectionGroups/${out.length}`;
      // Its children in display order as the structure shows them, else its sections as they list it.
      const inStructure = this.groupChildren(g.id);
      const members = (inStructure ?? live.sections.filter((s) => s.sectionGroup === g.id).map((s) => s.id))
        .map((id) => sectionKeyOf.get(id))
        .filter((k): k is string => k !== undefined);
      out.push({
        key,
        previousKeys: [],
        pointer,
        index: out.length,
        title: g.title,
        draft: g.draft,
        container: this.at,
        sections: [],
        children: [],
        members: members.map((k, i) => ({ key: k, pointer: `${pointer}/sections/${i}` })),
        entry: { key, ...this.scope.fieldsOf("group", g), sections: members, adopt: true } as StackSectionGroup,
      });
    }
    for (const title of [...dup].sort(cmp)) {
      this.scope.note(`${where}: several section groups are titled ${JSON.stringify(title)}; adopt needs a unique title, so none of them is exported`);
    }
    return out;
  }

  /** The IDs of a group's children in display order, as the structure shows them; undefined when it was not read. */
  private groupChildren(groupId: string): string[] | undefined {
    const out: string[] = [];
    return this.walk((item, group) => group === groupId && out.push(item.id)) ? out : undefined;
  }

  /** Share links by name; their URLs (which carry the secret token) are never read. */
  private shareLinks(): ShareLinkEntry[] {
    const { live, where } = this;
    // A stack file refuses share links on a site of another visibility (they grant nothing until it switches).
    const visibility = (live.site as { visibility?: unknown }).visibility;
    if (live.shareLinks.length > 0 && typeof visibility === "string" && visibility !== "share-link") {
      this.scope.note(`${where}: its ${live.shareLinks.length} share link(s) are not exported: share links grant access only while a site's visibility is share-link (this one is ${visibility}), and a stack file declares them only on such a site`);
      return [];
    }
    const named = live.shareLinks.filter((l): l is { id: string; name: string; active?: boolean } => typeof l.name === "string" && l.name !== "");
    if (named.length < live.shareLinks.length) {
      this.scope.note(`${where}: ${live.shareLinks.length - named.length} share link(s) without a name cannot be adopted and are not exported`);
    }
    const dup = duplicatesBy(named, (l) => l.name);
    for (const name of [...dup].sort(cmp)) {
      this.scope.note(`${where}: several share links are named ${JSON.stringify(name)}; adopt needs a unique name, so none of them is exported`);
    }
    const keys = new KeyAllocator();
    return [...named]
      .filter((l) => !dup.has(l.name))
      .sort((a, b) => cmp(a.name, b.name) || cmp(a.id, b.id))
      .map((l, i) => {
        const key = keys.from(l.name, "link");
        return { key, previousKeys: [], pointer: `${this.at}/shareLinks/${i}`, index: i, name: l.name, active: l.active !== false, entry: { key, ...this.scope.fieldsOf("shareLink", l), adopt: true } as StackShareLink };
      });
  }
}
