/**
 * Keeps the benchmark code from rotting: the generator's counts and determinism, and one N = 10
 * create / no-op cycle through the harness. Call counts only — timings belong in bench/RESULTS.md.
 */
import { describe, expect, it } from "vitest";
import { loadStackFile } from "../provider/stack";
import { changeStack, generateStack, toStackYaml } from "./generate";
import { floorRatios } from "./report";
import { type PhaseResult, benchSize, countCalls, median, minimumCalls } from "./run";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

describe("generateStack", () => {
  it.each([10, 100, 1000])("declares exactly N = %i objects, deterministically, in a valid stack file", (n) => {
    const a = generateStack(n);
    const total = Object.values(a.composition).reduce((x, y) => x + y, 0);
    expect(total).toBe(n);
    expect(a.composition.sections + a.composition.siteSpaces).toBeGreaterThanOrEqual(n * 0.7);
    expect(toStackYaml(generateStack(n).stack)).toBe(toStackYaml(a.stack));

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-gen-"));
    try {
      const file = path.join(dir, "docs.yaml");
      fs.writeFileSync(file, toStackYaml(a.stack));
      const loaded = loadStackFile(file);
      expect(loaded.ok ? [] : loaded.problems).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("edits about 10% of the objects in place, across kinds", () => {
    const { stack, composition } = generateStack(1000);
    const { edits } = changeStack(stack);
    expect(edits).toHaveLength(100);
    expect(new Set(edits.map((e) => e.kind))).toEqual(new Set(["section", "siteSpace", "shareLink", "team"]));
    expect(minimumCalls(stack, composition, edits)["change 10%"]).toEqual({ writes: 100, reads: 0 });
  });
});

describe("benchSize", () => {
  it("creates N = 10 objects with one write each and no reference lookup, and makes no call on a no-op up", async () => {
    const result = await benchSize(10, { baseline: false, floor: false, phases: ["create", "no-op up"] });
    const [create, noop] = result.phases;
    expect(create!.phase).toBe("create");
    expect(create!.failed).toBe(0);
    expect(create!.calls.writes).toBe(create!.minimum.writes);
    // No reference lookup in an `up` (they are the preview's, provider/resources/references.ts): the reads
    // are the order's (the minimum) and each site create's one list read for what an earlier run made
    // and never recorded (provider/resources/provider.ts `madeEarlier`).
    expect(Object.keys(create!.routes).filter((r) => /^GET \/v1\/spaces\/|^GET \/members|^GET \/teams\/:id$/.test(r))).toEqual([]);
    expect(create!.calls.reads).toBe(create!.minimum.reads + result.composition.sites);
    expect(noop!.phase).toBe("no-op up");
    expect(noop!.calls).toEqual({ writes: 0, reads: 0, moves: 0 });
    expect(noop!.steps.create ?? 0).toBe(0);
    expect(result.state.resources).toBeGreaterThanOrEqual(10);
  });

  it("counts moves apart from writes", () => {
    expect(
      countCalls([
        { method: "POST", route: "/v1/orgs/:organizationId/sites/:siteId/sections/:sectionId/move", path: "", status: 200 },
        { method: "POST", route: "/v1/orgs/:organizationId/sites", path: "", status: 201 },
        { method: "GET", route: "/v1/orgs/:organizationId/sites", path: "", status: 200 },
      ]),
    ).toEqual({ writes: 1, reads: 1, moves: 1 });
  });
});

describe("the floor's ratios", () => {
  const phase = (p: Partial<PhaseResult>): PhaseResult =>
    ({ phase: "no-op up", wallMs: 0, floorMs: null, baselineMs: null, samples: [], ...p }) as PhaseResult;

  it("allows 1.00× (1.05× for refresh at N = 1000) and adds the raw client's API time for create and destroy", () => {
    expect(floorRatios(phase({ phase: "no-op up", wallMs: 2100, floorMs: 2000 }), 100)).toEqual({ ratio: 1.05, allowed: 1 });
    expect(floorRatios(phase({ phase: "refresh", wallMs: 2100, floorMs: 2000 }), 100)).toEqual({ ratio: 1.05, allowed: 1 });
    expect(floorRatios(phase({ phase: "refresh", wallMs: 2100, floorMs: 2000 }), 1000)).toEqual({ ratio: 1.05, allowed: 1.05 });
    const create = floorRatios(phase({ phase: "create", wallMs: 3000, floorMs: 2000, baselineMs: 500 }), 100);
    expect(create.ratio).toBe(1.5);
    expect(create.allowed).toBeCloseTo(1.25);
    expect(floorRatios(phase({ wallMs: 1000 }))).toEqual({ ratio: null, allowed: null });
  });

  it("takes the median of the repetitions", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2);
  });
});
