/**
 * The benchmark: API calls, wall time and state size of the provider against the physical floor and a
 * baseline measured in the same run. `npm run bench` (all sizes) or `npm run bench -- --sizes 20,100` (N = 20 the smallest: one object of every kind).
 * Writes bench/RESULTS.md (see `writeResults`).
 *
 * For each N: the emulator with a fixed latency, the stack-file component of a generated stack run
 * through the engine harness (real language host, real dynamic-provider plugin) at `--parallel` 16 and
 * the client's in-flight bound 16, through five phases — create, no-op up, change 10%, refresh, destroy.
 * Calls come from the emulator's request log. The baseline is the raw client making exactly the
 * minimal calls of each phase at the same concurrency against a fresh emulator with the same latency.
 * With `--engine cli` (the default when Go can build it) the same phases, and the floor's, also run
 * through the real Pulumi CLI (bench/cli.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiUnavailable } from "../test/cli/pulumi";
import { REPO_ROOT } from "../test/harness";
import { keepEarlier, readEarlier } from "./earlier";
import { measureEmulatorThroughput } from "./emulator-throughput";
import { MIN_N } from "./generate";
import { benchSizeCli, cliVersion } from "./cli";
import { analyse, renderResults } from "./report";
import { type Registrations, benchRateLimited, benchSize, measureBaseline, measureOverhead } from "./rig";
import { applyBaseline, baselineOf } from "./statistics";
import { type BenchReport, type CliSizeResult, ENGINES, type Engine, type RateResult, type SizeResult, type VariantResult } from "./types";
import { NOCODE_VARIANTS, REGISTRATION_VARIANTS, USER_VARIANTS, benchVariants } from "./variants";


function machine(): BenchReport["machine"] {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryBytes: os.totalmem(),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

export interface Args {
  sizes: number[];
  rateN: number;
  out: string;
  throughputMs: number;
  /** Cycles of the five phases per N: one count for every N, or one per N of `sizes` in its order. */
  repeats: number[];
  /** Sizes of the setup comparisons (registration choices, users' settings); empty skips them. */
  variantSizes: number[];
  variantRepeats: number;
  /** Sizes of the no-code / TypeScript comparison; empty skips it. */
  nocodeSizes: number[];
  /** What the five phases run through; null: both when the CLI can be built, else the harness. */
  engines: Engine[] | null;
  /** Keep the sizes and CLI tables this run does not measure from the earlier report at `out` (its .json). */
  keepEarlier: boolean;
}

/** `--engine harness,cli`: the engines the five phases run through, in the order given. */
export function engineList(v: string): Engine[] {
  const out: Engine[] = [];
  for (const x of v.split(",").map((e) => e.trim())) {
    if (!ENGINES.includes(x as Engine)) throw new Error(`--engine: '${x}' is not one of ${ENGINES.join(", ")}`);
    if (!out.includes(x as Engine)) out.push(x as Engine);
  }
  if (out.length === 0) throw new Error("--engine needs at least one engine");
  return out;
}

/**
 * The engines to run and the CLI's version: as asked, or by default both when the CLI can be built
 * (.ci/pulumi-cli; needs Go), else the harness with a note saying why.
 */
export function chooseEngines(asked: readonly Engine[] | null, unavailable: () => string | undefined, version: () => string): { engines: Engine[]; version: string | null; note?: string } {
  if (asked && !asked.includes("cli")) return { engines: [...asked], version: null };
  const why = unavailable();
  if (why === undefined) return { engines: asked ? [...asked] : [...ENGINES], version: version() };
  if (asked) throw new Error(`--engine cli: ${why}`);
  return { engines: ["harness"], version: null, note: `the Pulumi CLI was not measured: ${why}` };
}

