import type { TeamMemberItem, TeamRole, UpdateTeamMembersBody } from "../client";
import { type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type ResourceArgs, type StoredOf, type ValueSchema, orGone, limit, ORGANIZATION_FIELD } from "./kind";
import { makeProvider } from "./provider";

/** One declared membership: `user` is a member ID or the member's e-mail address. */
export interface TeamMember {
  user: string;
  /** `owner` can manage the team's members; `member` when not declared. */
  role?: TeamRole;
}

/** The fields of TeamMembers: its one declaration, from which its types and schema derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  teamId: { schema: limit("id"), doc: "ID of the team.", required: true, createOnly: true, stack: "context" },
  members: { schema: {"type": "array", "items": {"type": "object", "required": ["user"], "additionalProperties": false, "properties": {"user": limit("id"), "role": limit("teamRole")}}} as ValueSchema<TeamMember[]>, doc: "The team's members; each user at most once. Members not listed are removed from the team.", required: true, normalize: normalizeMembers },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of TeamMembers: the whole membership set of one team (members not listed are removed). */
export type TeamMembersInputs = InputsOf<typeof fields>;

/** A live membership: the user as declared (or the member ID when not declared) with the resolved member ID. */
export interface ResolvedTeamMember {
  /** As declared (member ID or e-mail); the member ID for a member nobody declared. */
  user: string;
  /** The member ID the API reports. */
  memberId: string;
  email: string | null;
  role: TeamRole;
}

/** Outputs of TeamMembers: the team and its live membership. */
export type TeamMembersOutputs = Omit<StoredOf<typeof fields>, "members"> & {
  /** The live membership in the declared form (users as declared, roles filled in). */
  members: { user: string; role: TeamRole }[];
  /** The live membership with resolved member IDs and e-mail addresses. */
  resolved: ResolvedTeamMember[];
};

const DEFAULT_ROLE: TeamRole = "member";

const isEmail = (user: string): boolean => user.includes("@");

/** The comparable form of a user reference: e-mail addresses are case-insensitive. */
const userKey = (user: string): string => (isEmail(user) ? user.toLowerCase() : user);

/** Whether a declared user reference (member ID or e-mail) names the member of a list item. */
function refersTo(user: string, item: TeamMemberItem): boolean {
  const member = item.organization;
  if (isEmail(user)) return (member.user?.email ?? "").toLowerCase() === user.toLowerCase();
  return user === member.id || user === member.user?.id;
}

/** The ID a member is addressed by in `add`/`remove`: the user ID. */
const memberIdOf = (item: TeamMemberItem): string => item.organization.user?.id ?? item.organization.id;

/** Membership sets compare as sets of `{user, role}` with the default role filled in. */
function normalizeMembers(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  return (v as TeamMember[])
    .map((m) => ({ user: userKey(String(m.user)), role: m.role ?? DEFAULT_ROLE }))
    .sort((a, b) => (a.user < b.user ? -1 : a.user > b.user ? 1 : a.role < b.role ? -1 : a.role > b.role ? 1 : 0));
}

/** Rejects a set that names one user twice (it could not be applied unambiguously). */
function assertDistinct(members: TeamMember[]): void {
  const seen = new Map<string, number>();
  members.forEach((m, i) => {
    const key = userKey(m.user);
    const first = seen.get(key);
    if (first !== undefined) {
      throw new Error(`TeamMembers: members[${i}].user ${JSON.stringify(m.user)} repeats members[${first}].user`);
    }
    seen.set(key, i);
  });
}

