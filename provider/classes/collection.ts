/**
 * The Pulumi class of the collection kind: its own module, so that the kind (provider/resources/collection.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import type { Role } from "../client";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type CollectionArgs, collectionKind, collectionProvider } from "../resources/collection";

/** A collection: a nestable group of spaces. */
export class Collection extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly title: pulumi.Output<string>;
  declare public readonly description: pulumi.Output<string | null>;
  declare public readonly defaultLevel: pulumi.Output<Role | null>;
  declare public readonly parent: pulumi.Output<string | null>;
  declare public readonly url: pulumi.Output<string | null>;
  declare public readonly appUrl: pulumi.Output<string | null>;

  constructor(name: string, args: CollectionArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/collection") as typeof collectionProvider;
    super(provider, name, withOutputSlots(args, ["description", "defaultLevel", "parent", "url", "appUrl"]), kindOptions(collectionKind, opts), "docsplatform", "Collection");
  }
}
