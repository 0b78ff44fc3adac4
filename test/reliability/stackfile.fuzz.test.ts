/**
 * Property-based fuzzing of the stack-file loader: whatever the file holds, the loader never throws,
 * answers within a bounded time, and every rejection names a position inside the file.
 * Default: ~600 cases; `RELIABILITY_LONG=1`: over 10,000. Seeds are fixed (override with
 * `RELIABILITY_SEED=<n>`); fast-check prints the seed and path of any counterexample.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { formatProblem, loadStackFile, parseStack, type LoadResult, type Problem } from "../../provider/stack";
import { LONG, ROOT, tracked, type Outcome } from "./report";
import { HANDBOOK_FILE, HANDBOOK_TEXT, aliasBomb, anyText, deepNesting, hugeFiles, mutatedData, mutatedText, randomStack } from "./stackfiles";

const BASE_SEED = Number(process.env.RELIABILITY_SEED ?? 20250101);
/**
 * A hang detector, not a benchmark: the loader takes milliseconds per fuzzed file; a file that takes
 * longer than this means unbounded work (an alias expansion, a quadratic path) slipped through.
 */
const PER_FILE_BOUND_MS = 5_000;

interface Stats {
  cases: number;
  rejected: number;
  maxMs: number;
  slowest: string;
}
const stats: Stats = { cases: 0, rejected: 0, maxMs: 0, slowest: "" };

/** The handbook's developer portal site file, as a problem found in it names it (beside the stack file's name). */
const SITE_FILE = { name: "fuzz/developer-portal/gitbook-docs.yaml", lines: fs.readFileSync(path.join(path.dirname(HANDBOOK_FILE), "developer-portal", "gitbook-docs.yaml"), "utf8").split("\n") };

/** Every problem names the file (the stack file, or the site file it names) and a line and column that exist in it. */
function expectLocated(p: Problem, stackName: string, stackLines: readonly string[]): void {
  const [name, lines] = p.file === SITE_FILE.name ? [SITE_FILE.name, SITE_FILE.lines] : [stackName, stackLines];
  const where = `${formatProblem(p)} (file of ${lines.length} lines)`;
  expect(p.file, where).toBe(name);
  expect(Number.isInteger(p.line) && p.line >= 1 && p.line <= lines.length, where).toBe(true);
  expect(Number.isInteger(p.col) && p.col >= 1 && p.col <= lines[p.line - 1]!.length + 1, where).toBe(true);
  expect(p.message.trim().length, where).toBeGreaterThan(0);
  expect(formatProblem(p).startsWith(`${name}:${p.line}:${p.col}: `), where).toBe(true);
}

