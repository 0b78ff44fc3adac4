/**
 * A run killed in the middle of an `up` (runner killed, out of memory, CI cancelled): the engine and the
 * dynamic-provider plugin die at one create, (a) before it is sent, (b) after the platform committed it
 * but before the answer, (c) after the answer but before the engine recorded it. The state is left as
 * the engine last wrote it, with the create as a pending operation (`pending_operations`, as the CLI
 * keeps it), or with no record at all. The next `up` then ends with exactly one live object per
 * declared one and a state that matches; a further `up` makes no API call. The pending create stays in
 * the state (the CLI warns about it on every `up`) until `pulumi refresh --clear-pending-creates`.
 *
 * Rows killed at the same create (with and without the record) share that killed run: it is made once, and
 * every such row starts from a copy of the platform and the state it left (emulator control.save/restore).
 *
 * The kinds are split over two test files (crash.site.test.ts, crash.structure.test.ts), each with its own
 * emulator and program copy, so the two run side by side.
 */
import * as fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator, SavedRows } from "../../emulator";
import type { CrashPlan, PreparedProgram, ProgramRunner } from "../harness";
import { startProgram, stopProgram } from "../support/program";
import { baselineOf, compareStateWithLive, liveObjects } from "./invariants";
import { HANDBOOK_DIR } from "./lifecycle";
import { LONG, tracked } from "./report";

type Point = "before-send" | "in-flight" | "after-answer";

/** The route and method of each kind's create, for the fault that holds the answer after the commit. */
const CREATES: Record<string, { method: "POST" | "PUT"; routes: string }> = {
  Site: { method: "POST", routes: "/sites$" },
  ShareLink: { method: "POST", routes: "/share-links$" },
  SiteSectionGroup: { method: "POST", routes: "/section-groups$" },
  SiteSection: { method: "POST", routes: "/sections$" },
  SiteSpace: { method: "POST", routes: "/site-spaces$" },
  Collection: { method: "POST", routes: "/collections$" },
  SamlProvider: { method: "POST", routes: "/saml$" },
  TranslationSettings: { method: "POST", routes: "/translations$" },
  Team: { method: "PUT", routes: "/teams$" },
};

const POINTS: Record<Point, string> = {
  "before-send": "(a) before the create is sent",
  "in-flight": "(b) after the platform committed it, before the answer",
  "after-answer": "(c) after the answer, before the engine's record",
};

/** Kinds whose API refuses a second object with the same key (nothing taken over without `adopt: true`). */
const REFUSES_SECOND = new Set(["Team", "OpenAPISpec", "Integration", "IntegrationInstallation"]);

/** Each row: where the run dies, at which kind's first create, and whether the pending create is kept. */
const ROWS: { point: Point; kind: string; record: boolean }[] = LONG
  ? (Object.keys(POINTS) as Point[]).flatMap((point) => Object.keys(CREATES).flatMap((kind) => [true, false].map((record) => ({ point, kind, record }))))
  : [
      { point: "before-send", kind: "Site", record: true },
      { point: "before-send", kind: "ShareLink", record: false },
      { point: "in-flight", kind: "Site", record: true },
      { point: "in-flight", kind: "ShareLink", record: false },
      { point: "in-flight", kind: "Collection", record: true },
      { point: "after-answer", kind: "SiteSection", record: true },
      { point: "after-answer", kind: "SiteSectionGroup", record: false },
      { point: "in-flight", kind: "SiteSection", record: true },
      { point: "in-flight", kind: "SiteSection", record: false },
      { point: "in-flight", kind: "SiteSpace", record: true },
      { point: "after-answer", kind: "SiteSpace", record: false },
      { point: "after-answer", kind: "Team", record: true },
    ];

/** The kinds of the site's structure (crash.structure.test.ts); the others are the site's and the organisation's (crash.site.test.ts). */
export const STRUCTURE_KINDS = ["SiteSection", "SiteSectionGroup", "SiteSpace"];

/** The rows of the kinds `kinds` accepts, in the order above. */
export function crashRows(kinds: (kind: string) => boolean): typeof ROWS {
  return ROWS.filter((row) => kinds(row.kind));
}

/**
 * Declares the killed-run tests of `rows` against one emulator and one copy of the handbook, each row
 * killing an `up` and checking the runs after it.
 */
