/**
 * The site a stack file declares, as its readers get it: each site's sections, section groups and
 * site spaces in display order, with the URL path of each, the default at each level, conditions,
 * visibility, published state and share links by name. `tree` draws it and `diff` compares two of
 * them; both work from a loaded {@link StackFile}, whether read from a file or from the live
 * organisation (`exportOrganization`), so the two trees are drawn by the same code.
 *
 * Rules taken from the platform's structure rules (as emulator/routes/structure.ts implements them):
 * - Order: sections in the order of `sections`; a section group takes the place of its first section
 *   and holds its sections in that same order (what `SiteStructureOrder` applies). Empty groups, which
 *   have no place in that order, come last.
 * - Default: the one declared (`defaultSiteSection`, `defaultSiteSpace`), else the first of its level,
 *   as the component declares it (it creates that one first: the API makes the first object created
 *   at a level its default).
 * - Fields left out mean what the kind's absence rule says (its declaration): a site's published state,
 *   agents setting and adaptive content are reset to the API's default; cleared fields are absent.
 * - Paths: the one declared, else the one the API derives on create from the title (a section's) or
 *   the space's title (a site space's). When the file does not know that title (a space by ID only)
 *   or two derived paths collide (the API adds a numeric suffix in creation order), the path is the
 *   API's to choose and is drawn as such.
 * - URL path a reader sees: the default section is the site's root `/`, another section is `/<path>`;
 *   a level's default site space is served at its level's URL, another at `<level URL>/<path>`.
 */
import { derivePath } from "../rules";
import { siteKind } from "../resources/site";
import { isIdRef, sectionSiteSpaces, type Key, type Ref, type StackFile, type StackSite, type StackSiteSpace } from "../stack/model";

/** Where a path comes from. */
export type PathSource = "declared" | "derived" | "api";

/** The path of a section or site space; `value` is undefined when the API chooses it. */
export interface PathView {
  value: string | undefined;
  source: PathSource;
}

/** Fields every object drawn from a keyed entry carries. */
export interface KeyedView {
  key: Key;
  previousKeys: Key[];
}

/** A site space: the space behind a path, at the root of a site or in a section. */
export interface SiteSpaceView extends KeyedView {
  /** Platform ID of the space, when the file knows it. */
  spaceId: string | undefined;
  /** Title of the space (the title readers see for the site space), when the file knows it. */
  spaceTitle: string | undefined;
  path: PathView;
  /** URL path relative to the site (`/`, `/api`, `/api/v1`). */
  url: string;
  default: boolean;
  condition: string | undefined;
  /** Key of the section holding it; undefined at the site's root level. */
  section: Key | undefined;
}

/** A section with its site spaces in display order. */
export interface SectionView extends KeyedView {
  title: string;
  path: PathView;
  url: string;
  default: boolean;
  condition: string | undefined;
  description: string | undefined;
  icon: string | undefined;
  /** Key of the group holding it, if any. */
  group: Key | undefined;
  siteSpaces: SiteSpaceView[];
}

/** A section group with its sections in display order. */
export interface GroupView extends KeyedView {
  title: string;
  icon: string | undefined;
  sections: SectionView[];
}

/** One entry of a site's top level: an ungrouped section or a group. */
export type TopEntry = { kind: "section"; section: SectionView } | { kind: "group"; group: GroupView };

/** A share link, by name only: its URL carries a secret token and is never shown. */
export interface ShareLinkView extends KeyedView {
  name: string;
  active: boolean;
}

/** A site as its readers get it. */
export interface SiteView extends KeyedView {
  title: string;
  /** Declared site type, shown only when not the platform's default `basic`. */
  type: string | undefined;
  /** Undefined when not declared: the platform's value is left alone. A field that `null` clears is undefined when cleared. */
  visibility: string | undefined;
  published: boolean;
  basename: string | undefined;
  proxy: string | undefined;
  agentsContext: string;
  adaptiveContent: boolean;
  /** Visitor claims of the adaptive schema, dotted (`unsigned.prefersApiFirst`), sorted. */
  claims: string[];
  /** The organisation's default content is this site. */
  organizationDefault: boolean;
  /** Top level in display order. */
  entries: TopEntry[];
  /** Every section in display order (groups expanded). */
  sections: SectionView[];
  /** Every group in display order. */
  groups: GroupView[];
  /** Root-level site spaces (sites without sections), in display order. */
  rootSiteSpaces: SiteSpaceView[];
  /** Share links sorted by name (the platform gives them no order). */
  shareLinks: ShareLinkView[];
}

/** Every site of a stack, sorted by title (sites have no order on the platform), then key. */
export interface StackView {
  organization: string;
  sites: SiteView[];
}

