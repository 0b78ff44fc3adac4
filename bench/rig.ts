/**
 * The rig a measurement runs on — an emulator with the benchmark's latency, the benchmark program and
 * the floor program, each with its runner — and the measurements made through it: the harness's fixed
 * cost, the five phases of one N beside the floor, the baseline, and the rate-limited run.
 */
import * as fs from "node:fs";
import { startEmulator, defaultSeed, type EmulatorOptions, type RunningEmulator, type Seed, type SeedSpace } from "../emulator";
import { ProgramRunner, type RunResult, runnerAgainst } from "../test/harness";
import type { StackFile } from "../provider/file/model";
import { Baseline, type BaselineCalls } from "./baseline";
import { BENCH_ENV, changeStack, generateStack } from "./generate";
import { type FloorProgram, type FloorRegistration, RegistrationRecorder, prepareFloorProgram } from "./floor";
import { type BenchProgram, DEFAULT_SETUP, type ProgramSetup, isJavaScript, prepareBenchProgram } from "./program";
import { applyBaseline, countCalls, failedSteps, median, minimumCalls, routeCounts } from "./statistics";
import { type BaselineResult, type Overhead, type Phase, type PhaseResult, type RateResult, SETTINGS, type SizeResult, type StateSize } from "./types";

/** A program run's time limit: a loaded machine has made an N = 100 up take over two minutes. */
export const RUN_TIMEOUT_MS = 30 * 60_000;

const ORG = "demo-org";

/** The default fixture plus the spaces a generated stack refers to. */
export function benchSeed(spaces: readonly SeedSpace[]): Seed {
  const seed = defaultSeed();
  seed.organizations[0]!.spaces = [...(seed.organizations[0]!.spaces ?? []), ...spaces];
  return seed;
}

/** What one measurement runs on: an emulator, the benchmark program and its runner, and the floor program and its runner when asked for. */
export interface Rig {
  emu: RunningEmulator;
  program: BenchProgram;
  runner: ProgramRunner;
  floorProgram?: FloorProgram;
  floorRunner?: ProgramRunner;
  /** Closes the runners and the emulator, then removes the program copies. */
  close(): Promise<void>;
}

/** What {@link startRig} sets up besides the fixed settings. */
export interface RigOptions {
  /** The emulator's fixture and rate limit (its latency is the benchmark's). */
  emulator?: Pick<EmulatorOptions, "seed" | "rateLimit">;
  /** How the benchmark program is set up (default: the no-code project). */
  setup?: ProgramSetup;
  /** Environment of the provider's plugin, over the client's in-flight bound. */
  env?: Record<string, string>;
  /** Prepare the floor program and its runner too. */
  floor?: boolean;
}

/**
 * Starts an emulator with the benchmark's latency and prepares `stack` as the benchmark program, run at
 * the benchmark's parallelism with a fresh plugin per command, as every `pulumi` command starts its own
 * (with a fresh view of the site lists); the floor program likewise, with no API behind it.
 */
export async function startRig(stack: StackFile, opts: RigOptions = {}): Promise<Rig> {
  const parts: Partial<Rig> = {};
  const close = async (): Promise<void> => {
    await parts.runner?.close();
    await parts.floorRunner?.close();
    await parts.emu?.close();
    parts.program?.cleanup();
    parts.floorProgram?.cleanup();
  };
  try {
    const emu = (parts.emu = await startEmulator({ ...opts.emulator, port: 0, latencyMs: SETTINGS.latencyMs }));
    const setup = opts.setup ?? DEFAULT_SETUP;
    const program = (parts.program = await prepareBenchProgram(stack, setup));
    parts.runner = runnerAgainst(program.dir, emu, {
      env: { DOCSPLATFORM_MAX_CONCURRENCY: String(SETTINGS.concurrency), ...BENCH_ENV, ...opts.env },
      parallel: SETTINGS.concurrency,
      pluginPerRun: true,
    });
    if (opts.floor) {
      // The floor's program starts as the measured one does: JavaScript beside JavaScript, TypeScript beside TypeScript.
      const floorProgram = (parts.floorProgram = await prepareFloorProgram({ javascript: isJavaScript(setup) }));
      parts.floorRunner = new ProgramRunner({ dir: floorProgram.dir, parallel: SETTINGS.concurrency, pluginPerRun: true });
    }
    return { ...parts, emu, program, runner: parts.runner, close };
  } catch (e) {
    await close();
    throw e;
  }
}


