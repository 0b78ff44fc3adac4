/**
 * The Pulumi class of the siteStructureOrder kind: its own module, so that the kind (provider/resources/siteStructureOrder.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type SiteStructureOrderArgs, siteStructureOrderKind, siteStructureOrderProvider } from "../resources/siteStructureOrder";

/** The declared display order of a site's sections, section groups and site spaces. */
export class SiteStructureOrder extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly siteId: pulumi.Output<string>;
  declare public readonly sections: pulumi.Output<string[] | null>;
  declare public readonly sectionGroups: pulumi.Output<string[] | null>;
  declare public readonly siteSpaces: pulumi.Output<Record<string, string[]> | null>;

  constructor(name: string, args: SiteStructureOrderArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/siteStructureOrder") as typeof siteStructureOrderProvider;
    super(
      provider,
      name,
      withOutputSlots(args, ["sections", "sectionGroups", "siteSpaces"]),
      kindOptions(siteStructureOrderKind, opts),
      "docsplatform",
      "SiteStructureOrder",
    );
  }
}