/** Outputs from the live list: each live member labelled with the declared reference that names it. */
function toOutputs(parent: { organizationId: string; teamId: string }, declared: TeamMember[], live: TeamMemberItem[]): TeamMembersOutputs {
  const labelled = live.map((item) => {
    const index = declared.findIndex((d) => refersTo(d.user, item));
    return { index: index < 0 ? Number.MAX_SAFE_INTEGER : index, user: index < 0 ? memberIdOf(item) : declared[index]!.user, item };
  });
  labelled.sort((a, b) => a.index - b.index || (a.user < b.user ? -1 : a.user > b.user ? 1 : 0));
  const resolved = labelled.map(({ user, item }) => ({
    user,
    memberId: memberIdOf(item),
    email: item.organization.user?.email ?? null,
    role: item.team.role,
  }));
  return {
    organizationId: parent.organizationId,
    teamId: parent.teamId,
    members: resolved.map(({ user, role }) => ({ user, role })),
    resolved,
  };
}

/** The one `PUT /members` that turns the live set into the declared one, or undefined when they already match. */
export function membershipChange(declared: TeamMember[], live: TeamMemberItem[]): UpdateTeamMembersBody | undefined {
  const add: string[] = [];
  const memberships: Record<string, { role: TeamRole }> = {};
  for (const d of declared) {
    const role = d.role ?? DEFAULT_ROLE;
    const item = live.find((l) => refersTo(d.user, l));
    if (!item) add.push(d.user);
    if (!item || item.team.role !== role) memberships[d.user] = { role };
  }
  const remove = live.filter((l) => !declared.some((d) => refersTo(d.user, l))).map(memberIdOf);
  if (add.length === 0 && remove.length === 0 && Object.keys(memberships).length === 0) return undefined;
  const body: UpdateTeamMembersBody = {};
  if (add.length > 0) body.add = add;
  if (remove.length > 0) body.remove = remove;
  if (Object.keys(memberships).length > 0) body.memberships = memberships;
  return body;
}

/** Brings the team's membership to exactly the declared set and reports the result. */
async function converge(ctx: KindContext, inputs: TeamMembersInputs): Promise<TeamMembersOutputs> {
  assertDistinct(inputs.members);
  const { organizationId, teamId } = inputs;
  const live = await ctx.client.teams.listMembers(organizationId, teamId);
  const body = membershipChange(inputs.members, live);
  if (!body) return toOutputs(inputs, inputs.members, live);
  await ctx.client.teams.updateMembers(organizationId, teamId, body);
  return toOutputs(inputs, inputs.members, await ctx.client.teams.listMembers(organizationId, teamId));
}

/** The TeamMembers kind: one team's whole membership, set with one `PUT /teams/{id}/members`. */
export const teamMembersKind = {
  name: "TeamMembers",
  noun: { one: "team member", many: "team members" },
  doc: "The whole membership of a team: members not listed are removed.",
  outputs: ["resolved"],
  fields,

  naturalKey: { field: "teamId", scope: "organization" },

  async create(ctx, inputs) {
    return { id: inputs.teamId, outs: await converge(ctx, inputs) };
  },

  async read(ctx, _id, state) {
    const live = await orGone(ctx.client.teams.listMembers(state.organizationId, state.teamId));
    return live ? toOutputs(state, state.members ?? [], live) : undefined;
  },

  async update(ctx, _id, olds, news) {
    return converge(ctx, { ...news, organizationId: olds.organizationId, teamId: olds.teamId });
  },

  async delete(ctx, _id, olds) {
    const live = await ctx.client.teams.listMembers(olds.organizationId, olds.teamId);
    const remove = live.filter((l) => olds.members.some((m) => refersTo(m.user, l))).map(memberIdOf);
    if (remove.length > 0) await ctx.client.teams.updateMembers(olds.organizationId, olds.teamId, { remove });
  },
} satisfies KindDefinition<TeamMembersInputs, TeamMembersOutputs>;

/** The dynamic provider of TeamMembers (serialised through `provider/providers/teamMembers`). */
export const teamMembersProvider = makeProvider<TeamMembersInputs, TeamMembersOutputs>(teamMembersKind);

/** Arguments of TeamMembers. */
export type TeamMembersArgs = ResourceArgs<TeamMembersInputs>;
