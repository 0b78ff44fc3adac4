/**
 * The platform's structure rules, written once: which entry is the default of its level, the path
 * the platform derives when none is declared, and the URL a reader sees. The model applies them;
 * nothing else computes a default, a derived path or a URL.
 *
 * - Default: the one declared, when it names an entry of the level, else the first. (The component
 *   creates that one first: the API makes the first object created at a level its default.)
 * - Path: the one declared, else the one the platform derives on create from the title (a section's)
 *   or the space's title (a site space's). When that title is unknown here (a space by ID only) or the
 *   derived path collides with another path of the level (the platform then adds a numeric suffix in
 *   creation order), the path is the platform's to choose.
 * - URL: the default section is the site's root `/`, another section is `/<path>`; a level's default
 *   site space is served at its level's URL, another at `<level URL>/<path>`.
 */
import { derivePath } from "../rules";
import type { Key } from "../file/model";
import type { PathInfo } from "./types";

/** Fallback of a derived path when a title leaves nothing, per level. */
export const PATH_FALLBACK = { section: "section", siteSpace: "space" } as const;

/** How a URL shows a path segment the platform chooses. */
export const API_PATH = "<path from the API>";

/** The key of a level's default: the declared one when it names an entry of the level, else the first. */
export function defaultOf(keys: readonly Key[], declared: unknown): Key | undefined {
  return typeof declared === "string" && keys.includes(declared) ? declared : keys[0];
}

/** The path the platform derives from a title; undefined when the title is unknown. */
export function derivedPath(title: string | undefined, fallback: string): string | undefined {
  return title === undefined ? undefined : derivePath(title, fallback);
}

/** What the rules need of one entry of a level to resolve its path. */
export interface PathClaim {
  pointer: string;
  /** The declared path, when a string. */
  declared: string | undefined;
  /** The title the platform would derive a path from, when known. */
  title: string | undefined;
}

/** The paths of one level (see the module comment). */
export function levelPaths(claims: readonly PathClaim[], fallback: string): PathInfo[] {
  const derived = claims.map((c) => derivedPath(c.title, fallback));
  // Who holds a path first: declared ones in file order, then derived ones in file order.
  const holder = new Map<string, string>();
  const takenBy: (string | undefined)[] = claims.map(() => undefined);
  claims.forEach((c, i) => {
    if (c.declared === undefined) return;
    takenBy[i] = holder.get(c.declared);
    if (takenBy[i] === undefined) holder.set(c.declared, c.pointer);
  });
  const counts = new Map<string, number>();
  claims.forEach((c, i) => {
    const d = derived[i];
    if (c.declared !== undefined || d === undefined) return;
    counts.set(d, (counts.get(d) ?? 0) + 1);
    takenBy[i] = holder.get(d);
    if (takenBy[i] === undefined) holder.set(d, c.pointer);
  });
  const declared = new Set(claims.map((c) => c.declared).filter((p): p is string => p !== undefined));
  return claims.map((c, i): PathInfo => {
    const d = derived[i];
    if (c.declared !== undefined) return { value: c.declared, source: "declared", derived: d, takenBy: takenBy[i] };
    const collides = d === undefined || declared.has(d) || (counts.get(d) ?? 0) > 1;
    return { value: collides ? undefined : d, source: collides ? "api" : "derived", derived: d, takenBy: takenBy[i] };
  });
}

/** The URL of an entry of a level: its level's URL for the default, else the level's URL and its path. */
export function urlOf(levelUrl: string, path: PathInfo, isDefault: boolean): string {
  if (isDefault) return levelUrl;
  const segment = path.value ?? API_PATH;
  return levelUrl === "/" ? `/${segment}` : `${levelUrl}/${segment}`;
}

/** The URL of a site's root level. */
export const SITE_URL = "/";
