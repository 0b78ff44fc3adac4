/**
 * Permissions of sites, spaces and collections: roles granted directly to teams and users (invite,
 * change, remove, list) and the aggregate lists of who can reach the object and why.
 */
import { badRequest, notFound } from "../errors";
import { STRING, limit, listQuery, nullable, obj } from "../schema";
import { ownedRow, requireOrg, requireSite, requireSpace, view } from "../access";
import { paginate, type ListQuery } from "../paging";
import type { Ctx, Route } from "../context";
import { ROLES, type GrantRow, type MemberRow, type Role } from "../model";
import { presentTeam, presentUser, type View } from "../present";
import type { Store } from "../store";

type AnyCtx = Ctx<unknown, unknown, unknown>;
type On = GrantRow["on"];
type To = GrantRow["to"];

/** The object whose permissions a request is about, found after checking the caller's role. */
interface Target {
  org: string;
  id: string;
  role: Role | null;
}

/** How one kind of object is found from its path parameters. */
interface TargetSpec<P> {
  on: On;
  base: string;
  find(ctx: Ctx<P, unknown, unknown>, need: Role): Target;
}

const NEED_WRITE: Role = "admin";

function findCollection(ctx: AnyCtx, id: string, need: Role): Target {
  const c = ctx.store.get("collections", id);
  const member = c ? ctx.store.get("members", `${c.org}:${ctx.user}`) : undefined;
  if (!c || !member || member.disabled) throw notFound("collection", id);
  requireOrg(ctx, c.org, need, "manage permissions");
  return { org: c.org, id: c.id, role: member.role };
}

const SITE: TargetSpec<{ organizationId: string; siteId: string }> = {
  on: "site",
  base: "/v1/orgs/:organizationId/sites/:siteId/permissions",
  find: (ctx, need) => {
    const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, need, "manage permissions");
    return { org: site.org, id: site.id, role };
  },
};
const SPACE: TargetSpec<{ spaceId: string }> = {
  on: "space",
  base: "/v1/spaces/:spaceId/permissions",
  find: (ctx, need) => {
    const { space, role } = requireSpace(ctx, ctx.params.spaceId, need, "manage permissions");
    return { org: space.org, id: space.id, role };
  },
};
const COLLECTION: TargetSpec<{ collectionId: string }> = {
  on: "collection",
  base: "/v1/collections/:collectionId/permissions",
  find: (ctx, need) => findCollection(ctx, ctx.params.collectionId, need),
};

export const grantId = (on: On, target: string, to: To, principal: string): string => `${on}:${target}:${to}:${principal}`;

/** Direct grants on an object whose team or user still exists in the organization, in creation order. */
function grantsOn(store: Store, on: On, target: string, to?: To): GrantRow[] {
  return [...store.all("grants")].filter(
    (g) =>
      g.on === on &&
      g.target === target &&
      (to === undefined || g.to === to) &&
      (g.to === "team" ? store.get("teams", g.principal)?.org === g.org : store.get("members", `${g.org}:${g.principal}`) !== undefined),
  );
}

/** Ranks a level: a role by its power, a guest (null) below `read`. */
const rank = (role: Role | null): number => (role === null ? ROLES.length : ROLES.indexOf(role));

/** One source of a user's access and the level it gives. */
interface Source {
  role: Role | null;
  origin: Record<string, unknown>;
}

/** The collections a space or collection sits in, innermost first. */
function ancestors(store: Store, on: On, id: string): string[] {
  const out: string[] = [];
  let parent = on === "space" ? (store.get("spaces", id)?.parent ?? null) : on === "collection" ? (store.get("collections", id)?.parent ?? null) : null;
  while (parent !== null && !out.includes(parent)) {
    out.push(parent);
    parent = store.get("collections", parent)?.parent ?? null;
  }
  return out;
}

/**
 * Every source of a member's access to an object: the organization role (guests have none), then the
 * direct and team grants on the object and on the collections it sits in. The effective level is the
 * highest; on a tie the most specific source (the object's own user grant, its team grants, the
 * enclosing collections, the organization) is the origin.
 */
