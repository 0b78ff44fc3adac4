/**
 * A refresh right after an `up`, behind lists that lag 3 s behind writes (the emulator's `listLagMs`):
 * the kinds with no single-object GET (sections, section groups, site spaces, share links) are read
 * from their site's lists, which leave out what was made a moment ago. A read that believed them would
 * answer "gone", the engine would drop the object from the state, and the next `up` would create it
 * twice. Each kind is created, refreshed at once and brought up again: every object stays in the state,
 * no second one is made. Every `pulumi` command is a fresh plugin process, as with the CLI.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator, Snapshot } from "../../emulator";
import type { PreparedProgram, ProgramRunner, RunResult } from "../harness";
import { startProgram, stopProgram } from "../support/program";
import { baselineOf, compareStateWithLive, liveObjects, TYPE_PREFIX } from "./invariants";
import { HANDBOOK_DIR } from "./lifecycle";
import { tracked } from "./report";

const LAG_MS = 3_000;

/** One object of each list-read kind (and a site space beside a section's first), in one site. */
const DOCS = `organization: demo-org
sites:
  - key: lagging
    title: Lagging lists
    visibility: share-link
    sections:
      - key: guides
        title: Guides
        space: {id: space-guides}
      - key: api
        title: API
        siteSpaces:
          - key: api-v1
            space: {id: space-api}
            path: v1
          - key: api-changes
            space: {id: space-changelog}
            path: changes
    sectionGroups:
      - key: reference
        title: Reference
        sections: [api]
    shareLinks:
      - key: partner
        name: Partner
`;

const KINDS = ["SiteSection", "SiteSectionGroup", "SiteSpace", "ShareLink"] as const;

let emu: RunningEmulator;
let program: PreparedProgram;
let runner: ProgramRunner;
let fixture: Snapshot;
const runs: { up?: RunResult; refresh?: RunResult; again?: RunResult } = {};
/** The state's `urn id` per kind right after the first up. */
let afterUp: Record<string, string[]> = {};

/** The state's `urn id` per kind. */
function storedOf(kind: string): string[] {
  return runner
    .resources()
    .filter((r) => r.custom && r.type === `${TYPE_PREFIX}${kind}` && !r.delete)
    .map((r) => `${r.urn} ${r.id ?? ""}`)
    .sort();
}

beforeAll(async () => {
  ({ emu, program, runner } = await startProgram(HANDBOOK_DIR, {
    // Each command a fresh plugin; the provider tolerates more lag than the lists have.
    runner: { pluginPerRun: true, env: { DOCSPLATFORM_LIST_LAG_MS: String(LAG_MS + 2_000) } },
  }));
  fs.writeFileSync(path.join(program.dir, "docs.yaml"), DOCS);
  fixture = emu.store.snapshot();
  emu.control.setFaults({ listLagMs: LAG_MS });
  const started = performance.now();
  runs.up = await runner.up();
  afterUp = Object.fromEntries(KINDS.map((k) => [k, storedOf(k)]));
  // The up itself waits for its lists (the structure order reads them through the lag), so by its end the
  // first objects are listed again. "At once": the refresh meets lists that have caught up with none of
  // the up's writes — the lag widened to the up's own duration, and the provider told to tolerate it.
  const lag = Math.max(LAG_MS, Math.ceil(performance.now() - started) + 500);
  emu.control.setFaults({ listLagMs: lag });
  runs.refresh = await runner.refresh({ env: { DOCSPLATFORM_LIST_LAG_MS: String(lag + 2_000) } });
  runs.again = await runner.up();
}, 120_000);
afterAll(async () => {
  emu?.control.setFaults(null);
  await stopProgram({ emu, program, runner });
});

describe(`refresh at once behind lists lagging ${LAG_MS / 1000} s`, () => {
  it.each(KINDS)("%s: created, refreshed at once, up again: still in the state, never created twice", async (kind) => {
    await tracked("reads", `refresh at once behind lists lagging 3 s: ${kind}`, async (o) => {
      const created = afterUp[kind]!;
      o.cases = created.length;
      expect(created.length).toBeGreaterThan(0);
      const gone = runs.refresh!.steps.filter((s) => s.op === "refresh-gone" && s.type === `${TYPE_PREFIX}${kind}`);
      o.falseGone = gone.length + created.filter((r) => !storedOf(kind).includes(r)).length;
      expect(gone.map((s) => s.urn)).toEqual([]);
      expect(storedOf(kind)).toEqual(created);
      expect(runs.again!.steps.filter((s) => s.custom && s.type === `${TYPE_PREFIX}${kind}` && s.op === "create")).toEqual([]);
      const cmp = compareStateWithLive(runner.resources(), emu.store.snapshot(), baselineOf(fixture));
      const ofKind = (xs: string[]) => xs.filter((x) => x.startsWith(`${kind} `));
      o.strays = ofKind(cmp.duplicates).length + ofKind(cmp.orphans).length;
      expect({ duplicates: ofKind(cmp.duplicates), orphans: ofKind(cmp.orphans), ghosts: ofKind(cmp.ghosts) }).toEqual({ duplicates: [], orphans: [], ghosts: [] });
      expect(liveObjects(emu.store.snapshot()).filter((x) => x.kind === kind && !baselineOf(fixture).has(`${x.kind}:${x.id}`))).toHaveLength(created.length);
    });
  });

  it("the second up writes nothing", () => {
    expect(runs.again!.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
  });
});
