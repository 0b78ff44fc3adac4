/**
 * What a benchmark run measures and reports: the fixed settings, and the shapes of bench/RESULTS.json
 * that bench/run.ts writes, bench/report.ts renders and bench/earlier.ts carries over.
 */
import type { BaselineCalls } from "./baseline";
import type { ThroughputResult } from "./emulator-throughput";
import type { Composition } from "./generate";

/** Fixed settings of every run. */
export const SETTINGS = {
  latencyMs: 20,
  concurrency: 16,
  /** 600 requests per minute, in a 10 s window to keep the run short. */
  rateLimit: { limit: 100, windowMs: 10_000 },
} as const;

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

/** The run a kept row was measured in. */
export interface EarlierRun {
  date: string;
  command: string;
}

/** One N through the CLI. */
export interface CliSizeResult {
  n: number;
  /** Each phase as the harness's rows have it; `overheadMs` is `emptyPreviewMs`. */
  phases: PhaseResult[];
  /** The CLI's own fixed cost at this N's minute: median wall of an empty program's `pulumi preview`. */
  emptyPreviewMs: number;
  emptyPreviewSamples: number[];
  repeats: number;
  /** Set when the size was kept from an earlier run's report (`--keep-earlier`), not measured by this one. */
  earlier?: EarlierRun;
}

/** The engines a run measures the five phases through. */
export type Engine = "harness" | "cli";
export const ENGINES: readonly Engine[] = ["harness", "cli"];

/** A variant's measured walls (medians of `repeats` create/no-op cycles). */
export interface VariantResult {
  label: string;
  n: number;
  createMs: number;
  noopMs: number;
  /** A no-op preview after the no-op up (null when not measured). */
  previewMs: number | null;
  /** Same-cycle floor walls (null when run without the floor). */
  floorCreateMs: number | null;
  floorNoopMs: number | null;
  /** Peak RSS of the language host is not visible to the harness; the plugin's is. */
  pluginPeakRssBytes: number | null;
  repeats: number;
}

/** The raw client's wall time and calls for each phase of one N (the no-op up: none). */
export type BaselineResult = Partial<Record<Phase, { ms: number; calls: BaselineCalls }>>;
