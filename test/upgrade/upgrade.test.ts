/**
 * Upgrading keeps every existing stack as it is: the handbook's state and the platform it describes,
 * both as the last release left them (recorded in test/upgrade/fixtures by the release itself, see
 * {@link RECORD}), run with this release's package. The first `up` after the upgrade is a no-op: every
 * step `same`, no API call at all (no read, no write), no replacement; and the next `preview --refresh`
 * expects no changes — a refresh rewrites each resource's outputs to what this release keeps, and that
 * is not a change of the stack.
 *
 * A release records its own fixtures with `npm run build && node dist/test/upgrade/record.js <release>` (record.ts)
 * before anything changes what state holds.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { prepareProgram, runnerAgainst, type PreparedProgram, type ProgramRunner } from "../harness";
import { changes } from "../support/steps";
import { URL_PLACEHOLDER, journalFixture, stateFixture } from "./record";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");
/** The release whose state the fixtures hold. */
const RELEASE = "0.1.0";

describe(`a stack written by release ${RELEASE}`, { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  let dataFile: string;

  beforeAll(async () => {
    program = await prepareProgram(HANDBOOK, { installPackage: true });
    dataFile = path.join(program.dir, "emulator.jsonl");
    fs.copyFileSync(journalFixture(RELEASE), dataFile);
    emu = await startEmulator({ port: 0, dataFile });
    runner = runnerAgainst(program.dir, { url: emu.url, token: emu.token, control: emu.control });
    fs.mkdirSync(path.dirname(runner.stateFile), { recursive: true });
    fs.writeFileSync(runner.stateFile, fs.readFileSync(stateFixture(RELEASE), "utf8").split(URL_PLACEHOLDER).join(emu.url));
  });

  afterAll(async () => {
    await runner?.close();
    await emu?.close();
    program?.cleanup();
  });

  it("is a no-op for this release's first up, and stays one after a refresh", async () => {
    const up = await runner.up();
    expect(up.error).toBeUndefined();
    expect(changes(up)).toEqual([]);
    expect(up.apiCalls).toEqual([]);
    expect(up.summary.create ?? 0).toBe(0);
    expect(up.summary.replace ?? 0).toBe(0);
    expect(up.summary.delete ?? 0).toBe(0);

    const refreshed = await runner.refresh();
    expect(refreshed.error).toBeUndefined();
    expect(refreshed.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
    const preview = await runner.preview();
    expect(preview.error).toBeUndefined();
    expect(changes(preview)).toEqual([]);
  });
});
