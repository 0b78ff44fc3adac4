/**
 * A site's redirects between their two forms: the stack file's (destinations by key, a path on the site,
 * a URL) and the API's (destinations by ID, external URLs), for the component and for export; and the
 * table `tree --redirects` draws.
 */
import type { RedirectDestination, RedirectDestinationInput, SiteRedirect } from "../client";
import { describeTarget, type Key, type RedirectTarget, type StackRedirect } from "./rules";

/** The IDs a destination by key stands for, resolved by whoever declares the resources. */
export interface TargetIds {
  /** The section's ID, for `{section}`. */
  sectionId?: string;
  /** The site space's ID, for `{siteSpace}`. */
  siteSpaceId?: string;
  /** The ID of the site space's space, for `{siteSpace, page}` (a page by its path inside that space). */
  spaceId?: string;
  /** The site's published URL, for `{path}` (a path on the same site). */
  siteUrl?: string;
}

/** The API's destination of a stack-file destination, given the IDs it names. */
export function destinationInput(t: RedirectTarget, ids: TargetIds): RedirectDestinationInput {
  const need = (v: string | undefined, what: string): string => {
    if (v === undefined) throw new Error(`redirect destination ${describeTarget(t)}: no ${what}`);
    return v;
  };
  if ("section" in t) return { kind: "site-section", siteSectionId: need(ids.sectionId, "section ID") };
  if ("siteSpace" in t) {
    if (t.page !== undefined) return { kind: "path", spaceId: need(ids.spaceId, "space ID"), path: t.page.replace(/^\/+|\/+$/g, "") };
    if (t.pageId !== undefined) return { kind: "site-page", siteSpaceId: need(ids.siteSpaceId, "site space ID"), pageId: t.pageId };
    return { kind: "site-space", siteSpaceId: need(ids.siteSpaceId, "site space ID") };
  }
  if ("path" in t) return { kind: "external", url: `${need(ids.siteUrl, "site URL").replace(/\/+$/, "")}${t.path}` };
  return { kind: "external", url: t.url };
}

/** Keys of the site's objects by ID, and its published URL, for export. */
export interface KeysOf {
  section(id: string): Key | undefined;
  siteSpace(id: string): Key | undefined;
  siteUrl: string | undefined;
}

/** The stack-file destination of a live one: keys where the file has them, a path where the URL is on the site. */
export function targetOf(d: RedirectDestination, keys: KeysOf): RedirectTarget | undefined {
  switch (d.kind) {
    case "site-section": {
      const section = keys.section(d.siteSectionId);
      return section === undefined ? undefined : { section };
    }
    case "site-space":
    case "site-page": {
      const siteSpace = keys.siteSpace(d.siteSpaceId);
      if (siteSpace === undefined) return undefined;
      return d.kind === "site-page" ? { siteSpace, pageId: d.pageId } : { siteSpace };
    }
    case "external": {
      const base = keys.siteUrl?.replace(/\/+$/, "");
      if (base !== undefined && d.url.startsWith(`${base}/`) && d.url.length > base.length + 1) return { path: d.url.slice(base.length) };
      return { url: d.url };
    }
  }
}

/**
 * A site's live redirects as stack-file entries, sorted by source (live before draft); flags at their
 * default are left out. A redirect whose destination names nothing the file has is skipped and reported.
 */
export function exportRedirects(live: readonly SiteRedirect[], keys: KeysOf): { redirects: StackRedirect[]; skipped: string[] } {
  const redirects: StackRedirect[] = [];
  const skipped: string[] = [];
  const sorted = [...live].sort((a, b) => Number(a.draft) - Number(b.draft) || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  for (const r of sorted) {
    const destination = targetOf(r.destination, keys);
    if (destination === undefined) {
      skipped.push(`${r.source}: its destination (${r.destination.kind}) is not an object of the site`);
      continue;
    }
    redirects.push({
      source: r.source,
      destination,
      ...(r.permanent ? { permanent: true } : {}),
      ...(r.captureWildcard ? { captureWildcard: true } : {}),
      ...(r.draft ? { draft: true } : {}),
    });
  }
  return { redirects, skipped };
}

/** `tree --redirects`: one line per redirect, in source order. */
export function redirectLines(redirects: readonly StackRedirect[]): string[] {
  return [...redirects]
    .sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : Number(a.draft === true) - Number(b.draft === true)))
    .map((r) => {
      const flags = [r.permanent ? "permanent" : "temporary", ...(r.captureWildcard ? ["keeps the rest of the path"] : []), ...(r.draft ? ["draft"] : [])];
      return `${r.source} → ${describeTarget(r.destination)} (${flags.join(", ")})`;
    });
}

/** The count of a site's redirects, as `tree` shows it beside the site. */
export function redirectCount(redirects: readonly StackRedirect[] | undefined): string | undefined {
  if (redirects === undefined) return undefined;
  const drafts = redirects.filter((r) => r.draft === true).length;
  const n = redirects.length;
  return `${n} redirect${n === 1 ? "" : "s"}${drafts > 0 ? ` (${drafts} draft)` : ""}`;
}