export function crashSuite(rows: readonly { point: Point; kind: string; record: boolean }[]): void {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  let baseline: Set<string>;

  beforeAll(async () => {
    // Every command a fresh plugin, as each `pulumi` command starts one (and a killed one is gone).
    ({ emu, program, runner } = await startProgram(HANDBOOK_DIR, { runner: { pluginPerRun: true } }));
    baseline = baselineOf(emu.store.snapshot());
  });
  afterAll(() => stopProgram({ emu, program, runner }));

  const ofKind = (kind: string) => liveObjects(emu.store.snapshot()).filter((o) => o.kind === kind && !baseline.has(`${o.kind}:${o.id}`)).length;

  /** Resolves once the platform holds one more object of `kind` than it did. */
  async function committed(kind: string): Promise<void> {
    const before = ofKind(kind);
    for (let waited = 0; ofKind(kind) <= before; waited += 20) {
      if (waited > 10_000) throw new Error(`no ${kind} was committed`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /**
   * The next `up` after a kill. Creates of kinds whose API refuses a second object (teams, OpenAPI specs,
   * integrations, installations) answered while the run died are unrecorded too: that `up` stops at each
   * with a message naming `adopt: true`, having made nothing twice; each entry it names, declared with
   * `adopt: true` for one `up`, takes its object over, and the lines are then removed again. Returns
   * that first `up`.
   */
  async function upAdoptingRefused(): Promise<Awaited<ReturnType<ProgramRunner["up"]>>> {
    const counts = new Map([...REFUSES_SECOND].map((k) => [k, ofKind(k)]));
    const first = await runner.up({ allowError: true });
    if (!first.error) return first;
    const failures = first.error.message.split(/\n(?=urn:)/).filter((f) => f.includes("create failed"));
    expect(failures.length).toBeGreaterThan(0);
    for (const f of failures) expect(f).toMatch(/already .*adopt: true/s);
    for (const [k, n] of counts) expect(ofKind(k)).toBe(n);
    const keys = failures.map((f) => /::handbook\/([\w-]+): create failed/.exec(f)?.[1]);
    const file = `${program.dir}/docs.yaml`;
    const text = fs.readFileSync(file, "utf8");
    let adopting = text;
    for (const key of keys) {
      // Every entry with that key (an integration and its installation share one).
      const entry = new RegExp(`^( *)- key: ${key}$`, "gm");
      expect(adopting).toMatch(entry);
      adopting = adopting.replace(entry, `$1- key: ${key}\n$1  adopt: true`);
    }
    fs.writeFileSync(file, adopting);
    try {
      await runner.up();
    } finally {
      fs.writeFileSync(file, text);
    }
    for (const [k, n] of counts) expect(ofKind(k)).toBe(n);
    return first;
  }

  /** What a killed run left, by `point kind`: the platform, the state file and the run's error. */
  const killedRuns = new Map<string, Promise<{ rows: SavedRows; state: Buffer; error: string | undefined }>>();

  /** Kills an `up` of the handbook from scratch at `plan`'s create, and keeps what it left for every row killed there. */
  function killedRun(point: Point, kind: string, plan: CrashPlan): Promise<{ rows: SavedRows; state: Buffer; error: string | undefined }> {
    const run = (async () => {
      emu.control.reset();
      fs.rmSync(runner.stateFile, { force: true });
      const create = CREATES[kind]!;
      if (point === "in-flight") {
        emu.control.setFaults({ slowAfterCommitRate: 1, slowAfterCommitMs: 30_000, methods: [create.method], routes: create.routes });
        const before = ofKind(kind);
        plan.until = () => committed(kind).then(() => expect(ofKind(kind)).toBeGreaterThan(before));
      }
      let killed;
      try {
        killed = await runner.up({ crash: plan, allowError: true });
      } finally {
        emu.control.setFaults(null);
      }
      return { rows: emu.control.save(), state: fs.readFileSync(runner.stateFile), error: killed.error?.message };
    })();
    killedRuns.set(`${point} ${kind}`, run);
    return run;
  }

  describe("a run killed at a create, then up again", { timeout: 180_000 }, () => {
    for (const row of rows) {
      const name = `${POINTS[row.point]}: ${row.kind}, ${row.record ? "with the pending create kept" : "with no record"}`;
      it(name, async () => {
        await tracked("faults", `killed mid-up ${POINTS[row.point].slice(0, 3)}: ${row.kind}${row.record ? "" : ", no record"}`, async (o) => {
          o.strays = 0;
          const plan: CrashPlan = { matches: (urn) => urn.includes(`docsplatform:${row.kind}::`), at: row.point };
          // The rows killed at the same create share the killed run: each starts from a copy of what it left.
          const after = await (killedRuns.get(`${row.point} ${row.kind}`) ?? killedRun(row.point, row.kind, plan));
          emu.control.restore(after.rows);
          fs.writeFileSync(runner.stateFile, after.state);
          expect(after.error).toMatch(/killed/);
          const pending = runner.pendingOperations();
          expect(pending.map((p) => p.resource.urn).some((u) => plan.matches(u))).toBe(true);
          if (!row.record) {
            // No record: as when only the plugin died (the engine ends the operation as failed) or the record was cleared.
            const doc = JSON.parse(fs.readFileSync(runner.stateFile, "utf8")) as { deployment: { pending_operations?: unknown } };
            delete doc.deployment.pending_operations;
            fs.writeFileSync(runner.stateFile, JSON.stringify(doc));
          }

          const next = await upAdoptingRefused();
          if (row.record) expect(next.warnings.join("\n")).toMatch(/pending operations from previous deployment/);
          // The kind killed at refuses a second: the conflict is told, with what to do, naming its ID.
          if (REFUSES_SECOND.has(row.kind)) expect(next.error?.message).toMatch(/one already exists \(id [^)]+\).*declare `adopt: true` on this entry for one `up`/s);
          // A refused create was taken over by an `up` with `adopt: true` (upAdoptingRefused): the `up` of the file as
          // it was, without those lines, is the one that ends the recovery. Otherwise the next `up` itself must have.
          if (next.error) await runner.up();
          const cmp = compareStateWithLive(runner.resources(), emu.store.snapshot(), baseline);
          o.strays = cmp.duplicates.length + cmp.orphans.length;
          expect({ duplicates: cmp.duplicates, orphans: cmp.orphans, ghosts: cmp.ghosts, mismatches: cmp.mismatches }).toEqual({ duplicates: [], orphans: [], ghosts: [], mismatches: [] });
          expect(cmp.counted.live).toBe(cmp.counted.state);

          const third = await runner.up();
          expect(third.apiCalls).toEqual([]);
          if (row.record) {
            expect(runner.pendingOperations().length).toBeGreaterThan(0);
            await runner.refresh({ clearPendingCreates: true });
            expect(runner.pendingOperations()).toEqual([]);
          }
          o.cases = cmp.counted.live;
        });
      });
    }
  });
}