function sourcesOf(store: Store, m: MemberRow, on: On, target: string): Source[] {
  const out: Source[] = [];
  const levels: [On, string][] = [[on, target], ...ancestors(store, on, target).map((c) => ["collection", c] as [On, string])];
  for (const [lOn, lId] of levels) {
    for (const g of grantsOn(store, lOn, lId)) {
      const reaches = g.to === "user" ? g.principal === m.user : store.get("teams", g.principal)!.members.some((x) => x.user === m.user);
      if (!reaches) continue;
      const origin = { type: lOn, [lOn]: lId, reason: g.to === "user" ? "member" : "team", ...(g.to === "team" ? { team: g.principal } : {}) };
      out.push({ role: g.role, origin });
    }
  }
  if (m.role !== null) out.push({ role: m.role, origin: { type: "organization", organization: m.org } });
  return out;
}

/** The effective level of a member on an object and what sets it, or undefined when the member has no access. */
export function effectiveAccess(store: Store, m: MemberRow, on: On, target: string): Source | undefined {
  let best: Source | undefined;
  for (const s of sourcesOf(store, m, on, target)) if (best === undefined || rank(s.role) < rank(best.role)) best = s;
  return best;
}

const members = (store: Store, org: string): MemberRow[] => [...store.all("members")].filter((m) => m.org === org);

interface InviteBody {
  role: Role | null;
  teams?: string[];
  users?: string[];
}

function registerTarget<P>(route: Route, spec: TargetSpec<P>): void {
  const { on, base } = spec;

  route<P, Record<string, never>, InviteBody>({
    method: "POST",
    url: base,
    body: obj({ role: limit("role"), teams: limit("grantIds"), users: limit("grantIds") }, ["role"]),
    handler: (ctx) => {
      const t = spec.find(ctx, NEED_WRITE);
      const { role, teams = [], users = [] } = ctx.body;
      if (teams.length === 0 && users.length === 0) throw badRequest("body", "must have at least one of teams and users");
      // Every reference is checked before anything is granted.
      teams.forEach((id) => ownedRow(ctx, "teams", id, "org", t.org, "team"));
      for (const id of users) if (!ctx.store.get("members", `${t.org}:${id}`)) throw notFound("member", id);
      const now = ctx.store.nowIso();
      const grant = (to: To, principal: string) => {
        const id = grantId(on, t.id, to, principal);
        const existing = ctx.store.get("grants", id);
        if (existing) {
          existing.role = role;
          ctx.store.touch("grants", existing);
        } else ctx.store.put("grants", { id, org: t.org, on, target: t.id, to, principal, role, createdAt: now });
      };
      for (const id of new Set(teams)) grant("team", id);
      for (const id of new Set(users)) grant("user", id);
      return { status: 204 };
    },
  });

  for (const to of ["team", "user"] as const) {
    const plural = `${to}s`;
    const param = to === "team" ? "teamId" : "userId";
    const present = (v: View, g: GrantRow) =>
      to === "team"
        ? { permission: g.role, team: presentTeam(v, v.store.get("teams", g.principal)!) }
        : { permission: g.role, user: presentUser(v, v.store.get("users", g.principal)!) };

    route<P, ListQuery>({
      method: "GET",
      url: `${base}/${plural}`,
      query: listQuery(),
      handler: (c) => {
        const t = spec.find(c, "read");
        const v = view(c, t.role);
        return { status: 200, body: paginate(grantsOn(c.store, on, t.id, to), c.query, `${on}-${plural}:${t.id}`, (g) => present(v, g)) };
      },
    });

    const one = (c: Ctx<P & Record<string, string>, unknown, unknown>, t: Target): GrantRow => {
      const principal = c.params[param]!;
      const g = c.store.get("grants", grantId(on, t.id, to, principal));
      if (!g || !grantsOn(c.store, on, t.id, to).includes(g)) throw notFound(`${to} permission`, principal);
      return g;
    };

    route<P & Record<string, string>, Record<string, never>, { role?: Role | null } | undefined>({
      method: "PATCH",
      url: `${base}/${plural}/:${param}`,
      // The site's PATCH takes a role but not null; the space's and the collection's also take null (guest).
      body: obj({ role: on === "site" ? limit("roleNonNull") : nullable(limit("roleNonNull")) }),
      handler: (c) => {
        const t = spec.find(c, NEED_WRITE);
        const g = one(c, t);
        if (c.body?.role !== undefined) {
          g.role = c.body.role;
          c.store.touch("grants", g);
        }
        return { status: 204 };
      },
    });

    route<P & Record<string, string>>({
      method: "DELETE",
      url: `${base}/${plural}/:${param}`,
      handler: (c) => {
        const t = spec.find(c, NEED_WRITE);
        c.store.del("grants", one(c, t).id);
        return { status: 205 };
      },
    });
  }
}