export function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    sizes: [MIN_N, 100, 1000],
    rateN: 200,
    out: path.join(REPO_ROOT, "bench", "RESULTS.md"),
    throughputMs: 3000,
    repeats: [1],
    variantSizes: [100, 1000],
    variantRepeats: 1,
    nocodeSizes: [MIN_N, 100, 1000],
    engines: null,
    keepEarlier: false,
  };
  const sizeList = (v: string, flag: string) =>
    v === "0" || v === ""
      ? []
      : v.split(",").map((x) => {
          const k = Number(x.trim());
          if (!Number.isInteger(k) || k < MIN_N) throw new Error(`${flag}: '${x}' is not an integer of at least ${MIN_N}`);
          return k;
        });
  const count = (v: string, flag: string) => {
    const k = Number(v);
    if (!Number.isInteger(k) || k < 1) throw new Error(`${flag} must be a positive integer`);
    return k;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--sizes") {
      args.sizes = sizeList(value(), a);
    } else if (a === "--rate-n") {
      args.rateN = Number(value());
      if (!Number.isInteger(args.rateN) || args.rateN < 0) throw new Error("--rate-n must be a non-negative integer (0 skips the rate-limited run)");
    } else if (a === "--repeats") {
      args.repeats = value()
        .split(",")
        .map((x) => count(x.trim(), a));
    } else if (a === "--variant-sizes") {
      args.variantSizes = sizeList(value(), a);
    } else if (a === "--nocode-sizes") {
      args.nocodeSizes = sizeList(value(), a);
    } else if (a === "--variant-repeats") {
      args.variantRepeats = count(value(), a);
    } else if (a === "--engine") {
      args.engines = engineList(value());
    } else if (a === "--keep-earlier") {
      args.keepEarlier = true;
    } else if (a === "--out") {
      args.out = path.resolve(value());
    } else if (a === "--throughput-ms") {
      args.throughputMs = Number(value());
    } else if (a === "--help" || a === "-h") {
      process.stdout.write(
        `npm run bench -- [--sizes ${MIN_N},100,1000 (0 = none)] [--repeats 1 (or one per size: 3,3,1)] [--engine harness,cli (default both; the harness only when Go is missing)] [--variant-sizes 100,1000 (0 = skip)] [--variant-repeats 1] [--nocode-sizes ${MIN_N},100,1000 (0 = skip)] [--rate-n 200 (0 = skip)] [--throughput-ms 3000] [--out bench/RESULTS.md] [--keep-earlier (sizes and CLI tables not measured now kept from the earlier report, marked)]\n`,
      );
      process.exit(0);
    } else {
      throw new Error(`unknown option ${a} (try --help)`);
    }
  }
  if (args.repeats.length > 1 && args.repeats.length !== args.sizes.length) throw new Error(`--repeats: ${args.repeats.length} counts for ${args.sizes.length} sizes (give one count, or one per size)`);
  return args;
}

/** Cycles of the five phases at the `i`-th size. */
export function repeatsAt(args: Pick<Args, "repeats">, i: number): number {
  return args.repeats.length === 1 ? args.repeats[0]! : args.repeats[i]!;
}

