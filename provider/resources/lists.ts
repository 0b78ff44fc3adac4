import type { ApiClient, SiteSpace } from "../client";
import { linksOf } from "../client/navigation";
import { DEFAULT_LIST_CACHE_MS, DEFAULT_LIST_LAG_MS } from "../env";
import { orGone } from "./kind";

/**
 * The process's view of the site lists. Sections, section groups, site spaces and share links have
 * no single-object GET: each is read from its parent's paged list. Each `pulumi` command starts a
 * fresh plugin process, so within a process one walk of a parent's list serves every read of that
 * parent: a refresh of N objects under one parent costs one walk, not N (nor N ÷ --parallel). The
 * same holds for two single reads of a site that several resources make: its structure (every
 * external link's read and the site's order) and its customization (the site's look and each site
 * space's override) are read once per site.
 *
 * A view is dropped
 * - by any write this process makes to the parent (a write anywhere under the site drops its lists;
 *   a write elsewhere under the organisation, e.g. a space's title, drops all of its sites' lists),
 *   so this process never reads back less than it wrote; a walk in flight during the write serves the
 *   reads that joined it but is not kept;
 * - when the walk fails;
 * - after `DOCSPLATFORM_LIST_CACHE_MS` (default 10 s): a safety net so a long-lived process never
 *   serves an old view. `0` keeps a walk only while it is in flight (concurrent reads still share it).
 */

let cacheMs = DEFAULT_LIST_CACHE_MS;
let lagMs = DEFAULT_LIST_LAG_MS;

/**
 * Sets how long a finished walk serves reads and how far lists may lag behind writes: the provider's
 * configure reads both from the environment.
 */
export function configureListViews(opts: { listCacheMs: number; listLagMs: number }): void {
  cacheMs = opts.listCacheMs;
  lagMs = opts.listLagMs;
}

/**
 * Looks again while `look` finds nothing, for at most the list lag (`DOCSPLATFORM_LIST_LAG_MS`,
 * default 5 s), then returns the last result. Many APIs serve lists from an index that catches up a
 * moment after a write: a natural-key lookup right after a create whose answer was lost may not see
 * the object yet, and concluding "not there" would create a duplicate. Costs nothing when the first
 * look finds it; waits 200 ms, doubling up to 1 s, between looks. `look` must walk afresh (not a coalesced view).
 */
export async function throughLag<T>(look: () => Promise<T>, found: (result: T) => boolean = (r) => r !== undefined): Promise<T> {
  const started = performance.now();
  let result = await look();
  for (let delay = 200; !found(result); delay = Math.min(delay * 2, 1_000)) {
    const left = lagMs - (performance.now() - started);
    if (left <= 0) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, left)));
    result = await look();
  }
  return result;
}

function listCacheMs(): number {
  return cacheMs;
}

interface View {
  items: Promise<unknown>;
  /** When the walk finished (performance.now()); undefined while it is in flight. */
  doneAt: number | undefined;
}

/** Views of one client, keyed `<list>:<org>/<site>`. */
class ListViews {
  readonly views = new Map<string, View>();
  /** Items this process received in answers to its writes, by `<list>:<org>/<site>` then ID. */
  readonly written = new Map<string, Map<string, unknown>>();

  constructor(client: ApiClient) {
    client.onWrite((path) => this.drop(path));
  }

  get<T>(key: string, walk: () => Promise<T>): Promise<T> {
    const ttl = listCacheMs();
    const current = this.views.get(key);
    if (current && (current.doneAt === undefined || performance.now() - current.doneAt < ttl)) {
      return current.items as Promise<T>;
    }
    const view: View = { items: Promise.resolve(undefined), doneAt: undefined };
    const items: Promise<T> = walk().then(
      (result) => {
        if (this.views.get(key) === view) {
          if (ttl > 0) view.doneAt = performance.now();
          else this.views.delete(key);
        }
        return result;
      },
      (e: unknown) => {
        if (this.views.get(key) === view) this.views.delete(key);
        throw e;
      },
    );
    view.items = items;
    this.views.set(key, view);
    return items;
  }

