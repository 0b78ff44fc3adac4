import type { ApiClient, Grants, RoleOrGuest } from "../client";
import type { SitePermissionOrigin } from "../client/accessTypes";
import { ROLES } from "../client/types";
import { isNotFound } from "../client/errors";
import { type KindContext, type KindDefinition, type ResourceArgs, containsUnknown, limit, orGone, ORGANIZATION_FIELD } from "./kind";
import { makeProvider } from "./provider";

/** What a set of grants is about. */
export type GrantTarget = "site" | "space" | "collection";

/** One declared grant: a team (by ID) or a user (by user ID or e-mail address) with a role (`null`: guest). */
export interface Grant {
  team?: string;
  user?: string;
  role: RoleOrGuest;
}

/** Inputs of Permissions: the whole set of direct grants on one site, space or collection. */
export interface PermissionsInputs {
  organizationId: string;
  on: GrantTarget;
  /** The site's, space's or collection's ID. */
  targetId: string;
  /** Every direct grant; a live grant not listed is removed. */
  grants: Grant[];
  /** Allows a plan that leaves the object with no admin grant or removes the caller's access. */
  allowLockout?: boolean;
  /** The user the API token acts as (user ID or e-mail address): a plan removing their access is refused. */
  caller?: string;
  /** IDs of the teams the caller belongs to: a plan removing one of their grants is refused. */
  callerTeams?: string[];
  /** How the guard's errors name the object: where it is declared and what it is (`docs.yaml:12:5: site partner`); default `site <ID>`. */
  location?: string;
  /** The stack file's teams, key → ID: the guard's errors name a team by its key, as the file does (default: its ID). */
  teamIds?: Record<string, string>;
}

/** A live direct grant, with the user's e-mail address when the API gives it. */
export interface DirectGrant {
  team?: string;
  user?: string;
  email?: string | null;
  role: RoleOrGuest;
}

/** Outputs of Permissions. */
export interface PermissionsOutputs extends PermissionsInputs {
  /** The live direct grants (teams and users by ID). */
  direct: DirectGrant[];
  /** Declared users (as declared) to whom nothing was sent: their organisation role or a team already gives the role. */
  implied: string[];
}

const isEmail = (user: string): boolean => user.includes("@");

/** Ranks a level: a role by its power (0 is admin), a guest below read. */
const rank = (role: RoleOrGuest): number => (role === null ? ROLES.length : ROLES.indexOf(role));

/** A grant's subject in words: `team T` or `user U`. */
export const subject = (g: { team?: string; user?: string }): string => (g.team !== undefined ? `team ${g.team}` : `user ${g.user}`);

/** A grant in words, as errors and views show it. */
export const grantText = (g: Grant): string => `${subject(g)} (${g.role ?? "guest"})`;

/** Whether a declared reference names a direct grant (teams by ID; users by ID or, case-insensitively, e-mail). */
export function names(declared: { team?: string; user?: string }, live: DirectGrant): boolean {
  if (declared.team !== undefined) return live.team === declared.team;
  if (declared.user === undefined || live.user === undefined) return false;
  if (isEmail(declared.user)) return (live.email ?? "").toLowerCase() === declared.user.toLowerCase();
  return live.user === declared.user;
}

/** A user grant's e-mail address, when known. */
const emailOf = (g: DirectGrant): string | undefined => (g.email ?? (g.user !== undefined && isEmail(g.user) ? g.user : undefined))?.toLowerCase();

/** Whether two grants are of the same team, or of the same user (by ID or e-mail address). */
function sameSubject(a: DirectGrant, b: DirectGrant): boolean {
  if (a.team !== undefined || b.team !== undefined) return a.team === b.team;
  if (a.user === b.user) return true;
  const [ea, eb] = [emailOf(a), emailOf(b)];
  return ea !== undefined && ea === eb;
}

/** Whether a grant is the caller's: their user grant, or a grant of a team they belong to. */
function isCallers(g: DirectGrant, caller: string | undefined, callerTeams: readonly string[]): boolean {
  if (g.team !== undefined) return callerTeams.includes(g.team);
  return caller !== undefined && sameSubject(g, isEmail(caller) ? { user: caller, email: caller, role: null } : { user: caller, role: null });
}

/** The object's name in errors: `site S`, `space S`, `collection C`. */
const objectText = (on: GrantTarget, id: string): string => `${on} ${id}`;