/** Runs the whole benchmark. */
export async function runBench(argv: readonly string[], log: (line: string) => void): Promise<BenchReport> {
  const args = parseArgs(argv);
  const started = performance.now();
  const loadStart = os.loadavg();
  log(`emulator throughput (${args.throughputMs} ms)…`);
  const throughput = await measureEmulatorThroughput({ durationMs: args.throughputMs });
  log(`  ${throughput.getsPerSecond} GETs/s`);
  const chosen = args.sizes.length > 0 ? chooseEngines(args.engines, pulumiUnavailable, cliVersion) : { engines: [] as Engine[], version: null };
  if (chosen.note) log(`note: ${chosen.note}; the five phases run through the engine harness only`);
  const engines = chosen.engines;
  // Only the harness's per-N tables use it: a run of setup comparisons alone skips it.
  if (engines.includes("harness")) log("harness overhead (empty program)…");
  const overhead = engines.includes("harness") ? await measureOverhead() : { coldUpMs: 0, warmUpMs: 0, refreshMs: 0, destroyMs: 0 };
  if (engines.includes("harness")) log(`  cold up ${Math.round(overhead.coldUpMs)} ms, warm up ${Math.round(overhead.warmUpMs)} ms, refresh ${Math.round(overhead.refreshMs)} ms, destroy ${Math.round(overhead.destroyMs)} ms`);
  const sizes: SizeResult[] = [];
  const cliSizes: CliSizeResult[] = [];
  /** What the harness's program registered per N: the CLI's floor replays the same. */
  const registered = new Map<number, Registrations>();
  const registration: VariantResult[] = [];
  const mitigations: VariantResult[] = [];
  const nocode: VariantResult[] = [];
  let rate: RateResult | null = null;
  const pending: string[] = [];
  const earlier = args.keepEarlier ? readEarlier(args.out.replace(/\.md$/, "") + ".json") : null;
  const write = () => {
    const measured: BenchReport = {
      date: new Date().toISOString(),
      command: ["npm run bench", ...(argv.length > 0 ? ["--", ...argv] : [])].join(" "),
      machine: machine(),
      overhead,
      sizes,
      engines,
      ...(chosen.version !== null || chosen.note ? { cli: { version: chosen.version, ...(chosen.note ? { note: chosen.note } : {}), sizes: cliSizes } } : {}),
      rate,
      throughput,
      registration,
      mitigations,
      nocode,
      load: { start: loadStart, end: os.loadavg() },
      notMeasured: [...pending],
      durationMs: performance.now() - started,
    };
    const report = earlier ? keepEarlier(measured, earlier) : measured;
    fs.mkdirSync(path.dirname(args.out), { recursive: true });
    fs.writeFileSync(args.out, renderResults(report, analyse(report)));
    // The measurements themselves beside the page, so the page can be rendered again without a rerun.
    fs.writeFileSync(args.out.replace(/\.md$/, "") + ".json", `${JSON.stringify(report, null, 1)}\n`);
    return report;
  };
  // Stages in order of need, RESULTS.md rewritten after each: a run stopped early (a loaded machine)
  // still reports what it measured and names what it did not.
  type Stage = [string, () => Promise<void>];
  const variantStages = (n: number): Stage[] => [
    [`the component's registration choices at N = ${n}`, async () => void registration.push(...(await benchVariants(n, REGISTRATION_VARIANTS, { floor: true, repeats: args.variantRepeats, log })))],
    [`users' settings at N = ${n}`, async () => void mitigations.push(...(await benchVariants(n, USER_VARIANTS, { repeats: args.variantRepeats, log })))],
  ];
  const nocodeStage = (n: number): Stage => [
    `the no-code project beside a TypeScript program at N = ${n}`,
    async () => void nocode.push(...(await benchVariants(n, NOCODE_VARIANTS, { preview: true, repeats: args.variantRepeats, log }))),
  ];
  const repeats = (n: number) => repeatsAt(args, args.sizes.indexOf(n));
  const harnessStage = (n: number): Stage => [
    `the five phases at N = ${n}`,
    async () => {
      const recorded: Registrations = {};
      sizes.push(await benchSize(n, { overhead, log, repeats: repeats(n), registrations: recorded }));
      registered.set(n, recorded);
    },
  ];
  // Right after the harness's of the same N: its recorded registrations for the floor, its baseline for the allowances.
  const cliStage = (n: number): Stage => [
    `the five phases through the Pulumi CLI at N = ${n}`,
    async () => {
      const recorded = registered.get(n);
      const result = await benchSizeCli(n, { log, repeats: repeats(n), registrations: recorded?.create && recorded.change ? { create: recorded.create, change: recorded.change } : undefined });
      const harness = sizes.find((x) => x.n === n);
      applyBaseline(result.phases, harness ? baselineOf(harness.phases) : await measureBaseline(n, log, new Set(result.phases.map((p) => p.phase))));
      cliSizes.push(result);
    },
  ];
  // In the order --sizes gives, each N's no-code comparison and setup comparisons right after its five phases.
  const stages: Stage[] = [
    ...args.sizes.flatMap((n): Stage[] => [
      ...(engines.includes("harness") ? [harnessStage(n)] : []),
      ...(engines.includes("cli") ? [cliStage(n)] : []),
      ...(args.nocodeSizes.includes(n) ? [nocodeStage(n)] : []),
      ...(args.variantSizes.includes(n) ? variantStages(n) : []),
    ]),
    ...args.variantSizes.filter((n) => !args.sizes.includes(n)).flatMap(variantStages),
    ...args.nocodeSizes.filter((n) => !args.sizes.includes(n)).map(nocodeStage),
    ...(args.rateN > 0 ? [[`the rate-limited run (N = ${args.rateN})`, async () => void (rate = await benchRateLimited(args.rateN, log))] as Stage] : []),
  ];
  pending.push(...stages.map(([name]) => name));
  for (const [name, run] of stages) {
    log(`${name}…`);
    await run();
    pending.splice(pending.indexOf(name), 1);
    write();
  }
  const report = write();
  log(`wrote ${path.relative(process.cwd(), args.out)} in ${Math.round(report.durationMs / 1000)} s`);
  return report;
}

if (require.main === module) {
  runBench(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`)).then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
