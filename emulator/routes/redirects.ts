/**
 * Site redirects: create, bulk upsert (up to 500 items keyed by source and intent, answered per item),
 * list (paged, filtered, ordered), update, delete, and the lookup of the rule a path is answered by
 * (exact source first, then the wildcard with the longest literal prefix).
 */
import { ApiFailure, badRequest, conflict, notFound } from "../errors";
import { BOOLEAN, ID, STRING, limit, listQuery, obj, type Schema } from "../schema";
import { applyPatch } from "../objects";
import { ownedRow, requireSite, view } from "../access";
import { paginate, type ListQuery } from "../paging";
import type { Ctx, Route } from "../context";
import { served } from "../columns";
import { flatten, revisionOf } from "../content";
import { newId } from "../seed";
import type { RedirectDestination, RedirectRow, RedirectRule, SiteRow, SiteSpaceRow } from "../model";
import { presentSection, presentSiteSpace, sectionIdsInOrder, type View } from "../present";
import type { Store } from "../store";
import { REDIRECT } from "../tables";

type SiteP = { organizationId: string; siteId: string };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- helpers take any request's context
type AnyCtx = Ctx<any, any, any>;

/** Most items one bulk upsert takes. */
export const BULK_LIMIT = 500;

/** A destination as a request gives it: the four stored kinds, or a page path inside a space (input only). */
type DestinationInput = RedirectDestination | { kind: "path"; spaceId: string; path: string };

const closed = (properties: Record<string, Schema>, required: string[]): Schema => ({ ...obj(properties, required), additionalProperties: false });
const STORED_DESTINATIONS: Schema[] = [
  closed({ kind: { const: "site-section" }, siteSectionId: ID }, ["kind", "siteSectionId"]),
  closed({ kind: { const: "site-space" }, siteSpaceId: ID }, ["kind", "siteSpaceId"]),
  closed({ kind: { const: "site-page" }, siteSpaceId: ID, pageId: ID }, ["kind", "siteSpaceId", "pageId"]),
  closed({ kind: { const: "external" }, url: limit("redirectURL") }, ["kind", "url"]),
];
const PATH_DESTINATION: Schema = closed({ kind: { const: "path" }, spaceId: ID, path: limit("redirectPagePath") }, ["kind", "spaceId", "path"]);
/** Any of the five kinds (POST and bulk PUT). */
const DESTINATION: Schema = { type: "object", required: ["kind"], properties: { kind: { enum: ["site-section", "site-space", "site-page", "external", "path"] } }, oneOf: [...STORED_DESTINATIONS, PATH_DESTINATION] };
/** The four kinds a PATCH takes. */
const PATCH_DESTINATION: Schema = { type: "object", required: ["kind"], properties: { kind: { enum: ["site-section", "site-space", "site-page", "external"] } }, oneOf: STORED_DESTINATIONS };
const SOURCE = limit("redirectSource");

const PUBLISH_ITEM: Schema = closed({ source: SOURCE, intent: { const: "publish" } }, ["source", "intent"]);
const UPSERT_ITEM: Schema = closed(
  { source: SOURCE, intent: { enum: ["live", "draft"] }, captureWildcard: BOOLEAN, permanent: BOOLEAN, destination: { anyOf: [DESTINATION, { type: "null" }] } },
  ["source", "destination"],
);

type BulkItem =
  | { source: string; intent: "publish" }
  | { source: string; intent?: "live" | "draft"; captureWildcard?: boolean; permanent?: boolean; destination: DestinationInput | null };

/** One item's answer in a bulk upsert. */
type BulkResult =
  | { status: "created" | "updated" | "published"; source: string; draft: boolean; id: string }
  | { status: "deleted"; source: string; draft: boolean }
  | { status: "error"; source: string; draft: boolean; error: string };

// ---- reading the site ----

/** The site's redirects in creation order. */
function redirectsOf(store: Store, site: SiteRow): RedirectRow[] {
  const out: RedirectRow[] = [];
  for (const r of store.all("redirects")) if (r.site === site.id) out.push(r);
  return out;
}

/** The redirect of a source and draft state, if any. */
function bySource(store: Store, site: SiteRow, source: string, draft: boolean): RedirectRow | undefined {
  for (const r of store.all("redirects")) if (r.site === site.id && r.source === source && r.draft === draft) return r;
  return undefined;
}

/** The site's site spaces in display order (root first, then each section's). */
function siteSpacesOf(store: Store, site: SiteRow): SiteSpaceRow[] {
  const ids = [...site.rootSiteSpaces];
  for (const sid of sectionIdsInOrder(store, site)) ids.push(...store.get("sections", sid)!.siteSpaces);
  return ids.map((id) => store.get("siteSpaces", id)!);
}

