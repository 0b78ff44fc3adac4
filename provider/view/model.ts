/**
 * The site a stack file declares, as its readers get it: each site's resolved model (sections,
 * section groups and site spaces in display order, with the URL path of each, the default at each
 * level, conditions; see provider/site) with the site's own facts — visibility, published state,
 * agents, adaptive content — and share links by name. `tree` draws it and `diff` compares two of
 * them; both work from a loaded {@link StackFile}, whether read from a file or from the live
 * organisation (`exportOrganization`), so the two trees are drawn by the same code.
 *
 * Fields left out mean what the kind's absence rule says (its declaration): a site's published state,
 * agents setting and adaptive content are reset to the API's default; cleared fields are absent.
 */
import { siteKind } from "../resources/site";
import { API_PATH, siteModels, type SiteModel } from "../site";
import type { StackFile, StackSite } from "../file/model";
import type { StackGrant, StackVisitorAuth } from "../access/model";

export { API_PATH };

/** A site as its readers get it: its resolved model and its own facts. */
export interface SiteView extends SiteModel {
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
  /** Its direct grants; undefined when the file does not manage them. */
  permissions: StackGrant[] | undefined;
  /** How its visitors sign in; undefined when not managed. */
  visitorAuth: StackVisitorAuth | undefined;
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

/** The view of a whole stack. */
export function viewStack(stack: StackFile): StackView {
  const defaultContent = stack.settings?.defaultContent;
  const orgDefaultKey = typeof defaultContent === "string" ? defaultContent : undefined;
  const titles = new Map((stack.teams ?? []).map((t) => [t.key, t.title ?? t.key]));
  const teamTitle = (key: string): string | undefined => titles.get(key);
  const spaces = new Map((stack.spaces ?? []).map((s) => [s.key, s]));
  const byId = new Map((stack.spaces ?? []).map((s) => [s.id, s]));
  const sites = siteModels(stack).map((m) => {
    const spacePermissions: Record<string, StackGrant[]> = {};
    for (const ss of m.siteSpaces) {
      const space = typeof ss.space === "string" ? spaces.get(ss.space) : ss.space === undefined ? undefined : byId.get(ss.space.id);
      if (space?.permissions !== undefined) spacePermissions[ss.key] = space.permissions;
    }
    return { ...viewSite(m, m.key === orgDefaultKey), permissions: m.entry.permissions, visitorAuth: m.entry.visitorAuth, spacePermissions, teamTitle };
  });
  sites.sort((a, b) => cmp(a.title, b.title) || cmp(a.key, b.key));
  return { organization: stack.organization, sites };
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

function viewSite(model: SiteModel, organizationDefault: boolean): Omit<SiteView, "permissions" | "visitorAuth" | "spacePermissions" | "teamTitle"> {
  const site = model.entry;
  return {
    ...model,
    type: site.type === "basic" ? undefined : site.type,
    visibility: site.visibility,
    published: site.published ?? siteKind.fields.published.absent.reset,
    basename: site.basename,
    proxy: site.proxy ?? undefined,
    agentsContext: site.agentsContext ?? siteKind.fields.agentsContext.absent.reset,
    adaptiveContent: (site.adaptiveContent ?? siteKind.fields.adaptiveContent.absent.reset).enabled,
    claims: claimsOf(site),
    organizationDefault,
    // The platform gives share links no order: by name.
    shareLinks: [...model.shareLinks].sort((a, b) => cmp(a.name, b.name) || cmp(a.key, b.key)),
  };
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
    claim(ss.url, `site space ${JSON.stringify(ss.spaceTitle ?? ss.key)}${level === undefined ? "" : ` of section ${JSON.stringify(level.title)}`}`);
  }
  return [...claims]
    .filter(([, who]) => who.length > 1)
    .map(([url, claimants]) => ({ url, claimants }))
    .sort((a, b) => cmp(a.url, b.url));
}