/** Code-point order, so output does not depend on the machine's locale. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The view of a whole stack. */
export function viewStack(stack: StackFile): StackView {
  const spaces = new SpaceIndex(stack);
  const defaultContent = stack.settings?.defaultContent;
  const orgDefaultKey = typeof defaultContent === "string" ? defaultContent : undefined;
  const sites = (stack.sites ?? []).map((s) => viewSite(s, spaces, s.key === orgDefaultKey));
  sites.sort((a, b) => cmp(a.title, b.title) || cmp(a.key, b.key));
  return { organization: stack.organization, sites };
}

/** What the file knows of each space: its ID and title, by key and by ID. */
class SpaceIndex {
  private readonly byKey = new Map<string, { id: string; title: string | undefined }>();
  private readonly byId = new Map<string, { id: string; title: string | undefined }>();

  constructor(stack: StackFile) {
    for (const s of stack.spaces ?? []) {
      const entry = { id: s.id, title: s.title };
      this.byKey.set(s.key, entry);
      if (!this.byId.has(s.id)) this.byId.set(s.id, entry);
    }
  }

  resolve(ref: Ref): { id: string | undefined; title: string | undefined } {
    if (isIdRef(ref)) return { id: ref.id, title: this.byId.get(ref.id)?.title };
    const found = this.byKey.get(ref);
    return { id: found?.id, title: found?.title };
  }
}

/**
 * Paths of one level: declared ones as given; the others derived from `titleOf` unless the title is
 * unknown or the derived path collides with another path of the level (then the API chooses).
 */
function levelPaths<T>(items: T[], declared: (t: T) => string | undefined, titleOf: (t: T, i: number) => string | undefined, fallback: string): PathView[] {
  const explicit = new Set(items.map(declared).filter((p): p is string => p !== undefined));
  const derived = items.map((t, i) => {
    if (declared(t) !== undefined) return undefined;
    const title = titleOf(t, i);
    return title === undefined ? undefined : derivePath(title, fallback);
  });
  const counts = new Map<string, number>();
  for (const d of derived) if (d !== undefined) counts.set(d, (counts.get(d) ?? 0) + 1);
  return items.map((t, i): PathView => {
    const own = declared(t);
    if (own !== undefined) return { value: own, source: "declared" };
    const d = derived[i];
    if (d === undefined || explicit.has(d) || (counts.get(d) ?? 0) > 1) return { value: undefined, source: "api" };
    return { value: d, source: "derived" };
  });
}

/** How a URL shows a path segment the API chooses. */
export const API_PATH = "<path from the API>";

/** `/`-joined URL path; an unknown path segment is shown as {@link API_PATH}. */
function joinUrl(base: string, path: PathView): string {
  const segment = path.value ?? API_PATH;
  return base === "/" ? `/${segment}` : `${base}/${segment}`;
}

/** The key of a level's default: the declared one when it names an entry of the level, else the first. */
function defaultOf(keys: Key[], declared: Key | undefined): Key | undefined {
  return declared !== undefined && keys.includes(declared) ? declared : keys[0];
}

function siteSpaceViews(list: StackSiteSpace[], declaredDefault: Key | undefined, levelUrl: string, section: Key | undefined, spaces: SpaceIndex): SiteSpaceView[] {
  const resolved = list.map((ss) => spaces.resolve(ss.space));
  const paths = levelPaths(list, (ss) => ss.path, (_, i) => resolved[i]?.title, "space");
  const def = defaultOf(list.map((ss) => ss.key), declaredDefault);
  return list.map((ss, i) => {
    const isDefault = ss.key === def;
    const path = paths[i]!;
    return {
      key: ss.key,
      previousKeys: ss.previousKeys ?? [],
      spaceId: resolved[i]!.id,
      spaceTitle: resolved[i]!.title,
      path,
      url: isDefault ? levelUrl : joinUrl(levelUrl, path),
      default: isDefault,
      condition: ss.condition ?? undefined,
      section,
    };
  });
}

/** Dotted names of the claims of an adaptive schema (`unsigned` claims as `unsigned.<name>`). */
function claimsOf(site: StackSite): string[] {
  const props = site.adaptiveSchema?.properties ?? {};
  const out: string[] = [];
  for (const [name, claim] of Object.entries(props)) {
    if (claim.type === "object" && "properties" in claim) {
      for (const inner of Object.keys(claim.properties)) out.push(`${name}.${inner}`);
    } else {
      out.push(name);
    }
  }
  return out.sort(cmp);
}

