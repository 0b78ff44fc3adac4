import type { Member, Role } from "../client";
import { isNotFound } from "../client/errors";
import { type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type ResourceArgs, type StoredOf, orGone, limit, ORGANIZATION_FIELD } from "./kind";
import { makeProvider } from "./provider";

const isEmail = (user: string): boolean => user.includes("@");

/** The fields of a MemberRole: its one declaration, from which its types and schema derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  // E-mail addresses are case-insensitive: a change of case is not a different member.
  userId: { schema: limit("id"), doc: "User ID or e-mail address of an existing member of the organisation.", required: true, createOnly: true, stack: { as: "user" }, normalize: (v) => (typeof v === "string" && isEmail(v) ? v.toLowerCase() : v) },
  role: { schema: limit<Role | null>("role"), doc: "Role in the organisation: admin, create, review, edit, comment or read; null makes the member a guest.", required: true },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a MemberRole: the organization role of an existing member (`userId`: user ID or e-mail address, case-insensitive; `role` null: guest). */
export type MemberRoleInputs = InputsOf<typeof fields>;

/** Outputs of a MemberRole: its fields as stored, the role it replaced and what the API adds. */
export type MemberRoleOutputs = StoredOf<typeof fields> & {
  /** The role before this resource first set it: restored on delete. */
  previous: { role?: Role | null };
  email: string | null;
  displayName: string | null;
};

/** The user ID the API addresses a member by. */
const memberIdOf = (member: Member): string => member.user?.id ?? member.id;

/** `userId` as declared: an e-mail address stays one, so the resolved ID never shows as a change. */
function toOutputs(organizationId: string, userId: string, member: Member, previous: MemberRoleOutputs["previous"]): MemberRoleOutputs {
  return {
    organizationId,
    userId,
    role: member.role ?? null,
    previous,
    email: member.user?.email ?? null,
    displayName: member.user?.displayName ?? null,
  };
}

/** The member a declared user names: by user ID, or by e-mail address through the member list. */
async function findMember(ctx: KindContext, organizationId: string, user: string): Promise<Member> {
  if (isEmail(user)) {
    const wanted = user.toLowerCase();
    const found = (await ctx.client.members.list(organizationId, { search: user })).filter((m) => (m.user?.email ?? "").toLowerCase() === wanted);
    if (found.length === 1) return found[0]!;
    throw new Error(
      found.length === 0
        ? `MemberRole: no member of organization ${organizationId} has the e-mail address ${user}`
        : `MemberRole: ${found.length} members of organization ${organizationId} have the e-mail address ${user}`,
    );
  }
  try {
    return await ctx.client.members.get(organizationId, user);
  } catch (e) {
    if (!isNotFound(e)) throw e;
    throw new Error(`MemberRole: ${user} is not a member of organization ${organizationId}`, { cause: e });
  }
}

/** Sets the member's role when it differs. */
async function setRole(ctx: KindContext, organizationId: string, member: Member, role: Role | null): Promise<Member> {
  if ((member.role ?? null) === role) return member;
  return ctx.client.members.update(organizationId, member.user?.id ?? member.id, { role });
}

/**
 * The MemberRole kind: takes over an existing member and sets its organization role,
 * remembering the role it replaced; delete sets that role back (the member stays).
 */
export const memberRoleKind = {
  name: "MemberRole",
  noun: { one: "member role", many: "member roles" },
  doc: "The role of an existing member of the organisation.",
  outputs: ["previous", "email", "displayName"],
  fields,

  naturalKey: { field: "userId", scope: "organization", enforced: "a member has one role" },

  async create(ctx, inputs) {
    const member = await findMember(ctx, inputs.organizationId, inputs.userId);
    const previous = { role: member.role ?? null };
    // Held from here on: if the change fails, the role to restore on delete is already recorded.
    ctx.created?.(memberIdOf(member), toOutputs(inputs.organizationId, inputs.userId, member, previous));
    const updated = await setRole(ctx, inputs.organizationId, member, inputs.role);
    // The resource ID is the member's user ID, also when the member was declared by e-mail.
    return { id: memberIdOf(member), outs: toOutputs(inputs.organizationId, inputs.userId, updated, previous) };
  },

  async read(ctx, id, state) {
    const member = await orGone(ctx.client.members.get(state.organizationId, id));
    return member ? toOutputs(state.organizationId, state.userId ?? id, member, state.previous ?? {}) : undefined;
  },

  async update(ctx, id, olds, news) {
    const member = await ctx.client.members.get(olds.organizationId, id);
    const previous = "role" in (olds.previous ?? {}) ? olds.previous : { role: olds.role };
    return toOutputs(olds.organizationId, olds.userId, await setRole(ctx, olds.organizationId, member, news.role), previous);
  },

  outputsOf: (member: Member, where) => toOutputs(where.organizationId, member.user?.id ?? member.id, member, {}),

  async delete(ctx, id, olds) {
    if (!olds.previous || !("role" in olds.previous) || olds.previous.role === undefined) return;
    const member = await ctx.client.members.get(olds.organizationId, id);
    await setRole(ctx, olds.organizationId, member, olds.previous.role);
  },
} satisfies KindDefinition<MemberRoleInputs, MemberRoleOutputs>;

/** The dynamic provider of MemberRole (serialised through `provider/providers/memberRole`). */
export const memberRoleProvider = makeProvider<MemberRoleInputs, MemberRoleOutputs>(memberRoleKind);

/** Arguments of a MemberRole. */
export type MemberRoleArgs = ResourceArgs<MemberRoleInputs>;
