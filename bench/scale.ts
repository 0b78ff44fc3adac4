/**
 * `node dist/bench/scale.js [--runs 3] [--without-redirects]`: the scale case of issue #37 — 20 sites, 110
 * redirects each (2,200), ~780 resources — through the engine harness at the benchmark's settings: one
 * create, then no-op `up`s (each must make no API call), timed, and the same stack without its redirect
 * sets in the same run for comparison. Writes bench/SCALE.json and renders bench/RESULTS.md again (its
 * "Scale" section), where the no-op's cost per resource stands beside the benchmark's no-op at N = 1000.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { StackFile } from "../provider/file/model";
import { SCALE_CASE, generateStack } from "./generate";
import { benchSeed, startRig } from "./rig";
import { median } from "./statistics";

/** The no-op `up`s of one stack. */
export interface ScaleRun {
  /** Custom resources in the state after the create. */
  resources: number;
  redirects: number;
  createMs: number;
  noopMs: number[];
  /**
   * CPU time of each no-op `up`: this process (the engine's stand-in) and every process it waited for
   * (language host, plugin) — less sensitive than wall time to a machine shared with other work.
   */
  noopCpuMs?: number[];
  /** API calls of the no-op `up`s together (0 when they are no-ops). */
  noopCalls: number;
}

/** What bench/SCALE.json holds. */
export interface ScaleReport {
  date: string;
  /** 1/5/15-minute load averages at the start and at the end (2 cores shared with other sessions). */
  load: { start: number[]; end: number[] };
  withRedirects: ScaleRun;
  withoutRedirects?: ScaleRun;
  /** The benchmark's own stack of N objects (`--compare-n N`), in the same run. */
  benchStack?: ScaleRun & { n: number };
  /** The measurement this one is compared with, as the section states it (before a fix, for instance). */
  before?: { noopMs: number; note: string };
}

const BENCH_DIR = path.join(__dirname, "..", "..", "bench");

/** The no-op up per resource of the benchmark's largest N, from bench/RESULTS.json. */
function benchNoopPerResource(): { n: number; ms: number; resources: number } | undefined {
  const file = path.join(BENCH_DIR, "RESULTS.json");
  if (!fs.existsSync(file)) return undefined;
  const report = JSON.parse(fs.readFileSync(file, "utf8")) as { sizes: { n: number; state: { resources: number }; phases: { phase: string; wallMs: number }[] }[] };
  const largest = [...report.sizes].sort((a, b) => b.n - a.n)[0];
  const noop = largest?.phases.find((p) => p.phase === "no-op up");
  return largest && noop ? { n: largest.n, ms: noop.wallMs, resources: largest.state.resources } : undefined;
}

const perResource = (ms: number, resources: number): string => `${(ms / resources).toFixed(1)} ms`;

/** The markdown section of RESULTS.md for a scale run. */
export function renderScale(r: ScaleReport): string[] {
  const bench = benchNoopPerResource();
  const row = (what: string, run: ScaleRun) =>
    `| ${what} | ${run.resources} | ${run.redirects.toLocaleString("en")} | ${Math.round(run.createMs)} ms | ${run.noopMs.map((ms) => `${Math.round(ms)} ms`).join(", ")} | ${run.noopCalls} | ${perResource(median(run.noopMs), run.resources)} | ${run.noopCpuMs ? `${run.noopCpuMs.map((ms) => `${Math.round(ms)} ms`).join(", ")} (${perResource(median(run.noopCpuMs), run.resources)} per resource)` : "–"} |`;
  const lines = [
    `## Scale: ${SCALE_CASE.shape.sites} sites, ${(SCALE_CASE.shape.sites * SCALE_CASE.shape.redirectsPerSite).toLocaleString("en")} redirects`,
    "",
    `Measured by \`node dist/bench/scale.js\` (bench/scale.ts) on ${r.date.slice(0, 10)}: the generated stack of N = ${SCALE_CASE.n} objects over ${SCALE_CASE.shape.sites} sites, each with a redirect set of ${SCALE_CASE.shape.redirectsPerSite} (\`generateStack(${SCALE_CASE.n}, SCALE_CASE.shape)\`), at the benchmark's settings; then the same stack without its redirect sets. Load average (1/5/15 min, 2 cores shared): ${r.load.start.join(" / ")} at the start, ${r.load.end.join(" / ")} at the end.`,
    "",
    "| stack | resources | redirects | create | no-op up (each run) | no-op calls | no-op per resource (median) | no-op CPU time (each run) |",
    "|---|---|---|---|---|---|---|---|",
    row("with redirect sets", r.withRedirects),
    ...(r.withoutRedirects ? [row("without redirect sets", r.withoutRedirects)] : []),
    ...(r.benchStack ? [row(`the benchmark's stack, N = ${r.benchStack.n}, same run`, r.benchStack)] : []),
    ...(bench ? [`| the benchmark's N = ${bench.n} (RESULTS.json, its own day and load) | ${bench.resources} | 0 | – | ${Math.round(bench.ms)} ms | 0 | ${perResource(bench.ms, bench.resources)} | – |`] : []),
    "",
  ];
  if (r.before) lines.push(r.before.note, "");
  return lines;
}

