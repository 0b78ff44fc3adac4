/**
 * The Pulumi class of the siteAdaptiveSchema kind: its own module, so that the kind (provider/resources/siteAdaptiveSchema.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import type { AdaptiveJsonSchema } from "../client";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type SiteAdaptiveSchemaArgs, siteAdaptiveSchemaKind, siteAdaptiveSchemaProvider } from "../resources/siteAdaptiveSchema";

/** The adaptive-content visitor schema of a site. */
export class SiteAdaptiveSchema extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly siteId: pulumi.Output<string>;
  declare public readonly jsonSchema: pulumi.Output<AdaptiveJsonSchema>;
  declare public readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: SiteAdaptiveSchemaArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/siteAdaptiveSchema") as typeof siteAdaptiveSchemaProvider;
    super(
      provider,
      name,
      withOutputSlots(args, ["updatedAt"]),
      kindOptions(siteAdaptiveSchemaKind, opts),
      "docsplatform",
      "SiteAdaptiveSchema",
    );
  }
}