/** The page at `path` (slugs joined by `/`) in the current content of a space. */
function pageAt(store: Store, spaceId: string, path: string): string | undefined {
  const space = store.get("spaces", spaceId);
  if (!space || space.deletedAt !== null) return undefined;
  const wanted = path.replace(/^\/+|\/+$/g, "");
  return flatten(revisionOf(store, space).pages).find((p) => p.path === wanted)?.page.id;
}

/**
 * Checks a destination against the site and resolves a `path` one: the first site space of the site (in
 * display order) linking that space, and the page at that path in its current content.
 */
function resolveDestination(store: Store, site: SiteRow, d: DestinationInput, field: string): RedirectDestination {
  const ownSiteSpace = (id: string, f: string) => {
    const ss = store.get("siteSpaces", id);
    if (!ss || ss.site !== site.id) throw badRequest(`${field}/${f}`, `names no site space of site '${site.id}': '${id}'`);
    return ss;
  };
  switch (d.kind) {
    case "site-section": {
      const s = store.get("sections", d.siteSectionId);
      if (!s || s.site !== site.id) throw badRequest(`${field}/siteSectionId`, `names no section of site '${site.id}': '${d.siteSectionId}'`);
      return { kind: "site-section", siteSectionId: d.siteSectionId };
    }
    case "site-space":
      ownSiteSpace(d.siteSpaceId, "siteSpaceId");
      return { kind: "site-space", siteSpaceId: d.siteSpaceId };
    case "site-page": {
      const ss = ownSiteSpace(d.siteSpaceId, "siteSpaceId");
      const space = store.get("spaces", ss.space);
      if (!space || !flatten(revisionOf(store, space).pages).some((p) => p.page.id === d.pageId)) {
        throw badRequest(`${field}/pageId`, `names no page of site space '${ss.id}': '${d.pageId}'`);
      }
      return { kind: "site-page", siteSpaceId: d.siteSpaceId, pageId: d.pageId };
    }
    case "external":
      return { kind: "external", url: d.url };
    case "path": {
      const ss = siteSpacesOf(store, site).find((s) => s.space === d.spaceId);
      if (!ss) throw badRequest(`${field}/spaceId`, `names no space linked in site '${site.id}': '${d.spaceId}'`);
      const pageId = pageAt(store, d.spaceId, d.path);
      if (pageId === undefined) throw badRequest(`${field}/path`, `names no page of space '${d.spaceId}': '${d.path}'`);
      return { kind: "site-page", siteSpaceId: ss.id, pageId };
    }
  }
}

// ---- presenting ----

function presentRedirect(r: RedirectRow): Record<string, unknown> {
  return { object: "site-redirect", id: r.id, ...served(REDIRECT, r) };
}

/** The published URL a destination stands for; undefined when what it names is gone. */
function destinationUrl(v: View, site: SiteRow, d: RedirectDestination): string | undefined {
  const published = (o: Record<string, unknown>) => (o.urls as { published: string }).published;
  const siteSpaceUrl = (id: string) => {
    const ss = v.store.get("siteSpaces", id);
    return ss && ss.site === site.id ? published(presentSiteSpace(v, site, ss)) : undefined;
  };
  switch (d.kind) {
    case "site-section": {
      const s = v.store.get("sections", d.siteSectionId);
      return s && s.site === site.id ? published(presentSection(v, site, s)) : undefined;
    }
    case "site-space":
      return siteSpaceUrl(d.siteSpaceId);
    case "site-page": {
      const base = siteSpaceUrl(d.siteSpaceId);
      const ss = v.store.get("siteSpaces", d.siteSpaceId);
      const space = ss && v.store.get("spaces", ss.space);
      const page = space && flatten(revisionOf(v.store, space).pages).find((p) => p.page.id === d.pageId);
      return base !== undefined && page ? `${base}/${page.path}` : undefined;
    }
    case "external":
      return d.url;
  }
}

// ---- matching ----

/** The literal part of a wildcard source (`/docs/*` → `/docs`, `/docs*` → `/docs`); undefined for an exact one. */
function wildcardPrefix(source: string): string | undefined {
  if (source.endsWith("/*")) return source.slice(0, -2);
  return source.endsWith("*") ? source.slice(0, -1) : undefined;
}

