/**
 * Stable keys for exported objects: derived from titles, paths, labels or slugs the way a person
 * would write them, unique within their namespace, and the same on every export of the same data.
 */

import { MAX_KEY, slugKey } from "./rules";

export { slugKey };

/**
 * Hands out unique keys in one namespace. The first object asking for a key gets it as is; later ones
 * get `-2`, `-3`, … (shortening the base so the result stays within 63 characters). Callers ask in a
 * deterministic order (display order, or sorted by natural key) so repeated exports agree.
 */
export class KeyAllocator {
  readonly #taken = new Set<string>();

  /** Reserves `key` exactly; false when it is already taken. */
  claim(key: string): boolean {
    if (this.#taken.has(key)) return false;
    this.#taken.add(key);
    return true;
  }

  /** A unique key derived from `base` (already key-shaped). */
  next(base: string): string {
    if (this.claim(base)) return base;
    for (let n = 2; ; n++) {
      const suffix = `-${n}`;
      const candidate = `${base.slice(0, MAX_KEY - suffix.length).replace(/[-_]+$/, "")}${suffix}`;
      if (this.claim(candidate)) return candidate;
    }
  }

  /** Shorthand for `next(slugKey(text, fallback))`. */
  from(text: string, fallback: string): string {
    return this.next(slugKey(text, fallback));
  }
}
