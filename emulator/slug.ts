/** Paths derived from titles, and slugs kept unique among siblings. */
import type { PageNode } from "./model";

/** Longest path the emulator derives, so that a numeric suffix still fits the 100 characters of a path. */
const DERIVED_PATH_MAX = 90;

/**
 * The path of an object created without one, from its title: lowercase, accents dropped, each run of
 * characters other than `a`–`z` and `0`–`9` one `-`, none at either end, at most 90 characters;
 * `fallback` when nothing is left (a title of emoji).
 */
export function slugify(title: string, fallback = ""): string {
  const plain = title.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  const words = plain.split(/[^a-z0-9]+/).filter((w) => w !== "");
  const path = words.join("-").slice(0, DERIVED_PATH_MAX).replace(/-+$/, "");
  return path === "" ? fallback : path;
}

/** `base`, or `base-2`, `base-3`… whichever is not in `taken`. */
export function uniquePath(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Makes slugs unique among siblings (`slug`, `slug-2`, …), recursively. */
export function dedupeSlugs(pages: PageNode[]): PageNode[] {
  const taken = new Set<string>();
  return pages.map((p) => {
    let slug = p.slug;
    for (let n = 2; taken.has(slug); n++) slug = `${p.slug}-${n}`;
    taken.add(slug);
    return { ...p, slug, pages: dedupeSlugs(p.pages) };
  });
}
