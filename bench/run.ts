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
import { defaultSeed, startEmulator, type EmulatorOptions, type RunningEmulator, type Seed, type SeedSpace } from "../emulator";
import { pulumiUnavailable } from "../test/cli/pulumi";
import { ProgramRunner, type ApiCall, type RunResult, REPO_ROOT, runnerAgainst } from "../test/harness";
import { isExternalLink, sectionsOf, type StackFile } from "../provider/file/model";
import { Baseline, type BaselineCalls } from "./baseline";
import { type EarlierRun, keepEarlier, readEarlier } from "./earlier";
import { measureEmulatorThroughput, type ThroughputResult } from "./emulator-throughput";
import { BENCH_ENV, type Composition, type Edit, MIN_N, changeStack, generateStack } from "./generate";
import { type FloorProgram, type FloorRegistration, RegistrationRecorder, prepareFloorProgram } from "./floor";
import { type BenchProgram, DEFAULT_SETUP, type ProgramSetup, isJavaScript, prepareBenchProgram } from "./program";
import { type CliSizeResult, ENGINES, type Engine, benchSizeCli, cliVersion } from "./cli";
import { NOCODE_VARIANTS, REGISTRATION_VARIANTS, USER_VARIANTS, type VariantResult, benchVariants } from "./variants";

/** Fixed settings of every run. */
export const SETTINGS = {
  latencyMs: 20,
  concurrency: 16,
  /** 600 requests per minute, in a 10 s window to keep the run short. */
  rateLimit: { limit: 100, windowMs: 10_000 },
} as const;

/** A program run's time limit: a loaded machine has made an N = 100 up take over two minutes. */
export const RUN_TIMEOUT_MS = 30 * 60_000;

/** The phases of one size. */
export type Phase = "create" | "no-op up" | "change 10%" | "refresh" | "destroy";

/** API calls by category: moves (ordering) are apart from other writes. */
export interface CallCounts {
  writes: number;
  reads: number;
  moves: number;
}

/** Calls of a phase split by route, for the explanation of a miss. */
export type RouteCounts = Record<string, number>;

/** One phase of one size. */
export interface PhaseResult {
  phase: Phase;
  calls: CallCounts;
  /** Writes and reads the phase needs at least (moves have no fixed minimum: see `baselineCalls.moves`). */
  minimum: { writes: number; reads: number };
  routes: RouteCounts;
  wallMs: number;
  /** Wall time of the same phase of the floor program (bench/floor.ts), run right after it. */
  floorMs: number | null;
  /** Every repetition's wall time (provider, floor), in run order; `wallMs`/`floorMs` are their medians. */
  samples: { wallMs: number; floorMs: number | null }[];
  /** Wall time of the harness's fixed cost for this kind of run (an empty program). */
  overheadMs: number;
  baselineMs: number | null;
  baselineCalls: BaselineCalls | null;
  steps: Partial<Record<string, number>>;
  failed: number;
  drift: number;
}

/** Sizes of the state file after the change phase. */
export interface StateSize {
  bytes: number;
  /** Every entry (stack, component, provider, custom resources). */
  entries: number;
  /** Custom (API-backed) resources. */
  resources: number;
  /** Bytes of `__provider` values (inputs and outputs). */
  providerBytes: number;
  /** Serialised provider text per kind: its length in bytes. */
  providerTextBytes: Record<string, number>;
}

/** Everything measured for one N. */
export interface SizeResult {
  n: number;
  composition: Composition;
  /** Objects declared `draft: true` (among the composition's). */
  drafts?: number;
  /** Site spaces declared `hidden: true` (among the composition's). */
  hidden?: number;
  edits: number;
  phases: PhaseResult[];
  state: StateSize;
  /** Peak resident set of the plugin process (VmHWM), bytes. */
  pluginPeakRssBytes: number | null;
  /** Peak resident set of the floor program's plugin (the do-nothing provider), bytes. */
  floorPeakRssBytes: number | null;
  /** Cycles of the five phases run (each phase's wall is the median of its cycles). */
  repeats: number;
  /** Set when the size was kept from an earlier run's report (`--keep-earlier`), not measured by this one. */
  earlier?: EarlierRun;
}

/** The rate-limited run. */
export interface RateResult {
  n: number;
  limit: { limit: number; windowMs: number };
  phases: { phase: Phase; calls: number; wallMs: number; floorMs: number; failed: number; rejected429: number }[];
}

