/**
 * The Pulumi class of the space kind: its own module, so that the kind (provider/resources/space.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import type { EditMode, Role } from "../client";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type SpaceArgs, type SpaceSettings, spaceKind, spaceProvider } from "../resources/space";

/** Settings of an existing space: title, emoji, editMode, defaultLevel, parent collection. */
export class Space extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly spaceId: pulumi.Output<string>;
  declare public readonly title: pulumi.Output<string>;
  declare public readonly emoji: pulumi.Output<string>;
  declare public readonly editMode: pulumi.Output<EditMode | null>;
  declare public readonly defaultLevel: pulumi.Output<Role | null>;
  declare public readonly parent: pulumi.Output<string | null>;
  declare public readonly deletionPolicy: pulumi.Output<"restore" | "delete">;
  declare public readonly visibility: pulumi.Output<string | null>;
  /** The settings' values before this resource changed them (restored on delete). */
  declare public readonly previous: pulumi.Output<SpaceSettings>;
  declare public readonly url: pulumi.Output<string | null>;
  declare public readonly appUrl: pulumi.Output<string | null>;
  declare public readonly publishedUrl: pulumi.Output<string | null>;
  declare public readonly updatedAt: pulumi.Output<string | null>;

  constructor(name: string, args: SpaceArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/space") as typeof spaceProvider;
    super(
      provider,
      name,
      withOutputSlots(args, ["organizationId", "title", "emoji", "editMode", "defaultLevel", "parent", "visibility", "deletionPolicy", "previous", "url", "appUrl", "publishedUrl", "updatedAt"]),
      kindOptions(spaceKind, opts),
      "docsplatform",
      "Space",
    );
  }
}
