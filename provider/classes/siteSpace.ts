/**
 * The Pulumi class of the siteSpace kind: its own module, so that the kind (provider/resources/siteSpace.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type SiteSpaceArgs, siteSpaceKind, siteSpaceProvider } from "../resources/siteSpace";

/** A space published in a site. */
export class SiteSpace extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly siteId: pulumi.Output<string>;
  declare public readonly spaceId: pulumi.Output<string>;
  declare public readonly sectionId: pulumi.Output<string | null>;
  declare public readonly path: pulumi.Output<string>;
  declare public readonly default: pulumi.Output<boolean>;
  declare public readonly title: pulumi.Output<string>;
  declare public readonly url: pulumi.Output<string>;

  constructor(name: string, args: SiteSpaceArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/siteSpace") as typeof siteSpaceProvider;
    super(
      provider,
      name,
      withOutputSlots(args, ["sectionId", "path", "default", "title", "url"]),
      kindOptions(siteSpaceKind, opts),
      "docsplatform",
      "SiteSpace",
    );
  }
}
