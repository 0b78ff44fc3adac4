/**
 * The handbook lifecycle (up, change, up, destroy) through the engine harness against the emulator under
 * one seeded fault kind. After every run — and after the clean re-run that follows a failed one — the
 * state and the live platform must agree: no orphans, no ghosts, no duplicates, no mismatched outputs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { expect } from "vitest";
import { parseDocument, type YAMLSeq } from "yaml";
import type { RunningEmulator, Snapshot } from "../../emulator";
import { prepareProgram, runnerAgainst, type PreparedProgram, type ProgramRunner, type RunResult } from "../harness";
import { baselineOf, compareStateWithLive, organisationFace, type Comparison } from "./invariants";
import { LONG, ROOT, type Outcome } from "./report";

export const HANDBOOK_DIR = path.join(ROOT, "examples", "handbook");

/** A fault the emulator injects, set up from a seed. */
export interface FaultKind {
  name: string;
  /** Switches the fault on, before each faulted run (`run`: 0 the first up, 1 the up after a change, 2 destroy). */
  apply(emu: RunningEmulator, seed: number, run: number): void;
  /** Environment of the program and plugin (e.g. a short client timeout). */
  env?: Record<string, string>;
  /** The longest single rate-limit wait the client may record in the whole lifecycle (ms). */
  maxWaitMs?: number;
  /**
   * Run with Pulumi's unbounded parallelism in the default variant too: for a fault that is not random,
   * where a serial run replays nothing more and only adds up waits that a real run takes side by side.
   */
  unbounded?: boolean;
}

/** The fault kinds of the issue, each at a rate that makes most runs hit it many times. */
export const FAULT_KINDS: FaultKind[] = [
  { name: "20% 5xx", apply: (emu, seed) => emu.control.setFaults({ seed, error5xxRate: 0.2 }) },
  {
    name: "429 storms",
    // A small window: every burst of the run is answered 429 and waits for the window to reset (each wait
    // costs about a second, so the default run uses a wider window than the long one).
    apply: (emu, seed) => emu.control.setRateLimit({ limit: (LONG ? 15 : 40) + (seed % 10), windowMs: 1_000 }),
  },
  { name: "responses dropped after commit", apply: (emu, seed) => emu.control.setFaults({ seed, dropAfterCommitRate: 0.25 }) },
  { name: "5xx after commit", apply: (emu, seed) => emu.control.setFaults({ seed, error5xxAfterCommitRate: 0.2 }) },
  { name: "connection resets", apply: (emu, seed) => emu.control.setFaults({ seed, resetRate: 0.15 }) },
  {
    name: "latency beyond the client timeout",
    apply: (emu, seed) => emu.control.setFaults({ seed, stallRate: 0.1, stallMs: 3_000 }),
    env: { DOCSPLATFORM_TIMEOUT_MS: "1000" },
  },
  {
    name: "burst limiter in front of an hourly quota",
    // Every answer carries a one-hour X-RateLimit window; a limiter in front answers the first request of every
    // route 429 with Retry-After: 1 and no reset header (cold start: in the first up, and in the long variant again
    // in every faulted run). The client must wait about a second each time, never until the learnt window ends.
    // Not random: the seed varies the quota.
    apply: (emu, seed, run) => {
      emu.control.setRateLimit({ limit: 100_000 + seed, windowMs: 3_600_000 });
      emu.control.setBurstLimit({ limit: 1_000, windowMs: 1_000, coldStart: LONG || run === 0 });
    },
    maxWaitMs: 3_000,
    unbounded: true,
  },
  {
    name: "lists lagging 1 s behind writes, responses dropped after commit",
    apply: (emu, seed) => emu.control.setFaults({ seed, listLagMs: 1_000, dropAfterCommitRate: 0.15 }),
    // The provider's default tolerance (the harness otherwise runs with none: the emulator's lists do not lag).
    env: { DOCSPLATFORM_LIST_LAG_MS: "5000" },
  },
  {
    name: "answers held past the client timeout after commit, lists lagging",
    apply: (emu, seed) => emu.control.setFaults({ seed, slowAfterCommitRate: 0.1, slowAfterCommitMs: 1_500, listLagMs: 1_000 }),
    env: { DOCSPLATFORM_TIMEOUT_MS: "1000", DOCSPLATFORM_LIST_LAG_MS: "5000" },
  },
];

