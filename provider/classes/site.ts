/**
 * The Pulumi class of the site kind: its own module, so that the kind (provider/resources/site.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import type { SiteVisibility } from "../client";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type SiteArgs, type SiteOutputs, siteKind, siteProvider } from "../resources/site";

/** A docs site. */
export class Site extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly title: pulumi.Output<string>;
  declare public readonly type: pulumi.Output<string>;
  declare public readonly visibility: pulumi.Output<SiteVisibility>;
  declare public readonly published: pulumi.Output<boolean>;
  declare public readonly siteSpaces: pulumi.Output<number>;
  declare public readonly createdAt: pulumi.Output<string>;
  declare public readonly urls: pulumi.Output<SiteOutputs["urls"]>;

  constructor(name: string, args: SiteArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/site") as typeof siteProvider;
    super(
      provider,
      name,
      withOutputSlots(args, ["type", "visibility", "published", "siteSpaces", "createdAt", "urls"]),
      kindOptions(siteKind, opts),
      "docsplatform",
      "Site",
    );
  }
}
