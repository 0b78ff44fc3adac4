/** Teams and team members. Titles are unique in an organization; members are named by user ID or e-mail. */
import { badRequest, conflict, forbidden, notFound } from "../errors";
import { STRING, limit, listQuery, obj, type Schema } from "../schema";
import { ownedRow, requireOrg, view } from "../access";
import { paginate, type ListQuery } from "../paging";
import type { Ctx, Route } from "../context";
import { newId } from "../seed";
import { roleAtLeast, type OrgRow, type Role, type TeamRole, type TeamRow } from "../model";
import { presentMember, presentTeam } from "../present";

type OrgP = { organizationId: string };
type TeamP = OrgP & { teamId: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

const IDENTIFIERS: Schema = { type: "array", items: { type: "string", minLength: 1, maxLength: 320 } };

/** The user ID of an organization member named by user ID or e-mail, or a 400 naming the field. */
function resolveMember(ctx: AnyCtx, org: OrgRow, who: string, field: string): string {
  if (ctx.store.get("members", `${org.id}:${who}`)) return who;
  const lower = who.toLowerCase();
  for (const m of ctx.store.all("members")) {
    if (m.org !== org.id) continue;
    if (ctx.store.get("users", m.user)!.email.toLowerCase() === lower) return m.user;
  }
  throw badRequest(field, `names no member of organization '${org.id}' (by user ID or e-mail): '${who}'`);
}

function findTeam(ctx: AnyCtx, org: OrgRow, id: string): TeamRow {
  return ownedRow(ctx, "teams", id, "org", org.id, "team");
}

function checkTitleFree(ctx: AnyCtx, org: OrgRow, title: string, except?: string): void {
  for (const t of ctx.store.all("teams")) {
    if (t.org === org.id && t.id !== except && t.title === title) throw conflict(`a team titled '${title}' already exists in organization '${org.id}'`);
  }
}

/** Admins manage every team; a team owner manages its members. */
function requireTeamManager(ctx: AnyCtx, orgId: string, teamId: string): { org: OrgRow; team: TeamRow; role: Role | null } {
  const { org, role } = requireOrg(ctx, orgId, "read");
  const team = findTeam(ctx, org, teamId);
  if (!roleAtLeast(role, "admin") && !team.members.some((m) => m.user === ctx.user && m.role === "owner")) {
    throw forbidden(`only an admin of organization '${orgId}' or an owner of team '${teamId}' may manage its members`);
  }
  return { org, team, role };
}

function setMember(team: TeamRow, user: string, role: TeamRole | undefined): void {
  const existing = team.members.find((m) => m.user === user);
  if (existing) {
    if (role) existing.role = role;
  } else team.members.push({ user, role: role ?? "member" });
}

/** The paths the routes below share. */
const base = "/v1/orgs/:organizationId/teams";
type MemberP = TeamP & { userId: string };

/** Registers the team and team-member routes. */
export function registerTeams(route: Route): void {
  registerTeam(route);
  registerTeamMembers(route);
}

/** An organisation's teams: list, create, read, rename, delete. */
function registerTeam(route: Route): void {
  route<OrgP, ListQuery & { owner?: string; title?: string }>({
    method: "GET",
    url: base,
    query: listQuery({ owner: STRING, title: STRING }),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      const q = ctx.query;
      const ownerIsAdmin = q.owner !== undefined && roleAtLeast(ctx.store.get("members", `${org.id}:${q.owner}`)?.role ?? null, "admin");
      const items = [...ctx.store.all("teams")].filter(
        (t) =>
          t.org === org.id &&
          (q.title === undefined || t.title.toLowerCase().includes(q.title.toLowerCase())) &&
          (q.owner === undefined || ownerIsAdmin || t.members.some((m) => m.user === q.owner && m.role === "owner")),
      );
      const v = view(ctx, role);
      return { status: 200, body: paginate(items, q, `teams:${org.id}:${q.title ?? ""}:${q.owner ?? ""}`, (t) => presentTeam(v, t)) };
    },
  });

  route<OrgP, Record<string, never>, { title: string; members?: string[] }>({
    method: "PUT",
    url: base,
    body: obj({ title: limit("teamTitle"), members: IDENTIFIERS }, ["title"]),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "admin", "manage teams");
      checkTitleFree(ctx, org, ctx.body.title);
      const users = (ctx.body.members ?? []).map((w, i) => resolveMember(ctx, org, w, `body/members/${i}`));
      const team: TeamRow = { id: newId("team_"), org: org.id, title: ctx.body.title, createdAt: ctx.store.nowIso(), members: [] };
      for (const u of users) setMember(team, u, undefined);
      ctx.store.put("teams", team);
      const location = `${ctx.base}/v1/orgs/${org.id}/teams/${team.id}`;
      return { status: 201, body: presentTeam(view(ctx, role), team), location };
    },
  });

  route<TeamP>({
    method: "GET",
    url: `${base}/:teamId`,
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      return { status: 200, body: presentTeam(view(ctx, role), findTeam(ctx, org, ctx.params.teamId)) };
    },
  });

  route<TeamP, Record<string, never>, { title: string }>({
    method: "PATCH",
    url: `${base}/:teamId`,
    body: obj({ title: limit("teamTitle") }, ["title"]),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "admin", "manage teams");
      const team = findTeam(ctx, org, ctx.params.teamId);
      checkTitleFree(ctx, org, ctx.body.title, team.id);
      team.title = ctx.body.title;
      ctx.store.touch("teams", team);
      return { status: 200, body: presentTeam(view(ctx, role), team) };
    },
  });

  route<TeamP>({
    method: "DELETE",
    url: `${base}/:teamId`,
    handler: (ctx) => {
      const { org } = requireOrg(ctx, ctx.params.organizationId, "admin", "manage teams");
      const team = findTeam(ctx, org, ctx.params.teamId);
      for (const p of ctx.store.all("samlProviders")) {
        if (p.defaultTeam === team.id) {
          p.defaultTeam = null;
          ctx.store.touch("samlProviders", p);
        }
      }
      ctx.store.del("teams", team.id);
      return { status: 204 };
    },
  });
}