/** The settings of the lock-out guard, as a Permissions resource carries them. */
type Guard = Pick<PermissionsInputs, "allowLockout" | "caller" | "callerTeams" | "location" | "teamIds">;

/** A grant's subject as the stack file names it: a team by its key where the file declares it (else its ID). */
function namedSubject(g: DirectGrant, guard: Guard): string {
  if (g.team === undefined) return `user ${g.user}`;
  // In a preview, the ID of a team not created yet is unknown: such an entry names nothing.
  const key = Object.entries(guard.teamIds ?? {}).find(([, id]) => id === g.team)?.[0];
  return `team ${key ?? g.team}`;
}

/**
 * The lock-out guard: why going from `before` to `after` (the direct grants of one object) is refused —
 * the object keeps no admin grant (of a user or a team) although it had one, or a grant giving the
 * caller access (their own, or their team's) is removed. Empty when allowed.
 */
export function lockoutProblems(
  on: GrantTarget,
  targetId: string,
  before: readonly DirectGrant[],
  after: readonly DirectGrant[],
  guard: Guard,
): { grant: DirectGrant; reason: string }[] {
  if (guard.allowLockout === true) return [];
  const problems: { grant: DirectGrant; reason: string }[] = [];
  const what = guard.location ?? objectText(on, targetId);
  const named = (g: DirectGrant): string => `${namedSubject(g, guard)} (${g.role ?? "guest"})`;
  const admins = before.filter((g) => g.role === "admin");
  if (admins.length > 0 && !after.some((g) => g.role === "admin")) {
    for (const g of admins) {
      const kept = after.find((a) => sameSubject(a, g));
      const change = kept ? `changing ${namedSubject(g, guard)} from admin to ${kept.role ?? "guest"}` : `removing ${named(g)}`;
      problems.push({ grant: g, reason: `${what}: ${change} leaves it with no admin (directly or through a team); set allowLockout: true on it to allow this` });
    }
  }
  for (const g of before) {
    if (!isCallers(g, guard.caller, guard.callerTeams ?? [])) continue;
    const still = after.some((a) => sameSubject(a, g));
    if (!still) problems.push({ grant: g, reason: `${what}: removing ${named(g)} removes the caller's own access; set allowLockout: true on it to allow this` });
  }
  return problems;
}

/**
 * The lock-out guard between two declarations, before any write. A team's grant is always sent, so a
 * declared one was live; a user's may never have been (their organisation role or a team already gave
 * the role: nothing was sent, nothing is there to remove). When the declarations alone would refuse the
 * change of a user's grant, the object's live direct grants (two reads) decide: the guard then runs from
 * them to what the new declaration leaves, as the update will.
 */
async function guardedChange(olds: Partial<PermissionsInputs>, news: PermissionsInputs, context: () => Promise<KindContext>): Promise<{ property: string; reason: string }[]> {
  const failures = (problems: { reason: string }[]) => problems.map((p) => ({ property: "grants", reason: p.reason }));
  const declared = lockoutProblems(news.on, news.targetId, olds.grants ?? [], news.grants, news);
  if (declared.every((p) => p.grant.team !== undefined)) return failures(declared);
  let direct: DirectGrant[];
  try {
    direct = await liveDirect((await context()).client, news);
  } catch {
    return failures(declared); // nothing to read with: the declarations' answer stands
  }
  const plan = grantPlan(news.grants, direct);
  const left = direct.filter((l) => !plan.remove.includes(l)).map((l) => ({ ...l, role: plan.change.find((c) => c.live === l)?.role ?? l.role }));
  // A live user grant is named as a declaration names it (an e-mail address rather than the user's ID).
  const asDeclared = (l: DirectGrant): DirectGrant => ({ ...l, user: [...(olds.grants ?? []), ...news.grants].find((d) => l.user !== undefined && names(d, l))?.user ?? l.user });
  return failures(lockoutProblems(news.on, news.targetId, direct.map(asDeclared), [...left.map(asDeclared), ...plan.add], news));
}

