/** Site customization: the site's whole settings (GET, PUT) and each site space's overrides (effective GET, merging PATCH, DELETE). */
import { BOOLEAN, limit, obj } from "../schema";
import { ownedRow, requireSite } from "../access";
import type { Route } from "../context";
import type { Json, JsonObject, SiteRow } from "../model";

type SiteP = { organizationId: string; siteId: string };
type SiteSpaceP = SiteP & { siteSpaceId: string };

const themed = (color: string): JsonObject => ({ light: color, dark: color });

/**
 * The settings a new site starts with. The API description publishes almost none of them (only the tracking
 * cookie); these are the emulator's own, stated in its README.
 */
export function defaultCustomization(): JsonObject {
  return {
    styling: {
      theme: "clean",
      primaryColor: themed("#346DDB"),
      infoColor: themed("#787878"),
      successColor: themed("#00C950"),
      warningColor: themed("#FE9A00"),
      dangerColor: themed("#FB2C36"),
      corners: "rounded",
      depth: "subtle",
      links: "default",
      font: "Inter",
      monospaceFont: "IBMPlexMono",
      background: "plain",
      icons: "regular",
      codeTheme: { default: { light: "default-light", dark: "default-dark" }, openapi: { light: "default-light", dark: "default-dark" } },
      sidebar: { background: "default", list: "default" },
      search: "subtle",
    },
    internationalization: { locale: "en" },
    favicon: {},
    header: { preset: "default", links: [] },
    footer: { groups: [] },
    themes: { default: "system", toggeable: true },
    feedback: { enabled: false },
    ai: { mode: "search" },
    advancedCustomization: { enabled: true },
    pageActions: { items: ["markdown", "external-ai"] },
    externalLinks: { target: "self" },
    pagination: { enabled: true },
    trademark: { enabled: true },
    privacyPolicy: {},
    socialPreview: {},
    socialAccounts: [],
    insights: { trackingCookie: true },
  };
}

/**
 * The page actions as the platform keeps them: on a non-empty list, `assistant` follows `ai.mode` (kept where
 * it is, or put first, when the assistant is on; taken out when it is off); an empty list stays empty.
 */
export function normalizePageActions(items: string[], aiMode: string): string[] {
  if (items.length === 0) return [];
  if (aiMode !== "assistant") return items.filter((i) => i !== "assistant");
  return items.includes("assistant") ? [...items] : ["assistant", ...items];
}

/** Override members that hold members of their own: a PATCH merges into them, field by field. */
const CONTAINERS = new Set([
  "styling", "styling.sidebar", "styling.codeTheme", "internationalization", "header", "footer", "themes", "feedback",
  "externalLinks", "pagination", "trademark", "privacyPolicy", "socialPreview",
]);

const isObject = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** Merges an override PATCH into the stored overrides: a member replaces, `null` clears, containers merge. */
function mergeOverrides(target: JsonObject, patch: JsonObject, path = ""): void {
  for (const [key, value] of Object.entries(patch)) {
    const at = path ? `${path}.${key}` : key;
    if (value === null) delete target[key];
    else if (CONTAINERS.has(at) && isObject(value)) {
      const inner = isObject(target[key]) ? (target[key] as JsonObject) : {};
      mergeOverrides(inner, value, at);
      if (Object.keys(inner).length > 0) target[key] = inner;
      else delete target[key];
    } else target[key] = structuredClone(value);
  }
}

/** The effective settings of a site space: the site's, with each override in place. */
function applyOverrides(base: JsonObject, overrides: JsonObject, path = ""): JsonObject {
  const out = structuredClone(base);
  for (const [key, value] of Object.entries(overrides)) {
    const at = path ? `${path}.${key}` : key;
    out[key] = CONTAINERS.has(at) && isObject(value) && isObject(out[key]) ? applyOverrides(out[key] as JsonObject, value, at) : structuredClone(value);
  }
  return out;
}

function siteSettings(site: SiteRow): JsonObject {
  if (!site.customization) return defaultCustomization();
  return { ...structuredClone(site.customization.settings), updatedAt: site.customization.updatedAt };
}

export function registerCustomization(route: Route): void {
  const base = "/v1/orgs/:organizationId/sites/:siteId";

  route<SiteP, { unmasked?: boolean }>({
    method: "GET",
    url: `${base}/customization`,
    query: obj({ unmasked: BOOLEAN }),
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      return { status: 200, body: siteSettings(site) };
    },
  });

  route<SiteP, Record<string, never>, JsonObject>({
    method: "PUT",
    url: `${base}/customization`,
    body: limit("siteCustomization"),
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const settings = structuredClone(ctx.body);
      // Read-only: a settings object read and sent back whole is accepted.
      delete settings.updatedAt;
      const pageActions = settings.pageActions as { items: string[] };
      pageActions.items = normalizePageActions(pageActions.items, (settings.ai as { mode: string }).mode);
      site.customization = { settings, updatedAt: ctx.store.nowIso() };
      ctx.store.touch("sites", site);
      return { status: 200, body: siteSettings(site) };
    },
  });

  const siteSpaceOf = (ctx: Parameters<Parameters<Route>[0]["handler"]>[0], need: "read" | "admin") => {
    const p = ctx.params as SiteSpaceP;
    const { site } = requireSite(ctx, p.organizationId, p.siteId, need);
    return { site, ss: ownedRow(ctx, "siteSpaces", p.siteSpaceId, "site", site.id, "site space") };
  };
  const effective = (site: SiteRow, overrides: JsonObject | undefined) => {
    const settings = applyOverrides(siteSettings(site), overrides ?? {});
    return { ...settings, hasOverrides: Object.keys(overrides ?? {}).length > 0 };
  };

  route<SiteSpaceP, { unmasked?: boolean }>({
    method: "GET",
    url: `${base}/site-spaces/:siteSpaceId/customization`,
    query: obj({ unmasked: BOOLEAN }),
    handler: (ctx) => {
      const { site, ss } = siteSpaceOf(ctx, "read");
      return { status: 200, body: effective(site, ss.overrides) };
    },
  });

  route<SiteSpaceP, Record<string, never>, JsonObject>({
    method: "PATCH",
    url: `${base}/site-spaces/:siteSpaceId/customization`,
    body: limit("siteSpaceCustomization"),
    handler: (ctx) => {
      const { site, ss } = siteSpaceOf(ctx, "admin");
      const overrides = structuredClone(ss.overrides ?? {});
      mergeOverrides(overrides, ctx.body ?? {});
      ss.overrides = overrides;
      ctx.store.touch("siteSpaces", ss);
      return { status: 200, body: effective(site, ss.overrides) };
    },
  });

  route<SiteSpaceP>({
    method: "DELETE",
    url: `${base}/site-spaces/:siteSpaceId/customization`,
    handler: (ctx) => {
      const { ss } = siteSpaceOf(ctx, "admin");
      const had = Object.keys(ss.overrides ?? {}).length > 0;
      delete ss.overrides;
      ctx.store.touch("siteSpaces", ss);
      return { status: had ? 205 : 204 };
    },
  });
}