  /** Drops the views a write to `path` may have changed. */
  drop(path: string): void {
    const m = /^(?:\/[^/]+)?\/orgs\/([^/]+)(?:\/sites\/([^/]+))?/.exec(path);
    if (!m) {
      this.views.clear();
      return;
    }
    const org = decodeURIComponent(m[1]!);
    const scope = m[2] === undefined ? `:${org}/` : `:${org}/${decodeURIComponent(m[2])}`;
    for (const key of this.views.keys()) {
      const at = key.indexOf(":");
      const parent = key.slice(at);
      if (m[2] === undefined ? parent.startsWith(scope) : parent === scope) this.views.delete(key);
    }
  }
}

const byClient = new WeakMap<ApiClient, ListViews>();

function viewsOf(client: ApiClient): ListViews {
  let views = byClient.get(client);
  if (!views) {
    views = new ListViews(client);
    byClient.set(client, views);
  }
  return views;
}

/**
 * The result of `walk()` for the list named `key` (e.g. `sections:<org>/<site>`): the process's
 * current view of that list, or a new walk when there is none (see above).
 */
export function coalescedList<T>(client: ApiClient, key: string, walk: () => Promise<T[]>): Promise<readonly T[]> {
  return viewsOf(client).get<readonly T[]>(key, walk);
}

/**
 * Single reads of a site that several resources make, shared as the lists' walks are (same views,
 * dropped by the same writes): answers are shared too, so callers must not change them.
 */
export const siteReads = {
  /** The site's structure: every external link's read and the site's order read it. */
  structure: (client: ApiClient, orgId: string, siteId: string) => viewsOf(client).get(`structure:${orgId}/${siteId}`, () => client.navigation.structure(orgId, siteId)),
  /** The site itself: the site's read and its attached style guide's read it. */
  site: (client: ApiClient, orgId: string, siteId: string) => viewsOf(client).get(`site:${orgId}/${siteId}`, () => client.sites.get(orgId, siteId)),
  /** The site's customization: the site's look and each site space's override read it. */
  customization: (client: ApiClient, orgId: string, siteId: string) => viewsOf(client).get(`customization:${orgId}/${siteId}`, () => client.customization.get(orgId, siteId)),
};

/** The lists the list-read kinds are read from: each one's key prefix and its walk. */
const SITE_LISTS = {
  sections: { key: "sections", walk: (c: ApiClient, org: string, site: string) => c.sections.list(org, site) },
  sectionGroups: { key: "section-groups", walk: (c: ApiClient, org: string, site: string) => c.sectionGroups.list(org, site) },
  siteSpaces: { key: "site-spaces", walk: (c: ApiClient, org: string, site: string) => c.siteSpaces.list(org, site) },
  shareLinks: { key: "share-links", walk: (c: ApiClient, org: string, site: string) => c.shareLinks.list(org, site) },
  // Read from the site's structure: the API lists external links nowhere else (a view: the structure's, shared with the site's order).
  externalLinks: { key: "external-links", walk: (c: ApiClient, org: string, site: string) => c.navigation.links(org, site) },
  // The site's assistant: each has a single-object GET, but a refresh reads every object of a site from one walk.
  mcpServers: { key: "mcp-servers", walk: (c: ApiClient, org: string, site: string) => c.mcpServers.list(org, site) },
  channels: { key: "channels", walk: (c: ApiClient, org: string, site: string) => c.channels.list(org, site) },
  contextConnections: { key: "context-connections", walk: (c: ApiClient, org: string, site: string) => c.contextConnections.list(org, site) },
} as const;
/** A list of a site that list-read kinds are read from. */
export type SiteListName = keyof typeof SITE_LISTS;
/** An item of that list, as the API answers it. */
export type Listed<L extends SiteListName> = Awaited<ReturnType<(typeof SITE_LISTS)[L]["walk"]>>[number];

