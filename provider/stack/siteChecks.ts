/**
 * The checks of one site, read from its resolved model (provider/site): unique keys per namespace
 * (site-space keys across the whole site), how each section names its site spaces, references to
 * spaces, paths at each level, one default per level naming an entry of that level, section groups,
 * adaptive content and share links.
 */
import { checkRedirects, redirectSiteOf } from "../redirects/checks";
import { conditionIssues } from "../conditions";
import { shareLinkKind } from "../resources/shareLink";
import { siteSectionGroupKind } from "../resources/siteSectionGroup";
import { siteExternalLinkKind } from "../resources/siteExternalLink";
import type { EntryBase, SiteModel, SiteSpaceEntry } from "../site";
import { show } from "./schema";
import { confusableWith } from "../identifiers";
import { unreachableByReaders } from "../urls";
import { escapeSegment } from "../pointer";
import { naturalField } from "./stackSchema";
import { describe, isObject, known, list, naturalKeys, reference, uniqueKeys, type Ctx, type Item, type Loose, type Namespace } from "./checkKit";

/** A model entry as the checks see it: its pointer and the object as written. */
function item(e: EntryBase & { entry: object }): Item {
  return { pointer: e.pointer, entry: e.entry as unknown as Loose };
}

/** Every check of one site. `spaceKeys`: the keys of the file's spaces. */
export function checkSite(ctx: Ctx, site: SiteModel, spaceKeys: Namespace): void {
  const at = site.pointer;
  // Sections and external links share the site's `sections` list, and one namespace.
  const navigation = [...site.sectionList.map(item), ...site.linkList.map(item)].sort((a, b) => a.pointer.localeCompare(b.pointer, "en", { numeric: true }));
  const sectionKeys = uniqueKeys(ctx, navigation, "among the sections and external links of this site");
  const groups = site.groupList.map(item);
  const links = site.shareLinks.map(item);
  uniqueKeys(ctx, groups, "among the section groups of this site");
  uniqueKeys(ctx, links, "among the share links of this site");
  for (const [kind, items] of [[siteSectionGroupKind, groups], [shareLinkKind, links], [siteExternalLinkKind, site.linkList.map(item)]] as const) {
    const natural = naturalField(kind);
    if (natural) naturalKeys(ctx, items, natural.as, undefined);
  }
  const levelOf = siteSpaceKeys(ctx, site);
  sectionForms(ctx, site, spaceKeys);
  for (const ss of site.siteSpaces) {
    if (!ss.shorthand) reference(ctx, `${ss.pointer}/space`, ss.space, spaceKeys, "space", "spaces");
  }
  paths(ctx, site);
  // A default names a section, never an external link.
  const linkKeys = new Set(site.linkList.map((l) => l.key));
  defaults(ctx, site, new Map([...sectionKeys].filter(([k]) => !linkKeys.has(k))), levelOf);
  groupMembers(ctx, site, sectionKeys);
  for (const l of site.linkList) {
    for (const f of ["space", "siteSpaces", "path", "defaultSiteSpace"]) {
      if ((l.entry as unknown as Loose)[f] !== undefined) ctx.error(`${l.pointer}/${f}`, `an external link (an entry with url) takes no ${f}`);
    }
  }
  adaptiveContent(ctx, site);
  if (Array.isArray(site.entry.redirects)) for (const issue of checkRedirects(`${at}/redirects`, site.entry.redirects, redirectSiteOf(site))) (issue.warning ? ctx.warn : ctx.error)(issue.pointer, issue.reason);
  const visibility = site.entry.visibility as unknown;
  // A link made on a site of another visibility is a credential that grants nothing today and everything
  // the day the site turns share-link: made only with the switch, in the same file.
  if (site.shareLinks.length > 0 && typeof visibility === "string" && visibility !== "share-link") {
    ctx.error(
      `${at}/shareLinks`,
      `share links grant access only to sites whose visibility is share-link, and this site is ${visibility}: each link would grant nothing now and the whole site the day it turns share-link. Declare visibility: share-link on this site, or remove its share links`,
      true,
    );
  }
  unreachableLinks(ctx, at, site.entry);
}

/** Where a site's own fields name a URL the platform fetches (refused, not warned, when private: urls.ts). */
const FETCHED_BLOCKS = new Set(["mcpServers", "contextConnections", "gitSync"]);

/**
 * Redirects and links of a site to a loopback or private address: readers' browsers would open their own
 * machine or network. Valid, and sometimes meant (a staging file), so a warning in words.
 */
