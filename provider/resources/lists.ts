import type { ApiClient } from "../client";
import { orGone } from "./kind";

/**
 * Coalesced list reads. Sections, section groups, site spaces and share links have no
 * single-object GET: each is read from its parent's paged list. A refresh of N objects under one
 * parent calls `read` N times at once; those calls share one list walk. A read that starts while a
 * walk of the same list is in flight joins it; a read that starts after the walk settled starts a
 * new one. There is no time-based cache, so an out-of-band change is never hidden.
 */

const inflight = new WeakMap<ApiClient, Map<string, Promise<readonly unknown[]>>>();

/**
 * The result of `walk()` for the list named `key` (e.g. `sections:<org>/<site>`), sharing a walk
 * of the same client and key that is already in flight.
 */
export function coalescedList<T>(client: ApiClient, key: string, walk: () => Promise<T[]>): Promise<readonly T[]> {
  let walks = inflight.get(client);
  if (!walks) {
    walks = new Map();
    inflight.set(client, walks);
  }
  const running = walks.get(key);
  if (running) return running as Promise<readonly T[]>;
  const table = walks;
  const started: Promise<readonly T[]> = walk().finally(() => {
    if (table.get(key) === started) table.delete(key);
  });
  table.set(key, started);
  return started;
}

/** The four list-read kinds' list walks, keyed by parent, shared by every kind that reads them. */
export const siteLists = {
  sections(client: ApiClient, orgId: string, siteId: string) {
    return coalescedList(client, `sections:${orgId}/${siteId}`, () => client.sections.list(orgId, siteId));
  },
  sectionGroups(client: ApiClient, orgId: string, siteId: string) {
    return coalescedList(client, `section-groups:${orgId}/${siteId}`, () => client.sectionGroups.list(orgId, siteId));
  },
  siteSpaces(client: ApiClient, orgId: string, siteId: string) {
    return coalescedList(client, `site-spaces:${orgId}/${siteId}`, () => client.siteSpaces.list(orgId, siteId));
  },
  shareLinks(client: ApiClient, orgId: string, siteId: string) {
    return coalescedList(client, `share-links:${orgId}/${siteId}`, () => client.shareLinks.list(orgId, siteId));
  },
};

/** The item with `id` from a site list, or undefined when absent or the site is gone (404). */
export async function findIn<T extends { id: string }>(list: Promise<readonly T[]>, id: string): Promise<T | undefined> {
  return (await orGone(list))?.find((item) => item.id === id);
}
