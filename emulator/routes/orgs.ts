/** Organizations and their members: settings, invites, search, e-mail domains, member roles, SSO flag, member spaces and teams. */
import { badRequest, notFound } from "../errors";
import { BOOLEAN, STRING, limit, listQuery, nullable, obj } from "../schema";
import { applyPatch } from "../objects";
import { membership, requireOrg, view } from "../access";
import { paginate, type ListQuery } from "../paging";
import type { Ctx, Route } from "../context";
import { type MemberRow, type OrgRow, type OrgSettings, type Role } from "../model";
import { memberSpaces, presentMember, presentOrg, presentSpace, presentTeam } from "../present";

type OrgP = { organizationId: string };
type MemberP = OrgP & { userId: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

function findMember(ctx: AnyCtx, org: OrgRow, userId: string): MemberRow {
  const m = ctx.store.get("members", `${org.id}:${userId}`);
  if (!m) throw notFound("member", userId);
  return m;
}

/** Registers the organisation and member routes. */
export function registerOrgs(route: Route): void {
  registerOrganization(route);
  registerMembers(route);
  registerMemberDetails(route);
}

/** Organisations: list, read, settings, link invites, search, and lookup by email domain. */
function registerOrganization(route: Route): void {
  route<Record<string, never>, ListQuery>({
    method: "GET",
    url: "/v1/orgs",
    query: listQuery(),
    handler: (ctx) => {
      const mine: { org: OrgRow; role: Role | null }[] = [];
      for (const m of ctx.store.all("members")) {
        if (m.user === ctx.user && !m.disabled) mine.push({ org: ctx.store.get("orgs", m.org)!, role: m.role });
      }
      return { status: 200, body: paginate(mine, ctx.query, `orgs:${ctx.user}`, (x) => presentOrg(view(ctx, x.role), x.org)) };
    },
  });

  route<OrgP>({
    method: "GET",
    url: "/v1/orgs/:organizationId",
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      return { status: 200, body: presentOrg(view(ctx, role), org) };
    },
  });

  route<OrgP, Record<string, never>, Partial<OrgSettings>>({
    method: "PATCH",
    url: "/v1/orgs/:organizationId",
    body: obj({
      title: limit("orgTitle"),
      emailDomains: { type: "array", items: { type: "string", minLength: 1, maxLength: 253 } },
      hostname: limit("orgHostname"),
      defaultRole: limit("role"),
      defaultContent: nullable(obj({ type: { const: "site" }, site: limit("id") }, ["type", "site"])),
      logo: nullable(limit("orgLogo")),
      sso: BOOLEAN,
      ai: BOOLEAN,
      inviteLinks: BOOLEAN,
    }),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "admin", "change organization settings");
      const b = ctx.body ?? {};
      if (b.defaultContent) {
        const site = ctx.store.get("sites", b.defaultContent.site);
        if (!site || site.org !== org.id) throw badRequest("body/defaultContent/site", `names no site of organization '${org.id}': '${b.defaultContent.site}'`);
      }
      applyPatch(org, b, ["title", "hostname", "defaultRole", "logo", "sso", "ai", "inviteLinks"]);
      if (b.emailDomains !== undefined) org.emailDomains = [...b.emailDomains];
      if (b.defaultContent !== undefined) org.defaultContent = b.defaultContent ? { type: "site", site: b.defaultContent.site } : null;
      ctx.store.touch("orgs", org);
      return { status: 200, body: presentOrg(view(ctx, role), org) };
    },
  });

  route<OrgP & { inviteId: string }>({
    method: "DELETE",
    url: "/v1/orgs/:organizationId/link-invites/:inviteId",
    handler: (ctx) => {
      const { org } = requireOrg(ctx, ctx.params.organizationId, "admin", "manage invites");
      const i = org.invites.indexOf(ctx.params.inviteId);
      if (i === -1) throw notFound("invite link", ctx.params.inviteId);
      org.invites.splice(i, 1);
      ctx.store.touch("orgs", org);
      return { status: 205 };
    },
  });

  route<OrgP, ListQuery & { query: string }>({
    method: "GET",
    url: "/v1/orgs/:organizationId/search",
    query: { ...listQuery({ query: limit("searchQuery") }), required: ["query"] },
    handler: (ctx) => {
      const { org } = requireOrg(ctx, ctx.params.organizationId, "read");
      const q = ctx.query.query.toLowerCase();
      // Spaces carry no content here: a search matches space titles.
      const hits = [...ctx.store.all("spaces")].filter((s) => s.org === org.id && s.deletedAt === null && s.title.toLowerCase().includes(q));
      return { status: 200, body: paginate(hits, ctx.query, `search:${org.id}:${q}`, (s) => ({ id: s.id, title: s.title, pages: [] })) };
    },
  });

  route<{ emailDomain: string }>({
    method: "GET",
    url: "/v1/email-domains/:emailDomain/orgs",
    handler: (ctx) => {
      const domain = ctx.params.emailDomain.toLowerCase();
      const orgs = [...ctx.store.all("orgs")].filter((o) => o.emailDomains.some((d) => d.toLowerCase() === domain));
      return { status: 200, body: { organizations: orgs.map((o) => presentOrg(view(ctx, ctx.store.get("members", `${o.id}:${ctx.user}`)?.role ?? null), o)) } };
    },
  });
}