/** Declared grants in a comparable form: users by lowercase e-mail, sorted; roles kept. */
function normalizeGrants(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  return (v as Grant[])
    .map((g) => (g.team !== undefined ? { team: g.team, role: g.role ?? null } : { user: isEmail(String(g.user)) ? String(g.user).toLowerCase() : g.user, role: g.role ?? null }))
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

/** Rejects a set that names one team or user twice. */
function assertDistinct(grants: readonly Grant[]): void {
  const seen = new Map<string, number>();
  grants.forEach((g, i) => {
    const key = g.team !== undefined ? `team:${g.team}` : `user:${isEmail(g.user!) ? g.user!.toLowerCase() : g.user}`;
    const first = seen.get(key);
    if (first !== undefined) throw new Error(`Permissions: grants[${i}] repeats grants[${first}] (${subject(g)})`);
    seen.set(key, i);
  });
}

function grantsApi(client: ApiClient, inputs: { organizationId: string; on: GrantTarget; targetId: string }): Grants<object> {
  if (inputs.on === "site") return client.permissions.site(inputs.organizationId, inputs.targetId) as Grants<object>;
  return (inputs.on === "space" ? client.permissions.space(inputs.targetId) : client.permissions.collection(inputs.targetId)) as Grants<object>;
}

/** The object's live direct grants (two list reads). */
async function liveDirect(client: ApiClient, inputs: PermissionsInputs): Promise<DirectGrant[]> {
  const api = grantsApi(client, inputs);
  const [teams, users] = await Promise.all([api.listTeams(), api.listUsers()]);
  return [
    ...teams.map((t) => ({ team: t.team.id, role: t.permission })),
    ...users.map((u) => ({ user: u.user.id, email: u.user.email ?? null, role: u.permission })),
  ];
}

/** What turns `direct` into the declared set: removals, role changes and the grants to add. */
export function grantPlan(declared: readonly Grant[], direct: readonly DirectGrant[]): { remove: DirectGrant[]; change: { live: DirectGrant; role: RoleOrGuest }[]; add: Grant[] } {
  const remove = direct.filter((l) => !declared.some((d) => names(d, l)));
  const change: { live: DirectGrant; role: RoleOrGuest }[] = [];
  const add: Grant[] = [];
  for (const d of declared) {
    const live = direct.find((l) => names(d, l));
    if (!live) add.push(d);
    else if (live.role !== (d.role ?? null)) change.push({ live, role: d.role ?? null });
  }
  return { remove, change, add };
}

/** The outputs' `grants`: each declared grant a live direct grant or the implied list satisfies, then live grants nobody declared. */
function satisfied(declared: readonly Grant[], direct: readonly DirectGrant[], implied: readonly string[]): Grant[] {
  const out: Grant[] = [];
  for (const d of declared) {
    const live = direct.find((l) => names(d, l));
    if (live) out.push(d.team !== undefined ? { team: d.team, role: live.role } : { user: d.user!, role: live.role });
    else if (d.user !== undefined && implied.includes(d.user)) out.push(d);
  }
  for (const l of direct) if (!declared.some((d) => names(d, l))) out.push(l.team !== undefined ? { team: l.team, role: l.role } : { user: l.user!, role: l.role });
  return out;
}

function toOutputs(inputs: PermissionsInputs, direct: DirectGrant[], implied: string[]): PermissionsOutputs {
  const { allowLockout, caller, callerTeams, location, teamIds: _teamIds, ...rest } = inputs;
  return {
    ...rest,
    ...(location === undefined ? {} : { location }),
    ...(allowLockout === undefined ? {} : { allowLockout }),
    ...(caller === undefined ? {} : { caller }),
    ...(callerTeams === undefined ? {} : { callerTeams }),
    grants: satisfied(inputs.grants, direct, implied),
    direct,
    implied,
  };
}

/** One write of a grant change: an invite (one role for several teams and users), a role set on one grant, a grant removed. */
export type GrantWrite =
  | { op: "invite"; role: RoleOrGuest; grants: DirectGrant[] }
  | { op: "set"; grant: DirectGrant; role: RoleOrGuest }
  | { op: "remove"; grant: DirectGrant };

/** Whether a role change gives at least as much access as the live role (a promotion). */
const raises = (live: DirectGrant, role: RoleOrGuest): boolean => rank(role) <= rank(live.role);

/** One invite per role, the strongest role first. */
function invitesByRole(grants: readonly DirectGrant[]): GrantWrite[] {
  const byRole = new Map<string, DirectGrant[]>();
  for (const g of grants) byRole.set(JSON.stringify(g.role), [...(byRole.get(JSON.stringify(g.role)) ?? []), g]);
  return [...byRole.values()].sort((a, b) => rank(a[0]!.role) - rank(b[0]!.role)).map((group) => ({ op: "invite", role: group[0]!.role, grants: group }));
}

/**
 * The writes of a grant change, ordered so that a run cut after any one of them leaves a state the
 * lock-out guard accepts whenever it accepts the end state: first what gives access (the new grants'
 * invites, then promotions, the strongest role first), then what takes it away (demotions, then
 * removals). Until the last write the object keeps every admin it will end with, and nothing the end
 * state keeps (the caller's grants among it) is ever removed. A site's grant becomes a guest's by an
 * invite: its PATCH takes no null.
 */
export function grantWrites(on: GrantTarget, plan: { add: readonly DirectGrant[]; change: readonly { live: DirectGrant; role: RoleOrGuest }[]; remove: readonly DirectGrant[] }): GrantWrite[] {
  const byRank = <T extends { role: RoleOrGuest }>(xs: T[]): T[] => [...xs].sort((a, b) => rank(a.role) - rank(b.role));
  const promotions = byRank(plan.change.filter((c) => raises(c.live, c.role)));
  const demotions = byRank(plan.change.filter((c) => !raises(c.live, c.role)));
  const toGuest = on === "site" ? demotions.filter((c) => c.role === null) : [];
  return [
    ...invitesByRole(plan.add),
    ...promotions.map((c): GrantWrite => ({ op: "set", grant: c.live, role: c.role })),
    ...demotions.filter((c) => !toGuest.includes(c)).map((c): GrantWrite => ({ op: "set", grant: c.live, role: c.role })),
    ...invitesByRole(toGuest.map((c) => ({ ...c.live, role: c.role }))),
    ...plan.remove.map((g): GrantWrite => ({ op: "remove", grant: g })),
  ];
}

/** The direct grants once `write` took effect: an invite sets (or adds) each listed grant's role. */
export function afterWrite(direct: readonly DirectGrant[], write: GrantWrite): DirectGrant[] {
  if (write.op === "remove") return direct.filter((l) => !sameSubject(l, write.grant));
  if (write.op === "set") return direct.map((l) => (sameSubject(l, write.grant) ? { ...l, role: write.role } : l));
  const sent = write.grants.map((g) => ({ ...g, role: write.role }));
  return [...direct.filter((l) => !sent.some((s) => sameSubject(s, l))), ...sent];
}

/** The request of one write. */
function request(api: Grants<object>, write: GrantWrite): Promise<void> {
  if (write.op === "invite") {
    const teams = write.grants.flatMap((g) => (g.team !== undefined ? [g.team] : []));
    const users = write.grants.flatMap((g) => (g.team === undefined ? [g.user!] : []));
    return api.invite({ role: write.role, ...(teams.length > 0 ? { teams } : {}), ...(users.length > 0 ? { users } : {}) });
  }
  const { team, user } = write.grant;
  if (write.op === "set") return team !== undefined ? api.updateTeam(team, write.role) : api.updateUser(user!, write.role);
  return team !== undefined ? api.removeTeam(team) : api.removeUser(user!);
}

/** Sends one write; answers the direct grants after it. */
async function send(api: Grants<object>, direct: DirectGrant[], write: GrantWrite): Promise<DirectGrant[]> {
  try {
    await request(api, write);
  } catch (e) {
    if (!isNotFound(e) || write.op === "invite") throw e;
    if (write.op === "remove") return afterWrite(direct, write);
    // Removed by hand since it was read: the role is granted again by an invite.
    return send(api, afterWrite(direct, { op: "remove", grant: write.grant }), { op: "invite", role: write.role, grants: [write.grant] });
  }
  return afterWrite(direct, write);
}

/**
 * Brings the object's direct grants from `direct` to the declared set: the guard first (nothing sent
 * when it refuses), then the new grants resolved (users named by e-mail, users whose organisation role
 * or team already gives the role left out), then the writes in {@link grantWrites}' order.
 */
async function converge(ctx: KindContext, inputs: PermissionsInputs, direct: DirectGrant[], known: readonly string[] = []): Promise<PermissionsOutputs> {
  assertDistinct(inputs.grants);
  const plan = grantPlan(inputs.grants, direct);
  // The teams whose grants this change removes or lowers: access a user has through one of them now
  // is gone once the change is done.
  const lowered = [...plan.remove, ...plan.change.filter((c) => !raises(c.live, c.role)).map((c) => c.live)].flatMap((g) => (g.team !== undefined ? [g.team] : []));
  // Users already known to be implied (from the state) are not looked up again, unless a team is lowered.
  const stillImplied = lowered.length > 0 ? [] : plan.add.filter((g) => g.user !== undefined && known.includes(g.user)).map((g) => g.user!);
  plan.add = plan.add.filter((g) => g.user === undefined || !stillImplied.includes(g.user));
  const planned = grantWrites(inputs.on, { ...plan, add: plan.add.map((g) => ({ ...g, role: g.role ?? null })) }).reduce(afterWrite, direct);
  const problems = lockoutProblems(inputs.on, inputs.targetId, direct, planned, inputs);
  if (problems.length > 0) throw new Error(`Permissions refused before any change: ${problems.map((p) => p.reason).join("; ")}`);

  const api = grantsApi(ctx.client, inputs);
  const { grants: add, implied } = await resolveAdded(ctx, inputs, api, plan.add, lowered);
  let live = [...direct];
  for (const write of grantWrites(inputs.on, { ...plan, add })) live = await send(api, live, write);
  return toOutputs(inputs, live, [...stillImplied, ...implied]);
}

/**
 * Whether a user's effective access (an aggregate entry) lasts through a change lowering the grants of
 * the `lowered` teams: always when no team is lowered; otherwise only when the entry says what set the
 * level (a site's aggregate does) and that is not one of those teams.
 */
function lasts(reach: { origin?: SitePermissionOrigin }, lowered: readonly string[]): boolean {
  if (lowered.length === 0) return true;
  const origin = reach.origin;
  if (origin === undefined) return false;
  return !(origin.type === "site" && origin.reason === "team" && (origin.team === undefined || lowered.includes(origin.team)));
}

/**
 * The new grants as they are sent: users named by e-mail resolved through the member list; a user whose
 * effective access (the aggregate list) already reaches the role, through something this change keeps
 * (see {@link lasts}), left out and reported as implied.
 */
async function resolveAdded(ctx: KindContext, inputs: PermissionsInputs, api: Grants<object>, add: Grant[], lowered: readonly string[]): Promise<{ grants: DirectGrant[]; implied: string[] }> {
  const grants: DirectGrant[] = [];
  const implied: string[] = [];
  const users = add.filter((g) => g.user !== undefined);
  const members = users.some((g) => isEmail(g.user!)) ? await ctx.client.members.list(inputs.organizationId) : [];
  const access: { permission: RoleOrGuest; user: { id: string; email?: string | null }; origin?: SitePermissionOrigin }[] = users.length > 0 ? await api.aggregate() : [];
  for (const g of add) {
    if (g.team !== undefined) {
      grants.push({ team: g.team, role: g.role ?? null });
      continue;
    }
    const member = isEmail(g.user!) ? members.find((m) => (m.user.email ?? "").toLowerCase() === g.user!.toLowerCase()) : undefined;
    if (isEmail(g.user!) && !member) throw new Error(`Permissions: ${objectText(inputs.on, inputs.targetId)}: user ${g.user} is not a member of organization ${inputs.organizationId}`);
    const id = member ? member.user.id : g.user!;
    const reach = access.find((a) => a.user.id === id);
    if (reach && rank(reach.permission) <= rank(g.role ?? null) && lasts(reach, lowered)) {
      implied.push(g.user!);
      continue;
    }
    grants.push({ user: id, email: member?.user.email ?? (reach?.user.email ?? null), role: g.role ?? null });
  }
  return { grants, implied };
}

/** Never a change: settings of the guard, not of the platform. */
const guardSetting = (): null => null;

const GRANT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["role"],
  oneOf: [{ required: ["team"] }, { required: ["user"] }],
  properties: {
    team: { ...limit("id"), description: "ID of a team of the organisation." },
    user: { type: "string", minLength: 1, maxLength: 320, description: "A member's user ID or e-mail address." },
    role: { ...limit("role"), description: "The role granted: admin, create, review, edit, comment, read, or null for guest access." },
  },
};

