/**
 * `pulumi preview` of the handbook through the engine harness: the members, spaces and teams a new or
 * changed object names are looked up read-only while the provider checks its inputs, so a mistyped
 * e-mail or a wrong space ID fails the preview (before any write) instead of the `up` after the merge;
 * a preview with nothing changed makes no call.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import type { PreparedProgram, ProgramRunner } from "../../test/harness";
import { startProgram, stopProgram } from "../../test/support/program";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");

describe("preview looks up what new or changed objects refer to", { timeout: 180_000 }, () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  let original: string;
  const docs = () => path.join(program.dir, "docs.yaml");

  beforeAll(async () => {
    // Every command a fresh plugin, as each `pulumi` command starts one.
    ({ emu, program, runner } = await startProgram(HANDBOOK, { runner: { pluginPerRun: true } }));
    await runner.up();
    original = fs.readFileSync(docs(), "utf8");
  });
  afterAll(() => stopProgram({ emu, program, runner }));

  it("a preview with nothing changed makes no call", async () => {
    const preview = await runner.preview();
    expect(preview.apiCalls).toEqual([]);
  });

  it("a team member's mistyped e-mail fails the preview, naming it, with read-only calls", async () => {
    fs.writeFileSync(docs(), original.replace("      - user: reader@demo.test\n", "      - user: wrtier@demo.test\n"));
    try {
      const preview = await runner.preview({ allowError: true });
      expect(preview.error?.message).toMatch(/members\[0\]\.user: "wrtier@demo\.test" is not a member of organization demo-org/);
      expect(preview.apiCalls.length).toBeGreaterThan(0);
      expect(preview.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
    } finally {
      fs.writeFileSync(docs(), original);
    }
  });

  it("a new site space on a space that does not exist fails the preview, naming the space", async () => {
    fs.writeFileSync(docs(), original.replace("          - key: api-changes\n", "          - key: api-old\n            space: {id: space-nope}\n            path: old\n          - key: api-changes\n"));
    try {
      const preview = await runner.preview({ allowError: true });
      expect(preview.error?.message).toMatch(/spaceId: no space "space-nope" exists/);
      expect(preview.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
    } finally {
      fs.writeFileSync(docs(), original);
    }
  });
});