/** The harness's fixed cost: runs of a program declaring nothing. */
export interface Overhead {
  coldUpMs: number;
  warmUpMs: number;
  refreshMs: number;
  destroyMs: number;
}

/** A whole benchmark run. */
export interface BenchReport {
  date: string;
  command: string;
  machine: { cpu: string; cores: number; memoryBytes: number; node: string; platform: string };
  overhead: Overhead;
  sizes: SizeResult[];
  /** The engines the five phases ran through (older reports: the harness only). */
  engines?: Engine[];
  /** The Pulumi CLI's version, when it ran; why it did not, when it was wanted but cannot be built. */
  cli?: { version: string | null; note?: string; sizes: CliSizeResult[] };
  rate: RateResult | null;
  throughput: ThroughputResult;
  /** The component's registration choices against the floor (create and no-op up per N). */
  registration: VariantResult[];
  /** What a user can set for a large stack (create and no-op up per N). */
  mitigations: VariantResult[];
  /** The no-code project beside a TypeScript program (create, no-op up, no-op preview per N). */
  nocode: VariantResult[];
  /** Stages of the command that had not run when this report was written (a run stopped early). */
  notMeasured: string[];
  /** Load average (1, 5, 15 min) at the start and the end of the run: other processes share the machine. */
  load: { start: number[]; end: number[] };
  durationMs: number;
}

const ORG = "demo-org";

/** The default fixture plus the spaces a generated stack refers to. */
export function benchSeed(spaces: readonly SeedSpace[]): Seed {
  const seed = defaultSeed();
  seed.organizations[0]!.spaces = [...(seed.organizations[0]!.spaces ?? []), ...spaces];
  return seed;
}

/** Splits calls into writes, reads and ordering moves (the move operations and the structure sort). */
export function countCalls(calls: readonly ApiCall[]): CallCounts {
  const out: CallCounts = { writes: 0, reads: 0, moves: 0 };
  for (const c of calls) {
    if (c.route.endsWith("/move") || c.route.endsWith("/structure/sort")) out.moves++;
    else if (c.method === "GET") out.reads++;
    else out.writes++;
  }
  return out;
}

