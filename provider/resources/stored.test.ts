/**
 * What the state keeps of each object is what its kind declares (kind.ts `storedOutputs`): the fields the
 * file manages, the kind's `outputs` and its secret outputs — never the rest of the live object. The
 * handbook, which declares every kind, is deployed and refreshed; every resource's outputs are held to
 * that rule, so the state cannot grow back unnoticed: a new output is a line in the kind's declaration.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kindByName } from "./kinds";
import { INTERNAL_INPUT_PREFIX, isStored } from "./kind";
import { PROVIDER_KEY, isDynamicType, type ProgramRunner, type StateResource } from "../../test/harness";
import { startProgram, stopProgram, type ProgramAgainstEmulator } from "../../test/support/program";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");

/** Each resource's output keys that its kind does not declare as stored, as `Kind name: key`. */
function undeclaredOutputs(resources: readonly StateResource[]): string[] {
  const out: string[] = [];
  for (const r of resources.filter((x) => isDynamicType(x.type))) {
    const kind = kindByName(r.type.slice(r.type.lastIndexOf(":") + 1))!;
    // A field the kind keeps for itself is registered under its `__` name (kind.ts registeredInputs).
    const given = (name: string) => [r.inputs[name], r.inputs[`${INTERNAL_INPUT_PREFIX}${name}`]].some((v) => v !== undefined && v !== null);
    for (const key of Object.keys(r.outputs)) {
      if (key !== PROVIDER_KEY && !isStored(kind, key, given)) out.push(`${kind.name} ${r.urn.slice(r.urn.lastIndexOf("::") + 2)}: ${key}`);
    }
  }
  return out;
}

describe("the state keeps what each kind declares, nothing more", { timeout: 300_000 }, () => {
  let started: ProgramAgainstEmulator;
  let runner: ProgramRunner;

  beforeAll(async () => {
    started = await startProgram(HANDBOOK);
    runner = started.runner;
  });
  afterAll(() => stopProgram(started));

  it("after up and after refresh, for every kind the handbook declares", async () => {
    const up = await runner.up();
    expect(up.error).toBeUndefined();
    const kinds = new Set(runner.resources().filter((r) => isDynamicType(r.type)).map((r) => r.type));
    expect(kinds.size).toBeGreaterThanOrEqual(30);
    expect(undeclaredOutputs(runner.resources())).toEqual([]);

    const refreshed = await runner.refresh();
    expect(refreshed.error).toBeUndefined();
    // Nothing the platform computes is kept, so a refresh of an untouched stack changes no output.
    expect(refreshed.drift).toEqual([]);
    expect(undeclaredOutputs(runner.resources())).toEqual([]);
  });
});
