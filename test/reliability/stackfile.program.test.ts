/**
 * No API call before validation passes: the handbook program run with fuzzed invalid stack files
 * against the emulator fails with located problems (`docs.yaml:line:col`) and the emulator's request log
 * stays empty — for preview and for up — and the state holds no resource of the provider.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { parseStack } from "../../provider/stack";
import type { PreparedProgram, ProgramRunner } from "../harness";
import { startProgram, stopProgram } from "../support/program";
import { HANDBOOK_DIR } from "./lifecycle";
import { LONG, tracked } from "./report";
import { aliasBomb, mutatedData, mutatedText } from "./stackfiles";

const SEED = Number(process.env.RELIABILITY_SEED ?? 20250101);
const CASES = LONG ? 24 : 4;

let emu: RunningEmulator;
let program: PreparedProgram;
let runner: ProgramRunner;

beforeAll(async () => {
  ({ emu, program, runner } = await startProgram(HANDBOOK_DIR));
});
afterAll(() => stopProgram({ emu, program, runner }));

/** Invalid files drawn from the fuzz generators (the loader rejects each), plus a cross-object mistake. */
function invalidFiles(): string[] {
  const drawn = fc.sample(fc.oneof(mutatedText, mutatedData, aliasBomb), { numRuns: CASES * 20, seed: SEED });
  // Read as the program reads them: beside the handbook's files (its developer portal's site file).
  const rejected = drawn.filter((text) => !parseStack(text, "docs.yaml", { baseDir: HANDBOOK_DIR }).ok).slice(0, CASES);
  const handbook = fs.readFileSync(path.join(HANDBOOK_DIR, "docs.yaml"), "utf8");
  rejected.push(handbook.replace("defaultTeam: docs-team", "defaultTeam: no-such-team"));
  return rejected;
}

describe(`the handbook program with invalid stack files (seed ${SEED})`, () => {
  it("fails with located problems before making any API call, in preview and in up", async () => {
    await tracked("fuzz", "invalid files through the program: no API call", async (o) => {
      o.seeds = [SEED];
      o.cases = 0;
      const docs = path.join(program.dir, "docs.yaml");
      for (const text of invalidFiles()) {
        fs.writeFileSync(docs, text);
        for (const run of [() => runner.preview({ allowError: true }), () => runner.up({ allowError: true })]) {
          emu.control.clearLog();
          const result = await run();
          o.cases++;
          expect(result.error?.message ?? "", text.slice(0, 300)).toMatch(/docs\.yaml:\d+:\d+: /);
          expect(emu.control.log(), text.slice(0, 300)).toEqual([]);
          expect(result.apiCalls).toEqual([]);
          expect(runner.resources().filter((r) => r.custom && r.type.includes("docsplatform:"))).toEqual([]);
        }
      }
    });
  }, 600_000);
});