/** The Permissions kind: the whole set of direct grants of teams and users on one site, space or collection. */
export const permissionsKind = {
  name: "Permissions",
  noun: { one: "permission grant", many: "permission grants" },
  doc: "The whole set of roles granted directly to teams and users on one site, space or collection.",
  outputs: ["direct", "implied"],
  fields: {
    organizationId: ORGANIZATION_FIELD,
    on: { schema: { type: "string", enum: ["site", "space", "collection"] }, doc: "What the grants are on: a site, a space or a collection.", required: true, createOnly: true, stack: "context" },
    targetId: { schema: limit("id"), doc: "ID of the site, space or collection.", required: true, createOnly: true, stack: "context" },
    grants: {
      schema: { type: "array", items: GRANT_SCHEMA },
      doc: "Every direct grant, each team or user at most once: a grant not listed is removed, a changed role is changed, new grants are sent as one invite per role. Nothing is sent for a user whose organisation role or team already gives the role (unless that access may come through a team's grant the change removes or lowers). New grants and promotions go first, demotions and removals last, so a run cut between two writes never leaves the object without the admins the change keeps.",
      required: true,
      normalize: normalizeGrants,
    },
    allowLockout: {
      schema: { type: "boolean" },
      doc: "Allows a change that leaves the object with no admin (directly or through a team) or removes the caller's own access; without it such a plan is refused before any request.",
      absent: "unmanaged",
      normalize: guardSetting,
      internal: true,
    },
    caller: {
      schema: { type: "string", minLength: 1, maxLength: 320 },
      doc: "The user the API token acts as (user ID or e-mail address), for the lock-out guard.",
      absent: "unmanaged",
      normalize: guardSetting,
      internal: true,
      stack: "context",
    },
    callerTeams: {
      schema: { type: "array", items: limit("id") },
      doc: "IDs of the teams the caller belongs to, for the lock-out guard.",
      absent: "unmanaged",
      normalize: guardSetting,
      internal: true,
      stack: "context",
    },
    teamIds: {
      schema: { type: "object", additionalProperties: { type: "string" } },
      doc: "The stack file's teams, key → ID, for the lock-out guard: its errors name a team by its key, as the file does.",
      absent: "unmanaged",
      normalize: guardSetting,
      stack: "context",
      internal: true,
    },
    location: {
      schema: { type: "string", maxLength: 4096 },
      doc: "How the lock-out guard's errors name the object: where it is declared and what it is (docs.yaml:12:5: site partner); default: its kind and ID.",
      absent: "unmanaged",
      normalize: guardSetting,
      internal: true,
      stack: "context",
    },
  },

  /** Before any write: the lock-out guard between the previous declaration and this one. */
  refuse(olds, news, context) {
    if (!Array.isArray(olds.grants) || !Array.isArray(news.grants) || containsUnknown(news.grants) || containsUnknown(olds.grants)) return [];
    if (olds.on !== news.on || olds.targetId !== news.targetId) return [];
    return guardedChange(olds, news, context);
  },

  async create(ctx, inputs) {
    const direct = await liveDirect(ctx.client, inputs);
    return { id: `${inputs.on}:${inputs.targetId}`, outs: await converge(ctx, inputs, direct) };
  },

  async read(ctx, id, stored) {
    // With no state (Resource.get) the object is the one the ID (`<on>:<targetId>`, made by create) names.
    const at = id.indexOf(":");
    const state = { ...stored, on: stored.on ?? (id.slice(0, at) as GrantTarget), targetId: stored.targetId ?? id.slice(at + 1), grants: stored.grants ?? [] };
    const direct = await orGone(liveDirect(ctx.client, state));
    if (!direct) return undefined;
    const implied = (state.implied ?? []).filter((u) => !direct.some((l) => names({ user: u }, l)));
    return toOutputs(state, direct, implied);
  },

  // From the state: no read, only the writes the change needs.
  async update(ctx, _id, olds, news) {
    // A user known to be implied stays so while their declared role is the one it was implied for.
    const same = (u: string) => {
      const before = (olds.grants ?? []).find((g) => g.user === u);
      const now = news.grants.find((g) => g.user === u);
      return before !== undefined && now !== undefined && (before.role ?? null) === (now.role ?? null);
    };
    return converge(ctx, { ...news, on: olds.on, targetId: olds.targetId }, olds.direct ?? [], (olds.implied ?? []).filter(same));
  },

  // Not managed once the block is gone: the grants stay as they are.
  async delete() {},
} satisfies KindDefinition<PermissionsInputs, PermissionsOutputs>;

/** The dynamic provider of Permissions (serialised through `provider/providers/permissions`). */
export const permissionsProvider = makeProvider<PermissionsInputs, PermissionsOutputs>(permissionsKind);

/** Arguments of Permissions. */
export type PermissionsArgs = ResourceArgs<PermissionsInputs>;

