/** Pairing of the objects of two versions of a file: by key, then by `previousKeys` (as Pulumi aliases do). */
import type { Key } from "../file/model";

/** The pairs, and the objects only one side has. */
export interface Matched<B, H> {
  pairs: [B, H][];
  added: H[];
  removed: B[];
}

/** Pairs objects with the same key, then those whose head names the base's key in `previousKeys`. */
export function matchKeyed<B extends { key: Key }, H extends { key: Key; previousKeys?: Key[] }>(base: B[], head: H[]): Matched<B, H> {
  const free = new Map(base.map((b) => [b.key, b]));
  const pairOf = new Map<H, B>();
  for (const h of head) {
    const b = free.get(h.key);
    if (b !== undefined) {
      pairOf.set(h, b);
      free.delete(h.key);
    }
  }
  for (const h of head) {
    if (pairOf.has(h)) continue;
    const prev = (h.previousKeys ?? []).find((k) => free.has(k));
    if (prev !== undefined) {
      pairOf.set(h, free.get(prev)!);
      free.delete(prev);
    }
  }
  const left = new Set(free.values());
  return {
    pairs: head.filter((h) => pairOf.has(h)).map((h) => [pairOf.get(h)!, h]),
    added: head.filter((h) => !pairOf.has(h)),
    removed: base.filter((b) => left.has(b)),
  };
}
