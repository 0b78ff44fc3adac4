/**
 * Program setups compared in one run: the component's own registration choices (each against the
 * floor, bench/floor.ts) and what a user can set for a large stack (Pulumi.yaml `nodeargs`,
 * `typescript: false`, `PULUMI_NODEJS_TRANSPILE_ONLY`). Only the phases that run the program — create
 * and the no-op up — are measured: refresh and destroy never start the language host.
 */
import type { RunResult } from "../test/harness";
import { RegistrationRecorder } from "./floor";
import { generateStack } from "./generate";
import type { ProgramSetup } from "./program";
import { RUN_TIMEOUT_MS, benchSeed, peakRss, startRig } from "./rig";
import { median } from "./statistics";
import type { VariantResult } from "./types";

/** One setup of the program. */
export interface Variant {
  label: string;
  setup?: ProgramSetup;
  /** Environment of the language host and plugin (e.g. `PULUMI_NODEJS_TRANSPILE_ONLY`). */
  env?: Record<string, string>;
}

async function timed(fn: () => Promise<RunResult>): Promise<number> {
  const start = performance.now();
  const r = await fn();
  if (r.error) throw r.error;
  return performance.now() - start;
}

/**
 * Runs each variant through create → no-op up against a fresh emulator, `repeats` times, the variants
 * interleaved cycle by cycle so that the machine's load spreads over all of them; with `floor`, a fresh
 * floor program runs each phase right after the variant.
 */
export async function benchVariants(
  n: number,
  variants: readonly Variant[],
  opts: { floor?: boolean; preview?: boolean; repeats?: number; log?: (line: string) => void } = {},
): Promise<VariantResult[]> {
  const log = opts.log ?? (() => undefined);
  const repeats = Math.max(1, opts.repeats ?? 1);
  const gen = generateStack(n);
  const samples = variants.map(() => ({ create: [] as number[], noop: [] as number[], preview: [] as number[], fCreate: [] as number[], fNoop: [] as number[], rss: null as number | null }));
  for (let cycle = 0; cycle < repeats; cycle++) {
    for (const [i, v] of variants.entries()) {
      // A fresh emulator and floor for every variant: nothing to destroy between them.
      const rig = await startRig(gen.stack, { emulator: { seed: benchSeed(gen.spaces) }, setup: v.setup, env: v.env, floor: opts.floor });
      const { runner, floorProgram, floorRunner } = rig;
      const s = samples[i]!;
      try {
        const rec = new RegistrationRecorder();
        s.create.push(await timed(() => runner.up({ onRegister: rec.record, timeoutMs: RUN_TIMEOUT_MS })));
        if (floorRunner && floorProgram) {
          floorProgram.writeRegistrations(await rec.done());
          s.fCreate.push(await timed(() => floorRunner.up({ timeoutMs: RUN_TIMEOUT_MS })));
        }
        s.noop.push(await timed(() => runner.up({ timeoutMs: RUN_TIMEOUT_MS })));
        if (floorRunner) s.fNoop.push(await timed(() => floorRunner.up({ timeoutMs: RUN_TIMEOUT_MS })));
        if (opts.preview) s.preview.push(await timed(() => runner.preview({ timeoutMs: RUN_TIMEOUT_MS })));
        const rss = peakRss((await runner.plugin()).pid);
        if (rss !== null && (s.rss === null || rss > s.rss)) s.rss = rss;
        log(`  N=${n} ${v.label}: create ${Math.round(s.create.at(-1)!)} ms, no-op ${Math.round(s.noop.at(-1)!)} ms${opts.preview ? `, no-op preview ${Math.round(s.preview.at(-1)!)} ms` : ""}${floorRunner ? ` (floor ${Math.round(s.fCreate.at(-1)!)} / ${Math.round(s.fNoop.at(-1)!)} ms)` : ""}`);
      } finally {
        await rig.close();
      }
    }
  }
  return variants.map((v, i) => {
    const s = samples[i]!;
    return {
      label: v.label,
      n,
      createMs: median(s.create),
      noopMs: median(s.noop),
      previewMs: s.preview.length > 0 ? median(s.preview) : null,
      floorCreateMs: s.fCreate.length > 0 ? median(s.fCreate) : null,
      floorNoopMs: s.fNoop.length > 0 ? median(s.fNoop) : null,
      pluginPeakRssBytes: s.rss,
      repeats,
    };
  });
}

/** The component's registration choices (provider/declare/registration.ts), each against the floor. */
export const REGISTRATION_VARIANTS: readonly Variant[] = [
  { label: "as the public classes (`DOCSPLATFORM_QUIET_PROMISE_STACKS=0`)", env: { DOCSPLATFORM_QUIET_PROMISE_STACKS: "0" } },
  { label: "quiet promise stacks (the default)" },
];

/**
 * The no-code project beside a TypeScript program of one's own declaring the same file, as the CLI runs
 * it by default (ts-node type-checks with the project's tsconfig.json): the first row is the reference.
 */
export const NOCODE_VARIANTS: readonly Variant[] = [
  { label: "TypeScript program (CLI default, type-checked)", setup: { tsconfig: true }, env: { PULUMI_NODEJS_TRANSPILE_ONLY: "false" } },
  { label: "no-code project", setup: { nocode: true } },
];

/** What a user can set for a large stack; the first row is the CLI's default setup. */
export const USER_VARIANTS: readonly Variant[] = [
  { label: "CLI default (TypeScript, type-checked)", setup: { tsconfig: true }, env: { PULUMI_NODEJS_TRANSPILE_ONLY: "false" } },
  { label: "`PULUMI_NODEJS_TRANSPILE_ONLY=true`", setup: { tsconfig: true }, env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" } },
  { label: "`nodeargs: --stack-trace-limit=1`", setup: { tsconfig: true, nodeargs: "--stack-trace-limit=1" }, env: { PULUMI_NODEJS_TRANSPILE_ONLY: "false" } },
  { label: "`nodeargs: --stack-trace-limit=4`", setup: { tsconfig: true, nodeargs: "--stack-trace-limit=4" }, env: { PULUMI_NODEJS_TRANSPILE_ONLY: "false" } },
  { label: "precompiled `index.js`, `typescript: false`", setup: { typescript: false } },
  { label: "precompiled + `--stack-trace-limit=1`", setup: { typescript: false, nodeargs: "--stack-trace-limit=1" } },
];
