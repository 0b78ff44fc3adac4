/** Translation settings of an organization. */
import { limit, obj, type Schema } from "../schema";
import { view } from "../access";
import type { Route } from "../context";
import { newId } from "../seed";
import type { TranslationRow } from "../model";
import { presentTranslation } from "../present";
import { registerOrgCollection, requireOrgFor, type Need } from "./orgCollection";

type OrgP = { organizationId: string };
type TranslationP = OrgP & { translationSettingsId: string };

const MANAGE: Need = { role: "admin", action: "manage translations" };
const LANGUAGES: Schema = { type: "array", items: { type: "string", minLength: 1, maxLength: 35 } };

export function registerTranslations(route: Route): void {
  const { base, find } = registerOrgCollection(route, {
    path: "translations",
    param: "translationSettingsId",
    table: "translations",
    what: "translation settings",
    read: { role: "read" },
    change: MANAGE,
    present: presentTranslation,
    deleted: 205,
  });

  route<OrgP, Record<string, never>, { title: string; languages?: string[] }>({
    method: "POST",
    url: base,
    body: obj({ title: limit("translationTitle"), languages: LANGUAGES }, ["title"]),
    handler: (ctx) => {
      const { org, role } = requireOrgFor(ctx, ctx.params.organizationId, MANAGE);
      const now = ctx.store.nowIso();
      const t: TranslationRow = { id: newId("tr_"), org: org.id, title: ctx.body.title, languages: [...(ctx.body.languages ?? [])], createdAt: now, updatedAt: now };
      ctx.store.put("translations", t);
      return { status: 201, body: presentTranslation(view(ctx, role), t), location: `${ctx.base}/v1/orgs/${org.id}/translations/${t.id}` };
    },
  });

  route<TranslationP, Record<string, never>, { title: string; languages?: string[] }>({
    method: "PUT",
    url: `${base}/:translationSettingsId`,
    body: obj({ title: limit("translationTitle"), languages: LANGUAGES }, ["title"]),
    handler: (ctx) => {
      const { org, role } = requireOrgFor(ctx, ctx.params.organizationId, MANAGE);
      const t = find(ctx, org, ctx.params.translationSettingsId);
      t.title = ctx.body.title;
      if (ctx.body.languages !== undefined) t.languages = [...ctx.body.languages];
      t.updatedAt = ctx.store.nowIso();
      ctx.store.touch("translations", t);
      return { status: 200, body: presentTranslation(view(ctx, role), t) };
    },
  });
}
