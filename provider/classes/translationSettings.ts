/**
 * The Pulumi class of the translationSettings kind: its own module, so that the kind (provider/resources/translationSettings.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type TranslationSettingsArgs, translationSettingsKind, translationSettingsProvider } from "../resources/translationSettings";

/** Translation settings of an organization. */
export class TranslationSettings extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly title: pulumi.Output<string>;
  declare public readonly languages: pulumi.Output<string[]>;
  declare public readonly url: pulumi.Output<string | null>;
  declare public readonly createdAt: pulumi.Output<string | null>;
  declare public readonly updatedAt: pulumi.Output<string | null>;

  constructor(name: string, args: TranslationSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/translationSettings") as typeof translationSettingsProvider;
    super(
      provider,
      name,
      withOutputSlots(args, ["languages", "url", "createdAt", "updatedAt"]),
      kindOptions(translationSettingsKind, opts),
      "docsplatform",
      "TranslationSettings",
    );
  }
}
