/** The access rules of routes: the caller's membership and role in an organisation, and the rows a caller may reach. */
import type { Ctx } from "./context";
import { forbidden, notFound } from "./errors";
import { roleAtLeast, type MemberRow, type OrgRow, type Role, type SiteRow, type SpaceRow, type TableName, type TableRows } from "./model";
import type { View } from "./present";

/** The caller's membership in an organization, or a 404 (unknown org) / 403 (not a member). */
export function membership(ctx: Ctx<unknown, unknown, unknown>, orgId: string): { org: OrgRow; member: MemberRow } {
  const org = ctx.store.get("orgs", orgId);
  if (!org) throw notFound("organization", orgId);
  const member = ctx.store.get("members", `${orgId}:${ctx.user}`);
  if (!member || member.disabled) throw forbidden(`not a member of organization '${orgId}'`);
  return { org, member };
}

const ROLE_WORDS: Record<Role, string> = {
  admin: "an admin",
  create: "a member with role create or above",
  review: "a member with role review or above",
  edit: "a member with role edit or above",
  comment: "a member with role comment or above",
  read: "a member",
};

/** Requires the caller's role in the organization to be at least `need`; returns the org and the caller's role. */
export function requireOrg(ctx: Ctx<unknown, unknown, unknown>, orgId: string, need: Role, action = "do this"): { org: OrgRow; role: Role | null } {
  const { org, member } = membership(ctx, orgId);
  if (!roleAtLeast(member.role, need)) throw forbidden(`only ${ROLE_WORDS[need]} of organization '${orgId}' may ${action}`);
  return { org, role: member.role };
}

/** Finds a site of an organization after checking the caller's role. */
export function requireSite(ctx: Ctx<unknown, unknown, unknown>, orgId: string, siteId: string, need: Role, action = "manage sites"): { org: OrgRow; site: SiteRow; role: Role | null } {
  const { org, role } = requireOrg(ctx, orgId, "read");
  const site = ownedRow(ctx, "sites", siteId, "org", orgId, "site");
  if (!roleAtLeast(role, need)) throw forbidden(`only ${ROLE_WORDS[need]} of organization '${orgId}' may ${action}`);
  return { org, site, role };
}

/** Finds a space by ID (deleted ones too while restorable) after checking the caller's role in its organization. */
export function requireSpace(ctx: Ctx<unknown, unknown, unknown>, spaceId: string, need: Role, action = "change this space"): { space: SpaceRow; role: Role | null } {
  const space = ctx.store.get("spaces", spaceId);
  if (!space || ctx.store.spaceGone(space)) throw notFound("space", spaceId);
  const member = ctx.store.get("members", `${space.org}:${ctx.user}`);
  if (!member || member.disabled) throw notFound("space", spaceId);
  if (!roleAtLeast(member.role, need)) throw forbidden(`only ${ROLE_WORDS[need]} of organization '${space.org}' may ${action}`);
  return { space, role: member.role };
}

/** What the presenters need for this request, for a caller with `role`. */
export function view(ctx: Ctx<unknown, unknown, unknown>, role: Role | null): View {
  return { store: ctx.store, base: ctx.base, role };
}

/** The row `id` of `table` whose `owner` field (its organization or site) is `ownerId`, else a 404 naming `what`. */
export function ownedRow<K extends TableName>(
  ctx: Ctx<unknown, unknown, unknown>,
  table: K,
  id: string,
  owner: keyof TableRows[K],
  ownerId: string,
  what: string,
): TableRows[K] {
  const row = ctx.store.get(table, id);
  if (!row || row[owner] !== ownerId) throw notFound(what, id);
  return row;
}

/** The caller's role in an organization (null when not a member). */
export function roleIn(ctx: Ctx<unknown, unknown, unknown>, orgId: string): Role | null {
  return ctx.store.get("members", `${orgId}:${ctx.user}`)?.role ?? null;
}
