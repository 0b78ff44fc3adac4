/**
 * The ready-made program of a no-code project: `Pulumi.yaml` (runtime `nodejs`, `typescript: false`), a
 * `package.json` whose one dependency is this package and whose `main` is this file, and the stack file.
 * It declares the stack file named by config `docsplatform:file` (default `docs.yaml`, relative to the
 * project's root, where Pulumi.yaml is) as one `DocsPlatform` named after the project, for the
 * organisation of config `docsplatform:organization` when set (else the file's; a warning when the two
 * differ), and exports the site URLs and IDs, as a program of one's own that does the same would.
 *
 * It imports the component alone, not the package's index: a run loads only what declaring needs.
 */
import "./compileCache";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { DocsPlatform } from "./declare/component";

const config = new pulumi.Config("docsplatform");
// The project's root reaches the SDK from language hosts that pass it (`--root-directory`); without it
// the SDK answers a placeholder, and the host has started the program in the project's folder.
const root = process.env["PULUMI_NODEJS_ROOT_DIRECTORY"] ? pulumi.getRootDirectory() : process.cwd();
const file = path.resolve(root, config.get("file") ?? "docs.yaml");
const organization = config.get("organization");
// The component records the path it was given: relative to the working directory, as a program's own
// `{ file: "docs.yaml" }` would be, so the state does not depend on where the project is checked out.
const docs = new DocsPlatform(pulumi.getProject(), {
  file: path.relative(process.cwd(), file) || file,
  organizationId: organization,
});
// The file says which organisation it declares, and every offline view reads it there; a stack that
// manages another one by config says so on every run, naming both.
if (organization !== undefined && organization !== docs.stack.organization) {
  void pulumi.log.warn(
    `this stack manages organization ${organization} (config docsplatform:organization), not the ${docs.stack.organization} ` +
      `${path.basename(file)} declares, which docsplatform validate, tree, diff and emulator --seed-from read: ` +
      `set organization: ${organization} in the file, or remove the config`,
    docs,
  );
}

export const siteUrls = docs.siteUrls;
export const siteIds = docs.siteIds;
// What the stack holds, for the next run (classes/held.ts): a secret, printed as one line.
export const docsplatformHeld = docs.held;
