/**
 * The Pulumi class of the integration kind: its own module, so that the kind (provider/resources/integration.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type Digest, type IntegrationArgs, integrationKind, integrationProvider } from "../resources/integration";

/** Every output: those not declared get a slot, so the class exposes each one. */
const OUTPUTS = [
  "summary", "icon", "previewImages", "visibility", "target", "scopes", "categories", "blocks", "contentSources", "externalLinks",
  "configurations", "contentSecurityPolicy", "runtime", "secrets", "version", "verified", "url", "appUrl", "publicEndpoint",
] as const;

/** An integration published by the organisation; `secrets` (digests only) is stored as a secret. */
export class Integration extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly name: pulumi.Output<string>;
  declare public readonly title: pulumi.Output<string>;
  declare public readonly description: pulumi.Output<string>;
  declare public readonly summary: pulumi.Output<string | null>;
  declare public readonly visibility: pulumi.Output<string>;
  declare public readonly target: pulumi.Output<string>;
  /** SHA-256 of the published script. */
  declare public readonly script: pulumi.Output<Digest | null>;
  declare public readonly version: pulumi.Output<number | null>;
  declare public readonly verified: pulumi.Output<boolean | null>;
  declare public readonly url: pulumi.Output<string | null>;
  declare public readonly appUrl: pulumi.Output<string | null>;
  declare public readonly publicEndpoint: pulumi.Output<string | null>;

  constructor(name: string, args: IntegrationArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/integration") as typeof integrationProvider;
    super(provider, name, withOutputSlots(args, [...OUTPUTS]), kindOptions(integrationKind, opts), "docsplatform", "Integration");
  }
}
