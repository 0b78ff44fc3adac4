/** Translation settings of an organization. */
import { limit, listQuery, obj, ownedRow, paginate, requireOrg, view, type Ctx, type ListQuery, type Route, type Schema } from "../context";
import { newId } from "../seed";
import type { OrgRow, TranslationRow } from "../model";
import { presentTranslation } from "../present";

type OrgP = { organizationId: string };
type TranslationP = OrgP & { translationSettingsId: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

const LANGUAGES: Schema = { type: "array", items: { type: "string", minLength: 1, maxLength: 35 } };

function find(ctx: AnyCtx, org: OrgRow, id: string): TranslationRow {
  return ownedRow(ctx, "translations", id, "org", org.id, "translation settings");
}

export function registerTranslations(route: Route): void {
  const base = "/v1/orgs/:organizationId/translations";

  route<OrgP, ListQuery>({
    method: "GET",
    url: base,
    query: listQuery(),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      const items = [...ctx.store.all("translations")].filter((t) => t.org === org.id);
      return { status: 200, body: paginate(items, ctx.query, `translations:${org.id}`, (t) => presentTranslation(view(ctx, role), t)) };
    },
  });

  route<OrgP, Record<string, never>, { title: string; languages?: string[] }>({
    method: "POST",
    url: base,
    body: obj({ title: limit("translationTitle"), languages: LANGUAGES }, ["title"]),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "admin", "manage translations");
      const now = ctx.store.nowIso();
      const t: TranslationRow = { id: newId("tr_"), org: org.id, title: ctx.body.title, languages: [...(ctx.body.languages ?? [])], createdAt: now, updatedAt: now };
      ctx.store.put("translations", t);
      return { status: 201, body: presentTranslation(view(ctx, role), t), location: `${ctx.base}/v1/orgs/${org.id}/translations/${t.id}` };
    },
  });

  route<TranslationP>({
    method: "GET",
    url: `${base}/:translationSettingsId`,
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      return { status: 200, body: presentTranslation(view(ctx, role), find(ctx, org, ctx.params.translationSettingsId)) };
    },
  });

  route<TranslationP, Record<string, never>, { title: string; languages?: string[] }>({
    method: "PUT",
    url: `${base}/:translationSettingsId`,
    body: obj({ title: limit("translationTitle"), languages: LANGUAGES }, ["title"]),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "admin", "manage translations");
      const t = find(ctx, org, ctx.params.translationSettingsId);
      t.title = ctx.body.title;
      if (ctx.body.languages !== undefined) t.languages = [...ctx.body.languages];
      t.updatedAt = ctx.store.nowIso();
      ctx.store.touch("translations", t);
      return { status: 200, body: presentTranslation(view(ctx, role), t) };
    },
  });

  route<TranslationP>({
    method: "DELETE",
    url: `${base}/:translationSettingsId`,
    handler: (ctx) => {
      const { org } = requireOrg(ctx, ctx.params.organizationId, "admin", "manage translations");
      ctx.store.del("translations", find(ctx, org, ctx.params.translationSettingsId).id);
      return { status: 205 };
    },
  });
}