/** An organisation's members: list, read, change role, remove. */
function registerMembers(route: Route): void {
  // -- members --
  route<OrgP, ListQuery & { order?: "asc" | "desc"; role?: Role; search?: string; sort?: "joinedAt" | "lastSeenAt" }>({
    method: "GET",
    url: "/v1/orgs/:organizationId/members",
    query: listQuery({ order: { enum: ["asc", "desc"] }, role: limit("roleNonNull"), search: STRING, sort: { enum: ["joinedAt", "lastSeenAt"] } }),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      const q = ctx.query;
      const sort = q.sort ?? "joinedAt";
      const search = q.search?.toLowerCase();
      let items = [...ctx.store.all("members")].filter((m) => {
        if (m.org !== org.id) return false;
        if (q.role !== undefined && m.role !== q.role) return false;
        if (sort === "lastSeenAt" && m.lastSeenAt === null) return false;
        if (search !== undefined) {
          const u = ctx.store.get("users", m.user)!;
          if (!u.displayName.toLowerCase().includes(search) && !u.email.toLowerCase().includes(search)) return false;
        }
        return true;
      });
      // Stable: by the sort key, then creation order; `desc` reverses the whole order.
      items = items.map((m, i) => ({ m, i })).sort((a, b) => (a.m[sort] ?? "").localeCompare(b.m[sort] ?? "") || a.i - b.i).map((x) => x.m);
      if ((q.order ?? "desc") === "desc") items.reverse();
      const key = `members:${org.id}:${q.role ?? ""}:${search ?? ""}:${sort}:${q.order ?? "desc"}`;
      return { status: 200, body: paginate(items, q, key, (m) => presentMember(view(ctx, role), m)) };
    },
  });

  route<MemberP>({
    method: "GET",
    url: "/v1/orgs/:organizationId/members/:userId",
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      return { status: 200, body: presentMember(view(ctx, role), findMember(ctx, org, ctx.params.userId)) };
    },
  });

  route<MemberP, Record<string, never>, { role?: Role | null }>({
    method: "PATCH",
    url: "/v1/orgs/:organizationId/members/:userId",
    body: obj({ role: limit("role") }),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "admin", "change member roles");
      const m = findMember(ctx, org, ctx.params.userId);
      if (ctx.body.role !== undefined) m.role = ctx.body.role;
      ctx.store.touch("members", m);
      return { status: 200, body: presentMember(view(ctx, role), m) };
    },
  });

  route<MemberP>({
    method: "DELETE",
    url: "/v1/orgs/:organizationId/members/:userId",
    handler: (ctx) => {
      const { org } = requireOrg(ctx, ctx.params.organizationId, "admin", "remove members");
      const m = findMember(ctx, org, ctx.params.userId);
      for (const t of ctx.store.all("teams")) {
        if (t.org === org.id && t.members.some((x) => x.user === m.user)) {
          t.members = t.members.filter((x) => x.user !== m.user);
          ctx.store.touch("teams", t);
        }
      }
      ctx.store.del("members", m.id);
      return { status: 204 };
    },
  });
}

/** A member's activity ping, SSO flag, spaces and teams. */
function registerMemberDetails(route: Route): void {
  route<OrgP>({
    method: "POST",
    url: "/v1/orgs/:organizationId/ping",
    handler: (ctx) => {
      const { member } = membership(ctx, ctx.params.organizationId);
      member.lastSeenAt = ctx.store.nowIso();
      ctx.store.touch("members", member);
      return { status: 200, body: {} };
    },
  });

  route<MemberP>({
    method: "POST",
    url: "/v1/orgs/:organizationId/members/:userId/sso",
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "admin", "manage SSO");
      const m = findMember(ctx, org, ctx.params.userId);
      m.sso = true;
      ctx.store.touch("members", m);
      return { status: 200, body: presentMember(view(ctx, role), m) };
    },
  });

  route<MemberP, ListQuery & { order?: "asc" | "desc" }>({
    method: "GET",
    url: "/v1/orgs/:organizationId/members/:userId/spaces",
    query: listQuery({ order: { enum: ["asc", "desc"] } }),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      const m = findMember(ctx, org, ctx.params.userId);
      const spaces = memberSpaces(ctx.store, m);
      if ((ctx.query.order ?? "desc") === "desc") spaces.reverse();
      const permission = m.role ?? "read";
      return {
        status: 200,
        body: paginate(spaces, ctx.query, `member-spaces:${m.id}:${ctx.query.order ?? "desc"}`, (s) => ({ permission, space: presentSpace(view(ctx, role), s) })),
      };
    },
  });

  route<MemberP, ListQuery & { title?: string }>({
    method: "GET",
    url: "/v1/orgs/:organizationId/members/:userId/teams",
    query: listQuery({ title: STRING }),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      const m = findMember(ctx, org, ctx.params.userId);
      const title = ctx.query.title?.toLowerCase();
      const teams = [...ctx.store.all("teams")].filter(
        (t) => t.org === org.id && t.members.some((x) => x.user === m.user) && (title === undefined || t.title.toLowerCase().includes(title)),
      );
      return {
        status: 200,
        body: paginate(teams, ctx.query, `member-teams:${m.id}:${title ?? ""}`, (t) => ({
          team: presentTeam(view(ctx, role), t),
          member: { role: t.members.find((x) => x.user === m.user)!.role },
        })),
      };
    },
  });
}