/** "GET sections" style route counts. */
export function routeCounts(calls: readonly ApiCall[]): RouteCounts {
  const out: RouteCounts = {};
  for (const c of calls) {
    const tail = c.route.replace(/^\/v1\/orgs\/:organizationId/, "").replace(/\/:[A-Za-z]+/g, "/:id");
    const key = `${c.method} ${tail || "/"}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

/**
 * The minimal writes and reads of each phase for a stack (moves excluded), derived from what each
 * kind's create, read, update and delete must call under the API's contract:
 * - create: one write per object — a section's first site space comes with the section's POST, a
 *   customization's write is its PUT, an override's its PATCH, a group's sections and a draft flag go
 *   with their POST; plus one read per site by title before its POST (the lookup that keeps a run
 *   repeated after a crash from making a second site: the API lets two sites share a title, so a POST
 *   is not idempotent), one read of each customized site's look (the PUT replaces the whole object
 *   and the platform does not publish its defaults: the look is recorded to fill what the file leaves
 *   out and to put back on destroy), and the reads of restoring the declared order — one structure
 *   read for a site with external links (the only read that shows links, and it holds every section,
 *   site space and group), else one paged walk of its sections and of its site spaces (and of its
 *   groups when it declares some); a hidden site space's second write, the PATCH that hides it (the
 *   create body takes no `hidden`); the organisation's objects: a style guide its site's POST of
 *   the guide, an OpenAPI spec its POST (the file's text rides in it), the agent instructions one read
 *   and one PUT (sent only when they differ), a site's attached guide one read of the site and the
 *   PATCH of its `styleguide` (sent only when it differs);
 * - change: one write per edited object (a customization's whole settings in one PUT, merged over
 *   the recorded look: no read first; the agent instructions' PUT; a spec's new text in one PUT);
 * - refresh: one GET per site, team and created space, one per override (its effective look) and one
 *   of each customized site's look (shared by the site's customization and its overrides, which need
 *   it to tell a hand-made override from the site's value); one paged walk per parent for each
 *   list-read kind (sections, site spaces, section groups, share links, MCP servers, channels, context
 *   connections); one structure read per site with external links (shared by its links, which have no
 *   GET or list of their own, and its order); one GET of each site's agent settings and one of each
 *   Git Sync site's installations (the list that holds the installation and its children); one GET
 *   of each style guide's space and of the agent instructions; an OpenAPI spec's GET, and for a spec
 *   sent from a file the GET of its raw text (a text edited in the app is drift); nothing for a site's
 *   attached guide: it is a member of the site, which the site's own GET reads;
 * - destroy: one call per object, children first (the kinds do not rely on cascades): a DELETE, a
 *   customization's PUT of the recorded look, Git Sync's uninstall; a site's attached guide a read of
 *   the site and the PATCH that detaches it (only while the site still has that guide: one attached by
 *   hand since stays); none for a space the file created (retained by the default deletion policy),
 *   for agent settings (no longer managed: the site keeps them), nor for a style guide or the agent
 *   instructions (content: retained when their entry goes).
 */
export function minimumCalls(stack: StackFile, composition: Composition, edits: readonly Edit[]): Record<Phase, { writes: number; reads: number }> {
  const sites = stack.sites ?? [];
  const n = Object.values(composition).reduce((a, b) => a + b, 0);
  const pages = (count: number) => Math.max(1, Math.ceil(count / 1000));
  let lists = 0;
  let orderReads = 0;
  let structures = 0;
  let looks = 0;
  let hidden = 0;
  for (const s of sites) {
    const sections = sectionsOf(s);
    const siteSpaces = sections.flatMap((x) => x.siteSpaces ?? []);
    const groups = (s.sectionGroups ?? []).length;
    const links = (s.sections ?? []).filter(isExternalLink).length;
    if (sections.length > 0) lists += pages(sections.length) + pages(siteSpaces.length);
    if (groups > 0) lists += pages(groups);
    if ((s.shareLinks ?? []).length > 0) lists += pages(s.shareLinks!.length);
    for (const list of [s.mcpServers, s.agentChannels, s.contextConnections]) if ((list ?? []).length > 0) lists += pages(list!.length);
    if (links > 0) structures += 1;
    if (links > 0) orderReads += 1;
    else if (sections.length > 0) orderReads += pages(sections.length) + pages(siteSpaces.length) + (groups > 0 ? pages(groups) : 0);
    if (s.customization !== undefined || siteSpaces.some((ss) => ss.customization !== undefined)) looks += 1;
    hidden += siteSpaces.filter((ss) => ss.hidden === true).length;
  }
  const specReads = ((stack.openapi ?? []) as unknown as { file?: string }[]).reduce((k, spec) => k + (spec.file === undefined ? 1 : 2), 0);
  const retained = composition.spaces + composition.agentSettings + composition.styleGuides + composition.agentInstructions;
  return {
    create: {
      writes: n - composition.sections + composition.gitSyncs + hidden,
      reads: composition.sites + composition.customizations + composition.agentSettings + orderReads + composition.agentInstructions + composition.siteStyleGuides,
    },
    "no-op up": { writes: 0, reads: 0 },
    "change 10%": { writes: edits.length, reads: 0 },
    refresh: {
      writes: 0,
      reads: composition.sites + composition.teams + composition.spaces + composition.overrides + looks + lists + structures + composition.agentSettings + composition.gitSyncs + composition.styleGuides + composition.agentInstructions + specReads,
    },
    destroy: { writes: n - retained, reads: composition.siteStyleGuides },
  };
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

/** Median of a non-empty list (the lower middle for an even count). */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
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

export function failedSteps(r: RunResult): number {
  return r.steps.filter((s) => s.error !== undefined).length + (r.error && r.steps.every((s) => s.error === undefined) ? 1 : 0);
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

/** The raw client's wall time and calls for each phase of one N (the no-op up: none). */
export type BaselineResult = Partial<Record<Phase, { ms: number; calls: BaselineCalls }>>;

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

/** The baseline a measured size's phases carry, to give another engine's rows of the same N. */
export function baselineOf(phases: readonly PhaseResult[]): BaselineResult {
  const out: BaselineResult = {};
  for (const p of phases) if (p.baselineMs !== null && p.baselineCalls !== null) out[p.phase] = { ms: p.baselineMs, calls: p.baselineCalls };
  return out;
}

/** Sets each phase's baseline wall and calls from a baseline run. */
export function applyBaseline(phases: readonly PhaseResult[], baseline: BaselineResult): void {
  for (const p of phases) {
    const b = baseline[p.phase];
    if (!b) continue;
    p.baselineMs = b.ms;
    p.baselineCalls = b.calls;
  }
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
  const { analyse, renderResults } = await import("./report");
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
