/**
 * The offline checks of a site's redirects (`docsplatform validate`, and the component before any call):
 * each source once per draft state, destinations that name a key of the site (`diff` says when the base
 * has the key: the change removes the destination), no source that is a live URL of the site, no chains
 * or loops through path destinations.
 * The source's pattern and length are the schema's (limits.json `redirectSource`).
 */
import type { SiteModel } from "../site";
import { pagePathProblem, sitePathProblem } from "../identifiers";
import { show } from "../phrases";
import { answeringRedirect, describeTarget, redirectIdentity, type Key, type StackRedirect } from "./rules";

/** The site the redirects belong to: its objects' reader URLs (relative to the site, `/`, `/api`, `/api/v1`) by key. */
export interface RedirectSite {
  sections: ReadonlyMap<Key, string>;
  siteSpaces: ReadonlyMap<Key, string>;
  /**
   * Keys (`section:<key>`, `siteSpace:<key>`) whose URL rests on a path the file does not declare: the
   * platform derives such a path from the title when the object is made and keeps it after, so the URL
   * here is the one a new object would get, not necessarily the live one.
   */
  derived?: ReadonlySet<string>;
}

/** The reader URLs of a site, from its resolved model. */
export function redirectSiteOf(site: SiteModel): RedirectSite {
  const declared = (p: { source: string }): boolean => p.source === "declared";
  const sectionDeclared = new Map(site.sections.map((s) => [s.key, declared(s.path)]));
  const derived = new Set<string>([
    ...site.sections.filter((s) => !declared(s.path)).map((s) => `section:${s.key}`),
    ...site.siteSpaces.filter((ss) => !declared(ss.path) || (ss.section !== undefined && sectionDeclared.get(ss.section) === false)).map((ss) => `siteSpace:${ss.key}`),
  ]);
  return { sections: new Map(site.sections.map((s) => [s.key, s.url])), siteSpaces: new Map(site.siteSpaces.map((ss) => [ss.key, ss.url])), derived };
}

/** One finding, at a pointer below the site's `redirects` list; a warning where the file cannot say for sure. */
export interface RedirectIssue {
  pointer: string;
  reason: string;
  warning?: boolean;
}

