/**
 * An `up` of the handbook with a token the API refuses (an expired one, say), through the engine
 * harness: the first request's 401 marks the client, so exactly one request reaches the API; the run
 * fails with one line that names the setting supplying the token and the organisation, every other
 * resource fails without a request and without repeating it, and the token appears nowhere — not in
 * the state, the engine's diagnostics, the program's output, the plugin's debug log or any error.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import type { PreparedProgram, ProgramRunner, RunResult } from "../harness";
import { startProgram, stopProgram } from "../support/program";
import { HANDBOOK_DIR } from "./lifecycle";
import { tracked } from "./report";

/** Refused by the emulator, and distinctive enough that any occurrence is a leak. */
const REFUSED = `dpt_expired_${randomBytes(18).toString("hex")}`;
const SETTING = "docsplatform:apiToken";

let emu: RunningEmulator;
let program: PreparedProgram;
let runner: ProgramRunner;
let up: RunResult;

beforeAll(async () => {
  ({ emu, program, runner } = await startProgram(HANDBOOK_DIR, {
    runner: { env: { DOCSPLATFORM_DEBUG: "1", DOCSPLATFORM_API_TOKEN: "", DOCSPLATFORM_API_URL: "" } },
  }));
  up = await runner.up({ config: { [SETTING]: REFUSED }, allowError: true });
});
afterAll(() => stopProgram({ emu, program, runner }));

/** The run's errors as the engine reports them, one per failed resource. */
function runErrors(result: RunResult): string[] {
  const errors = result.error instanceof AggregateError ? [...result.error.errors] : result.error ? [result.error] : [];
  return errors.map((e) => (e as Error).message);
}

/** Every error text of the run: the run's errors, and each failed step's with its stack. */
function errorTexts(result: RunResult): string[] {
  const errors = result.error instanceof AggregateError ? [result.error, ...result.error.errors] : result.error ? [result.error] : [];
  return [...errors.map((e) => `${(e as Error).message}\n${(e as Error).stack ?? ""}`), ...result.steps.filter((s) => s.error).map((s) => s.error!)];
}

describe("an up with a refused token", () => {
  it("sends exactly one request, answered 401", () => {
    expect(up.error).toBeDefined();
    expect(up.apiCalls.map((c) => c.status)).toEqual([401]);
  });

  it("says so in one line naming the setting and the organisation; the other resources fail without repeating it", () => {
    const lines = runErrors(up).flatMap((t) => t.split("\n"));
    const naming = lines.filter((l) => l.includes(SETTING));
    expect(naming, naming.join("\n---\n")).toHaveLength(1);
    expect(naming[0]).toMatch(/the API refused the token \(401 Unauthorized\) for organization demo-org: supply a valid token in `docsplatform:apiToken` .* or DOCSPLATFORM_API_TOKEN; nothing else was attempted/);
    // Nothing else of the run was created or changed.
    expect(up.steps.filter((s) => s.custom && !s.error && s.op !== "same")).toEqual([]);
    for (const l of lines.filter((x) => x.includes("not attempted"))) expect(l).not.toContain(SETTING);
  });

  it("leaves the token in no output, log, error or state", async () => {
    await tracked("secrets", "refused token: one request, one line", async (o) => {
      const texts = [
        up.output,
        ...up.logs.map((l) => l.message),
        ...errorTexts(up),
        fs.existsSync(runner.stateFile) ? fs.readFileSync(runner.stateFile, "utf8") : "",
      ];
      o.cases = texts.length;
      o.leaks = texts.reduce((n, t) => n + t.split(REFUSED).length - 1, 0);
      o.note = `${up.apiCalls.length} request(s) sent`;
      expect(o.leaks).toBe(0);
      expect(up.apiCalls).toHaveLength(1);
    });
  });
});