/** A fresh walk of a site's list, not the process's view: for lookups that must see a write made a moment ago. */
export function freshList<L extends SiteListName>(list: L, client: ApiClient, orgId: string, siteId: string): Promise<Listed<L>[]> {
  return SITE_LISTS[list].walk(client, orgId, siteId) as Promise<Listed<L>[]>;
}

function viewOf<L extends SiteListName>(list: L, client: ApiClient, orgId: string, siteId: string): Promise<readonly Listed<L>[]> {
  const { key, walk } = SITE_LISTS[list];
  const load = list === "externalLinks" ? () => siteReads.structure(client, orgId, siteId).then(linksOf) : () => walk(client, orgId, siteId);
  return coalescedList(client, `${key}:${orgId}/${siteId}`, load as () => Promise<Listed<L>[]>);
}

/** The four list-read kinds' list walks, keyed by parent, shared by every kind that reads them. */
export const siteLists = {
  sections: (client: ApiClient, orgId: string, siteId: string) => viewOf("sections", client, orgId, siteId),
  sectionGroups: (client: ApiClient, orgId: string, siteId: string) => viewOf("sectionGroups", client, orgId, siteId),
  siteSpaces: (client: ApiClient, orgId: string, siteId: string) => viewOf("siteSpaces", client, orgId, siteId),
  shareLinks: (client: ApiClient, orgId: string, siteId: string) => viewOf("shareLinks", client, orgId, siteId),
};

/** What a look at a list answered when its parent (the site) answered 404: gone for certain. */
const PARENT_GONE = Symbol("parent gone");

/**
 * The read of a list-read kind: the object `id` from its site's list, or undefined when it is gone.
 * "Gone" is as certain as "absent" is for the create-side lookups: an object the process's view does
 * not list is looked for again in fresh walks for up to the list lag (`DOCSPLATFORM_LIST_LAG_MS`), since
 * a list that lags behind writes leaves out what was made a moment ago, and a refresh that believed it
 * would drop a live object from the state (the next `up` would create it twice). The API has no
 * single-object GET for these kinds to ask instead. A 404 on the site is gone at once; an object that
 * is listed costs nothing more than the shared view.
 */
export async function readListed<L extends SiteListName>(list: L, client: ApiClient, orgId: string, siteId: string, id: string): Promise<Listed<L> | undefined> {
  const look = async (items: Promise<readonly Listed<L>[]>) => {
    const all = await orGone(items);
    return all === undefined ? PARENT_GONE : all.find((item) => item.id === id);
  };
  const first = await look(viewOf(list, client, orgId, siteId));
  if (first !== undefined) return first === PARENT_GONE ? undefined : first;
  const confirmed = await throughLag(() => look(freshList(list, client, orgId, siteId)));
  return confirmed === PARENT_GONE ? undefined : confirmed;
}

/**
 * Site spaces this process received in the answer to one of its writes: a section's POST returns
 * the site space it created with the section, which the section's first `SiteSpace` then takes
 * over by ID without reading the list. `take` hands an entry out once.
 */
export const writtenSiteSpaces = {
  remember(client: ApiClient, orgId: string, siteId: string, siteSpace: SiteSpace): void {
    const written = viewsOf(client).written;
    const key = `site-spaces:${orgId}/${siteId}`;
    let items = written.get(key);
    if (!items) {
      items = new Map();
      written.set(key, items);
    }
    items.set(siteSpace.id, siteSpace);
  },
  take(client: ApiClient, orgId: string, siteId: string, id: string): SiteSpace | undefined {
    const items = viewsOf(client).written.get(`site-spaces:${orgId}/${siteId}`);
    const found = items?.get(id) as SiteSpace | undefined;
    items?.delete(id);
    return found;
  },
};
