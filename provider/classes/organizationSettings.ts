/**
 * The Pulumi class of the organizationSettings kind: its own module, so that the kind (provider/resources/organizationSettings.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Role } from "../client";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type DefaultContent, type LiveOrganizationSettings, type OrganizationSettingsArgs, SETTINGS, organizationSettingsKind, organizationSettingsProvider } from "../resources/organizationSettings";

/** Settings of an existing organization; destroying the resource restores the values it replaced. */
export class OrganizationSettings extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly title: pulumi.Output<string>;
  declare public readonly emailDomains: pulumi.Output<string[]>;
  declare public readonly hostname: pulumi.Output<string | null>;
  declare public readonly defaultRole: pulumi.Output<Role | null>;
  declare public readonly defaultContent: pulumi.Output<DefaultContent | null>;
  declare public readonly logo: pulumi.Output<string | null>;
  declare public readonly sso: pulumi.Output<boolean | null>;
  declare public readonly ai: pulumi.Output<boolean | null>;
  declare public readonly inviteLinks: pulumi.Output<boolean | null>;
  /** The settings' values before this resource changed them (restored on delete). */
  declare public readonly previous: pulumi.Output<Partial<LiveOrganizationSettings>>;
  declare public readonly type: pulumi.Output<string | null>;
  declare public readonly plan: pulumi.Output<string | null>;
  declare public readonly appUrl: pulumi.Output<string | null>;

  constructor(name: string, args: OrganizationSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/organizationSettings") as typeof organizationSettingsProvider;
    super(
      provider,
      name,
      withOutputSlots(args, [...SETTINGS, "previous", "type", "plan", "appUrl"]),
      kindOptions(organizationSettingsKind, opts),
      "docsplatform",
      "OrganizationSettings",
    );
  }
}
