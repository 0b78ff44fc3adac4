/**
 * The sites of a resolved stack as `tree` and `diff` read them: each site's resolved model (see
 * provider/site), sorted by title, with what the stack around it says of it — whether it is the
 * organisation's default content, the grants of the spaces its site spaces publish, a team's title by
 * its key. The site's own fields are read from its entry, as its kind's declaration shows them
 * (fields.ts); both views work from a loaded stack, whether read from a file or from the live
 * organisation (`exportOrganization`), so the two trees are drawn by the same code.
 */
import { API_PATH, type SiteModel } from "../site";
import type { StackGrant } from "../access/model";
import type { ResolvedStack } from "../stack/resolve";

export { API_PATH };

/** A site as the views read it: its resolved model, and what the stack around it says of it. */
export interface SiteView extends SiteModel {
  /** The organisation's default content is this site. */
  organizationDefault: boolean;
  /** The declared grants of the spaces its site spaces publish, by the site space's key (spaces of the file with `permissions`). */
  spacePermissions: Record<string, StackGrant[]>;
  /** A team's title from its key (the key itself for a team the file does not declare). */
  teamTitle: (key: string) => string | undefined;
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

/** The view of a whole stack, from its resolved sites. */
export function viewStack({ stack, sites }: ResolvedStack): StackView {
  const defaultContent = stack.settings?.defaultContent;
  const orgDefaultKey = typeof defaultContent === "string" ? defaultContent : undefined;
  const titles = new Map((stack.teams ?? []).map((t) => [t.key, t.title ?? t.key]));
  const teamTitle = (key: string): string | undefined => titles.get(key);
  const spaces = new Map((stack.spaces ?? []).map((s) => [s.key, s]));
  const byId = new Map((stack.spaces ?? []).map((s) => [s.id, s]));
  const viewed = sites.map((m): SiteView => {
    const spacePermissions: Record<string, StackGrant[]> = {};
    for (const ss of m.siteSpaces) {
      const space = typeof ss.space === "string" ? spaces.get(ss.space) : ss.space === undefined ? undefined : byId.get(ss.space.id);
      if (space?.permissions !== undefined) spacePermissions[ss.key] = space.permissions;
    }
    // The platform gives share links no order: by name.
    const shareLinks = [...m.shareLinks].sort((a, b) => cmp(a.name, b.name) || cmp(a.key, b.key));
    return { ...m, shareLinks, organizationDefault: m.key === orgDefaultKey, spacePermissions, teamTitle };
  });
  viewed.sort((a, b) => cmp(a.title, b.title) || cmp(a.key, b.key));
  return { organization: stack.organization, sites: viewed };
}

/** Dotted names of the visitor claims of a site's adaptive schema (`unsigned` claims as `unsigned.<name>`), sorted. */
export function claimsOf(site: SiteModel): string[] {
  const props = site.entry.adaptiveSchema?.properties ?? {};
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
  for (const ss of site.siteSpaces) {
    if (ss.default) continue;
    const level = site.sections.find((s) => s.key === ss.section);
    claim(ss.url, `site space ${ss.spaceTitle !== undefined ? JSON.stringify(ss.spaceTitle) : ss.key}${level === undefined ? "" : ` of section ${JSON.stringify(level.title)}`}`);
  }
  return [...claims]
    .filter(([, who]) => who.length > 1)
    .map(([url, claimants]) => ({ url, claimants }))
    .sort((a, b) => cmp(a.url, b.url));
}