interface SiteAggregateQuery extends ListQuery {
  order?: "asc" | "desc";
  role?: string;
  search?: string;
  sort?: "joinedAt" | "lastSeenAt" | "name";
  team?: string;
}

const ROLE_OR_GUEST = { type: "string", enum: [...ROLES, "guest"] };

export function registerPermissions(route: Route): void {
  registerTarget(route, SITE);
  registerTarget(route, SPACE);
  registerTarget(route, COLLECTION);

  route<{ organizationId: string; siteId: string }, SiteAggregateQuery>({
    method: "GET",
    url: `${SITE.base}/aggregate`,
    query: listQuery({
      order: { type: "string", enum: ["asc", "desc"] },
      role: ROLE_OR_GUEST,
      search: STRING,
      sort: { type: "string", enum: ["joinedAt", "lastSeenAt", "name"] },
      team: limit("id"),
    }),
    handler: (ctx) => {
      const t = SITE.find(ctx, "read");
      const q = ctx.query;
      const team = q.team === undefined ? undefined : ownedRow(ctx, "teams", q.team, "org", t.org, "team");
      const search = q.search?.toLowerCase();
      const rows = members(ctx.store, t.org)
        .map((m) => ({ m, u: ctx.store.get("users", m.user)!, access: effectiveAccess(ctx.store, m, "site", t.id) }))
        .filter(
          ({ m, u, access }) =>
            access !== undefined &&
            (q.role === undefined || (q.role === "guest" ? access.role === null : access.role === q.role)) &&
            (team === undefined || team.members.some((x) => x.user === m.user)) &&
            (search === undefined || u.displayName.toLowerCase().includes(search) || u.email.toLowerCase().includes(search)),
        );
      const sort = q.sort ?? "joinedAt";
      const keyOf = (r: (typeof rows)[number]) => (sort === "name" ? r.u.displayName : sort === "lastSeenAt" ? (r.m.lastSeenAt ?? "") : r.m.joinedAt);
      rows.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : a.m.user < b.m.user ? -1 : 1));
      if ((q.order ?? "desc") === "desc") rows.reverse();
      const v = view(ctx, t.role);
      const key = `site-aggregate:${t.id}:${JSON.stringify([q.order, q.role, q.search, q.sort, q.team])}`;
      return {
        status: 200,
        body: paginate(rows, q, key, ({ m, u, access }) => ({
          permission: access!.role,
          user: presentUser(v, u),
          origin: access!.origin,
          disabled: m.disabled,
          ...(m.lastSeenAt ? { lastSeenAt: m.lastSeenAt } : {}),
        })),
      };
    },
  });

  for (const spec of [SPACE, COLLECTION] as TargetSpec<Record<string, string>>[]) {
    route<Record<string, string>, ListQuery & { role?: Role }>({
      method: "GET",
      url: `${spec.base}/aggregate`,
      query: listQuery({ role: limit("roleNonNull") }),
      handler: (ctx) => {
        const t = spec.find(ctx, "read");
        const v = view(ctx, t.role);
        const rows = members(ctx.store, t.org)
          .map((m) => ({ m, access: effectiveAccess(ctx.store, m, spec.on, t.id) }))
          .filter(({ access }) => access !== undefined && (ctx.query.role === undefined || access.role === ctx.query.role));
        return {
          status: 200,
          body: paginate(rows, ctx.query, `${spec.on}-aggregate:${t.id}:${ctx.query.role ?? ""}`, ({ m, access }) => ({
            permission: access!.role,
            user: presentUser(v, ctx.store.get("users", m.user)!),
          })),
        };
      },
    });
  }
}