const q = (s: string): string => JSON.stringify(s);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Every finding for the redirects at `at` (the list's pointer); entries the schema refuses are skipped where they cannot be read. */
export function checkRedirects(at: string, entries: readonly unknown[], site: RedirectSite): RedirectIssue[] {
  const issues: RedirectIssue[] = [];
  const redirects: { r: StackRedirect; i: number }[] = [];
  entries.forEach((r, i) => {
    if (isObject(r) && typeof r.source === "string" && isObject(r.destination)) redirects.push({ r: r as unknown as StackRedirect, i });
  });
  const first = new Map<string, number>();
  for (const { r, i } of redirects) {
    const id = redirectIdentity(r);
    const seen = first.get(id);
    if (seen !== undefined) issues.push({ pointer: `${at}/${i}/source`, reason: `${q(r.source)} repeats the source of redirects[${seen}]${r.draft ? " (both drafts)" : ""}: a site has one ${r.draft ? "draft" : "live"} redirect per source` });
    else first.set(id, i);
    plainPaths(issues, `${at}/${i}`, r);
    if (!destinationShape(issues, `${at}/${i}/destination`, r.destination as Record<string, unknown>)) continue;
    destinationKeys(issues, `${at}/${i}/destination`, r, site);
    shadowed(issues, `${at}/${i}/source`, r, site);
  }
  chains(issues, at, redirects);
  return issues;
}

/**
 * The source, a path destination and a page's path address what they read: no `.`/`..` segment, written
 * or percent-encoded, no encoded `/` or `\` (`/%2F%2Fevil.example` would send readers to another site).
 */
function plainPaths(issues: RedirectIssue[], at: string, r: StackRedirect): void {
  const source = sitePathProblem(r.source);
  if (source) issues.push({ pointer: `${at}/source`, reason: `${q(r.source)} ${source}` });
  const d = r.destination as Record<string, unknown>;
  if (typeof d.path === "string") {
    const path = sitePathProblem(d.path);
    if (path) issues.push({ pointer: `${at}/destination/path`, reason: `${q(d.path)} ${path}` });
  }
  if (typeof d.page === "string") {
    const page = pagePathProblem(d.page);
    if (page) issues.push({ pointer: `${at}/destination/page`, reason: `${show(d.page)} ${page}` });
  }
}

/** A destination is one of section, siteSpace (with page or pageId, or neither), path or url. */
function destinationShape(issues: RedirectIssue[], at: string, d: Record<string, unknown>): boolean {
  const kinds = ["section", "siteSpace", "path", "url"].filter((k) => d[k] !== undefined);
  if (kinds.length !== 1) {
    issues.push({ pointer: at, reason: kinds.length === 0 ? "names no destination: give one of section, siteSpace, path or url" : `gives ${kinds.join(" and ")}: a redirect has one destination` });
    return false;
  }
  for (const f of ["page", "pageId"]) {
    if (d[f] !== undefined && kinds[0] !== "siteSpace") {
      issues.push({ pointer: `${at}/${f}`, reason: `${f} names a page of a site space: it goes with siteSpace` });
      return false;
    }
  }
  if (d.page !== undefined && d.pageId !== undefined) {
    issues.push({ pointer: `${at}/pageId`, reason: "give the page by its path (page) or by its ID (pageId), not both" });
    return false;
  }
  return true;
}

/** A destination by key must name a section or site space of the same site. */
function destinationKeys(issues: RedirectIssue[], at: string, r: StackRedirect, site: RedirectSite): void {
  const d = r.destination as Record<string, unknown>;
  const check = (field: "section" | "siteSpace", keys: ReadonlyMap<Key, string>, what: string): void => {
    const key = d[field];
    if (typeof key === "string" && !keys.has(key)) issues.push({ pointer: `${at}/${field}`, reason: `names no ${what} of this site: ${q(key)} (a ${what}'s key of the same site; one this change removes sends readers to a dead URL)` });
  };
  check("section", site.sections, "section");
  check("siteSpace", site.siteSpaces, "site space");
}

/** A source that is (or whose wildcard covers) a live URL of the site would answer readers instead of the page. */
function shadowed(issues: RedirectIssue[], at: string, r: StackRedirect, site: RedirectSite): void {
  const live = [
    ...[...site.sections].map(([k, url]) => ({ url, what: `section ${q(k)}`, derived: site.derived?.has(`section:${k}`) === true })),
    ...[...site.siteSpaces].map(([k, url]) => ({ url, what: `site space ${q(k)}`, derived: site.derived?.has(`siteSpace:${k}`) === true })),
  ];
  const covers = (l: { url: string }): boolean => l.url !== "/" && answeringRedirect([{ source: r.source }], l.url) !== undefined;
  // A URL from declared paths is the live one: covering it is refused. One resting on a path the platform
  // derived from a title may not be (a retitled object keeps the path it was made with): said, not refused.
  const hit = live.find((l) => !l.derived && covers(l)) ?? live.find(covers);
  if (!hit) return;
  const verb = r.source === hit.url ? "is" : "covers";
  if (!hit.derived) {
    issues.push({ pointer: at, reason: `${q(r.source)} ${verb} ${hit.url}, the live URL of ${hit.what}: the redirect would shadow its pages (redirect only URLs that no longer exist)` });
    return;
  }
  issues.push({
    pointer: at,
    warning: true,
    reason: `${q(r.source)} ${verb} ${hit.url}, the URL ${hit.what} gets from its title when it is made; its path is not declared and the platform keeps the path it made it with, so the live URL may be another. If ${hit.url} is live, the redirect shadows its pages; declare the path to have this checked`,
  });
}

/** A path destination answered by another redirect is a chain (a → b → c); one that comes back is a loop. */
function chains(issues: RedirectIssue[], at: string, redirects: readonly { r: StackRedirect; i: number }[]): void {
  const rules = redirects.map(({ r }) => r);
  for (const { r, i } of redirects) {
    if (r.draft === true || !("path" in r.destination) || typeof r.destination.path !== "string") continue;
    const trail = [r.source];
    const passed = new Set<StackRedirect>([r]);
    let path = r.destination.path;
    let loop = false;
    for (;;) {
      trail.push(path);
      const next = answeringRedirect(rules, path);
      if (!next) break;
      if (passed.has(next.redirect)) {
        loop = true;
        break;
      }
      passed.add(next.redirect);
      const d = next.redirect.destination;
      if (!("path" in d)) {
        trail.push(describeTarget(d));
        break;
      }
      path = d.path + (next.redirect.captureWildcard ? next.captured : "");
    }
    if (loop) issues.push({ pointer: `${at}/${i}/destination/path`, reason: `loops: ${trail.join(" → ")} → … (readers would never arrive)` });
    else if (passed.size > 1) issues.push({ pointer: `${at}/${i}/destination/path`, reason: `chains: ${trail.join(" → ")} (${r.destination.path} is itself redirected): point it at the final destination` });
  }
}