/**
 * The live rule that answers `path`, and the suffix its wildcard captured: a rule whose source is the path
 * itself wins; otherwise the wildcard rule with the longest literal prefix the path starts with. `/docs/*`
 * matches `/docs` and every path below it (capturing ``, `/a`, `/a/b`) but not `/docs-old`; `/docs*` matches
 * `/docs`, `/docs-old` and `/docs/a` (capturing ``, `-old`, `/a`); of the two, `/docs/*` wins where both
 * match. Case-sensitive; a query string is not part of a path.
 */
export function matchRedirect(rules: readonly RedirectRow[], path: string): { rule: RedirectRow; captured: string } | undefined {
  let best: { rule: RedirectRow; captured: string; rank: number } | undefined;
  for (const rule of rules) {
    if (rule.draft) continue;
    if (rule.source === path) return { rule, captured: "" };
    const prefix = wildcardPrefix(rule.source);
    if (prefix === undefined || !path.startsWith(prefix)) continue;
    const captured = path.slice(prefix.length);
    const level = rule.source.endsWith("/*");
    if (level && captured !== "" && !captured.startsWith("/")) continue;
    // The longer literal prefix wins; at equal length the level wildcard (`/docs/*`) beats `/docs*`.
    const rank = prefix.length * 2 + (level ? 1 : 0);
    if (!best || rank > best.rank) best = { rule, captured, rank };
  }
  return best && { rule: best.rule, captured: best.captured };
}

// ---- writing ----

/** Creates or overwrites the redirect of `source` and `draft` with what an upsert gives (omitted flags: false). */
function upsert(store: Store, site: SiteRow, source: string, draft: boolean, fields: Partial<RedirectRule> & Pick<RedirectRule, "destination">): { row: RedirectRow; created: boolean } {
  const existing = bySource(store, site, source, draft);
  const now = store.nowIso();
  const values: RedirectRule = { captureWildcard: fields.captureWildcard ?? false, permanent: fields.permanent ?? false, destination: fields.destination };
  if (existing) {
    Object.assign(existing, values, { updatedAt: now });
    store.touch("redirects", existing);
    return { row: existing, created: false };
  }
  const row: RedirectRow = { id: newId("redirect_"), site: site.id, source, draft, ...values, createdAt: now, updatedAt: null };
  store.put("redirects", row);
  return { row, created: true };
}

/** One item of a bulk upsert, applied on its own: a refused item is an `error` result and changes nothing. */
function applyItem(store: Store, site: SiteRow, item: BulkItem, index: number): BulkResult {
  const field = `body/redirects/${index}`;
  if (item.intent === "publish") {
    const draft = bySource(store, site, item.source, true);
    if (!draft) return { status: "error", source: item.source, draft: false, error: `no draft redirect has source '${item.source}'` };
    const live = bySource(store, site, item.source, false);
    if (live) store.del("redirects", live.id);
    draft.draft = false;
    draft.updatedAt = store.nowIso();
    store.touch("redirects", draft);
    return { status: "published", source: item.source, draft: false, id: draft.id };
  }
  const draft = item.intent === "draft";
  if (item.destination === null) {
    const row = bySource(store, site, item.source, draft);
    if (!row) return { status: "error", source: item.source, draft, error: `no ${draft ? "draft" : "live"} redirect has source '${item.source}'` };
    store.del("redirects", row.id);
    return { status: "deleted", source: item.source, draft };
  }
  let destination: RedirectDestination;
  try {
    destination = resolveDestination(store, site, item.destination, `${field}/destination`);
  } catch (e) {
    if (e instanceof ApiFailure) return { status: "error", source: item.source, draft, error: e.message };
    throw e;
  }
  const { row, created } = upsert(store, site, item.source, draft, { captureWildcard: item.captureWildcard, permanent: item.permanent, destination });
  return { status: created ? "created" : "updated", source: item.source, draft, id: row.id };
}

function findRedirect(ctx: AnyCtx, site: SiteRow, id: string): RedirectRow {
  return ownedRow(ctx, "redirects", id, "site", site.id, "redirect");
}

const ORDER: Record<"createdAt" | "updatedAt" | "source", (a: [RedirectRow, number], b: [RedirectRow, number]) => number> = {
  // Newest first; rows of one instant in reverse creation order.
  createdAt: ([a, i], [b, j]) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : j - i),
  updatedAt: ([a, i], [b, j]) => {
    const x = a.updatedAt ?? a.createdAt;
    const y = b.updatedAt ?? b.createdAt;
    return x < y ? 1 : x > y ? -1 : j - i;
  },
  source: ([a], [b]) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0),
};

