import type { BulkRedirectItem, RedirectDestination, RedirectDestinationInput, SiteRedirect } from "../client";
import { REDIRECTS_PER_BULK } from "../client/redirects";
import { type KindContext, type KindDefinition, type ResourceArgs, limit, orGone, ORGANIZATION_FIELD, SITE_FIELD } from "./kind";
import { jsonEqual, makeProvider } from "./provider";

/**
 * A site's redirects are one resource: the whole set. A set reconciles in ⌈changed / 500⌉ bulk upserts
 * (a resource per redirect would make one request per redirect), a refresh is one paged walk of the
 * list, and the state holds one compact entry per redirect.
 */

/** One declared redirect: a source path of the site and where it sends readers. */
export interface RedirectEntry {
  /** The path redirected from; may end in `/*` or `*` (a wildcard). */
  source: string;
  /** A section, site space, page (by ID, or by its path inside a space) or external URL. */
  destination: RedirectDestinationInput;
  /** 308 to public live traffic (307 elsewhere); default false. */
  permanent?: boolean;
  /** Append the suffix the wildcard matched to the destination; default false. */
  captureWildcard?: boolean;
  /** A draft redirect (not live); default false. */
  draft?: boolean;
}

/** A redirect as kept in state: the declared form with its ID; `resolved` is where a page-path destination led when last read. */
export interface StoredRedirect extends Required<RedirectEntry> {
  id: string | null;
  resolved?: RedirectDestination | null;
}

/** Inputs of SiteRedirects: the whole redirect set of one site. */
export interface SiteRedirectsInputs {
  organizationId: string;
  siteId: string;
  /** Every redirect of the site; redirects not listed are deleted. */
  redirects: RedirectEntry[];
}

/** Outputs of SiteRedirects. */
export interface SiteRedirectsOutputs {
  organizationId: string;
  siteId: string;
  /** The live set in declared form, each with its ID. */
  redirects: StoredRedirect[];
}

/** What identifies a redirect on the platform: its source and whether it is the draft one. */
export function redirectKey(r: { source: string; draft?: boolean }): string {
  return `${r.draft === true ? "draft" : "live"} ${r.source}`;
}

/** The compared form of one redirect: defaults filled in, no ID. */
function comparable(r: RedirectEntry): Required<RedirectEntry> {
  return { source: r.source, destination: r.destination, permanent: r.permanent ?? false, captureWildcard: r.captureWildcard ?? false, draft: r.draft ?? false };
}

/** Sets compare as sets keyed by source and draft state, defaults filled in. */
function normalizeRedirects(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  return (v as RedirectEntry[]).map(comparable).sort((a, b) => (redirectKey(a) < redirectKey(b) ? -1 : redirectKey(a) > redirectKey(b) ? 1 : 0));
}

/** Rejects a set that names one source twice in the same draft state (the platform keeps one). */
export function assertDistinctSources(redirects: readonly RedirectEntry[]): void {
  const seen = new Map<string, number>();
  redirects.forEach((r, i) => {
    const key = redirectKey(r);
    const first = seen.get(key);
    if (first !== undefined) throw new Error(`SiteRedirects: redirects[${i}].source ${JSON.stringify(r.source)} repeats redirects[${first}].source${r.draft ? " (both drafts)" : ""}`);
    seen.set(key, i);
  });
}

/** The bulk item that makes the live set hold `r`. */
function upsertItem(r: RedirectEntry): BulkRedirectItem {
  const c = comparable(r);
  return { source: c.source, intent: c.draft ? "draft" : "live", captureWildcard: c.captureWildcard, permanent: c.permanent, destination: c.destination };
}

