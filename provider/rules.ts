/**
 * The naming rules of the platform and of the stack file, defined once: the stack-file loader, export
 * and the views derive paths and keys here. (The emulator keeps its own copy of the platform's path
 * rule, written from the contract; emulator/derivedPath.test.ts holds the two to agreement.)
 */

/** A key of the stack file: lowercase letters, digits, `-` and `_`, starting with a letter or digit, at most 63 characters. */
export const KEY_PATTERN = "^[a-z0-9][a-z0-9_-]{0,62}$";

/** Longest key the stack file accepts. */
export const MAX_KEY = 63;

/** Lowercase, accents dropped, runs of other characters to `-`, trimmed: the common shape of paths and keys. */
function slug(text: string, other: RegExp, trim: RegExp): string {
  return text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(other, "-").replace(trim, "");
}

/**
 * The path the platform gives a section or site space when none is declared: its title lowercased,
 * accents dropped, other characters to `-`, at most 90 characters; `fallback` when nothing is left.
 * (The platform then makes it unique at its level with a numeric suffix.)
 */
export function derivePath(title: string, fallback = ""): string {
  const path = slug(title, /[^a-z0-9]+/g, /^-+|-+$/g);
  return (path || fallback).slice(0, 90).replace(/-+$/, "") || fallback;
}

/**
 * A key-shaped slug of `text` (see {@link KEY_PATTERN}): like a path, but `_` is kept, at most 63
 * characters. `fallback` (itself a valid key) when nothing is left, e.g. for a title of emoji.
 */
export function slugKey(text: string, fallback: string): string {
  const cut = slug(text, /[^a-z0-9_]+/g, /^[-_]+|[-_]+$/g).slice(0, MAX_KEY).replace(/[-_]+$/, "");
  return cut === "" ? fallback : cut;
}
