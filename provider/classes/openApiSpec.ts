/**
 * The Pulumi class of the openApiSpec kind: its own module, so that the kind (provider/resources/openApiSpec.ts)
 * never imports the shim that imports it.
 */
import * as pulumi from "@pulumi/pulumi";
import { kindOptions, withOutputSlots } from "../resources/kind";
import { type OpenAPISpecArgs, openApiSpecKind, openApiSpecProvider } from "../resources/openApiSpec";

/** An OpenAPI specification stored by the platform, fetched from `sourceURL`. */
export class OpenAPISpec extends pulumi.dynamic.Resource {
  declare public readonly organizationId: pulumi.Output<string>;
  declare public readonly slug: pulumi.Output<string>;
  declare public readonly sourceURL: pulumi.Output<string>;
  declare public readonly processingState: pulumi.Output<string | null>;
  declare public readonly lastVersion: pulumi.Output<string | null>;
  declare public readonly lastProcessedAt: pulumi.Output<string | null>;
  declare public readonly lastProcessErrorCode: pulumi.Output<string | null>;
  declare public readonly url: pulumi.Output<string | null>;
  declare public readonly appUrl: pulumi.Output<string | null>;
  declare public readonly createdAt: pulumi.Output<string | null>;
  declare public readonly updatedAt: pulumi.Output<string | null>;

  constructor(name: string, args: OpenAPISpecArgs, opts?: pulumi.CustomResourceOptions) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the shim whose whole module.exports is the provider
    const provider = require("../providers/openApiSpec") as typeof openApiSpecProvider;
    super(
      provider,
      name,
      withOutputSlots(args, ["processingState", "lastVersion", "lastProcessedAt", "lastProcessErrorCode", "url", "appUrl", "createdAt", "updatedAt"]),
      kindOptions(openApiSpecKind, opts),
      "docsplatform",
      "OpenAPISpec",
    );
  }
}