function clearFaults(emu: RunningEmulator): void {
  emu.control.setFaults(null);
  emu.control.setRateLimit(null);
  emu.control.setBurstLimit(null);
}

/** The longest rate-limit wait in the client's debug lines (`#N waited M ms for the rate limit before …`). */
function longestWait(stderr: string): number {
  let longest = 0;
  for (const m of stderr.matchAll(/ waited (\d+) ms for the rate limit /g)) longest = Math.max(longest, Number(m[1]));
  return longest;
}

/** Asserts a comparison found nothing; `when` names the run in the message. */
export function expectConsistent(c: Comparison, when: string): void {
  expect({ when, orphans: c.orphans, ghosts: c.ghosts, duplicates: c.duplicates, mismatches: c.mismatches }).toEqual({
    when,
    orphans: [],
    ghosts: [],
    duplicates: [],
    mismatches: [],
  });
}

/** Runs the whole lifecycle under one fault kind and seed, filling the outcome's counters. */
export async function faultedLifecycle(
  emu: RunningEmulator,
  kind: FaultKind,
  seed: number,
  o: Outcome,
  opts: { parallel?: number } = {},
): Promise<void> {
  emu.control.reset();
  clearFaults(emu);
  const fixture: Snapshot = emu.store.snapshot();
  const baseline = baselineOf(fixture);
  let program: PreparedProgram | undefined;
  let runner: ProgramRunner | undefined;
  o.strays = o.strays ?? 0;
  o.recovered = o.recovered ?? 0;
  const tag = `${kind.name}, seed ${seed}`;
  try {
    program = await prepareProgram(HANDBOOK_DIR, { installPackage: true });
    runner = runnerAgainst(program.dir, emu, {
      // The debug log carries the client's record of each rate-limit wait.
      env: { DOCSPLATFORM_DEBUG: "1", ...kind.env },
      ...(opts.parallel ? { parallel: opts.parallel } : {}),
    });
    const r = runner;

    /**
     * `unfinished`: resources the failed run named as created but not finished (the finishing PATCH's answer
     * lost after it committed): their state is the create's answer until the next update finishes them, so a
     * field that PATCH set may differ from live in between; the clean re-run is then checked strictly.
     */
    const check = (when: string, unfinished: readonly string[] = []): void => {
      const c = compareStateWithLive(r.resources(), emu.store.snapshot(), baseline);
      o.strays! += c.orphans.length + c.duplicates.length;
      expectConsistent({ ...c, mismatches: c.mismatches.filter((m) => !unfinished.some((u) => m.startsWith(`${u}.`))) }, `${tag}: ${when}`);
    };
    /** `Kind name` of each resource an error says was created but could not be finished. */
    const unfinishedIn = (e: Error | undefined): string[] =>
      [...(e?.message ?? "").matchAll(/dynamic\/docsplatform:(\w+)::(\S+): create failed: \S+ \S+ was created but could not be finished/g)].map(([, kind, name]) => `${kind} ${name}`);

    /** One faulted run; when it fails, the same run again without faults must succeed. */
    /** Reads the waits the client recorded so far (the plugin keeps the last 64 KiB of its stderr: read after every run). */
    const noteWaits = async (): Promise<void> => {
      o.longestWaitMs = Math.max(o.longestWaitMs ?? 0, longestWait((await r.plugin()).stderr()));
    };

    let runs = 0;
    const faulted = async (phase: string, run: (allowError: boolean) => Promise<RunResult>): Promise<void> => {
      kind.apply(emu, seed, runs++);
      let first: RunResult;
      try {
        first = await run(true);
      } finally {
        clearFaults(emu);
        await noteWaits();
      }
      check(`after the faulted ${phase}${first.error ? ` (failed: ${first.error.message.split("\n")[0]})` : ""}`, unfinishedIn(first.error));
      if (first.error) {
        o.recovered!++;
        await run(false);
        check(`after the clean re-run of ${phase}`);
      }
    };

    /** A refresh without faults finds every resource as stored: state == live for every kind. */
    const noDrift = async (when: string): Promise<void> => {
      const refreshed = await r.refresh();
      expect(refreshed.drift.map((s) => s.urn), `${tag}: drift ${when}`).toEqual([]);
      expect(refreshed.steps.filter((s) => s.op === "refresh-gone").map((s) => s.urn), `${tag}: gone ${when}`).toEqual([]);
    };

    await faulted("up", (allowError) => r.up({ allowError }));
    await noDrift("after up");

    editHandbook(path.join(program.dir, "docs.yaml"));
    await faulted("up after a change", (allowError) => r.up({ allowError }));
    await noDrift("after the change");
    // Converged: another up has nothing to write.
    const again = await r.up();
    expect(again.apiCalls.filter((c) => c.method !== "GET").map((c) => `${c.method} ${c.route}`), `${tag}: writes of a no-op up`).toEqual([]);

    await faulted("destroy", (allowError) => r.destroy({ allowError }));
    if (kind.maxWaitMs !== undefined) {
      expect(o.longestWaitMs, `${tag}: the longest rate-limit wait the client recorded`).toBeLessThanOrEqual(kind.maxWaitMs);
    }
    expect(r.resources().filter((x) => x.custom), `${tag}: state after destroy`).toEqual([]);
    // Destroy put the organisation back as the fixture had it, but for the spaces the file created: they stay, once each.
    const created = createdSpaces(path.join(program.dir, "docs.yaml"));
    const liveTitles = emu.store.snapshot().organizations.find((x) => x.id === "demo-org")!.spaces.filter((s) => s.deletedAt === null).map((s) => s.title);
    for (const title of created) expect(liveTitles.filter((t) => t === title), `${tag}: space "${title}" left in place`).toHaveLength(1);
    const guides = emu.store.snapshot().organizations.find((x) => x.id === "demo-org")!.spaces.filter((s) => s.deletedAt === null && s.type === "styleguide");
    expect(guides, `${tag}: the style guide left in place, once`).toHaveLength(1);
    expect(organisationFace(emu.store.snapshot(), "demo-org", created), `${tag}: organisation after destroy`).toEqual(organisationFace(fixture));
  } finally {
    clearFaults(emu);
    await runner?.close();
    program?.cleanup();
  }
}

/**
 * The change between the two ups: a section renamed, a share link dropped and another added, a team
 * renamed and a team added — updates, deletes and creates in one run.
 */
export function editHandbook(file: string): void {
  const doc = parseDocument(fs.readFileSync(file, "utf8"));
  doc.setIn(["sites", 0, "sections", 0, "title"], "User guides");
  const links = doc.getIn(["sites", 1, "shareLinks"]) as YAMLSeq;
  links.delete(1);
  links.add(doc.createNode({ key: "initech", name: "Initech" }));
  doc.setIn(["teams", 1, "title"], "Reviewers and editors");
  (doc.get("teams") as YAMLSeq).add(doc.createNode({ key: "translators", title: "Translators", members: [{ user: "writer-1" }] }));
  fs.writeFileSync(file, doc.toString());
}

/** Titles of the spaces a stack file creates (its `spaces` entries without an `id`). */
function createdSpaces(file: string): string[] {
  const doc = parseDocument(fs.readFileSync(file, "utf8")).toJS() as { spaces?: { id?: string; title?: string }[] };
  return (doc.spaces ?? []).filter((s) => s.id === undefined && typeof s.title === "string").map((s) => s.title!);
}
