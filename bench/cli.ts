/**
 * The five phases through the Pulumi CLI users run (built by .ci/pulumi-cli, driven as test/cli/pulumi.ts
 * drives it: a local file backend, a passphrase secrets provider), beside the engine harness's rows: the
 * same generated stack and no-code program, `--parallel` as the harness runs, `--skip-preview --yes` for
 * up, refresh and destroy. Each phase is followed by the floor program's (bench/floor.ts) through the CLI
 * too, replaying what the stack-file program registered. The CLI's own fixed cost is measured beside
 * them: `pulumi preview` of a program that registers nothing.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../emulator";
import { type PreparedProgram, WORK_DIR, prepareProgram } from "../test/harness";
import { type CliResult, PulumiCli, pulumiBinDir, resourceSummary } from "../test/cli/pulumi";
import { BENCH_ENV, changeStack, generateStack } from "./generate";
import { type FloorProgram, RegistrationRecorder, prepareFloorProgram } from "./floor";
import { DEFAULT_SETUP, prepareBenchProgram } from "./program";
import { type Registrations, RUN_TIMEOUT_MS, benchSeed, startRig, timed } from "./rig";
import { countCalls, median, minimumCalls, routeCounts } from "./statistics";
import { type CliSizeResult, type Phase, type PhaseResult, SETTINGS } from "./types";

/** The harness's parallelism. */
const parallel = (): string[] => ["--parallel", String(SETTINGS.concurrency)];
/** How up, refresh and destroy run: no preview before the update, no question asked. */
const apply = (): string[] => ["--yes", "--skip-preview", ...parallel()];

/** `pulumi version` of the CLI the bench runs. */
export function cliVersion(): string {
  return execFileSync(path.join(pulumiBinDir(), "pulumi"), ["version"], { encoding: "utf8" }).trim();
}

/** One project folder with its own stack on its own backend; the phases as CLI commands. */
class CliStack {
  private constructor(
    readonly program: PreparedProgram,
    readonly cli: PulumiCli,
  ) {}

  /** `pulumi stack init bench`, with the provider's config for `api` when given. */
  static async init(program: PreparedProgram, api?: { url: string; token: string }): Promise<CliStack> {
    const cli = new PulumiCli(program.dir, api ? [api.token] : []);
    // The client's in-flight bound, as the harness's rows run.
    cli.env["DOCSPLATFORM_MAX_CONCURRENCY"] = String(SETTINGS.concurrency);
    // The secret sources the generated stack's MCP headers and connection secrets name.
    Object.assign(cli.env, BENCH_ENV);
    const stack = new CliStack(program, cli);
    try {
      if (api) await cli.initStack("bench", api);
      else await cli.run(["stack", "init", "bench"]);
    } catch (e) {
      stack.close();
      throw e;
    }
    return stack;
  }

  up(): Promise<CliResult> {
    return this.cli.run(["up", ...apply()]);
  }
  refresh(): Promise<CliResult> {
    return this.cli.run(["refresh", ...apply()]);
  }
  destroy(): Promise<CliResult> {
    return this.cli.run(["destroy", ...apply()]);
  }
  preview(): Promise<CliResult> {
    return this.cli.run(["preview", ...parallel()]);
  }

  close(): void {
    this.cli.close();
    this.program.cleanup();
  }
}

const EMPTY_PULUMI_YAML = `name: docsplatform-bench-empty
runtime:
  name: nodejs
  options:
    typescript: false
description: A program that registers nothing - the Pulumi CLI's own cost of a run.
`;

/**
 * Wall times of `pulumi preview` of a JavaScript program that registers nothing (the CLI, its engine, the
 * language host and the SDK's start; no plugin), after one unmeasured preview.
 */
export async function measureEmptyPreview(count = 3): Promise<number[]> {
  const src = path.join(WORK_DIR, "bench-empty");
  fs.rmSync(src, { recursive: true, force: true });
  fs.mkdirSync(src, { recursive: true });
  fs.writeFileSync(path.join(src, "Pulumi.yaml"), EMPTY_PULUMI_YAML);
  fs.writeFileSync(path.join(src, "index.js"), '"use strict";\n// Registers nothing.\n');
  const stack = await CliStack.init(await prepareProgram(src));
  try {
    await stack.preview();
    const out: number[] = [];
    for (let i = 0; i < count; i++) out.push((await timed(() => stack.preview())).ms);
    return out;
  } finally {
    stack.close();
  }
}

/**
 * What the stack-file program registers in a create and in the change after it, recorded through the
 * engine harness against a scratch emulator (not measured): the floor's input when the harness's rows
 * were not run.
 */
export async function recordRegistrations(n: number): Promise<Required<Registrations>> {
  const gen = generateStack(n);
  const { stack: changed } = changeStack(gen.stack);
  const rig = await startRig(gen.stack, { emulator: { seed: benchSeed(gen.spaces) } });
  try {
    const create = new RegistrationRecorder();
    await rig.runner.up({ onRegister: create.record, timeoutMs: RUN_TIMEOUT_MS });
    rig.program.writeStack(changed);
    const change = new RegistrationRecorder();
    await rig.runner.up({ onRegister: change.record, timeoutMs: RUN_TIMEOUT_MS });
    return { create: await create.done(), change: await change.done() };
  } finally {
    await rig.close();
  }
}

