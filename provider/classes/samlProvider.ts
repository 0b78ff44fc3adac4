/**
 * The Pulumi class of the samlProvider kind: its own module, so that the kind (provider/resources/samlProvider.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Role } from "../client";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type SamlProviderArgs, type SamlProviderOutputs, samlProviderKind, samlProviderProvider } from "../resources/samlProvider";

/** A SAML single sign-on provider of an organization. */
export class SamlProvider extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly label: pulumi.Output<string>;
  declare public readonly entityID: pulumi.Output<string | null>;
  declare public readonly certificate: pulumi.Output<string | null>;
  declare public readonly ssoURL: pulumi.Output<string | null>;
  /** ID of the default team. */
  declare public readonly defaultTeam: pulumi.Output<string | null>;
  declare public readonly defaultRole: pulumi.Output<Role | null>;
  declare public readonly status: pulumi.Output<string | null>;
  /** The platform's ACS URL, start URL and entity ID, to configure at the identity provider. */
  declare public readonly service: pulumi.Output<SamlProviderOutputs["service"]>;
  declare public readonly url: pulumi.Output<string | null>;
  declare public readonly createdAt: pulumi.Output<string | null>;

  constructor(name: string, args: SamlProviderArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/samlProvider") as typeof samlProviderProvider;
    super(
      provider,
      name,
      withOutputSlots(args, ["entityID", "certificate", "ssoURL", "defaultTeam", "defaultRole", "status", "service", "url", "createdAt"]),
      kindOptions(samlProviderKind, opts),
      "docsplatform",
      "SamlProvider",
    );
  }
}