/** Sends `items` in bulk upserts of at most 500; answers the new ID of each upserted key. A failed item fails the whole after the rest applied. */
async function sendBulk(ctx: KindContext, organizationId: string, siteId: string, items: BulkRedirectItem[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const errors: string[] = [];
  for (let i = 0; i < items.length; i += REDIRECTS_PER_BULK) {
    const chunk = items.slice(i, i + REDIRECTS_PER_BULK);
    const results = await ctx.client.redirects.bulk(organizationId, siteId, chunk);
    results.forEach((res, j) => {
      const item = chunk[j]!;
      if (res.status === "error") {
        // Deleting a redirect that is already gone is done (a retried request, a hand-made delete).
        if ("destination" in item && item.destination === null) return;
        errors.push(`${res.source}${res.draft ? " (draft)" : ""}: ${res.error}`);
      } else if (res.status !== "deleted") ids.set(redirectKey(res), res.id);
    });
  }
  if (errors.length > 0) throw new Error(`SiteRedirects: the platform refused ${errors.length} redirect(s): ${errors.join("; ")}`);
  return ids;
}

/**
 * Turns the set `olds` (as last known) into `declared` with the fewest bulk items: upserts for new and
 * changed redirects, deletes for those no longer declared; unchanged ones cost nothing.
 */
async function reconcile(ctx: KindContext, organizationId: string, siteId: string, olds: readonly StoredRedirect[], declared: readonly RedirectEntry[]): Promise<StoredRedirect[]> {
  assertDistinctSources(declared);
  const before = new Map(olds.map((r) => [redirectKey(r), r]));
  const wanted = new Set(declared.map(redirectKey));
  const items: BulkRedirectItem[] = [];
  const out: StoredRedirect[] = [];
  for (const d of declared) {
    const old = before.get(redirectKey(d));
    if (old && jsonEqual(comparable(old), comparable(d))) {
      out.push(old);
      continue;
    }
    items.push(upsertItem(d));
    out.push({ ...comparable(d), id: old?.id ?? null, resolved: null });
  }
  for (const old of olds) if (!wanted.has(redirectKey(old))) items.push({ source: old.source, intent: old.draft ? "draft" : "live", destination: null });
  const ids = await sendBulk(ctx, organizationId, siteId, items);
  return out.map((r) => ({ ...r, id: ids.get(redirectKey(r)) ?? r.id }));
}

/** Every live and draft redirect of a site: one paged walk of each list. */
async function listAllRedirects(ctx: KindContext, organizationId: string, siteId: string): Promise<SiteRedirect[]> {
  const live = await ctx.client.redirects.list(organizationId, siteId);
  const drafts = await ctx.client.redirects.list(organizationId, siteId, { draft: true });
  return [...live, ...drafts];
}

/**
 * The live set in declared form: a redirect the state holds keeps its declared spelling while the live one
 * matches it (a page-path destination matches the page it led to when first read); any other is taken as
 * the API answers it, which diff then shows as a change.
 */
function fromLive(live: readonly SiteRedirect[], known: readonly StoredRedirect[]): StoredRedirect[] {
  const byKey = new Map(known.map((r) => [redirectKey(r), r]));
  // A set: the platform's listing order is not the redirects' (it may differ from read to read). Those the
  // state holds keep its order, any other follows by source, so a refresh of an unchanged set changes nothing.
  const rank = new Map(known.map((r, i) => [redirectKey(r), i]));
  const ordered = [...live].sort((a, b) => {
    const [ka, kb] = [redirectKey(a), redirectKey(b)];
    return (rank.get(ka) ?? Infinity) - (rank.get(kb) ?? Infinity) || (ka < kb ? -1 : ka > kb ? 1 : 0);
  });
  return ordered.map((l) => {
    const k = byKey.get(redirectKey(l));
    const flags = { permanent: l.permanent, captureWildcard: l.captureWildcard, draft: l.draft };
    if (k && k.destination.kind === "path" && l.destination.kind === "site-page" && (k.resolved == null || jsonEqual(k.resolved, l.destination))) {
      return { source: l.source, destination: k.destination, ...flags, id: l.id, resolved: l.destination };
    }
    // As a create or update stores it (`resolved` null), so an unchanged set reads back as stored.
    return { source: l.source, destination: l.destination, ...flags, id: l.id, resolved: null };
  });
}

/** Members of each destination kind (all required). */
const DESTINATION_MEMBERS: Record<string, Record<string, object>> = {
  "site-section": { siteSectionId: limit("id") },
  "site-space": { siteSpaceId: limit("id") },
  "site-page": { siteSpaceId: limit("id"), pageId: limit("id") },
  external: { url: limit("redirectURL") },
  path: { spaceId: limit("id"), path: limit("redirectPagePath") },
};

/** One destination, discriminated by `kind` (so a mistake is reported against the kind it names). */
const DESTINATION_SCHEMA = {
  type: "object",
  required: ["kind"],
  description: "Where readers are sent: a section, a site space, a page (by ID, or by its path inside a space) or an external URL.",
  properties: { kind: { enum: Object.keys(DESTINATION_MEMBERS) } },
  allOf: Object.entries(DESTINATION_MEMBERS).map(([kind, members]) => ({
    if: { properties: { kind: { const: kind } } },
    then: { additionalProperties: false, required: Object.keys(members), properties: { kind: { const: kind }, ...members } },
  })),
};

/** The SiteRedirects kind: one site's whole redirect set, reconciled in bulk upserts of up to 500. */
export const siteRedirectsKind = {
  name: "SiteRedirects",
  noun: { one: "redirect", many: "redirects" },
  doc: "The whole redirect set of a site: redirects not listed are deleted.",
  definitions: {
    redirectDestination: DESTINATION_SCHEMA,
    redirect: {
      type: "object",
      additionalProperties: false,
      required: ["source", "destination"],
      description: "One redirect, keyed by its source and draft state.",
      properties: {
        source: limit("redirectSource"),
        destination: { $ref: "#/definitions/redirectDestination" },
        permanent: { type: "boolean", description: "308 to public live traffic (307 elsewhere). Omitted: false." },
        captureWildcard: { type: "boolean", description: "Append what the source's wildcard matched to the destination. Omitted: false." },
        draft: { type: "boolean", description: "A draft redirect, not live. Omitted: false." },
      },
    },
  },
  fields: {
    organizationId: ORGANIZATION_FIELD,
    siteId: { ...SITE_FIELD, doc: "ID of the site: one redirect set per site, the resource ID is the site ID." },
    redirects: {
      schema: { type: "array", items: { $ref: "#/definitions/redirect" } },
      doc: "Every redirect of the site, each source at most once per draft state. Redirects not listed are deleted.",
      required: true,
      normalize: normalizeRedirects,
      stack: "context",
    },
  },

  naturalKey: { field: "siteId", scope: "organization" },

  async create(ctx, inputs) {
    // A site's first set: nothing is known live, so every redirect is one upsert (keyed by source, never a duplicate).
    const { organizationId, siteId } = inputs;
    return { id: siteId, outs: { organizationId, siteId, redirects: await reconcile(ctx, organizationId, siteId, [], inputs.redirects) } };
  },

  async adopt(ctx, inputs) {
    // Taking over a site's set: the live redirects as they are; settle() then sends only the differences.
    const { organizationId, siteId } = inputs;
    assertDistinctSources(inputs.redirects);
    const live = await orGone(listAllRedirects(ctx, organizationId, siteId));
    if (!live) return undefined;
    return { id: siteId, outs: { organizationId, siteId, redirects: fromLive(live, []) } };
  },

  async read(ctx, id, state) {
    const live = await orGone(listAllRedirects(ctx, state.organizationId, id));
    if (!live) return undefined;
    return { organizationId: state.organizationId, siteId: id, redirects: fromLive(live, state.redirects ?? []) };
  },

  async update(ctx, id, olds, news) {
    return { organizationId: olds.organizationId, siteId: id, redirects: await reconcile(ctx, olds.organizationId, id, olds.redirects ?? [], news.redirects) };
  },

  async delete(ctx, id, olds) {
    await reconcile(ctx, olds.organizationId, id, olds.redirects ?? [], []);
  },
} satisfies KindDefinition<SiteRedirectsInputs, SiteRedirectsOutputs>;

/** The dynamic provider of SiteRedirects (serialised through `provider/providers/siteRedirects`). */
export const siteRedirectsProvider = makeProvider<SiteRedirectsInputs, SiteRedirectsOutputs>(siteRedirectsKind);

/** Arguments of SiteRedirects. */
export type SiteRedirectsArgs = ResourceArgs<SiteRedirectsInputs>;
