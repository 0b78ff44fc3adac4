/** SAML providers and the organization's SSO login info. */
import { badRequest } from "../errors";
import { bodyProperties, bodySchema, fromBody, patchRow, type PatchBody, type PostBody } from "../columns";
import { obj } from "../schema";
import { requireOrg, view } from "../access";
import type { Ctx, Route } from "../context";
import { newId } from "../seed";
import type { OrgRow, SamlRow } from "../model";
import { presentSaml, samlService } from "../present";
import { SAML } from "../tables";
import { registerOrgCollection, requireOrgFor, type Need } from "./orgCollection";

type OrgP = { organizationId: string };
type SamlP = OrgP & { samlProviderId: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

const MANAGE: Need = { role: "admin", action: "manage SSO" };

function checkTeam(ctx: AnyCtx, org: OrgRow, team: string | null | undefined): void {
  if (team === undefined || team === null) return;
  const t = ctx.store.get("teams", team);
  if (!t || t.org !== org.id) throw badRequest("body/defaultTeam", `names no team of organization '${org.id}': '${team}'`);
}

export function registerSso(route: Route): void {
  const { base, find } = registerOrgCollection(route, {
    path: "saml",
    param: "samlProviderId",
    table: "samlProviders",
    what: "SAML provider",
    read: MANAGE,
    change: MANAGE,
    present: presentSaml,
    deleted: 204,
  });

  route<OrgP, Record<string, never>, PostBody<SamlRow, typeof SAML>>({
    method: "POST",
    url: base,
    body: bodySchema(SAML),
    handler: (ctx) => {
      const { org, role } = requireOrgFor(ctx, ctx.params.organizationId, MANAGE);
      const b = ctx.body;
      checkTeam(ctx, org, b.defaultTeam);
      const p: SamlRow = { id: newId("saml_"), org: org.id, ...fromBody(SAML, b), createdAt: ctx.store.nowIso() };
      ctx.store.put("samlProviders", p);
      const v = view(ctx, role);
      return { status: 201, body: presentSaml(v, p), location: `${ctx.base}/v1/orgs/${org.id}/saml/${p.id}` };
    },
  });

  route<SamlP, Record<string, never>, PatchBody<SamlRow, typeof SAML>>({
    method: "PATCH",
    url: `${base}/:samlProviderId`,
    body: obj(bodyProperties(SAML)),
    handler: (ctx) => {
      const { org, role } = requireOrgFor(ctx, ctx.params.organizationId, MANAGE);
      const p = find(ctx, org, ctx.params.samlProviderId);
      const b = ctx.body ?? {};
      checkTeam(ctx, org, b.defaultTeam);
      patchRow(SAML, p, b);
      ctx.store.touch("samlProviders", p);
      return { status: 200, body: presentSaml(view(ctx, role), p) };
    },
  });

  route<OrgP>({
    method: "GET",
    url: "/v1/orgs/:organizationId/sso",
    handler: (ctx) => {
      const { org } = requireOrg(ctx, ctx.params.organizationId, "read");
      const items = [...ctx.store.all("samlProviders")]
        .filter((p) => p.org === org.id)
        .map((p) => ({ id: p.id, label: p.label, startURL: samlService(p).startURL }));
      return { status: 200, body: { items } };
    },
  });
}
