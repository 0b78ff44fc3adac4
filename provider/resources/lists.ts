import { isNotFound } from "../client/errors";
import type { KindClient } from "./kind";

/**
 * Coalesced list reads. Sections, section groups, site spaces and share links have no
 * single-object GET: each is read from its parent's paged list. A refresh of N objects under one
 * parent calls `read` N times at once; those calls share one list walk. A read that starts while a
 * walk of the same list is in flight joins it; a read that starts after the walk settled starts a
 * new one. There is no time-based cache, so an out-of-band change is never hidden.
 */

const inflight = new WeakMap<KindClient, Map<string, Promise<readonly unknown[]>>>();

/** Every item of the list at `path`, sharing a walk already in flight for the same client and path. */
export function listCoalesced<T>(client: KindClient, path: string): Promise<readonly T[]> {
  let walks = inflight.get(client);
  if (!walks) {
    walks = new Map();
    inflight.set(client, walks);
  }
  const running = walks.get(path);
  if (running) return running as Promise<readonly T[]>;
  const table = walks;
  const walk = client.listAll<T>(path).finally(() => {
    if (table.get(path) === walk) table.delete(path);
  });
  table.set(path, walk);
  return walk;
}

/**
 * The item with `id` in the list at `path`, or undefined when it is absent (gone) or the list's
 * parent is gone (404). Any other failure is an error.
 */
export async function findInList<T extends { id: string }>(
  client: KindClient,
  path: string,
  id: string,
): Promise<T | undefined> {
  try {
    const items = await listCoalesced<T>(client, path);
    return items.find((item) => item.id === id);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}
