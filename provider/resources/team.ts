import type { Team as ApiTeam } from "../client";
import { type Created, type KindContext, type KindDefinition, type ResourceArgs, exactlyOne, orGone, limit, ORGANIZATION_FIELD } from "./kind";
import { makeProvider } from "./provider";

/** Inputs of a Team. */
export interface TeamInputs {
  organizationId: string;
  /** 1 to 64 characters, unique in the organization; the natural key `adopt` looks up by (exact, case-sensitive). */
  title: string;
}

/** Outputs of a Team. */
export interface TeamOutputs {
  organizationId: string;
  title: string;
  /** Number of members. */
  members: number | null;
  /** Number of spaces the team has access to. */
  spaces: number | null;
  createdAt: string | null;
}

function toOutputs(organizationId: string, team: ApiTeam): TeamOutputs {
  return {
    organizationId,
    title: team.title ?? "",
    members: team.members ?? null,
    spaces: team.spaces ?? null,
    createdAt: team.createdAt ?? null,
  };
}

/** The team with exactly this title: the API's `title` filter is a case-insensitive substring match. */
async function adopt(ctx: KindContext, inputs: TeamInputs): Promise<Created<TeamOutputs> | undefined> {
  const teams = await ctx.client.teams.list(inputs.organizationId, { title: inputs.title });
  const found = exactlyOne(
    "Team",
    `teams of organization ${inputs.organizationId} are titled ${JSON.stringify(inputs.title)}`,
    teams.filter((t) => t.title === inputs.title),
  );
  return found ? { id: found.id, outs: toOutputs(inputs.organizationId, found) } : undefined;
}

/** The Team kind: created with `PUT /orgs/{org}/teams {title}` (never retried blindly), renamed with PATCH. */
export const teamKind = {
  name: "Team",
  doc: "A team of the organisation.",
  outputs: ["members", "spaces", "createdAt"],
  fields: {
    organizationId: ORGANIZATION_FIELD,
    title: { schema: limit("teamTitle"), doc: "Team title, 1 to 64 characters, unique in the organisation.", required: true },
  },

  naturalKey: { field: "title", scope: "organization", enforced: "team titles are unique in an organisation" },

  async create(ctx, inputs) {
    const team = await ctx.client.teams.create(inputs.organizationId, { title: inputs.title });
    return { id: team.id, outs: toOutputs(inputs.organizationId, team) };
  },

  async read(ctx, id, state) {
    const team = await orGone(ctx.client.teams.get(state.organizationId, id));
    return team ? toOutputs(state.organizationId, team) : undefined;
  },

  async update(ctx, id, olds, news, changed) {
    if (!changed.includes("title")) return olds;
    return toOutputs(olds.organizationId, await ctx.client.teams.update(olds.organizationId, id, { title: news.title }));
  },

  outputsOf: (team: ApiTeam, where) => toOutputs(where.organizationId, team),

  async delete(ctx, id, olds) {
    await ctx.client.teams.delete(olds.organizationId, id);
  },

  adopt,
} satisfies KindDefinition<TeamInputs, TeamOutputs>;

/** The dynamic provider of Team (serialised through `provider/providers/team`). */
export const teamProvider = makeProvider<TeamInputs, TeamOutputs>(teamKind);

/** Arguments of a Team. */
export type TeamArgs = ResourceArgs<TeamInputs>;