/** A team's members: list, replace, set one member's role, remove one. */
function registerTeamMembers(route: Route): void {
  route<TeamP, ListQuery>({
    method: "GET",
    url: `${base}/:teamId/members`,
    query: listQuery(),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      const team = findTeam(ctx, org, ctx.params.teamId);
      const v = view(ctx, role);
      return {
        status: 200,
        body: paginate(team.members, ctx.query, `team-members:${team.id}`, (m) => ({
          organization: presentMember(v, ctx.store.get("members", `${org.id}:${m.user}`)!),
          team: { role: m.role },
          permissions: { view: true },
        })),
      };
    },
  });

  route<TeamP, Record<string, never>, { add?: string[]; remove?: string[]; memberships?: Record<string, { role?: TeamRole }> }>({
    method: "PUT",
    url: `${base}/:teamId/members`,
    body: obj({
      add: IDENTIFIERS,
      remove: IDENTIFIERS,
      memberships: { type: "object", additionalProperties: obj({ role: limit("teamRole") }) },
    }),
    handler: (ctx) => {
      const { org, team } = requireTeamManager(ctx, ctx.params.organizationId, ctx.params.teamId);
      const b = ctx.body ?? {};
      const add = (b.add ?? []).map((w, i) => resolveMember(ctx, org, w, `body/add/${i}`));
      const remove = new Set((b.remove ?? []).map((w, i) => resolveMember(ctx, org, w, `body/remove/${i}`)));
      const roles = Object.entries(b.memberships ?? {}).map(([w, m]) => [resolveMember(ctx, org, w, `body/memberships/${w}`), m.role] as const);
      for (const u of add) setMember(team, u, undefined);
      for (const [u, r] of roles) setMember(team, u, r);
      // A user listed in both add and remove is removed.
      team.members = team.members.filter((m) => !remove.has(m.user));
      ctx.store.touch("teams", team);
      return { status: 204 };
    },
  });

  route<MemberP, Record<string, never>, { role?: TeamRole } | undefined>({
    method: "PUT",
    url: `${base}/:teamId/members/:userId`,
    body: obj({ role: limit("teamRole") }),
    handler: (ctx) => {
      const { org, team } = requireTeamManager(ctx, ctx.params.organizationId, ctx.params.teamId);
      if (!ctx.store.get("members", `${org.id}:${ctx.params.userId}`)) throw notFound("member", ctx.params.userId);
      setMember(team, ctx.params.userId, ctx.body?.role);
      ctx.store.touch("teams", team);
      return { status: 204 };
    },
  });

  route<MemberP>({
    method: "DELETE",
    url: `${base}/:teamId/members/:userId`,
    handler: (ctx) => {
      const { team } = requireTeamManager(ctx, ctx.params.organizationId, ctx.params.teamId);
      const before = team.members.length;
      team.members = team.members.filter((m) => m.user !== ctx.params.userId);
      if (team.members.length === before) throw notFound("team member", ctx.params.userId);
      ctx.store.touch("teams", team);
      return { status: 204 };
    },
  });
}