/** The scale section from bench/SCALE.json, when a run wrote one. */
export function scaleSection(): string[] {
  const file = path.join(BENCH_DIR, "SCALE.json");
  return fs.existsSync(file) ? renderScale(JSON.parse(fs.readFileSync(file, "utf8")) as ScaleReport) : [];
}

/** CPU time of this process and of its reaped children, from /proc/self/stat (Linux; null elsewhere). */
function cpuTimes(): { own: number; children: number } | null {
  try {
    const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ").map(Number);
    // utime, stime, cutime, cstime: fields 14-17 of stat(5), in clock ticks (100 per second).
    return { own: (fields[11]! + fields[12]!) * 10, children: (fields[13]! + fields[14]!) * 10 };
  } catch {
    return null;
  }
}

/** CPU time of this process and its reaped children together. */
function cpuMs(): number | null {
  const t = cpuTimes();
  return t && t.own + t.children;
}

const load = (): number[] => os.loadavg().map((x) => Math.round(x * 100) / 100);

/** Creates `stack` once, then runs `runs` no-op `up`s. */
async function measure(stack: StackFile, spaces: Parameters<typeof benchSeed>[0], redirects: number, runs: number, env: Record<string, string>): Promise<ScaleRun> {
  const rig = await startRig(stack, { emulator: { seed: benchSeed(spaces) }, env });
  try {
    let start = performance.now();
    const created = await rig.runner.up({ timeoutMs: 30 * 60_000 });
    const createMs = performance.now() - start;
    if (created.error) throw created.error;
    const resources = rig.runner.resources().filter((res) => res.custom).length;
    const noopMs: number[] = [];
    const noopCpuMs: number[] = [];
    let noopCalls = 0;
    for (let i = 0; i < runs; i++) {
      start = performance.now();
      const cpuStart = cpuMs();
      const split = cpuTimes();
      const again = await rig.runner.up({ timeoutMs: 30 * 60_000 });
      noopMs.push(performance.now() - start);
      const cpuEnd = cpuMs();
      if (cpuStart !== null && cpuEnd !== null) noopCpuMs.push(cpuEnd - cpuStart);
      if (again.error) throw again.error;
      noopCalls += again.apiCalls.length;
      const after = cpuTimes();
      const parts = split && after ? ` = ${after.own - split.own} ms engine + ${after.children - split.children} ms language host and plugin` : "";
      process.stdout.write(`  no-op up ${i + 1}: ${Math.round(noopMs[i]!)} ms (CPU ${noopCpuMs[i] ?? "?"} ms${parts}), ${again.apiCalls.length} calls, load ${load().join(" / ")}\n`);
    }
    return { resources, redirects, createMs, noopMs, ...(noopCpuMs.length > 0 ? { noopCpuMs } : {}), noopCalls };
  } finally {
    await rig.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const runs = argv.includes("--runs") ? Number(argv[argv.indexOf("--runs") + 1]) : 3;
  // Extra environment of the plugin and the language host (`NODE_OPTIONS=--cpu-prof …` to profile them).
  const env: Record<string, string> = process.env.SCALE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SCALE_NODE_OPTIONS } : {};
  const gen = generateStack(SCALE_CASE.n, SCALE_CASE.shape);
  const start = load();
  process.stdout.write(`with redirect sets (${gen.redirects} redirects), load ${start.join(" / ")}\n`);
  const withRedirects = await measure(gen.stack, gen.spaces, gen.redirects, runs, env);
  let withoutRedirects: ScaleRun | undefined;
  if (!argv.includes("--only-redirects")) {
    const bare = structuredClone(gen.stack);
    for (const site of bare.sites ?? []) delete site.redirects;
    process.stdout.write("without redirect sets\n");
    withoutRedirects = await measure(bare, gen.spaces, 0, runs, env);
  }
  let benchStack: ScaleReport["benchStack"];
  if (argv.includes("--compare-n")) {
    const n = Number(argv[argv.indexOf("--compare-n") + 1]);
    const plain = generateStack(n);
    process.stdout.write(`the benchmark's stack of N = ${n}\n`);
    benchStack = { n, ...(await measure(plain.stack, plain.spaces, 0, runs, env)) };
  }
  const previous = fs.existsSync(path.join(BENCH_DIR, "SCALE.json")) ? (JSON.parse(fs.readFileSync(path.join(BENCH_DIR, "SCALE.json"), "utf8")) as ScaleReport) : undefined;
  const report: ScaleReport = { date: new Date().toISOString(), load: { start, end: load() }, withRedirects, ...(withoutRedirects ? { withoutRedirects } : {}), ...(benchStack ? { benchStack } : {}), ...(previous?.before ? { before: previous.before } : {}) };
  if (argv.includes("--out")) fs.writeFileSync(path.join(BENCH_DIR, "SCALE.json"), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(renderScale(report).join("\n"));
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
