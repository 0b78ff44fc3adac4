/**
 * The order vitest starts the test files in: longest first, by the durations a full run recorded in
 * test/durations.json. Two workers take files from one queue, so the run ends when the last file does;
 * started last, a 3-minute file (the crash or CLI handbook suite) would run alone at the end while the
 * other worker sits idle. Longest first, the files that finish the run are the short ones.
 *
 * vitest's own order needs its results cache (node_modules/.vite), which a CI checkout does not have;
 * without it vitest starts the largest files first, and a file's size says little about its time (a short
 * file can drive the handbook through a dozen `up`s). A file the table does not know yet (a new one)
 * starts first, as vitest starts unknown files first: it may be long.
 *
 * `RECORD_TEST_DURATIONS=1` on a full run rewrites the table (see slowest.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Where the recorded durations are, relative to the repository root. */
export const DURATIONS_FILE = path.join("test", "durations.json");

/** The recorded durations: milliseconds by file path relative to the repository root. */
export interface Durations {
  /** How the numbers were taken (machine, workers), for whoever updates them. */
  recorded: string;
  files: Record<string, number>;
}

export function readDurations(root: string): Durations {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, DURATIONS_FILE), "utf8")) as Durations;
  } catch {
    return { recorded: "", files: {} };
  }
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const { files: known } = readDurations(root);
    const duration = (spec: TestSpecification): number => known[path.relative(root, spec.moduleId).split(path.sep).join("/")] ?? Infinity;
    // Stable: files of equal (or unknown) duration keep vitest's order.
    const ordered = await super.sort(files);
    return ordered.map((spec, i) => ({ spec, i, ms: duration(spec) })).sort((a, b) => b.ms - a.ms || a.i - b.i).map((x) => x.spec);
  }
}
