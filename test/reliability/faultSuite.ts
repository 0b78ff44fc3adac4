/**
 * The handbook lifecycle under a group of fault kinds, as one vitest suite: each kind with fixed seeds
 * (override with `RELIABILITY_SEED=<n>`), serially (`parallel: 1`) so a seed replays the same faults on
 * the same requests; the long variant adds seeds and a run with Pulumi's unbounded parallelism. The
 * fault kinds are split over several test files so they run side by side.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { FAULT_KINDS, faultedLifecycle } from "./lifecycle";
import { LONG, tracked } from "./report";

const BASE_SEED = Number(process.env.RELIABILITY_SEED ?? 1);
const SEEDS = LONG ? [BASE_SEED, BASE_SEED + 1, BASE_SEED + 2, BASE_SEED + 3] : [BASE_SEED];

/** Declares the lifecycle tests of the named fault kinds (names from `FAULT_KINDS`) against one emulator. */
export function faultedLifecycleSuite(kindNames: readonly string[]): void {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emu?.close();
  });

  describe("the handbook lifecycle under faults", () => {
    for (const kind of FAULT_KINDS.filter((k) => kindNames.includes(k.name))) {
      for (const seed of SEEDS) {
        it(`${kind.name} (seed ${seed}, ${kind.unbounded ? "unbounded parallelism" : "serial"})`, async () => {
          await tracked("faults", kind.name, async (o) => {
            o.seeds = [seed];
            if (kind.unbounded) o.note = "unbounded parallelism";
            await faultedLifecycle(emu, kind, seed, o, kind.unbounded ? {} : { parallel: 1 });
          });
        }, 300_000);
      }
      if (LONG && !kind.unbounded) {
        const seed = BASE_SEED + 100;
        it(`${kind.name} (seed ${seed}, unbounded parallelism)`, async () => {
          await tracked("faults", kind.name, async (o) => {
            o.seeds = [seed];
            o.note = "unbounded parallelism";
            await faultedLifecycle(emu, kind, seed, o);
          });
        }, 300_000);
      }
    }
  });
}