function unreachableLinks(ctx: Ctx, at: string, entry: unknown): void {
  // Aliases can make the loaded value share or contain itself: each object is walked once.
  const seen = new WeakSet<object>();
  const walk = (v: unknown, pointer: string, key: string): void => {
    if (v !== null && typeof v === "object") {
      if (seen.has(v)) return;
      seen.add(v);
    }
    if (typeof v === "string") {
      if (!/url$/i.test(key)) return;
      const host = unreachableByReaders(v);
      if (host) ctx.warn(pointer, `readers cannot reach this URL: it names ${host}, which a reader's browser looks for on the reader's own machine or network`);
      return;
    }
    if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${pointer}/${i}`, key));
    else if (v !== null && typeof v === "object") {
      for (const [k, child] of Object.entries(v as Record<string, unknown>)) if (pointer !== at || !FETCHED_BLOCKS.has(k)) walk(child, `${pointer}/${escapeSegment(k)}`, k);
    }
  };
  walk(entry, at, "");
}

/** Site-space keys: one namespace over the root level and every section. Returns key → pointer of its level (its container). */
function siteSpaceKeys(ctx: Ctx, site: SiteModel): Map<string, string> {
  const first = new Map<string, SiteSpaceEntry>();
  const levelOf = new Map<string, string>();
  for (const ss of [...site.rootSiteSpaces, ...site.sectionList.flatMap((s) => s.siteSpaces)]) {
    const key = (ss.entry as unknown as Loose).key;
    if (typeof key !== "string") continue;
    const earlier = first.get(key);
    if (earlier !== undefined) {
      const how = ss.shorthand ? ` (the site space of a section given by 'space' takes the section's key)` : "";
      ctx.error(`${ss.pointer}/key`, `duplicate key ${show(key)}: already used by the site space at ${describe(earlier.pointer)} (line ${ctx.lineOf(earlier.pointer)}); site-space keys are unique within a site${how}`);
      continue;
    }
    first.set(key, ss);
    levelOf.set(key, ss.container);
  }
  return levelOf;
}

/** A site with sections keeps its site spaces in them; each section gives `space` or `siteSpaces`. */
function sectionForms(ctx: Ctx, site: SiteModel, spaceKeys: Namespace): void {
  if (site.sectionList.length > 0 && site.rootSiteSpaces.length > 0) {
    ctx.error(
      `${site.pointer}/siteSpaces`,
      "a site with sections keeps its site spaces inside its sections; root-level siteSpaces are only for sites without sections",
      true,
    );
  }
  for (const section of site.sectionList) {
    const sp = section.pointer;
    if (section.form === "both") {
      ctx.error(`${sp}/siteSpaces`, "give either space (one site space) or siteSpaces, not both; list the section's first site space in siteSpaces", true);
    } else if (section.form === "neither") {
      ctx.error(sp, "needs either space (the space of its one site space) or siteSpaces (its site spaces, the first created with the section)");
    }
    if (section.form === "space" || section.form === "both") reference(ctx, `${sp}/space`, (section.entry as unknown as Loose).space, spaceKeys, "space", "spaces");
  }
}

/** One level's paths: two declared equal paths are an error (the API answers 409); a derived one another path takes is a warning (the platform adds a suffix). */
function levelPaths(ctx: Ctx, entries: readonly (EntryBase & { path: SiteSpaceEntry["path"] })[], where: string): void {
  for (const e of entries) {
    const { value, source, derived, takenBy } = e.path;
    if (takenBy === undefined) continue;
    if (source === "declared") {
      ctx.error(`${e.pointer}/path`, `duplicate path ${show(value ?? "")}: already the path of ${describe(takenBy)} (line ${ctx.lineOf(takenBy)}); paths are unique ${where}`);
    } else {
      ctx.warn(
        e.pointer,
        `has no path and the platform derives ${show(derived ?? "")} from its title, already the path of ${describe(takenBy)}; the platform will add a numeric suffix, so set path explicitly`,
      );
    }
  }
}

/**
 * A path that only looks like a sibling's (the same letters drawn from another script, Cyrillic 'а' for
 * Latin 'a'): readers and reviewers cannot tell the two URLs apart. A warning: such a path may be meant.
 */
function lookAlikePaths(ctx: Ctx, entries: readonly (EntryBase & { path: SiteSpaceEntry["path"] })[]): void {
  const earlier: { value: string; pointer: string }[] = [];
  for (const e of entries) {
    const value = e.path.value;
    if (typeof value !== "string" || value === "") continue;
    const twin = confusableWith(value, earlier.map((x) => x.value));
    if (twin !== undefined) {
      const first = earlier.find((x) => x.value === twin)!;
      ctx.warn(`${e.pointer}/path`, `path ${show(value)} looks like ${show(twin)}, the path of ${describe(first.pointer)} (line ${ctx.lineOf(first.pointer)}), but differs in ${differingLetters(value, twin)}; readers cannot tell the two URLs apart`);
    }
    earlier.push({ value, pointer: e.pointer });
  }
}

