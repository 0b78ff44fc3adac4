/**
 * The handbook as a TypeScript program of one's own, run by the Pulumi CLI as it runs one (ts-node,
 * `runtime.options.typescript` left at its default): the same objects as the no-code project, a second
 * up with no API call, destroy.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { HANDBOOK, startCliProject, type CliProject } from "./project";
import { kindsAndNames, type PulumiCli } from "./pulumi";

let project: CliProject;
let emu: RunningEmulator;
let cli: PulumiCli;

const PROGRAM = `import { DocsPlatform } from "pulumi-docsplatform";

const docs = new DocsPlatform("handbook", { file: "docs.yaml" });

export const siteUrls = docs.siteUrls;
export const partnerPortal: string | undefined = "partner-portal";
`;

beforeAll(async () => {
  project = await startCliProject(HANDBOOK, {
    // The same folder as a program of one's own: index.ts, the TypeScript runtime, no `main` in package.json.
    prepare: (dir) => {
      fs.writeFileSync(path.join(dir, "index.ts"), PROGRAM);
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: handbook\nruntime: nodejs\n");
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "handbook", private: true, main: "index.ts" }, null, 2));
    },
  });
  ({ emu, cli } = project);
}, 120_000);

afterAll(() => project?.stop());

describe("the handbook as a TypeScript program through the Pulumi CLI", { timeout: 300_000 }, () => {
  it("up creates the objects the no-code project creates; a second up makes no API call; destroy", async () => {
    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(up.stdout).toMatch(/\+ 69 created/);
    const { deployment } = await cli.exportState();
    expect(kindsAndNames(deployment)).toHaveLength(67);
    const { stdout } = await cli.run(["stack", "output", "--json"]);
    expect(Object.keys((JSON.parse(stdout) as { siteUrls: object }).siteUrls).sort()).toEqual(["developer-portal", "handbook", "partner-portal", "partner-preview"]);

    emu.control.clearLog();
    const again = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(again.stdout).toMatch(/69 unchanged/);
    expect(emu.control.log()).toEqual([]);

    const down = await cli.run(["destroy", "--yes", "--skip-preview"]);
    expect(down.stdout).toMatch(/- \d+ deleted/);
    expect(kindsAndNames((await cli.exportState()).deployment)).toEqual([]);
  });
});