/** The largest VmHWM seen among a runner's plugins (each command has its own). */
class PeakRss {
  peak: number | null = null;
  async sample(runner: ProgramRunner): Promise<void> {
    const p = await runner.plugin();
    const v = peakRss(p.pid);
    if (v !== null && (this.peak === null || v > this.peak)) this.peak = v;
  }
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}


/** Peak resident set (VmHWM) of a process, in bytes; null where /proc is not available. */
export function peakRss(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

function stateSize(runner: ProgramRunner): StateSize {
  const text = fs.readFileSync(runner.stateFile, "utf8");
  const resources = runner.resources();
  let providerBytes = 0;
  const providerTextBytes: Record<string, number> = {};
  for (const r of resources) {
    for (const props of [r.inputs, r.outputs]) {
      const p = props["__provider"];
      if (typeof p !== "string") continue;
      const bytes = Buffer.byteLength(JSON.stringify(p));
      providerBytes += bytes;
      const kind = r.type.slice(r.type.lastIndexOf(":") + 1);
      providerTextBytes[kind] = Math.max(providerTextBytes[kind] ?? 0, Buffer.byteLength(p));
    }
  }
  return {
    bytes: Buffer.byteLength(text),
    entries: resources.length,
    resources: resources.filter((r) => r.custom && r.type.startsWith("pulumi-nodejs:dynamic")).length,
    providerBytes,
    providerTextBytes,
  };
}

/** The harness's fixed cost: up (cold plugin, then warm), refresh and destroy of a program declaring nothing. */
export async function measureOverhead(): Promise<Overhead> {
  const rig = await startRig({ organization: ORG });
  const { runner } = rig;
  try {
    const cold = await timed(() => runner.up());
    // Warm ups vary by a second or more with the machine's load: take the median of three.
    const warm: number[] = [];
    for (let i = 0; i < 3; i++) warm.push((await timed(() => runner.up())).ms);
    warm.sort((a, b) => a - b);
    const refresh = await timed(() => runner.refresh());
    const destroy = await timed(() => runner.destroy());
    return { coldUpMs: cold.ms, warmUpMs: warm[1]!, refreshMs: refresh.ms, destroyMs: destroy.ms };
  } finally {
    await rig.close();
  }
}

/** Options of {@link benchSize}. */
export interface SizeOptions {
  /** Skip the baseline (for the smoke test). */
  baseline?: boolean;
  /** Phases to run (default all). */
  phases?: readonly Phase[];
  /** Overhead to subtract (default zeros). */
  overhead?: Overhead;
  /** Run the floor program beside each phase (default true). */
  floor?: boolean;
  /** Cycles of the five phases (default 1): each phase reports the median of its cycles. */
  repeats?: number;
  /** Filled with what the program registered in the first cycle's create and change (for the floor under the CLI). */
  registrations?: Registrations;
  log?: (line: string) => void;
}

/** What the stack-file program registered in a create and in the change that follows it (the floor replays them). */
export interface Registrations {
  create?: FloorRegistration[];
  change?: FloorRegistration[];
}

/** Runs the five phases for one N through the provider, then through the baseline. */
export async function benchSize(n: number, opts: SizeOptions = {}): Promise<SizeResult> {
  const log = opts.log ?? (() => undefined);
  const overhead = opts.overhead ?? { coldUpMs: 0, warmUpMs: 0, refreshMs: 0, destroyMs: 0 };
  const wanted = new Set<Phase>(opts.phases ?? ["create", "no-op up", "change 10%", "refresh", "destroy"]);
  const gen = generateStack(n);
  const { stack: changed, edits } = changeStack(gen.stack);
  const minimum = minimumCalls(gen.stack, gen.composition, edits);
  const seed = benchSeed(gen.spaces);

  const rig = await startRig(gen.stack, { emulator: { seed }, floor: opts.floor !== false });
  const { program, runner, floorProgram, floorRunner } = rig;
  const repeats = Math.max(1, opts.repeats ?? 1);
  const phases: PhaseResult[] = [];
  let state: StateSize | undefined;
  const rss = new PeakRss();
  const floorRss = new PeakRss();
  try {
    const record = (phase: Phase, r: RunResult, ms: number, floorMs: number | null, overheadMs: number) => {
      const c = countCalls(r.apiCalls);
      log(`  N=${n} ${phase}: ${Math.round(ms)} ms${floorMs === null ? "" : ` (floor ${Math.round(floorMs)} ms)`}, ${c.writes} writes + ${c.reads} reads + ${c.moves} moves`);
      const existing = phases.find((p) => p.phase === phase);
      if (existing) {
        // A later cycle: calls must not change; wall times go to the samples.
        existing.samples.push({ wallMs: ms, floorMs });
        existing.failed += failedSteps(r);
        return;
      }
      phases.push({
        phase,
        calls: c,
        minimum: minimum[phase],
        routes: routeCounts(r.apiCalls),
        wallMs: ms,
        floorMs,
        samples: [{ wallMs: ms, floorMs }],
        overheadMs,
        baselineMs: null,
        baselineCalls: null,
        steps: r.summary,
        failed: failedSteps(r),
        drift: r.drift.length,
      });
    };
    // Provider first, then the floor with what the provider's program registered (each command with its
    // own fresh plugin, as the CLI): both sides of a ratio see the machine's load of the same minute.
    const pair = async (phase: Phase, provider: (rec: RegistrationRecorder) => Promise<RunResult>, floor: () => Promise<RunResult>, overheadMs: number) => {
      const rec = new RegistrationRecorder();
      const t = await timed(() => provider(rec)).catch((e: unknown) => {
        throw new Error(`provider ${phase} failed: ${e instanceof Error ? e.message : String(e)}`);
      });
      await rss.sample(runner);
      const registered = phase === "create" || phase === "change 10%" ? await rec.done() : undefined;
      if (registered && opts.registrations) {
        const key = phase === "create" ? "create" : "change";
        opts.registrations[key] ??= registered;
      }
      let floorMs: number | null = null;
      if (floorRunner && floorProgram) {
        if (registered) floorProgram.writeRegistrations(registered);
        const f = await timed(floor).catch((e: unknown) => {
          throw new Error(`floor ${phase} failed: ${e instanceof Error ? e.message : String(e)}`);
        });
        if (failedSteps(f.value) > 0) throw new Error(`floor ${phase} failed: ${f.value.error?.message ?? "a step failed"}`);
        await floorRss.sample(floorRunner);
        floorMs = f.ms;
      }
      record(phase, t.value, t.ms, floorMs, overheadMs);
    };
    for (let cycle = 0; cycle < repeats; cycle++) {
      if (cycle > 0) program.writeStack(gen.stack);
      await pair("create", (rec) => runner.up({ onRegister: rec.record, timeoutMs: RUN_TIMEOUT_MS }), () => floorRunner!.up({ timeoutMs: RUN_TIMEOUT_MS }), overhead.coldUpMs);
      if (wanted.has("no-op up")) await pair("no-op up", () => runner.up({ timeoutMs: RUN_TIMEOUT_MS }), () => floorRunner!.up({ timeoutMs: RUN_TIMEOUT_MS }), overhead.warmUpMs);
      if (wanted.has("change 10%")) {
        program.writeStack(changed);
        await pair("change 10%", (rec) => runner.up({ onRegister: rec.record, timeoutMs: RUN_TIMEOUT_MS }), () => floorRunner!.up({ timeoutMs: RUN_TIMEOUT_MS }), overhead.warmUpMs);
      }
      if (wanted.has("refresh")) await pair("refresh", () => runner.refresh(), () => floorRunner!.refresh(), overhead.refreshMs);
      state ??= stateSize(runner);
      if (wanted.has("destroy")) await pair("destroy", () => runner.destroy(), () => floorRunner!.destroy(), overhead.destroyMs);
      else if (cycle + 1 < repeats) throw new Error("repeats need the destroy phase");
    }
    for (const p of phases) {
      p.wallMs = median(p.samples.map((x) => x.wallMs));
      const f = p.samples.map((x) => x.floorMs).filter((x): x is number => x !== null);
      p.floorMs = f.length > 0 ? median(f) : null;
    }
  } finally {
    await rig.close();
  }

  if (opts.baseline !== false) applyBaseline(phases, await measureBaseline(n, log, wanted));
  return { n, composition: gen.composition, drafts: gen.drafts, hidden: gen.hidden, edits: edits.length, phases, state: state!, pluginPeakRssBytes: rss.peak, floorPeakRssBytes: floorRunner ? floorRss.peak : null, repeats };
}



/**
 * The raw client making exactly the minimal calls of each of the `wanted` phases of N's generated stack,
 * at the benchmark's concurrency, against a fresh emulator with the same latency (bench/baseline.ts).
 */
export async function measureBaseline(n: number, log: (line: string) => void, wanted: ReadonlySet<Phase>): Promise<BaselineResult> {
  const gen = generateStack(n);
  const { stack: changed, edits } = changeStack(gen.stack);
  const base = await startEmulator({ port: 0, latencyMs: SETTINGS.latencyMs, seed: benchSeed(gen.spaces) });
  const baseline = new Baseline(base.url, base.token, ORG, SETTINGS.concurrency);
  const out: BaselineResult = { "no-op up": { ms: 0, calls: { writes: 0, reads: 0, moves: 0 } } };
  try {
    const run = async (phase: Phase, fn: () => Promise<BaselineCalls>) => {
      base.control.clearLog();
      const t = await timed(fn);
      const logged = countCalls(base.control.log());
      if (logged.writes !== t.value.writes || logged.reads !== t.value.reads || logged.moves !== t.value.moves) {
        throw new Error(`baseline ${phase}: counted ${JSON.stringify(t.value)} but the emulator logged ${JSON.stringify(logged)}`);
      }
      out[phase] = { ms: t.ms, calls: t.value };
      log(`  N=${n} baseline ${phase}: ${Math.round(t.ms)} ms, ${t.value.writes} writes + ${t.value.reads} reads + ${t.value.moves} moves`);
    };
    // The create always runs: the later phases need its objects.
    await run("create", () => baseline.create(gen.stack));
    if (wanted.has("change 10%")) await run("change 10%", () => baseline.change(edits, changed));
    if (wanted.has("refresh")) await run("refresh", () => baseline.refresh(changed));
    if (wanted.has("destroy")) await run("destroy", () => baseline.destroy(changed));
  } finally {
    await baseline.close();
    await base.close();
  }
  return out;
}


/** Create and destroy of N objects with the emulator rate-limited; wall time against calls ÷ rate. */
export async function benchRateLimited(n: number, log: (line: string) => void = () => undefined): Promise<RateResult> {
  const gen = generateStack(n);
  const rig = await startRig(gen.stack, { emulator: { seed: benchSeed(gen.spaces), rateLimit: SETTINGS.rateLimit } });
  const { runner } = rig;
  const perMs = SETTINGS.rateLimit.limit / SETTINGS.rateLimit.windowMs;
  const phases: RateResult["phases"] = [];
  try {
    for (const [phase, fn] of [
      ["create", () => runner.up({ allowError: true, timeoutMs: 600_000 })],
      ["destroy", () => runner.destroy({ allowError: true })],
    ] as const) {
      const t = await timed(fn);
      const calls = t.value.apiCalls;
      const rejected = calls.filter((c) => c.status === 429).length;
      const served = calls.length - rejected;
      phases.push({ phase, calls: served, wallMs: t.ms, floorMs: served / perMs, failed: failedSteps(t.value), rejected429: rejected });
      log(`  rate-limited N=${n} ${phase}: ${Math.round(t.ms)} ms for ${served} calls (${rejected} answered 429), ${failedSteps(t.value)} failed`);
    }
  } finally {
    await rig.close();
  }
  return { n, limit: { ...SETTINGS.rateLimit }, phases };
}