/** The characters of `a` that differ from `b`'s, as code points: `'а' (U+0430)`. */
function differingLetters(a: string, b: string): string {
  const mine = [...a];
  const theirs = [...b];
  const differing = mine.filter((c, i) => c !== theirs[i]).map((c) => `'${c}' (U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})`);
  return [...new Set(differing)].join(", ") || "letters of another script";
}

function paths(ctx: Ctx, site: SiteModel): void {
  lookAlikePaths(ctx, site.rootSiteSpaces);
  for (const section of site.sectionList) lookAlikePaths(ctx, section.siteSpaces);
  lookAlikePaths(ctx, site.sectionList);
  levelPaths(ctx, site.rootSiteSpaces, "for site spaces at the root of this site");
  for (const section of site.sectionList) levelPaths(ctx, section.siteSpaces, "for site spaces in this section");
  levelPaths(ctx, site.sectionList, "among the sections of a site");
}

/** Defaults: each names an entry of its own level. */
function defaults(ctx: Ctx, site: SiteModel, sectionKeys: Namespace, levelOf: Map<string, string>): void {
  const at = site.pointer;
  const { section: defaultSection, siteSpace: defaultSiteSpace } = site.declaredDefaults;
  if (typeof defaultSection === "string" && !sectionKeys.has(defaultSection)) {
    ctx.error(`${at}/defaultSiteSection`, `no section with key ${show(defaultSection)} in this site${known(sectionKeys.keys())}`);
  }
  if (typeof defaultSiteSpace === "string") {
    const level = levelOf.get(defaultSiteSpace);
    if (site.sectionList.length > 0) {
      ctx.error(
        `${at}/defaultSiteSpace`,
        `this site has sections: set defaultSiteSpace on the section${level && level !== at ? ` (${describe(level)})` : ""} instead; the site-level default is only for sites without sections`,
      );
    } else if (level !== at) {
      ctx.error(`${at}/defaultSiteSpace`, `no root-level site space with key ${show(defaultSiteSpace)} in this site${known(keysOf(site.rootSiteSpaces))}`);
    }
  }
  for (const section of site.sectionList) {
    const key = section.declaredDefault;
    if (typeof key !== "string") continue;
    const level = levelOf.get(key);
    if (level === section.pointer) continue;
    const where = level === undefined ? "" : level === at ? "; it is a root-level site space" : `; it belongs to ${describe(level)}`;
    ctx.error(`${section.pointer}/defaultSiteSpace`, `no site space with key ${show(key)} in this section${where}${known(keysOf(section.siteSpaces))}`);
  }
}

/** The keys of some entries, once each, in order. */
function keysOf(entries: readonly { entry: object }[]): Set<string> {
  const keys = new Set<string>();
  for (const e of entries) {
    const key = (e.entry as Loose).key;
    if (typeof key === "string") keys.add(key);
  }
  return keys;
}

/** Section groups: every listed section exists, and no section is in two groups. */
function groupMembers(ctx: Ctx, site: SiteModel, sectionKeys: Namespace): void {
  const grouped = new Map<string, string>();
  for (const group of site.groupList) {
    for (const { key, pointer } of group.members) {
      if (typeof key !== "string") continue;
      if (!sectionKeys.has(key)) {
        ctx.error(pointer, `no section or external link with key ${show(key)} in this site${known(sectionKeys.keys())}`);
        continue;
      }
      const first = grouped.get(key);
      if (first !== undefined && !first.startsWith(`${group.pointer}/`)) {
        ctx.error(pointer, `section ${show(key)} is already in ${describe(first.slice(0, first.lastIndexOf("/sections/")))} (line ${ctx.lineOf(first)}); a section belongs to at most one group`);
        continue;
      }
      if (first === undefined) grouped.set(key, pointer);
    }
  }
}

/** Required claims are declared; conditions parse, name declared claims and have an effect (adaptive content on). */
function adaptiveContent(ctx: Ctx, site: SiteModel): void {
  const declared = site.entry as unknown as Loose;
  const schema = declared.adaptiveSchema;
  if (isObject(schema) && isObject(schema.properties)) {
    const claims = new Set(Object.keys(schema.properties));
    list(schema.required).forEach((name, k) => {
      if (typeof name === "string" && !claims.has(name)) {
        ctx.error(`${site.pointer}/adaptiveSchema/required/${k}`, `claim ${show(name)} is not declared in adaptiveSchema.properties`);
      }
    });
  }
  // Conditions parsed offline (provider/conditions.ts): syntax, claims the schema declares, adaptive content on.
  const conditions = [
    ...site.rootSiteSpaces,
    ...site.sectionList.flatMap((s) => [s, ...s.siteSpaces]),
    ...site.linkList,
  ].flatMap((e) => (e.condition === undefined ? [] : [{ pointer: `${e.pointer}/condition`, text: e.condition }]));
  for (const issue of conditionIssues(conditions, declared)) (issue.warning ? ctx.warn : ctx.error)(issue.pointer, issue.reason);
}
