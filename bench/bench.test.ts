/**
 * Keeps the benchmark code from rotting: the generator's counts and determinism, the minimum it states
 * kind by kind, and one N = 10 cycle of the five phases through the harness and the baseline, each at
 * that minimum. Call counts only — timings belong in bench/RESULTS.md.
 */
import { describe, expect, it } from "vitest";
import { loadStackFile } from "../provider/stack";
import { changeStack, compositionOf, generateStack, toStackYaml } from "./generate";
import { floorRatios } from "./report";
import { type PhaseResult, benchSize, countCalls, median, minimumCalls } from "./run";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

describe("generateStack", () => {
  it.each([10, 100, 1000])("declares exactly N = %i objects, every kind at least once, deterministically, in a valid stack file", (n) => {
    const a = generateStack(n);
    const total = Object.values(a.composition).reduce((x, y) => x + y, 0);
    expect(total).toBe(n);
    for (const [kind, count] of Object.entries(a.composition)) expect(count, kind).toBeGreaterThanOrEqual(1);
    expect(a.drafts).toBeGreaterThanOrEqual(1);
    // Sections and site spaces dominate as they do on a real platform (the smallest stack is one of each kind).
    if (n >= 100) expect(a.composition.sections + a.composition.siteSpaces).toBeGreaterThanOrEqual(n * 0.7);
    expect(a.composition.customizations).toBe(a.composition.sites);
    expect(toStackYaml(generateStack(n).stack)).toBe(toStackYaml(a.stack));

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-gen-"));
    try {
      const file = path.join(dir, "docs.yaml");
      fs.writeFileSync(file, toStackYaml(a.stack));
      const loaded = loadStackFile(file);
      expect(loaded.ok ? [] : loaded.problems).toEqual([]);
      expect(loaded.ok && compositionOf(loaded.stack)).toEqual(a.composition);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("edits about 10% of the objects in place, across kinds, the looks and links first", () => {
    const { stack, composition } = generateStack(1000);
    const { edits } = changeStack(stack);
    expect(edits).toHaveLength(100);
    expect(new Set(edits.map((e) => e.kind))).toEqual(new Set(["customization", "externalLink", "override", "sectionGroup", "section", "siteSpace", "shareLink", "team"]));
    expect(minimumCalls(stack, composition, edits)["change 10%"]).toEqual({ writes: 100, reads: 0 });
    expect(changeStack(generateStack(10).stack).edits).toEqual([{ kind: "customization", site: "site-1", key: "site-1", field: "primaryColor" }]);
  });

  it("states the minimum of N = 10 kind by kind", () => {
    const { stack, composition } = generateStack(10);
    const { edits } = changeStack(stack);
    // 1 site, customization, team, share link, section (with its site space), site space override,
    // section group, external link (a draft, in the group) and created space.
    expect(minimumCalls(stack, composition, edits)).toEqual({
      // 9 writes (the site space comes with its section); reads: the site's lookup by title, its look
      // recorded, its structure read to restore the order.
      create: { writes: 9, reads: 3 },
      "no-op up": { writes: 0, reads: 0 },
      // The customization's PUT.
      "change 10%": { writes: 1, reads: 0 },
      // GET site, team, created space, site look, override; walks of sections, site spaces, groups,
      // share links; the structure.
      refresh: { writes: 0, reads: 10 },
      // Every object but the created space (kept); the customization's is the PUT of the recorded look.
      destroy: { writes: 9, reads: 0 },
    });
  });
});

describe("benchSize", () => {
  it("runs N = 10 through the five phases with the minimal calls, as the baseline does, and no reference lookup", async () => {
    const result = await benchSize(10, { floor: false });
    expect(result.phases.map((p) => p.phase)).toEqual(["create", "no-op up", "change 10%", "refresh", "destroy"]);
    for (const p of result.phases) {
      expect({ phase: p.phase, failed: p.failed, drift: p.drift }).toEqual({ phase: p.phase, failed: 0, drift: 0 });
      // No reference lookup in an `up`: they are the preview's (provider/resources/references.ts).
      if (p.phase !== "refresh" && p.phase !== "destroy") {
        expect({ phase: p.phase, lookups: Object.keys(p.routes).filter((r) => /^GET \/v1\/spaces\/:id$|^GET \/members$|^GET \/teams\/:id$/.test(r)) }).toEqual({ phase: p.phase, lookups: [] });
      }
      expect({ phase: p.phase, writes: p.calls.writes, reads: p.calls.reads }).toEqual({ phase: p.phase, ...p.minimum });
      expect({ phase: p.phase, writes: p.baselineCalls?.writes, reads: p.baselineCalls?.reads }).toEqual({ phase: p.phase, ...p.minimum });
    }
    const noop = result.phases[1]!;
    expect(noop.calls).toEqual({ writes: 0, reads: 0, moves: 0 });
    expect(noop.steps.create ?? 0).toBe(0);
    expect(result.state.resources).toBeGreaterThanOrEqual(10);
  });

  it("counts moves (the move operations and the structure sort) apart from writes", () => {
    expect(
      countCalls([
        { method: "POST", route: "/v1/orgs/:organizationId/sites/:siteId/sections/:sectionId/move", path: "", status: 200 },
        { method: "PATCH", route: "/v1/orgs/:organizationId/sites/:siteId/structure/sort", path: "", status: 200 },
        { method: "POST", route: "/v1/orgs/:organizationId/sites", path: "", status: 201 },
        { method: "GET", route: "/v1/orgs/:organizationId/sites", path: "", status: 200 },
      ]),
    ).toEqual({ writes: 1, reads: 1, moves: 2 });
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