/** Options of {@link benchSizeCli}. */
export interface CliSizeOptions {
  /** The floor's registrations (default: recorded through the harness first); null runs no floor. */
  registrations?: Required<Registrations> | null;
  /** Cycles of the five phases (default 1): each phase reports the median of its cycles. */
  repeats?: number;
  /** Empty previews measured (default 3). */
  emptyPreviews?: number;
  log?: (line: string) => void;
}

/** Steps of a run as the CLI's summary counts them, and how many a refresh found changed. */
function stepsOf(phase: Phase, r: CliResult): { steps: Record<string, number>; drift: number } {
  const steps = resourceSummary(r);
  const drift = phase === "refresh" ? (steps["updated"] ?? 0) + (steps["deleted"] ?? 0) : 0;
  return { steps, drift };
}

/**
 * The five phases of N's generated stack through the CLI against a fresh emulator with the benchmark's
 * latency, each followed by the floor's through the CLI; the baseline is not run here (see `applyBaseline`).
 */
export async function benchSizeCli(n: number, opts: CliSizeOptions = {}): Promise<CliSizeResult> {
  const log = opts.log ?? (() => undefined);
  const repeats = Math.max(1, opts.repeats ?? 1);
  const gen = generateStack(n);
  const { stack: changed, edits } = changeStack(gen.stack);
  const minimum = minimumCalls(gen.stack, gen.composition, edits);
  const registrations = opts.registrations === undefined ? await recordRegistrations(n) : opts.registrations;

  const emptySamples = await measureEmptyPreview(opts.emptyPreviews ?? 3);
  const emptyPreviewMs = median(emptySamples);
  log(`  N=${n} CLI: empty program's preview ${Math.round(emptyPreviewMs)} ms`);

  let emu: RunningEmulator | undefined;
  let provider: CliStack | undefined;
  let floor: CliStack | undefined;
  let floorProgram: FloorProgram | undefined;
  const phases: PhaseResult[] = [];
  try {
    emu = await startEmulator({ port: 0, latencyMs: SETTINGS.latencyMs, seed: benchSeed(gen.spaces) });
    const program = await prepareBenchProgram(gen.stack, DEFAULT_SETUP);
    provider = await CliStack.init(program, { url: emu.url, token: emu.token });
    if (registrations) {
      // JavaScript, as the no-code project is.
      floorProgram = await prepareFloorProgram({ javascript: true });
      floor = await CliStack.init(floorProgram);
    }
    const record = (phase: Phase, r: CliResult, calls: ReturnType<RunningEmulator["control"]["log"]>, ms: number, floorMs: number | null) => {
      const c = countCalls(calls);
      log(`  N=${n} CLI ${phase}: ${Math.round(ms)} ms${floorMs === null ? "" : ` (floor ${Math.round(floorMs)} ms)`}, ${c.writes} writes + ${c.reads} reads + ${c.moves} moves`);
      const existing = phases.find((p) => p.phase === phase);
      if (existing) {
        existing.samples.push({ wallMs: ms, floorMs });
        return;
      }
      const { steps, drift } = stepsOf(phase, r);
      phases.push({
        phase,
        calls: c,
        minimum: minimum[phase],
        routes: routeCounts(calls),
        wallMs: ms,
        floorMs,
        samples: [{ wallMs: ms, floorMs }],
        overheadMs: emptyPreviewMs,
        baselineMs: null,
        baselineCalls: null,
        steps,
        // A failed command rejects (PulumiCli.run): a phase recorded here succeeded.
        failed: 0,
        drift,
      });
    };
    // The provider's command, then the floor's with what the program registers in this phase.
    const pair = async (phase: Phase, run: (s: CliStack) => Promise<CliResult>, replay?: "create" | "change") => {
      emu!.control.clearLog();
      const t = await timed(() => run(provider!));
      const calls = emu!.control.log();
      let floorMs: number | null = null;
      if (floor && floorProgram && registrations) {
        if (replay) floorProgram.writeRegistrations(registrations[replay]);
        floorMs = (await timed(() => run(floor!))).ms;
      }
      record(phase, t.value, calls, t.ms, floorMs);
    };
    for (let cycle = 0; cycle < repeats; cycle++) {
      if (cycle > 0) program.writeStack(gen.stack);
      await pair("create", (s) => s.up(), "create");
      await pair("no-op up", (s) => s.up());
      program.writeStack(changed);
      await pair("change 10%", (s) => s.up(), "change");
      await pair("refresh", (s) => s.refresh());
      await pair("destroy", (s) => s.destroy());
    }
    for (const p of phases) {
      p.wallMs = median(p.samples.map((x) => x.wallMs));
      const f = p.samples.map((x) => x.floorMs).filter((x): x is number => x !== null);
      p.floorMs = f.length > 0 ? median(f) : null;
    }
  } finally {
    provider?.close();
    floor?.close();
    await emu?.close();
  }
  return { n, phases, emptyPreviewMs, emptyPreviewSamples: emptySamples, repeats };
}