/** Loads one text and checks every property; returns the result for further checks. */
function loadAndCheck(text: string, label: string): LoadResult {
  const name = "fuzz/stack.yaml";
  const started = performance.now();
  let result: LoadResult;
  try {
    // Files the handbook names (its developer portal's site file) are read from its folder.
    result = parseStack(text, name, { baseDir: path.dirname(HANDBOOK_FILE) });
  } catch (e) {
    throw new Error(`the loader crashed on a ${label} (${text.length} characters): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }
  const ms = performance.now() - started;
  stats.cases++;
  if (ms > stats.maxMs) {
    stats.maxMs = ms;
    stats.slowest = label;
  }
  expect(ms, `${label}: ${Math.round(ms)} ms`).toBeLessThan(PER_FILE_BOUND_MS);
  const lines = text.split("\n");
  if (!result.ok) {
    stats.rejected++;
    expect(result.problems.length).toBeGreaterThan(0);
    for (const p of result.problems) expectLocated(p, name, lines);
  }
  for (const w of result.warnings) expectLocated(w, name, lines);
  return result;
}

/** Runs `runs` cases of one generator with its own seed, and records them. */
async function fuzz(check: string, arb: fc.Arbitrary<string>, runs: number, seedOffset: number): Promise<void> {
  const seed = BASE_SEED + seedOffset;
  await tracked("fuzz", check, async (o: Outcome) => {
    o.seeds = [seed];
    const before = stats.cases;
    try {
      fc.assert(
        fc.property(arb, (text) => {
          loadAndCheck(text, check);
        }),
        { numRuns: runs, seed, endOnFailure: true },
      );
    } finally {
      o.cases = stats.cases - before;
    }
  });
}

const N = LONG
  ? { text: 3000, data: 3000, random: 1500, any: 1500, deep: 600, alias: 600 }
  : { text: 180, data: 180, random: 80, any: 80, deep: 40, alias: 40 };

describe(`stack-file loader under fuzzing (seed ${BASE_SEED}${LONG ? ", long" : ""})`, () => {
  afterAll(() => {
    // One line in the output: how much was tried and the slowest file.
    process.stdout.write(
      `stack-file fuzzing: ${stats.cases} files, ${stats.rejected} rejected with located problems, slowest ${Math.round(stats.maxMs)} ms (${stats.slowest})\n`,
    );
  });

  it("accepts the handbook example unchanged", () => {
    const result = loadAndCheck(HANDBOOK_TEXT, "handbook");
    expect(result.ok, result.ok ? "" : result.problems.map(formatProblem).join("\n")).toBe(true);
  });

  it("mutated valid files (text: lines deleted, duplicated, swapped, re-indented, values replaced, truncated)", async () => {
    await fuzz("mutated valid files (text)", mutatedText, N.text, 1);
  });

  it("mutated valid files (data: wrong types, out-of-range lengths, unicode, duplicates, unknown keys)", async () => {
    await fuzz("mutated valid files (data)", mutatedData, N.data, 2);
  });

  it("stack-shaped files of random values", async () => {
    await fuzz("stack-shaped random files", randomStack, N.random, 3);
  });

  it("arbitrary unicode and binary text", async () => {
    await fuzz("unicode and binary text", anyText, N.any, 4);
  });

  it("deep nesting, flow and block, closed and unclosed", async () => {
    await fuzz("deep nesting", deepNesting, N.deep, 5);
  });

  it("YAML anchors and aliases, including billion-laughs bombs", async () => {
    await fuzz("anchors, aliases and alias bombs", aliasBomb, N.alias, 6);
    // The classic bomb (9^9 expansions) is refused at the alias that expands too much, never expanded.
    const classic =
      "organization: demo-org\nx0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" +
      Array.from({ length: 8 }, (_, i) => `x${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(", ")}]\n`).join("") +
      "sites: *a8\n";
    const refused = loadAndCheck(classic, "classic billion laughs");
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.problems.map((p) => p.message).join("\n")).toMatch(/alias bomb/);
  });

  it("huge files: refused past 5 MiB before reading, parsed in time proportional to size below it", async () => {
    await tracked("fuzz", "huge files", async (o) => {
      const files = hugeFiles(LONG);
      o.cases = 0;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reliability-huge-"));
      const slow: string[] = [];
      try {
        for (const f of files) {
          const file = path.join(dir, "huge.yaml");
          fs.writeFileSync(file, f.text);
          const bytes = Buffer.byteLength(f.text);
          // Loaded in a child process that is killed at the bound, so unbounded work fails the check instead of hanging it.
          const bound = hugeBoundMs(bytes);
          const outcome = await loadInChild(file, bound);
          o.cases++;
          stats.cases++;
          if (outcome.kind === "killed") {
            slow.push(`${f.name} (${(bytes / 1024 / 1024).toFixed(2)} MiB) still loading after ${bound} ms`);
            continue;
          }
          if (outcome.kind === "crashed") throw new Error(`the loader crashed on ${f.name}: ${outcome.detail}`);
          const lines = f.text.split("\n");
          for (const p of outcome.problems) expectLocated(p, file, lines);
          if (bytes > 5 * 1024 * 1024) {
            expect(outcome.ok).toBe(false);
            expect(outcome.problems).toEqual([expect.objectContaining({ line: 1, col: 1, file })]);
            expect(outcome.problems[0]!.message).toMatch(/at most 5\.0 MiB/);
          }
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      o.note = `${files.length} files up to ${(Math.max(...files.map((f) => f.text.length)) / 1024 / 1024).toFixed(1)} MiB; bound 5 s + 10 s per MiB`;
      expect(slow, "files whose loading time is not bounded by their size").toEqual([]);
    });
  });
});

/** 5 s plus 10 s per MiB: generous for a linear loader (about 2 s per MiB here), hit by anything superlinear. */
function hugeBoundMs(bytes: number): number {
  return Math.round(5_000 + (10_000 * bytes) / (1024 * 1024));
}

type ChildOutcome =
  | { kind: "done"; ok: boolean; problems: Problem[] }
  | { kind: "killed" }
  | { kind: "crashed"; detail: string };

const LOADER = path.join(ROOT, "dist", "provider", "stack", "load.js");

/** `loadStackFile` in a child node process (the compiled loader), killed after `boundMs`. */
function loadInChild(file: string, boundMs: number): Promise<ChildOutcome> {
  if (!fs.existsSync(LOADER)) throw new Error(`${LOADER} is missing: run npm run build`);
  const script = `const r = require(${JSON.stringify(LOADER)}).loadStackFile(process.argv[1]);
process.stdout.write(JSON.stringify({ ok: r.ok, problems: r.ok ? r.warnings : r.problems.slice(0, 50) }));`;
  return new Promise((resolve) => {
    execFile(process.execPath, ["-e", script, file], { timeout: boundMs, killSignal: "SIGKILL", maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err && (err.killed || err.signal === "SIGKILL")) return resolve({ kind: "killed" });
      if (err) return resolve({ kind: "crashed", detail: `${err.message}\n${stderr}` });
      const parsed = JSON.parse(stdout) as { ok: boolean; problems: Problem[] };
      resolve({ kind: "done", ...parsed });
    });
  });
}
