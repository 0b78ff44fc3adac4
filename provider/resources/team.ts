import type { CreateTeamBody, Team as ApiTeam } from "../client";
import { type FieldSpec, type InputsOf, type KindDefinition, type ResourceArgs, type StoredOf, limit, ORGANIZATION_FIELD, reported } from "./kind";
import { organizationObject } from "./organizationObject";
import { makeProvider } from "./provider";

/** The fields of a Team: its one declaration, from which its types, schema and request bodies derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  title: { schema: limit("teamTitle"), doc: "Team title, 1 to 64 characters, unique in the organisation.", required: true, patched: true },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a Team (`title`, unique in the organisation, is the natural key `adopt` looks up by: exact, case-sensitive). */
export type TeamInputs = InputsOf<typeof fields>;

/** Outputs of a Team: its fields as stored, and what the API adds. */
export type TeamOutputs = StoredOf<typeof fields> & {
  /** Number of members. */
  members: number | null;
  /** Number of spaces the team has access to. */
  spaces: number | null;
  createdAt: string | null;
};

function toOutputs(organizationId: string, team: ApiTeam): TeamOutputs {
  return { organizationId, title: team.title ?? "", ...reported(team, ["members", "spaces", "createdAt"]) };
}

/** The Team kind: created with `PUT /orgs/{org}/teams {title}` (never retried blindly), renamed with PATCH. */
export const teamKind = {
  name: "Team",
  noun: { one: "team", many: "teams" },
  doc: "A team of the organisation.",
  fields,

  ...organizationObject<TeamInputs, TeamOutputs, ApiTeam, CreateTeamBody>({
    kind: "Team",
    area: (client) => client.teams,
    toOutputs,
    fields,
    naturalKey: { field: "title", enforced: "team titles are unique in an organisation" },
    objects: "teams",
    verb: "are titled",
    // The API filters teams by title (a case-insensitive substring match; adopt keeps the exact title).
    query: (inputs) => ({ title: inputs.title }),
  }),
} satisfies KindDefinition<TeamInputs, TeamOutputs>;

/** The dynamic provider of Team (serialised through `provider/providers/team`). */
export const teamProvider = makeProvider<TeamInputs, TeamOutputs>(teamKind);

/** Arguments of a Team. */
export type TeamArgs = ResourceArgs<TeamInputs>;
