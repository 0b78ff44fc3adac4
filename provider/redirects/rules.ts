/**
 * Redirects as the stack file declares them, and which redirect answers a reader's path: the one rule
 * `validate`, the component, `tree`, `diff`'s URL guard and export share.
 *
 * Matching, as the platform serves redirects (emulator/README.md, "Redirects"): a redirect whose source is
 * the path itself wins; otherwise the wildcard redirect with the longest literal prefix the path starts
 * with. A level wildcard `/docs/*` answers `/docs` and every path below it; `/docs*` answers every path
 * starting with `/docs`; where both match, the level wildcard wins. Case-sensitive. Draft redirects answer
 * nothing.
 */
import limits from "../../schemas/limits.json";

/** A stack-file key. */
export type Key = string;

/**
 * Where a redirect sends readers, as the stack file spells it: a section or site space of the same site by
 * key, a page of a site space by its path inside the site space's space (or by page ID), a path on the same
 * site, or an external URL.
 */
export type RedirectTarget =
  | { section: Key }
  | { siteSpace: Key; page?: string; pageId?: string }
  | { path: string }
  | { url: string };

/** One redirect of a site's `redirects` list. */
export interface StackRedirect {
  source: string;
  destination: RedirectTarget;
  /** 308 to public live traffic (307 elsewhere). Omitted: false. */
  permanent?: boolean;
  /** Append what the source's wildcard matched to the destination. Omitted: false. */
  captureWildcard?: boolean;
  /** A draft redirect, not live. Omitted: false. */
  draft?: boolean;
}

/** The source pattern of the platform (limits.json `redirectSource`). */
export const SOURCE_PATTERN = new RegExp(limits.definitions.redirectSource.pattern, "u");
/** The longest source the platform takes. */
export const SOURCE_MAX = limits.definitions.redirectSource.maxLength;

/** The literal part of a wildcard source (`/docs/*` and `/docs*` → `/docs`); undefined for an exact source. */
export function wildcardPrefix(source: string): string | undefined {
  if (source.endsWith("/*")) return source.slice(0, -2);
  return source.endsWith("*") ? source.slice(0, -1) : undefined;
}

/** The live redirect that answers `path`, with what its wildcard captured; undefined when none does. */
export function answeringRedirect<R extends { source: string; draft?: boolean }>(redirects: readonly R[], path: string): { redirect: R; captured: string } | undefined {
  let best: { redirect: R; captured: string; rank: number } | undefined;
  for (const redirect of redirects) {
    if (redirect.draft === true) continue;
    if (redirect.source === path) return { redirect, captured: "" };
    const prefix = wildcardPrefix(redirect.source);
    if (prefix === undefined || !path.startsWith(prefix)) continue;
    const captured = path.slice(prefix.length);
    const level = redirect.source.endsWith("/*");
    if (level && captured !== "" && !captured.startsWith("/")) continue;
    const rank = prefix.length * 2 + (level ? 1 : 0);
    if (!best || rank > best.rank) best = { redirect, captured, rank };
  }
  return best && { redirect: best.redirect, captured: best.captured };
}

/** The destination in words, for views and messages: `section "guides"`, `https://…`. */
export function describeTarget(t: RedirectTarget): string {
  if ("section" in t) return `section ${JSON.stringify(t.section)}`;
  if ("siteSpace" in t) {
    const page = t.page !== undefined ? ` page ${t.page}` : t.pageId !== undefined ? ` page id ${t.pageId}` : "";
    return `site space ${JSON.stringify(t.siteSpace)}${page}`;
  }
  if ("path" in t) return t.path;
  return t.url;
}

/** What identifies a redirect: its source and whether it is the draft one. */
export function redirectIdentity(r: { source: string; draft?: boolean }): string {
  return `${r.draft === true ? "draft " : ""}${r.source}`;
}
