/**
 * The Pulumi class of the siteSection kind: its own module, so that the kind (provider/resources/siteSection.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type SiteSectionArgs, siteSectionKind, siteSectionProvider } from "../resources/siteSection";

/** A section of a site. */
export class SiteSection extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly siteId: pulumi.Output<string>;
  declare public readonly spaceId: pulumi.Output<string>;
  declare public readonly title: pulumi.Output<string>;
  declare public readonly path: pulumi.Output<string>;
  declare public readonly default: pulumi.Output<boolean>;
  declare public readonly sectionGroupId: pulumi.Output<string | null>;
  declare public readonly siteSpaceId: pulumi.Output<string>;
  declare public readonly siteSpacePath: pulumi.Output<string>;
  declare public readonly url: pulumi.Output<string>;

  constructor(name: string, args: SiteSectionArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/siteSection") as typeof siteSectionProvider;
    super(
      provider,
      name,
      withOutputSlots(args, ["title", "path", "default", "sectionGroupId", "siteSpaceId", "siteSpacePath", "url"]),
      kindOptions(siteSectionKind, opts),
      "docsplatform",
      "SiteSection",
    );
  }
}