function viewSite(site: StackSite, spaces: SpaceIndex, organizationDefault: boolean): SiteView {
  const declared = site.sections ?? [];
  const paths = levelPaths(declared, (s) => s.path, (s) => s.title, "section");
  const defaultSection = defaultOf(declared.map((s) => s.key), site.defaultSiteSection);
  const groupOf = new Map<Key, Key>();
  for (const g of site.sectionGroups ?? []) for (const k of g.sections) if (!groupOf.has(k)) groupOf.set(k, g.key);

  const sectionByKey = new Map<Key, SectionView>();
  for (const [i, s] of declared.entries()) {
    const isDefault = s.key === defaultSection;
    const path = paths[i]!;
    const url = isDefault ? "/" : joinUrl("/", path);
    sectionByKey.set(s.key, {
      key: s.key,
      previousKeys: s.previousKeys ?? [],
      title: s.title,
      path,
      url,
      default: isDefault,
      condition: s.condition ?? undefined,
      description: s.description ?? undefined,
      icon: s.icon ?? undefined,
      group: groupOf.get(s.key),
      siteSpaces: siteSpaceViews(sectionSiteSpaces(s), s.defaultSiteSpace, url, s.key, spaces),
    });
  }

  const groups = new Map<Key, GroupView>();
  for (const g of site.sectionGroups ?? []) {
    groups.set(g.key, { key: g.key, previousKeys: g.previousKeys ?? [], title: g.title, icon: g.icon ?? undefined, sections: [] });
  }
  // A group takes the place of its first section; its sections keep the order of `sections`.
  const entries: TopEntry[] = [];
  for (const s of declared) {
    const section = sectionByKey.get(s.key)!;
    const group = section.group === undefined ? undefined : groups.get(section.group);
    if (group === undefined) {
      entries.push({ kind: "section", section });
      continue;
    }
    if (group.sections.length === 0) entries.push({ kind: "group", group });
    group.sections.push(section);
  }
  for (const g of groups.values()) if (g.sections.length === 0) entries.push({ kind: "group", group: g });

  const sections = entries.flatMap((e) => (e.kind === "section" ? [e.section] : e.group.sections));
  return {
    key: site.key,
    previousKeys: site.previousKeys ?? [],
    title: site.title,
    type: site.type === "basic" ? undefined : site.type,
    visibility: site.visibility,
    published: site.published ?? siteKind.fields.published.absent.reset,
    basename: site.basename,
    proxy: site.proxy ?? undefined,
    agentsContext: site.agentsContext ?? siteKind.fields.agentsContext.absent.reset,
    adaptiveContent: (site.adaptiveContent ?? siteKind.fields.adaptiveContent.absent.reset).enabled,
    claims: claimsOf(site),
    organizationDefault,
    entries,
    sections,
    groups: entries.filter((e): e is Extract<TopEntry, { kind: "group" }> => e.kind === "group").map((e) => e.group),
    rootSiteSpaces: siteSpaceViews(site.siteSpaces ?? [], site.defaultSiteSpace, "/", undefined, spaces),
    shareLinks: (site.shareLinks ?? [])
      .map((l) => ({ key: l.key, previousKeys: l.previousKeys ?? [], name: l.name, active: l.active !== false }))
      .sort((a, b) => cmp(a.name, b.name) || cmp(a.key, b.key)),
  };
}

/** Every site space of a site, at the root and in its sections, in display order. */
export function allSiteSpaces(site: SiteView): SiteSpaceView[] {
  return [...site.rootSiteSpaces, ...site.sections.flatMap((s) => s.siteSpaces)];
}

/**
 * URLs that two objects of a site claim: each section claims its URL, each site space that is not
 * its level's default claims its own (a default is served at its level's URL by design). A section
 * at `/changes` and a non-default site space `changes` of the default section both claim
 * `/changes`; the API accepts both, since paths are unique per level only.
 */
export function urlClashes(site: SiteView): { url: string; claimants: string[] }[] {
  const claims = new Map<string, string[]>();
  const claim = (url: string, who: string): void => {
    if (url.includes(API_PATH)) return;
    claims.set(url, [...(claims.get(url) ?? []), who]);
  };
  for (const s of site.sections) claim(s.url, `section ${JSON.stringify(s.title)}`);
  for (const ss of allSiteSpaces(site)) {
    if (ss.default) continue;
    const level = site.sections.find((s) => s.key === ss.section);
    claim(ss.url, `site space ${JSON.stringify(ss.spaceTitle ?? ss.key)}${level === undefined ? "" : ` of section ${JSON.stringify(level.title)}`}`);
  }
  return [...claims]
    .filter(([, who]) => who.length > 1)
    .map(([url, claimants]) => ({ url, claimants }))
    .sort((a, b) => cmp(a.url, b.url));
}
