/**
 * Reads under faults: a refresh of the whole handbook stack while the API answers 5xx, resets
 * connections or rate-limits beyond what the client may wait never removes a resource from the state.
 * A read answers "gone" on 404 only; everything else fails the refresh and keeps what was stored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import type { PreparedProgram, ProgramRunner } from "../harness";
import { startProgram, stopProgram } from "../support/program";
import { HANDBOOK_DIR } from "./lifecycle";
import { LONG, tracked } from "./report";

const BASE_SEED = Number(process.env.RELIABILITY_SEED ?? 1);

let emu: RunningEmulator;
let program: PreparedProgram;
let runner: ProgramRunner;

/** The custom resources of the state as `urn id`, sorted. */
function stored(): string[] {
  return runner.resources().filter((r) => r.custom).map((r) => `${r.urn} ${r.id ?? ""}`).sort();
}

beforeAll(async () => {
  ({ emu, program, runner } = await startProgram(HANDBOOK_DIR));
  await runner.up();
});
afterAll(() => stopProgram({ emu, program, runner }));

interface Scenario {
  name: string;
  seeds: number[];
  apply(seed: number): void;
  /** Whether every read must fail (otherwise some may succeed). */
  allFail: boolean;
}

const SCENARIOS: Scenario[] = [
  { name: "every GET answers 5xx", seeds: [BASE_SEED], allFail: true, apply: (seed) => emu.control.setFaults({ seed, error5xxRate: 1, methods: ["GET"] }) },
  {
    name: "429 with a wait beyond the client's limit",
    seeds: [BASE_SEED],
    allFail: true,
    // One request per two minutes: the client refuses to wait that long and fails with the 429.
    apply: () => emu.control.setRateLimit({ limit: 1, windowMs: 120_000 }),
  },
  {
    name: "GETs with 30% 5xx and 10% resets",
    seeds: LONG ? [BASE_SEED, BASE_SEED + 1, BASE_SEED + 2, BASE_SEED + 3, BASE_SEED + 4, BASE_SEED + 5] : [BASE_SEED, BASE_SEED + 1],
    allFail: false,
    apply: (seed) => emu.control.setFaults({ seed, error5xxRate: 0.3, resetRate: 0.1, methods: ["GET"] }),
  },
];

describe("refresh under 429 and 5xx", () => {
  it("starts from a stack of the handbook's 67 resources", () => {
    expect(runner.resources().filter((r) => r.custom && r.type.includes("docsplatform:")).length).toBe(67);
  });

  for (const s of SCENARIOS) {
    it(`never removes a resource from the state: ${s.name}`, async () => {
      await tracked("reads", s.name, async (o) => {
        o.seeds = s.seeds;
        o.cases = 0;
        o.lostWrites = 0;
        for (const seed of s.seeds) {
          const before = stored();
          s.apply(seed);
          let result;
          try {
            result = await runner.refresh({ allowError: true });
          } finally {
            emu.control.setFaults(null);
            emu.control.setRateLimit(null);
          }
          o.cases += before.length;
          const after = stored();
          o.lostWrites += before.filter((r) => !after.includes(r)).length;
          expect(after, `seed ${seed}`).toEqual(before);
          expect(result.steps.filter((x) => x.op === "refresh-gone"), `seed ${seed}`).toEqual([]);
          if (s.allFail) {
            expect(result.error?.message, `seed ${seed}`).toMatch(s.name.startsWith("429") ? /429/ : /5\d\d/);
            // Reads failed (the 429 window lets its first request through), and none reported its object gone.
            expect(result.steps.filter((x) => x.op === "read" && x.error !== undefined).length).toBeGreaterThan(25);
          }
          // The next command (a new plugin process, as every pulumi command starts its own, so no rate-limit
          // pause carries over) finds every resource as stored once the faults are gone.
          await runner.close();
          const clean = await runner.refresh();
          expect(clean.drift).toEqual([]);
          expect(stored()).toEqual(before);
        }
      });
    });
  }
});
