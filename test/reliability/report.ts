/**
 * The reliability suite's record: every test file appends what it proved (fault kinds survived, seeds,
 * cases fuzzed, leaks found, lost writes) to a results folder; the suite's global teardown prints the
 * table and, in the long variant, writes it to `test/RELIABILITY.md`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** Results folder of the current vitest run (see globalSetup.ts). */
    reliabilityResults: string;
  }
}

/** Repository root (this file sits at `test/reliability/`, or `dist/test/reliability/` when compiled). */
export const ROOT = findRoot(__dirname);
/** Parent of the per-run results folders. */
export const RESULTS_ROOT = path.join(ROOT, ".work", "reliability");
/** The generated summary. */
export const SUMMARY_FILE = path.join(ROOT, "test", "RELIABILITY.md");

/** `RELIABILITY_LONG=1`: more seeds, at least 10,000 fuzz cases, and `test/RELIABILITY.md` rewritten. */
export const LONG = process.env.RELIABILITY_LONG === "1";

function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, "package.json")) && fs.existsSync(path.join(dir, "vitest.config.mts"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no repository root above ${start}`);
    dir = parent;
  }
}

/** One proven property of the product. */
export interface Outcome {
  /** Area of the issue: `faults`, `reads`, `fuzz`, `secrets`, `emulator`. */
  area: "faults" | "reads" | "fuzz" | "secrets" | "emulator";
  /** What was attacked, e.g. `20% 5xx` or `mutated valid files`. */
  check: string;
  /** Fault seeds used (replay a failure with the same seed). */
  seeds?: number[];
  /** Inputs tried (fuzz cases, requests, writes). */
  cases?: number;
  /** Token occurrences found (must be 0). */
  leaks?: number;
  /** Acknowledged writes missing afterwards (must be 0). */
  lostWrites?: number;
  /** Live objects a read answered "gone" (the engine dropped them from the state; must be 0). */
  falseGone?: number;
  /** Duplicate or orphaned objects found (must be 0). */
  strays?: number;
  /** Runs that failed under faults and converged on a clean re-run. */
  recovered?: number;
  /** The longest single rate-limit wait of one request, as the client recorded it (its debug log). */
  longestWaitMs?: number;
  /** Whether every assertion of the check held. */
  passed: boolean;
  /** Wall time of the check. */
  ms: number;
  /** Free-form detail shown in the table (e.g. the slowest file). */
  note?: string;
}

/**
 * The results folder of this vitest run: one per run (several runs may share the repository), handed
 * to the test files by the global setup; a file run without it records into `standalone/`.
 */
function resultsDir(): string {
  let dir: string | undefined;
  try {
    dir = inject("reliabilityResults");
  } catch {
    dir = undefined;
  }
  return dir ?? path.join(RESULTS_ROOT, "standalone");
}

/** Appends an outcome of the calling test file to the run's results folder. */
export function record(outcome: Outcome): void {
  const dir = resultsDir();
  fs.mkdirSync(dir, { recursive: true });
  fs.appendFileSync(path.join(dir, `${process.pid}.jsonl`), JSON.stringify(outcome) + "\n");
}

/**
 * Runs one check and records its outcome whether it passes or fails. `fn` fills the counters in the
 * given outcome as it goes, so a failure still reports how far it came.
 */
export async function tracked<T>(
  area: Outcome["area"],
  check: string,
  fn: (o: Outcome) => Promise<T>,
): Promise<T> {
  const o: Outcome = { area, check, passed: false, ms: 0 };
  const started = performance.now();
  try {
    const result = await fn(o);
    o.passed = true;
    return result;
  } finally {
    o.ms = Math.round(performance.now() - started);
    record(o);
  }
}

/** Every outcome recorded in a results folder. */
export function readOutcomes(dir: string): Outcome[] {
  if (!fs.existsSync(dir)) return [];
  const out: Outcome[] = [];
  for (const f of fs.readdirSync(dir).sort()) {
    if (!f.endsWith(".jsonl")) continue;
    for (const line of fs.readFileSync(path.join(dir, f), "utf8").split("\n")) {
      if (line.trim() !== "") out.push(JSON.parse(line) as Outcome);
    }
  }
  const order: Outcome["area"][] = ["faults", "reads", "fuzz", "secrets", "emulator"];
  return out.sort((a, b) => order.indexOf(a.area) - order.indexOf(b.area) || a.check.localeCompare(b.check));
}

function cell(v: number | undefined): string {
  return v === undefined ? "" : v.toLocaleString("en-US");
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Totals across outcomes. */
export interface Totals {
  faultKinds: { survived: number; total: number };
  seeds: number;
  casesFuzzed: number;
  leaks: number;
  lostWrites: number;
  falseGone: number;
  strays: number;
  /** The longest single rate-limit wait of any run (undefined when no check recorded one). */
  longestWaitMs: number | undefined;
  failed: number;
  ms: number;
}

/** Sums the outcomes. */
export function totals(outcomes: readonly Outcome[]): Totals {
  const faults = outcomes.filter((o) => o.area === "faults");
  const kinds = new Map<string, boolean>();
  for (const o of faults) kinds.set(o.check, (kinds.get(o.check) ?? true) && o.passed);
  return {
    faultKinds: { survived: [...kinds.values()].filter(Boolean).length, total: kinds.size },
    seeds: new Set(outcomes.flatMap((o) => (o.seeds ?? []).map((s) => `${o.area}/${o.check}/${s}`))).size,
    casesFuzzed: outcomes.filter((o) => o.area === "fuzz").reduce((n, o) => n + (o.cases ?? 0), 0),
    leaks: outcomes.reduce((n, o) => n + (o.leaks ?? 0), 0),
    lostWrites: outcomes.reduce((n, o) => n + (o.lostWrites ?? 0), 0),
    falseGone: outcomes.reduce((n, o) => n + (o.falseGone ?? 0), 0),
    strays: outcomes.reduce((n, o) => n + (o.strays ?? 0), 0),
    longestWaitMs: outcomes.some((o) => o.longestWaitMs !== undefined) ? Math.max(...outcomes.map((o) => o.longestWaitMs ?? 0)) : undefined,
    failed: outcomes.filter((o) => !o.passed).length,
    ms: outcomes.reduce((n, o) => n + o.ms, 0),
  };
}

/** The summary as Markdown: totals, then one row per check. */
export function renderSummary(outcomes: readonly Outcome[], opts: { long: boolean }): string {
  const t = totals(outcomes);
  const lines = [
    `| Fault kinds survived | Seeds | Cases fuzzed | Leaks found | Lost writes | False gone | Duplicates + orphans | Longest wait | Failed checks | Time |`,
    `|---|---|---|---|---|---|---|---|---|---|`,
    `| ${t.faultKinds.survived} / ${t.faultKinds.total} | ${cell(t.seeds)} | ${cell(t.casesFuzzed)} | ${t.leaks} | ${t.lostWrites} | ${t.falseGone} | ${t.strays} | ${t.longestWaitMs === undefined ? "" : seconds(t.longestWaitMs)} | ${t.failed} | ${seconds(t.ms)} |`,
    ``,
    `| Area | Check | Result | Seeds | Cases | Leaks | Lost writes | False gone | Dup. + orphans | Recovered runs | Longest wait | Time | Note |`,
    `|---|---|---|---|---|---|---|---|---|---|---|---|---|`,
  ];
  for (const o of outcomes) {
    const seeds = o.seeds && o.seeds.length > 0 ? o.seeds.join(", ") : "";
    lines.push(
      `| ${o.area} | ${o.check} | ${o.passed ? "pass" : "**FAIL**"} | ${seeds} | ${cell(o.cases)} | ${cell(o.leaks)} | ${cell(o.lostWrites)} | ${cell(o.falseGone)} | ${cell(o.strays)} | ${cell(o.recovered)} | ${o.longestWaitMs === undefined ? "" : seconds(o.longestWaitMs)} | ${seconds(o.ms)} | ${o.note ?? ""} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The per-check rows of a published `test/RELIABILITY.md`, read back as outcomes (what `renderSummary`
 * wrote), and the line saying how that file was generated.
 */
export function readPublished(markdown: string): { outcomes: Outcome[]; generated: string } {
  const generated = markdown.split("\n").find((l) => l.startsWith("Generated by ")) ?? "";
  const lines = markdown.split("\n");
  const header = lines.findIndex((l) => l.startsWith("| Area | Check |"));
  if (header < 0) return { outcomes: [], generated };
  const names = lines[header]!.split("|").slice(1, -1).map((c) => c.trim());
  const num = (v: string | undefined) => (v === undefined || v === "" ? undefined : Number(v.replace(/,/g, "")));
  const secs = (v: string | undefined) => (v === undefined || v === "" ? undefined : Math.round(Number(v.replace(/ s$/, "")) * 1000));
  const outcomes: Outcome[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break;
    const cells = line.split("|").slice(1, -1).map((c) => c.trim());
    const at = (name: string) => cells[names.indexOf(name)];
    const o: Outcome = { area: at("Area") as Outcome["area"], check: at("Check") ?? "", passed: at("Result") === "pass", ms: secs(at("Time")) ?? 0 };
    const seeds = at("Seeds");
    if (seeds) o.seeds = seeds.split(",").map((x) => Number(x.trim()));
    const fields: [keyof Outcome, string][] = [["cases", "Cases"], ["leaks", "Leaks"], ["lostWrites", "Lost writes"], ["falseGone", "False gone"], ["strays", "Dup. + orphans"], ["recovered", "Recovered runs"]];
    for (const [key, name] of fields) {
      const v = num(at(name));
      if (v !== undefined) (o as unknown as Record<string, number>)[key] = v;
    }
    const wait = secs(at("Longest wait"));
    if (wait !== undefined) o.longestWaitMs = wait;
    if (at("Note")) o.note = at("Note")!;
    outcomes.push(o);
  }
  return { outcomes, generated };
}

/** The whole `test/RELIABILITY.md`. `merged`: the checks this run re-measured over a published file (see globalSetup). */
export function renderDocument(outcomes: readonly Outcome[], opts: { long: boolean; date: string; node: string; merged?: { checks: number; over: string } }): string {
  return [
    `# Reliability`,
    ``,
    opts.merged
      ? `${opts.merged.over}\nOf its rows, ${opts.merged.checks} were added or re-measured on ${opts.date} (Node ${opts.node}) by \`RELIABILITY_MERGE=1 npx vitest run <files>\`, which replaces only the checks it ran.`
      : opts.long
      ? `Generated by \`npm run reliability\` (the long variant of \`test/reliability/\`, \`RELIABILITY_LONG=1\`) on ${opts.date}, Node ${opts.node}.`
      : `Generated by \`RELIABILITY_WRITE=1 npx vitest run test/reliability\` (the **default** variant: one seed per fault kind, fewer fuzz cases; the long variant is \`npm run reliability\`) on ${opts.date}, Node ${opts.node}.`,
    `Do not edit by hand. Every fault is seeded: rerun one with the seed shown (see test/reliability/README.md).`,
    `Longest wait: the longest single rate-limit wait of one request in the run, as the client recorded it (its debug log), not wall-clock timing.`,
    ``,
    `What is attacked: the handbook lifecycle (up, change, up, destroy) and single resources under emulator faults,`,
    `including a burst limiter in front of an hourly quota, lists lagging behind writes and answers held past the client's timeout after commit;`,
    `refresh under 429 and 5xx and right after an up behind lagging lists; a run killed at a create; a refused token; fuzzed stack files; token scans of state, serialised providers, logs and errors;`,
    `the emulator with hostile requests, concurrent writers and \`kill -9\` during writes.`,
    ``,
    totals(outcomes).failed === 0
      ? `Every check passed.`
      : `**${totals(outcomes).failed} check(s) failed** — each failing row names its seed; the test output has the counterexample.`,
    ``,
    renderSummary(outcomes, opts),
  ].join("\n");
}
