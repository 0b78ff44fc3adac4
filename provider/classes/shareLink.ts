/**
 * The Pulumi class of the shareLink kind: its own module, so that the kind (provider/resources/shareLink.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type ShareLinkArgs, shareLinkKind, shareLinkProvider } from "../resources/shareLink";

/** A share link of a site; its `url` (with the secret token) is stored as a secret. */
export class ShareLink extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly siteId: pulumi.Output<string>;
  declare public readonly name: pulumi.Output<string>;
  declare public readonly active: pulumi.Output<boolean>;
  /** The published URL with the secret token (a secret). */
  declare public readonly url: pulumi.Output<string>;
  declare public readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: ShareLinkArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/shareLink") as typeof shareLinkProvider;
    super(provider, name, withOutputSlots(args, ["active", "url", "createdAt"]), kindOptions(shareLinkKind, opts), "docsplatform", "ShareLink");
  }
}
