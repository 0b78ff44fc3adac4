/**
 * A vitest reporter, beside the default one: at the end of a run, the ten test files that took longest
 * (their tests and hooks), so the slow tail of the suite is in every CI log.
 */
import type { Reporter, TestModule } from "vitest/node";

const SHOWN = 10;

export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const timed = modules.map((m) => ({ file: m.relativeModuleId, ms: m.diagnostic().duration })).sort((a, b) => b.ms - a.ms);
    if (timed.length < 2) return;
    const total = timed.reduce((sum, t) => sum + t.ms, 0);
    const lines = timed.slice(0, SHOWN).map((t) => `  ${(t.ms / 1000).toFixed(1).padStart(7)} s  ${t.file}`);
    process.stdout.write(`\nSlowest test files (of ${timed.length}; ${(total / 1000).toFixed(0)} s of file time in all):\n${lines.join("\n")}\n`);
  }
}
