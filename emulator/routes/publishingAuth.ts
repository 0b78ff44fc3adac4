/**
 * A site's visitor authentication settings: the backend, its fallback and logout URLs, and the
 * private key visitor tokens are signed with (generated per site, replaced only by regenerate).
 */
import { randomBytes } from "node:crypto";
import { badRequest } from "../errors";
import { limit, nullable, obj } from "../schema";
import { requireSite } from "../access";
import type { Ctx, Route } from "../context";
import type { PublishingAuthRow, SiteRow } from "../model";

type SiteP = { organizationId: string; siteId: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

/** A new private key: 32 random bytes, hex. */
const newKey = (): string => randomBytes(32).toString("hex");

/** The site's settings; a site gets its key and the `custom` backend the first time they are asked for. */
function settingsOf(ctx: AnyCtx, site: SiteRow): PublishingAuthRow {
  const row = ctx.store.get("publishingAuth", site.id);
  if (row) return row;
  return ctx.store.put("publishingAuth", { id: site.id, org: site.org, backend: "custom", privateKey: newKey(), fallbackURL: null, logoutURL: null, updatedAt: ctx.store.nowIso() });
}

/** The integration enabled on the site that acts as its backend: the first one enabled there. */
function siteIntegration(ctx: AnyCtx, site: SiteRow): string | undefined {
  for (const i of ctx.store.all("targetInstallations")) if (i.kind === "site" && i.target === site.id) return i.integration;
  return undefined;
}

function present(ctx: AnyCtx, site: SiteRow, row: PublishingAuthRow): Record<string, unknown> {
  const integration = siteIntegration(ctx, site);
  return {
    object: "publishing-auth",
    backend: row.backend,
    privateKey: row.privateKey,
    ...(row.fallbackURL === null ? {} : { fallbackURL: row.fallbackURL }),
    ...(row.logoutURL === null ? {} : { logoutURL: row.logoutURL }),
    ...(integration === undefined ? {} : { integration }),
  };
}

export function registerPublishingAuth(route: Route): void {
  const base = "/v1/orgs/:organizationId/sites/:siteId/publishing/auth";
  const site = (ctx: Ctx<SiteP, unknown, unknown>) => requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin", "manage visitor authentication").site;

  route<SiteP>({
    method: "GET",
    url: base,
    handler: (ctx) => {
      const s = site(ctx);
      return { status: 200, body: present(ctx, s, settingsOf(ctx, s)) };
    },
  });

  route<SiteP, Record<string, never>, { backend: "custom" | "integration"; fallbackURL?: string | null; logoutURL?: string | null }>({
    method: "PATCH",
    url: base,
    body: obj({ backend: limit("publishingAuthBackend"), fallbackURL: nullable(limit("visitorAuthURL")), logoutURL: nullable(limit("visitorAuthURL")) }, ["backend"]),
    handler: (ctx) => {
      const s = site(ctx);
      const b = ctx.body;
      if (b.backend === "integration" && siteIntegration(ctx, s) === undefined) {
        throw badRequest("body/backend", `'integration' needs an integration enabled on site '${s.id}'`);
      }
      const row = settingsOf(ctx, s);
      row.backend = b.backend;
      if (b.fallbackURL !== undefined) row.fallbackURL = b.fallbackURL;
      if (b.logoutURL !== undefined) row.logoutURL = b.logoutURL;
      row.updatedAt = ctx.store.nowIso();
      ctx.store.touch("publishingAuth", row);
      return { status: 200, body: present(ctx, s, row) };
    },
  });

  route<SiteP>({
    method: "POST",
    url: `${base}/regenerate`,
    handler: (ctx) => {
      const s = site(ctx);
      const row = settingsOf(ctx, s);
      row.privateKey = newKey();
      row.updatedAt = ctx.store.nowIso();
      ctx.store.touch("publishingAuth", row);
      return { status: 200, body: present(ctx, s, row) };
    },
  });
}
