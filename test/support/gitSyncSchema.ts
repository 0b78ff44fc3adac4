/**
 * Test support: the published description's schema of Git Sync's site-structure file (GitSyncSiteConfig,
 * copied into provider/site/testdata), compiled as JSON Schema 2020-12 (what OpenAPI 3.1 uses), to check
 * the site files docsplatform writes against it.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const SCHEMA = path.resolve(__dirname, "../../provider/site/testdata/gitSyncSiteConfig.schema.json");

/** The errors of `data` against the published schema, one line each; none for a valid file. */
export function publishedSiteFileErrors(): (data: unknown) => string[] {
  /* eslint-disable @typescript-eslint/no-require-imports -- the test-only ajv dialect */
  const { default: Ajv2020 } = require("ajv/dist/2020") as typeof import("ajv/dist/2020");
  const { default: addFormats } = require("ajv-formats") as typeof import("ajv-formats");
  /* eslint-enable @typescript-eslint/no-require-imports */
  const ajv = new Ajv2020({ allErrors: true });
  addFormats(ajv);
  // The description's own format name for icons: any string within its maxLength.
  ajv.addFormat("icon", true);
  const validate = ajv.compile(JSON.parse(fs.readFileSync(SCHEMA, "utf8")) as object);
  return (data) => (validate(data) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? e.keyword}`));
}
