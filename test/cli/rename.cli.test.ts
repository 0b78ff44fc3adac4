/**
 * A renamed site key through the real Pulumi CLI: without `previousKeys` the preview says, in words, that
 * the live site is replaced with what it holds, and `up` does exactly that (a new site, the old one
 * deleted, the outputs naming only the live one); never a takeover of the site the old resource holds.
 * With `previousKeys` the site is renamed in place. The held IDs travel through the stack's own outputs
 * (`docsplatformHeld`, a secret), read back by the engine's built-in read of the stack's outputs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { prepareProgram, type PreparedProgram } from "../harness/program";
import { startEmulatorWith } from "../support/emulator";
import { writeNoCodeProject, type WrittenProject } from "../support/noCodeProject";
import { PulumiCli, type CliResult } from "./pulumi";

const TOKEN = "dpt_rename_cli_4f1c";
const docs = (key: string, previousKeys?: string): string => `organization: demo-org
sites:
  - key: ${key}
    title: Partner preview
    visibility: share-link
${previousKeys ? `    previousKeys: [${previousKeys}]\n` : ""}    siteSpaces:
      - { key: guides, space: { id: space-guides }, path: guides }
    shareLinks:
      - { key: partner, name: Partner }
`;

let emu: RunningEmulator;
let written: WrittenProject;
let program: PreparedProgram;
let cli: PulumiCli;

const sites = () => [...emu.store.all("sites")].filter((s) => s.title === "Partner preview");
const text = (r: CliResult) => `${r.stdout}\n${r.stderr}`;

beforeAll(async () => {
  emu = await startEmulatorWith(TOKEN);
  written = writeNoCodeProject("rename", { "docs.yaml": docs("partner-preview") });
  program = await prepareProgram(written.dir, { installPackage: true });
  cli = new PulumiCli(program.dir, [TOKEN]);
  cli.env["DOCSPLATFORM_API_TOKEN"] = TOKEN;
  await cli.run(["stack", "init", "rename"]);
  await cli.run(["config", "set", "docsplatform:apiUrl", emu.url]);
  await cli.run(["up", "--yes", "--skip-preview"]);
}, 300_000);

afterAll(async () => {
  await cli?.run(["destroy", "--yes", "--skip-preview"], { allowFailure: true });
  cli?.close();
  program?.cleanup();
  written?.cleanup();
  await emu?.close();
}, 300_000);

describe("a renamed site key through the Pulumi CLI", { timeout: 300_000 }, () => {
  it("without previousKeys: preview names the replacement in words; up makes a new site and deletes the old one; the next preview expects no changes", async () => {
    const [before] = sites();
    fs.writeFileSync(path.join(program.dir, "docs.yaml"), docs("partners-preview"));
    const preview = await cli.run(["preview"]);
    expect(text(preview)).toContain(`renaming site partner-preview to partners-preview replaces the live site (id ${before!.id}), with its share links (1), its site spaces (1)`);
    expect(text(preview)).toContain("To keep it, give partners-preview `previousKeys: [partner-preview]`");
    await cli.run(["up", "--yes", "--skip-preview"]);
    const after = sites();
    expect(after).toHaveLength(1);
    expect(after[0]!.id).not.toBe(before!.id);
    const outputs = JSON.parse((await cli.run(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    expect(outputs["siteIds"]).toEqual({ "partners-preview": after[0]!.id });
    expect(outputs["docsplatformHeld"]).toBe("[secret]");
    emu.control.clearLog();
    await cli.run(["preview", "--refresh", "--expect-no-changes"]);
    expect(emu.control.log().filter((c) => c.method !== "GET")).toEqual([]);
  });

  it("with previousKeys: renamed in place, the same site, nothing created or deleted", async () => {
    const [before] = sites();
    fs.writeFileSync(path.join(program.dir, "docs.yaml"), docs("handbook-preview", "partners-preview"));
    const preview = await cli.run(["preview"]);
    expect(text(preview)).not.toContain("renaming site");
    emu.control.clearLog();
    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(text(up)).not.toMatch(/\d+ (created|deleted)/);
    expect(emu.control.log().filter((c) => c.method !== "GET")).toEqual([]);
    expect(sites().map((s) => s.id)).toEqual([before!.id]);
  });
});
