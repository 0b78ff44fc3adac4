/**
 * The Pulumi class of the memberRole kind: its own module, so that the kind (provider/resources/memberRole.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Role } from "../client";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type MemberRoleArgs, memberRoleKind, memberRoleProvider } from "../resources/memberRole";

/** The organization role of an existing member; destroying the resource restores the previous role. */
export class MemberRole extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly userId: pulumi.Output<string>;
  declare public readonly role: pulumi.Output<Role | null>;
  /** The role before this resource changed it (restored on delete). */
  declare public readonly previous: pulumi.Output<{ role?: Role | null }>;
  declare public readonly email: pulumi.Output<string | null>;
  declare public readonly displayName: pulumi.Output<string | null>;

  constructor(name: string, args: MemberRoleArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/memberRole") as typeof memberRoleProvider;
    super(
      provider,
      name,
      withOutputSlots(args, ["previous", "email", "displayName"]),
      kindOptions(memberRoleKind, opts),
      "docsplatform",
      "MemberRole",
    );
  }
}
