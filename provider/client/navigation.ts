import type { RequestCore } from "./core";
import { path } from "./path";
import type { SiteSection, SiteSectionGroup, SiteSpace } from "./types";

/** A navigation entry leading away from the site, at the root or inside a section group. */
export interface SiteExternalLink {
  object: "site-external-link";
  id: string;
  title: string;
  localizedTitle?: Record<string, string>;
  description?: string;
  localizedDescription?: Record<string, string>;
  icon?: string;
  /** An absolute http or https URL. */
  url: string;
  /** The containing section group; absent at the root. */
  sectionGroup?: string;
  draft: boolean;
  condition?: string;
}

/** Body of `POST {site}/external-links`. */
export interface CreateExternalLinkBody {
  title: string;
  url: string;
  localizedTitle?: Record<string, string>;
  description?: string | null;
  localizedDescription?: Record<string, string> | null;
  icon?: string | null;
  /** A section group's ID; omitted: the root. */
  parent?: string;
  draft?: boolean;
  condition?: string | null;
}

/** Body of `PATCH {site}/external-links/{id}`: omitted members stay; `null` clears; `parent: null` moves the link to the root. */
export interface UpdateExternalLinkBody {
  title?: string;
  url?: string;
  localizedTitle?: Record<string, string> | null;
  description?: string | null;
  localizedDescription?: Record<string, string> | null;
  icon?: string | null;
  parent?: string | null;
  draft?: boolean;
  condition?: string | null;
}

/** One item of a sections site's structure. */
export type SiteStructureItem = SiteSection | SiteSectionGroup | SiteExternalLink;

/** A site's whole navigation in display order (drafts included). */
export type SiteStructure = { type: "sections"; structure: SiteStructureItem[] } | { type: "siteSpaces"; structure: SiteSpace[] };

/** What the structure sort moves, or places it next to. */
export interface StructurePointer {
  type: "site-space" | "site-section" | "site-section-group" | "site-external-link";
  id: string;
}

/** Where a sorted item goes among its siblings: before or after one of them; neither: last. */
export type StructurePosition = { before: StructurePointer; after?: undefined } | { after: StructurePointer; before?: undefined } | Record<string, never>;

/** A site's navigation tree: read it whole, order siblings, and manage its external links. */
export class NavigationApi {
  constructor(private readonly core: RequestCore) {}

  /** The site's structure in display order: sections, groups (with their `children`) and external links, or root site spaces. */
  structure(orgId: string, siteId: string): Promise<SiteStructure> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/sites/${siteId}/structure`);
  }
  /** Places an item before or after a sibling at its level (or last); moving between levels is the item's own update. */
  sort(orgId: string, siteId: string, item: StructurePointer, position: StructurePosition = {}): Promise<SiteStructureItem | SiteSpace> {
    return this.core.request("PATCH", path`/v1/orgs/${orgId}/sites/${siteId}/structure/sort`, { body: { item, position } });
  }
  /** Creates an external link, last in its level (never retried blindly). */
  createLink(orgId: string, siteId: string, body: CreateExternalLinkBody): Promise<SiteExternalLink> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/external-links`, { body });
  }
  updateLink(orgId: string, siteId: string, linkId: string, body: UpdateExternalLinkBody): Promise<SiteExternalLink> {
    return this.core.request("PATCH", path`/v1/orgs/${orgId}/sites/${siteId}/external-links/${linkId}`, { body });
  }
  deleteLink(orgId: string, siteId: string, linkId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/sites/${siteId}/external-links/${linkId}`);
  }
  /** Every external link of a site, each with the group it sits in, in display order (read from the structure). */
  async links(orgId: string, siteId: string): Promise<SiteExternalLink[]> {
    return linksOf(await this.structure(orgId, siteId));
  }
}

/** The external links of a structure in display order, at any depth. */
export function linksOf(structure: SiteStructure): SiteExternalLink[] {
  const out: SiteExternalLink[] = [];
  const walk = (items: readonly { object: string }[]) => {
    for (const item of items) {
      if (item.object === "site-external-link") out.push(item as SiteExternalLink);
      else if (item.object === "site-section-group") walk((item as SiteSectionGroup).children ?? []);
    }
  };
  if (structure.type === "sections") walk(structure.structure);
  return out;
}
