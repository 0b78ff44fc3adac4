/**
 * The one resolved site model (see `types.ts`): built from a stack file (`siteModels`) or from the
 * live organisation (`liveSiteModel`), read by the stack checks, the component, export, `tree` and
 * `diff`. The platform's structure rules are in `rules.ts`, the display order in `order.ts`.
 */
import type { Key } from "../file/model";
import type { SectionEntry, SiteModel, SiteSpaceEntry } from "./types";

export * from "./types";
export { API_PATH, defaultOf, derivedPath, PATH_FALLBACK } from "./rules";
export { longestIncreasing, reordered } from "./order";
export { sectionSiteSpaces, siteModels, siteModel, SpaceIndex } from "./build";

/** The section of a site with this key (a redirect destination, a group's member). */
export function sectionByKey(site: SiteModel, key: Key): SectionEntry | undefined {
  return site.sections.find((s) => s.key === key);
}

/** The site space of a site with this key: site-space keys are unique within a site. */
export function siteSpaceByKey(site: SiteModel, key: Key): SiteSpaceEntry | undefined {
  return site.siteSpaces.find((ss) => ss.key === key);
}
