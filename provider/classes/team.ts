/**
 * The Pulumi class of the team kind: its own module, so that the kind (provider/resources/team.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type TeamArgs, teamKind, teamProvider } from "../resources/team";

/** A team of an organization. Its membership is declared with `TeamMembers`. */
export class Team extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly title: pulumi.Output<string>;
  /** Number of members. */
  declare public readonly members: pulumi.Output<number | null>;
  /** Number of spaces the team has access to. */
  declare public readonly spaces: pulumi.Output<number | null>;
  declare public readonly createdAt: pulumi.Output<string | null>;

  constructor(name: string, args: TeamArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/team") as typeof teamProvider;
    super(provider, name, withOutputSlots(args, ["members", "spaces", "createdAt"]), kindOptions(teamKind, opts), "docsplatform", "Team");
  }
}
