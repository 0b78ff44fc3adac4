import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { isSecret, isStateSecret, type PreparedProgram, type ProgramRunner } from "../../test/harness";
import { startProgram, stopProgram } from "../../test/support/program";

// A share link's published URL carries the secret token that grants access to the site: it must be
// stored as a secret (the class lists it in additionalSecretOutputs), and so must anything derived from it.
describe("ShareLink url is stored as a secret", () => {
  let emulator: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;

  beforeAll(async () => {
    ({ emu: emulator, program, runner } = await startProgram(path.join(__dirname, "testdata", "sharelink")));
  });
  afterAll(() => stopProgram({ emu: emulator, program, runner }));

  it("marks the url output secret in state and in the stack outputs derived from it", async () => {
    const up = await runner.up();
    expect(up.summary.create).toBeGreaterThanOrEqual(2);

    const link = runner.resources().find((r) => r.type === "pulumi-nodejs:dynamic/docsplatform:ShareLink");
    expect(link?.additionalSecretOutputs).toContain("url");
    const url = link!.outputs["url"];
    expect(isSecret(url) || isStateSecret(url)).toBe(true);
    expect(isSecret(link!.outputs["name"]) || isStateSecret(link!.outputs["name"])).toBe(false);

    expect(up.secretOutputs).toContain("linkUrl");
    expect(up.secretOutputs).not.toContain("linkName");
    expect(String(up.outputs["linkUrl"])).toMatch(/\?token=[A-Za-z0-9_-]{16,}$/);

    // The token appears nowhere but in the secret: not in the site's outputs, not in the run's logs.
    const token = new URL(String(up.outputs["linkUrl"])).searchParams.get("token")!;
    expect(JSON.stringify(up.outputs["siteUrl"])).not.toContain(token);
    expect(JSON.stringify(up.logs)).not.toContain(token);

    const destroyed = await runner.destroy();
    expect(destroyed.error).toBeUndefined();
  });
});
