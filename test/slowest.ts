/**
 * A vitest reporter, beside the default one: at the end of a run, the fifteen test files that took
 * longest (their tests and hooks), so the slow tail of the suite is in every CI log. With
 * `RECORD_TEST_DURATIONS=1`, a run of the whole suite also rewrites test/durations.json, the table the
 * sequencer orders the files by (sequencer.ts); a partial run would drop the files it did not run, so it
 * writes nothing.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { DURATIONS_FILE, type Durations } from "./sequencer";

const SHOWN = 15;

export default class SlowestFiles implements Reporter {
  private ctx: Vitest | undefined;

  onInit(ctx: Vitest): void {
    this.ctx = ctx;
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>): Promise<void> {
    const timed = modules.map((m) => ({ file: m.relativeModuleId, ms: m.diagnostic().duration })).sort((a, b) => b.ms - a.ms);
    if (timed.length < 2) return;
    const total = timed.reduce((sum, t) => sum + t.ms, 0);
    const lines = timed.slice(0, SHOWN).map((t) => `  ${(t.ms / 1000).toFixed(1).padStart(7)} s  ${t.file}`);
    process.stdout.write(`\nSlowest test files (of ${timed.length}; ${(total / 1000).toFixed(0)} s of file time in all):\n${lines.join("\n")}\n`);
    if (process.env["RECORD_TEST_DURATIONS"] === "1" && this.ctx) await this.record(this.ctx, timed);
  }

  private async record(ctx: Vitest, timed: readonly { file: string; ms: number }[]): Promise<void> {
    const all = await ctx.globTestSpecifications();
    if (timed.length < all.length || ctx.state.getFailedFilepaths().length > 0) {
      process.stdout.write(`Not recording ${DURATIONS_FILE}: only a whole run without failures stands as the record.\n`);
      return;
    }
    const table: Durations = {
      recorded: `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${ctx.config.maxWorkers} workers`,
      files: Object.fromEntries([...timed].sort((a, b) => (a.file < b.file ? -1 : 1)).map((t) => [t.file, Math.round(t.ms)])),
    };
    fs.writeFileSync(path.join(ctx.config.root, DURATIONS_FILE), JSON.stringify(table, null, 2) + "\n");
    process.stdout.write(`Recorded the durations of ${timed.length} files in ${DURATIONS_FILE}.\n`);
  }
}
