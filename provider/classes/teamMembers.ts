/**
 * The Pulumi class of the teamMembers kind: its own module, so that the kind (provider/resources/teamMembers.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import type { TeamRole } from "../client";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type ResolvedTeamMember, type TeamMembersArgs, teamMembersKind, teamMembersProvider } from "../resources/teamMembers";

/** The whole membership set of one team: declared members are added with their roles, others removed. */
export class TeamMembers extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly teamId: pulumi.Output<string>;
  /** The live membership, users as declared. */
  declare public readonly members: pulumi.Output<{ user: string; role: TeamRole }[]>;
  /** The live membership with resolved member IDs. */
  declare public readonly resolved: pulumi.Output<ResolvedTeamMember[]>;

  constructor(name: string, args: TeamMembersArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/teamMembers") as typeof teamMembersProvider;
    super(provider, name, withOutputSlots(args, ["resolved"]), kindOptions(teamMembersKind, opts), "docsplatform", "TeamMembers");
  }
}
