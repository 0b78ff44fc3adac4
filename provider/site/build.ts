/**
 * The site model of a stack file: each site's structure resolved once (see `types.ts`). The checks
 * build it from a file that may have failed the schema, so every access is guarded: an entry that
 * is not an object is left out (the others keep their pointers), a field of the wrong type reads as
 * absent.
 */
import type { Key, Ref, StackExternalLink, StackFile, StackSection, StackSectionGroup, StackShareLink, StackSite, StackSiteSpace } from "../file/model";
import { displayOrder, groupMembership } from "./order";
import { defaultOf, levelPaths, PATH_FALLBACK, SITE_URL, urlOf } from "./rules";
import type { GroupEntry, LinkEntry, ListedEntry, SectionEntry, SectionForm, ShareLinkEntry, SiteModel, SiteSpaceEntry } from "./types";

/** An object of the file as written, any of its fields possibly missing or of the wrong type. */
export type Loose = Record<string, unknown>;

/** An object of the file (not a list): the one test the checks and the model guard their reads with. */
export function isObject(v: unknown): v is Loose {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A list of the file, or none. */
export function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function bool(v: unknown): boolean | undefined {
  return typeof v === "boolean" ? v : undefined;
}

/** The objects of a list with their positions (entries that are not objects left out). */
function objects(v: unknown): [Loose, number][] {
  return list(v).flatMap((item, i): [Loose, number][] => (isObject(item) ? [[item, i]] : []));
}

function keysOf(entry: Loose): { key: Key; previousKeys: Key[] } {
  return { key: str(entry.key) ?? "", previousKeys: list(entry.previousKeys).filter((k): k is string => typeof k === "string") };
}

/** What the file knows of each space: its ID and title, by key and by ID. */
export class SpaceIndex {
  private readonly byKey = new Map<string, { id: string | undefined; title: string | undefined }>();
  private readonly byId = new Map<string, { id: string | undefined; title: string | undefined }>();

  constructor(spaces: unknown) {
    for (const [s] of objects(spaces)) {
      const entry = { id: str(s.id), title: str(s.title) };
      if (typeof s.key === "string") this.byKey.set(s.key, entry);
      if (entry.id !== undefined && !this.byId.has(entry.id)) this.byId.set(entry.id, entry);
    }
  }

  /** The ID and title of the space a reference names, as far as the file knows them. */
  resolve(ref: unknown): { id: string | undefined; title: string | undefined } {
    if (isObject(ref)) {
      const id = str(ref.id);
      return { id, title: id === undefined ? undefined : this.byId.get(id)?.title };
    }
    const found = typeof ref === "string" ? this.byKey.get(ref) : undefined;
    return { id: found?.id, title: found?.title };
  }
}

/** The site models of a stack file, in the file's order. */
export function siteModels(stack: StackFile): SiteModel[] {
  const spaces = new SpaceIndex((stack as unknown as Loose).spaces);
  return objects((stack as unknown as Loose).sites).map(([site, i]) => siteModel(site, `/sites/${i}`, i, spaces));
}

/** One site space as the file declares it, before its level resolves paths, URLs and the default. */
interface SiteSpaceSeed {
  entry: StackSiteSpace;
  pointer: string;
  index: number;
  shorthand: boolean;
}

/** The site spaces of one level, resolved: paths, the default and URLs. */
function siteSpaceLevel(seeds: SiteSpaceSeed[], declaredDefault: unknown, levelUrl: string, container: string, section: Key | undefined, spaces: SpaceIndex): SiteSpaceEntry[] {
  const loose = seeds.map((s) => s.entry as unknown as Loose);
  const resolved = loose.map((ss) => spaces.resolve(ss.space));
  const paths = levelPaths(
    seeds.map((s, i) => ({ pointer: s.pointer, declared: s.shorthand ? undefined : str(loose[i]!.path), title: resolved[i]!.title })),
    PATH_FALLBACK.siteSpace,
  );
  const def = defaultOf(loose.map((ss) => str(ss.key) ?? ""), declaredDefault);
  return seeds.map((seed, i): SiteSpaceEntry => {
    const ss = loose[i]!;
    const isDefault = (str(ss.key) ?? "") === def;
    return {
      ...keysOf(ss),
      pointer: seed.pointer,
      index: seed.index,
      space: ss.space === undefined ? undefined : (ss.space as Ref),
      spaceId: resolved[i]!.id,
      spaceTitle: resolved[i]!.title,
      path: paths[i]!,
      url: urlOf(levelUrl, paths[i]!, isDefault),
      default: isDefault,
      condition: str(ss.condition),
      draft: bool(ss.draft),
      hidden: ss.hidden === true,
      section,
      container,
      shorthand: seed.shorthand,
      entry: seed.entry,
    };
  });
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

/** The site spaces a section declares, with their pointers (the shorthand's is the section's). */
function sectionSeeds(section: Loose, pointer: string): SiteSpaceSeed[] {
  if (section.siteSpaces !== undefined) {
    return objects(section.siteSpaces).map(([ss, k]) => ({ entry: ss as unknown as StackSiteSpace, pointer: `${pointer}/siteSpaces/${k}`, index: k, shorthand: false }));
  }
  return sectionSiteSpaces(section as unknown as StackSection).map((entry) => ({ entry, pointer, index: 0, shorthand: true }));
}

function formOf(section: Loose): SectionForm {
  const space = section.space !== undefined;
  const listed = section.siteSpaces !== undefined;
  return space && listed ? "both" : space ? "space" : listed ? "siteSpaces" : "neither";
}

/** True when an entry of `sections` is an external link (it gives `url` instead of a space). */
export function isLinkEntry(entry: Loose): boolean {
  return entry.url !== undefined;
}

/** The external links among a site's `sections`, resolved, each naming its group. */
function linkEntries(site: Loose, at: string, groupOf: Map<Key, Key>): Map<number, LinkEntry> {
  const out = new Map<number, LinkEntry>();
  for (const [l, j] of objects(site.sections)) {
    if (!isLinkEntry(l)) continue;
    const keys = keysOf(l);
    out.set(j, {
      ...keys,
      pointer: `${at}/sections/${j}`,
      index: j,
      title: str(l.title) ?? "",
      target: str(l.url) ?? "",
      condition: str(l.condition),
      draft: bool(l.draft),
      group: groupOf.get(keys.key),
      container: at,
      entry: l as unknown as StackExternalLink,
    });
  }
  return out;
}

/** The sections of a site as the file lists them (external links left out), resolved, each naming its group. */
function sectionEntries(site: Loose, at: string, groupOf: Map<Key, Key>, spaces: SpaceIndex): SectionEntry[] {
  const listed = objects(site.sections).filter(([s]) => !isLinkEntry(s));
  const paths = levelPaths(
    listed.map(([s, j]) => ({ pointer: `${at}/sections/${j}`, declared: str(s.path), title: str(s.title) })),
    PATH_FALLBACK.section,
  );
  const def = defaultOf(listed.map(([s]) => str(s.key) ?? ""), site.defaultSiteSection);
  return listed.map(([s, j], n): SectionEntry => {
    const pointer = `${at}/sections/${j}`;
    const keys = keysOf(s);
    const isDefault = keys.key === def;
    const url = urlOf(SITE_URL, paths[n]!, isDefault);
    return {
      ...keys,
      pointer,
      index: j,
      title: str(s.title) ?? "",
      path: paths[n]!,
      url,
      default: isDefault,
      condition: str(s.condition),
      draft: bool(s.draft),
      group: groupOf.get(keys.key),
      container: at,
      siteSpaces: siteSpaceLevel(sectionSeeds(s, pointer), s.defaultSiteSpace, url, pointer, keys.key, spaces),
      declaredDefault: s.defaultSiteSpace,
      form: formOf(s),
      entry: s as unknown as StackSection,
    };
  });
}

function groupEntries(site: Loose, at: string): GroupEntry[] {
  return objects(site.sectionGroups).map(([g, i]): GroupEntry => {
    const pointer = `${at}/sectionGroups/${i}`;
    return {
      ...keysOf(g),
      pointer,
      index: i,
      title: str(g.title) ?? "",
      draft: bool(g.draft),
      container: at,
      sections: [],
      children: [],
      members: list(g.sections).map((key, k) => ({ key, pointer: `${pointer}/sections/${k}` })),
      entry: g as unknown as StackSectionGroup,
    };
  });
}

function shareLinkEntries(site: Loose, at: string): ShareLinkEntry[] {
  return objects(site.shareLinks).map(([l, i]) => ({
    ...keysOf(l),
    pointer: `${at}/shareLinks/${i}`,
    index: i,
    name: str(l.name) ?? "",
    active: l.active !== false,
    entry: l as unknown as StackShareLink,
  }));
}

/** The model of one site of a file, at `at` (its pointer). */
export function siteModel(site: Loose, at: string, index: number, spaces: SpaceIndex): SiteModel {
  const groupList = groupEntries(site, at);
  const groupOf = groupMembership(groupList);
  const sectionList = sectionEntries(site, at, groupOf, spaces);
  const links = linkEntries(site, at, groupOf);
  // Sections and links interleaved as the file lists them.
  const listed: ListedEntry[] = [];
  let next = 0;
  for (const [, j] of objects(site.sections)) {
    const link = links.get(j);
    if (link) listed.push({ kind: "link", link });
    else if (sectionList[next]?.index === j) listed.push({ kind: "section", section: sectionList[next++]! });
  }
  const order = displayOrder(listed, groupList);
  const roots = objects(site.siteSpaces).map(([ss, j]): SiteSpaceSeed => ({ entry: ss as unknown as StackSiteSpace, pointer: `${at}/siteSpaces/${j}`, index: j, shorthand: false }));
  const rootSiteSpaces = siteSpaceLevel(roots, site.defaultSiteSpace, SITE_URL, at, undefined, spaces);
  return assemble({
    ...keysOf(site),
    pointer: at,
    index,
    title: str(site.title) ?? "",
    ...order,
    sectionList,
    linkList: [...links.values()],
    groupList,
    rootSiteSpaces,
    shareLinks: shareLinkEntries(site, at),
    declaredDefaults: { section: site.defaultSiteSection, siteSpace: site.defaultSiteSpace },
    entry: site as unknown as StackSite,
  });
}

/** A site model from its parts: every site space in one list, the root level's first. */
export function assemble(parts: Omit<SiteModel, "siteSpaces">): SiteModel {
  return { ...parts, siteSpaces: [...parts.rootSiteSpaces, ...parts.sections.flatMap((s) => s.siteSpaces)] };
}
