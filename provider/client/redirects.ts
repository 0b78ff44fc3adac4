import type { RequestCore } from "./core";
import { path } from "./path";

/** Most items one bulk upsert takes. */
export const REDIRECTS_PER_BULK = 500;

/** Where a redirect points, as the API answers it. */
export type RedirectDestination =
  | { kind: "site-section"; siteSectionId: string }
  | { kind: "site-space"; siteSpaceId: string }
  | { kind: "site-page"; siteSpaceId: string; pageId: string }
  | { kind: "external"; url: string };

/** A destination a create or bulk upsert takes: the four answered kinds, or a page by its path inside a space (resolved by the API). */
export type RedirectDestinationInput = RedirectDestination | { kind: "path"; spaceId: string; path: string };

/** A site redirect. */
export interface SiteRedirect {
  object: "site-redirect";
  id: string;
  /** The path redirected from: `/` and segments, optionally ending in `/*` or `*` (a wildcard). */
  source: string;
  /** Draft and not live. */
  draft: boolean;
  /** Append the suffix the wildcard matched to the destination URL. */
  captureWildcard: boolean;
  /** Served as 308 to public live traffic (307 elsewhere). */
  permanent: boolean;
  destination: RedirectDestination;
  createdAt: string;
  /** Absent until first updated. */
  updatedAt?: string;
}

/** Body of `POST {site}/redirects`. */
export interface CreateRedirectBody {
  source: string;
  destination: RedirectDestinationInput;
  /** Default false. */
  captureWildcard?: boolean;
  /** Default false. */
  draft?: boolean;
  /** Default false. */
  permanent?: boolean;
}

/** Body of `PATCH {site}/redirects/{id}`: only the given fields change. */
export interface UpdateRedirectBody {
  source?: string;
  captureWildcard?: boolean;
  draft?: boolean;
  permanent?: boolean;
  destination?: RedirectDestination;
}

/** One item of a bulk upsert: publish a source's draft, or upsert (`destination`) or delete (`destination: null`) its live or draft redirect. */
export type BulkRedirectItem =
  | { source: string; intent: "publish" }
  | { source: string; intent?: "live" | "draft"; captureWildcard?: boolean; permanent?: boolean; destination: RedirectDestinationInput | null };

/** What the bulk upsert did with one item. */
export type BulkRedirectResult =
  | { status: "created" | "updated" | "published"; source: string; draft: boolean; id: string }
  | { status: "deleted"; source: string; draft: boolean }
  | { status: "error"; source: string; draft: boolean; error: string };

/** Query of the redirect list. */
export interface ListRedirectsQuery {
  /** Matches the source path. */
  search?: string;
  /** true: the draft redirects; default false: the live ones. */
  draft?: boolean;
  /** `createdAt` (newest first, default), `updatedAt` (most recently updated first) or `source`. */
  orderBy?: "createdAt" | "updatedAt" | "source";
}

/** The lookup's answer: the rule that answers a path and the URL it sends readers to. */
export interface RedirectLookup {
  redirect: SiteRedirect;
  target: string;
}

/** Redirects of a site (base `/v1/orgs/{org}/sites/{site}`). */
export class RedirectsApi {
  constructor(private readonly core: RequestCore) {}

  list(orgId: string, siteId: string, query: ListRedirectsQuery = {}): Promise<SiteRedirect[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/sites/${siteId}/redirects`, { ...query });
  }
  iterate(orgId: string, siteId: string, query: ListRedirectsQuery = {}): AsyncIterableIterator<SiteRedirect> {
    return this.core.paginate(path`/v1/orgs/${orgId}/sites/${siteId}/redirects`, { ...query });
  }
  create(orgId: string, siteId: string, body: CreateRedirectBody): Promise<SiteRedirect> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/sites/${siteId}/redirects`, { body });
  }
  /**
   * One bulk upsert of 1 to {@link REDIRECTS_PER_BULK} items, answered per item (an item can fail while
   * the others apply). Keyed by source and intent, so sending it again after a lost answer repeats nothing.
   */
  async bulk(orgId: string, siteId: string, redirects: BulkRedirectItem[]): Promise<BulkRedirectResult[]> {
    if (redirects.length < 1 || redirects.length > REDIRECTS_PER_BULK) {
      throw new RangeError(`redirects: a bulk upsert takes 1 to ${REDIRECTS_PER_BULK} items, not ${redirects.length}`);
    }
    const res = await this.core.request<{ results: BulkRedirectResult[] }>("PUT", path`/v1/orgs/${orgId}/sites/${siteId}/redirects`, { body: { redirects } });
    return res.results;
  }
  update(orgId: string, siteId: string, redirectId: string, body: UpdateRedirectBody): Promise<SiteRedirect> {
    return this.core.request("PATCH", path`/v1/orgs/${orgId}/sites/${siteId}/redirects/${redirectId}`, { body });
  }
  delete(orgId: string, siteId: string, redirectId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/sites/${siteId}/redirects/${redirectId}`);
  }
  /** The rule that answers `source` (exact first, then the longest wildcard) and its target URL; a 404 when none does. */
  lookup(orgId: string, siteId: string, source: string, shareKey?: string): Promise<RedirectLookup> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/sites/${siteId}/redirect`, { query: { source, shareKey } });
  }
}