export function registerRedirects(route: Route): void {
  const base = "/v1/orgs/:organizationId/sites/:siteId";

  route<SiteP, Record<string, never>, { source: string; captureWildcard?: boolean; draft?: boolean; permanent?: boolean; destination: DestinationInput }>({
    method: "POST",
    url: `${base}/redirects`,
    body: closed({ source: SOURCE, captureWildcard: BOOLEAN, draft: BOOLEAN, permanent: BOOLEAN, destination: DESTINATION }, ["source", "destination"]),
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const b = ctx.body;
      const draft = b.draft ?? false;
      if (bySource(ctx.store, site, b.source, draft)) throw conflict(`a ${draft ? "draft" : "live"} redirect of site '${site.id}' already has source '${b.source}'`);
      const destination = resolveDestination(ctx.store, site, b.destination, "body/destination");
      const { row } = upsert(ctx.store, site, b.source, draft, { captureWildcard: b.captureWildcard, permanent: b.permanent, destination });
      return { status: 201, body: presentRedirect(row) };
    },
  });

  route<SiteP, Record<string, never>, { redirects: BulkItem[] }>({
    method: "PUT",
    url: `${base}/redirects`,
    body: closed({ redirects: { type: "array", minItems: 1, maxItems: BULK_LIMIT, items: { anyOf: [PUBLISH_ITEM, UPSERT_ITEM] } } }, ["redirects"]),
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const results = ctx.body.redirects.map((item, i) => applyItem(ctx.store, site, item, i));
      return { status: 200, body: { results } };
    },
  });

  route<SiteP, ListQuery & { search?: string; draft?: boolean; orderBy?: "createdAt" | "updatedAt" | "source" }>({
    method: "GET",
    url: `${base}/redirects`,
    query: listQuery({ search: limit("searchQuery"), draft: BOOLEAN, orderBy: limit("redirectOrderBy") }),
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      const q = ctx.query;
      const draft = q.draft ?? false;
      const search = q.search?.toLowerCase();
      const orderBy = q.orderBy ?? "createdAt";
      const items = redirectsOf(ctx.store, site)
        .map((r, i): [RedirectRow, number] => [r, i])
        .filter(([r]) => r.draft === draft && (search === undefined || r.source.toLowerCase().includes(search)))
        .sort(ORDER[orderBy])
        .map(([r]) => r);
      return { status: 200, body: paginate(items, q, `redirects:${site.id}:${String(draft)}:${search ?? ""}:${orderBy}`, presentRedirect) };
    },
  });

  type RedirectP = SiteP & { siteRedirectId: string };
  route<RedirectP, Record<string, never>, { source?: string; captureWildcard?: boolean; draft?: boolean; permanent?: boolean; destination?: RedirectDestination }>({
    method: "PATCH",
    url: `${base}/redirects/:siteRedirectId`,
    body: closed({ source: SOURCE, captureWildcard: BOOLEAN, draft: BOOLEAN, permanent: BOOLEAN, destination: PATCH_DESTINATION }, []),
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const row = findRedirect(ctx, site, ctx.params.siteRedirectId);
      const b = ctx.body ?? {};
      const source = b.source ?? row.source;
      const draft = b.draft ?? row.draft;
      const other = bySource(ctx.store, site, source, draft);
      if (other && other.id !== row.id) throw conflict(`a ${draft ? "draft" : "live"} redirect of site '${site.id}' already has source '${source}'`);
      const destination = b.destination === undefined ? undefined : resolveDestination(ctx.store, site, b.destination, "body/destination");
      applyPatch(row, { ...b, destination }, ["source", "captureWildcard", "draft", "permanent", "destination"]);
      row.updatedAt = ctx.store.nowIso();
      ctx.store.touch("redirects", row);
      return { status: 200, body: presentRedirect(row) };
    },
  });

  route<RedirectP>({
    method: "DELETE",
    url: `${base}/redirects/:siteRedirectId`,
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      ctx.store.del("redirects", findRedirect(ctx, site, ctx.params.siteRedirectId).id);
      return { status: 205 };
    },
  });

  route<SiteP, { source: string; shareKey?: string }>({
    method: "GET",
    url: `${base}/redirect`,
    query: obj({ source: SOURCE, shareKey: STRING }, ["source"]),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      const found = matchRedirect(redirectsOf(ctx.store, site), ctx.query.source);
      if (!found) throw notFound("redirect for source", ctx.query.source);
      const url = destinationUrl(view(ctx, role), site, found.rule.destination);
      if (url === undefined) throw notFound(`destination of redirect '${found.rule.id}'`, JSON.stringify(found.rule.destination));
      const target = found.rule.captureWildcard ? `${url.replace(/\/+$/, "")}${found.captured}` : url;
      return { status: 200, body: { redirect: presentRedirect(found.rule), target } };
    },
  });
}
