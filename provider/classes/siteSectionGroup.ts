/**
 * The Pulumi class of the siteSectionGroup kind: its own module, so that the kind (provider/resources/siteSectionGroup.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type SiteSectionGroupArgs, siteSectionGroupKind, siteSectionGroupProvider } from "../resources/siteSectionGroup";

/** A group of sections of a site. */
export class SiteSectionGroup extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly siteId: pulumi.Output<string>;
  declare public readonly title: pulumi.Output<string>;
  declare public readonly sections: pulumi.Output<string[]>;

  constructor(name: string, args: SiteSectionGroupArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/siteSectionGroup") as typeof siteSectionGroupProvider;
    super(
      provider,
      name,
      withOutputSlots(args, ["sections"]),
      kindOptions(siteSectionGroupKind, opts),
      "docsplatform",
      "SiteSectionGroup",
    );
  }
}
