/**
 * Keeps the benchmark code from rotting: the generator's counts and determinism, the minimum it states
 * kind by kind, and one N = MIN_N (20) cycle of the five phases through the harness and the baseline, each at
 * that minimum. Call counts only — timings belong in bench/RESULTS.md.
 */
import { describe, expect, it } from "vitest";
import { loadStackFile } from "../provider/stack";
import { MIN_N, changeStack, compositionOf, generateStack, toStackYaml } from "./generate";
import { keepEarlier, provenanceLine } from "./earlier";
import { floorRatios } from "./report";
import { benchSizeCli, recordRegistrations } from "./cli";
import { writeBenchFiles } from "./program";
import { benchSize } from "./rig";
import { chooseEngines, engineList, parseArgs, repeatsAt } from "./run";
import { applyBaseline, baselineOf, countCalls, median, minimumCalls } from "./statistics";
import type { BenchReport, PhaseResult, SizeResult } from "./types";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

describe("generateStack", () => {
  it.each([MIN_N, 100, 1000])("declares exactly N = %i objects, every kind at least once, deterministically, in a valid stack file", (n) => {
    const a = generateStack(n);
    const total = Object.values(a.composition).reduce((x, y) => x + y, 0);
    expect(total).toBe(n);
    for (const [kind, count] of Object.entries(a.composition)) expect(count, kind).toBeGreaterThanOrEqual(1);
    expect(a.drafts).toBeGreaterThanOrEqual(1);
    // Sections and site spaces dominate as they do on a real platform (the smallest stack is one of each
    // kind; at N = 100 the assistant's objects and Git Sync take 14 of the 100, the organisation's style
    // guide, agent instructions, OpenAPI spec and the sites' attached guides 5).
    if (n >= 100) expect(a.composition.sections + a.composition.siteSpaces).toBeGreaterThanOrEqual(n * 0.55);
    expect(a.composition.customizations).toBe(a.composition.sites);
    expect(a.composition.siteStyleGuides).toBe(a.composition.sites);
    expect(a.hidden).toBeGreaterThanOrEqual(1);
    expect(toStackYaml(generateStack(n).stack)).toBe(toStackYaml(a.stack));

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-gen-"));
    try {
      const file = path.join(dir, "docs.yaml");
      fs.writeFileSync(file, toStackYaml(a.stack));
      writeBenchFiles(dir);
      const loaded = loadStackFile(file);
      expect(loaded.ok ? [] : loaded.problems).toEqual([]);
      expect(loaded.ok && compositionOf(loaded.stack)).toEqual(a.composition);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("edits about 10% of the objects in place, across kinds, the looks and MCP servers first", () => {
    const { stack, composition } = generateStack(1000);
    const { edits } = changeStack(stack);
    expect(edits).toHaveLength(100);
    expect(new Set(edits.map((e) => e.kind))).toEqual(
      new Set(["customization", "mcpServer", "externalLink", "agent", "override", "agentChannel", "sectionGroup", "contextConnection", "section", "gitSync", "siteSpace", "shareLink", "team", "agentInstructions", "openapiSpec"]),
    );
    expect(minimumCalls(stack, composition, edits)["change 10%"]).toEqual({ writes: 100, reads: 0 });
    expect(changeStack(generateStack(MIN_N).stack).edits).toEqual([
      { kind: "customization", site: "site-1", key: "site-1", field: "primaryColor" },
      { kind: "mcpServer", site: "site-1", key: "mcp-0001", field: "condition" },
    ]);
  });

  it("declares the site's assistant and Git Sync: headers and a connection's secret from the environment, Git Sync on one site with the platform's priority", () => {
    const { stack, composition } = generateStack(100);
    // Two of each list per site: a refresh's one walk per site and list is measured against several objects.
    expect(composition).toMatchObject({ sites: 2, mcpServers: 4, agentSettings: 1, agentChannels: 4, contextConnections: 4, gitSyncs: 1 });
    const [first, second] = stack.sites!;
    for (const site of [first!, second!]) expect([site.mcpServers?.length, site.agentChannels?.map((c) => c.type), site.contextConnections?.length]).toEqual([2, ["builtin:slack", "builtin:github"], 2]);
    expect(first!.mcpServers![0]!.headers).toEqual({ Authorization: { env: "BENCH_MCP_TOKEN" } });
    expect([first!.agent !== undefined, second!.agent !== undefined]).toEqual([true, false]);
    expect(first!.contextConnections!.map((c) => [c.connector, c.secretSettings ?? null])).toEqual([
      ["builtin:website", null],
      ["builtin:github-issues", { token: { env: "BENCH_GITHUB_TOKEN" } }],
    ]);
    expect([first!.gitSync?.priority, second!.gitSync]).toEqual(["gitbook", undefined]);
  });

  it("states the minimum of the smallest N kind by kind", () => {
    const { stack, composition, hidden } = generateStack(MIN_N);
    const { edits } = changeStack(stack);
    // 1 site, customization, team, share link, section (with its site space, hidden), site space
    // override, section group, external link (a draft, in the group), created space, MCP server, agent
    // settings, channel, Git Sync, style guide, the site's attached guide, agent instructions, OpenAPI
    // spec from a file; 2 context connections.
    expect(MIN_N).toBe(20);
    expect(composition).toEqual({
      sites: 1, customizations: 1, teams: 1, shareLinks: 1, sections: 1, siteSpaces: 1, overrides: 1, sectionGroups: 1, externalLinks: 1, spaces: 1,
      mcpServers: 1, agentSettings: 1, agentChannels: 1, contextConnections: 2, gitSyncs: 1, styleGuides: 1, siteStyleGuides: 1, agentInstructions: 1, openapiSpecs: 1,
    });
    expect(hidden).toBe(1);
    expect(minimumCalls(stack, composition, edits)).toEqual({
      // 21 writes: the site space comes with its section and is hidden by a PATCH, Git Sync is its
      // install and its PATCH, the style guide its site's POST, the attached guide the site's PATCH,
      // the instructions their PUT, the spec its POST; reads: the site's lookup by title, its look
      // recorded, its structure read to restore the order, the agent settings and agent instructions
      // read before their PUT, the site read before its guide's PATCH.
      create: { writes: 21, reads: 6 },
      "no-op up": { writes: 0, reads: 0 },
      // The customization's PUT, the MCP server's PATCH.
      "change 10%": { writes: 2, reads: 0 },
      // GET site (its attached guide with it), team, created space, site look, override, agent settings,
      // Git Sync's installations, the guide's space, the agent instructions, the spec and its raw text;
      // walks of sections, site spaces, groups, share links, MCP servers, channels, connections; the structure.
      refresh: { writes: 0, reads: 19 },
      // Every object but the created space (kept), the agent settings (left to the site), the style
      // guide and the instructions (retained); the customization's is the PUT of the recorded look, Git
      // Sync's its uninstall, the attached guide's the PATCH that detaches it after a read of the site.
      destroy: { writes: 16, reads: 1 },
    });
  });
});

/**
 * The provider's calls of a phase at the minimum; in a refresh, one GET of each site, shared by the site
 * and its attached style guide (SiteStyleGuide reads the site's `styleguide` from the same answer).
 */
function expectMinimum(p: PhaseResult, composition: { sites: number }) {
  expect({ phase: p.phase, writes: p.calls.writes, reads: p.calls.reads }).toEqual({ phase: p.phase, ...p.minimum });
  if (p.phase === "refresh") expect(p.routes["GET /sites/:id"]).toBe(composition.sites);
}

describe("benchSize", () => {
  it("runs the smallest N through the five phases with the minimal calls, as the baseline does, and no reference lookup", async () => {
    const result = await benchSize(MIN_N, { floor: false });
    expect(result.phases.map((p) => p.phase)).toEqual(["create", "no-op up", "change 10%", "refresh", "destroy"]);
    for (const p of result.phases) {
      expect({ phase: p.phase, failed: p.failed, drift: p.drift }).toEqual({ phase: p.phase, failed: 0, drift: 0 });
      // No reference lookup in an `up`: they are the preview's (provider/resources/references.ts).
      if (p.phase !== "refresh" && p.phase !== "destroy") {
        expect({ phase: p.phase, lookups: Object.keys(p.routes).filter((r) => /^GET \/v1\/spaces\/:id$|^GET \/members$|^GET \/teams\/:id$/.test(r)) }).toEqual({ phase: p.phase, lookups: [] });
      }
      expectMinimum(p, result.composition);
      expect({ phase: p.phase, writes: p.baselineCalls?.writes, reads: p.baselineCalls?.reads }).toEqual({ phase: p.phase, ...p.minimum });
    }
    const noop = result.phases[1]!;
    expect(noop.calls).toEqual({ writes: 0, reads: 0, moves: 0 });
    expect(noop.steps.create ?? 0).toBe(0);
    expect(result.state.resources).toBeGreaterThanOrEqual(MIN_N);
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

  it("allows 1.00× and adds the raw client's API time for every phase that calls the API (create, change, refresh, destroy)", () => {
    expect(floorRatios(phase({ phase: "no-op up", wallMs: 2100, floorMs: 2000, baselineMs: 0 }))).toEqual({ ratio: 1.05, allowed: 1 });
    for (const name of ["create", "change 10%", "refresh", "destroy"] as const) {
      const r = floorRatios(phase({ phase: name, wallMs: 3000, floorMs: 2000, baselineMs: 500 }));
      expect(r.ratio).toBe(1.5);
      expect({ phase: name, allowed: r.allowed }).toEqual({ phase: name, allowed: 1.25 });
    }
    expect(floorRatios(phase({ wallMs: 1000 }))).toEqual({ ratio: null, allowed: null });
  });

  it("gives another engine's rows of the same N the baseline the harness's rows measured", () => {
    const harness = [phase({ phase: "create", baselineMs: 300, baselineCalls: { writes: 9, reads: 3, moves: 0 } }), phase({ phase: "refresh", baselineMs: 50, baselineCalls: { writes: 0, reads: 10, moves: 0 } })];
    const cli = [phase({ phase: "create" }), phase({ phase: "no-op up" }), phase({ phase: "refresh" })];
    applyBaseline(cli, baselineOf(harness));
    expect(cli.map((p) => [p.phase, p.baselineMs, p.baselineCalls?.reads ?? null])).toEqual([
      ["create", 300, 3],
      ["no-op up", null, null],
      ["refresh", 50, 10],
    ]);
  });

  it("takes the median of the repetitions", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2);
  });
});

describe("a run that keeps an earlier run's rows", () => {
  const size = (n: number, extra: Partial<SizeResult> = {}): SizeResult => ({ n, phases: [], ...extra }) as unknown as SizeResult;
  const report = (date: string, command: string, sizes: SizeResult[], cli: number[]): BenchReport =>
    ({ date, command, sizes, cli: cli.length > 0 ? { version: "v3.274.1", sizes: cli.map((n) => ({ n, phases: [] })) } : undefined, rate: null, registration: [], mitigations: [], nocode: [] }) as unknown as BenchReport;

  it("keeps the sizes and CLI tables it did not measure, each marked with its run, and says which rows are whose", () => {
    const earlier = report("2026-11-27T10:09:04Z", "npm run bench -- --sizes 10,100,1000", [size(10), size(100), size(1000)], [10, 100, 1000]);
    const now = report("2026-11-27T13:30:00Z", "npm run bench -- --sizes 16,100 --engine harness", [size(16), size(100)], []);
    const merged = keepEarlier(now, earlier);
    expect(merged.sizes.map((s) => [s.n, s.earlier?.date ?? "now"])).toEqual([
      [16, "now"],
      [100, "now"],
      [10, "2026-11-27T10:09:04Z"],
      [1000, "2026-11-27T10:09:04Z"],
    ]);
    expect(merged.cli?.sizes.map((s) => [s.n, s.earlier?.date])).toEqual([
      [10, "2026-11-27T10:09:04Z"],
      [100, "2026-11-27T10:09:04Z"],
      [1000, "2026-11-27T10:09:04Z"],
    ]);
    expect(provenanceLine(merged)).toEqual([
      "- **Which rows are from this run**: N = 16, 100 through the harness; N = 10, 1000 through the harness and N = 10, 100, 1000 through the CLI from the earlier run of 2026-11-27T10:09:04Z (`npm run bench -- --sizes 10,100,1000`), not re-measured — each such section says so under its heading, and its stack is the generator's of that run (the kinds its composition line lists).",
    ]);
    // A row kept twice keeps its own run; a report of this run's rows alone says nothing.
    expect(keepEarlier(report("later", "x", [size(16)], []), merged).sizes.find((s) => s.n === 10)?.earlier?.date).toBe("2026-11-27T10:09:04Z");
    expect(provenanceLine(now)).toEqual([]);
  });
});

describe("the engines a run measures", () => {
  const available = () => undefined;
  const missing = () => "the Pulumi CLI cannot be built: Go is not installed";
  const version = () => "v3.274.1";

  it("runs the harness and the CLI by default when the CLI can be built, the harness alone with a note when not", () => {
    expect(chooseEngines(null, available, version)).toEqual({ engines: ["harness", "cli"], version: "v3.274.1" });
    expect(chooseEngines(null, missing, version)).toEqual({ engines: ["harness"], version: null, note: "the Pulumi CLI was not measured: the Pulumi CLI cannot be built: Go is not installed" });
  });

  it("takes --engine as given, fails when the CLI is asked for and cannot be built, and never builds it for the harness alone", () => {
    expect(engineList("cli")).toEqual(["cli"]);
    expect(engineList("harness, cli,harness")).toEqual(["harness", "cli"]);
    expect(() => engineList("harness,terraform")).toThrow("--engine: 'terraform' is not one of harness, cli");
    expect(chooseEngines(["cli"], available, version)).toEqual({ engines: ["cli"], version: "v3.274.1" });
    expect(() => chooseEngines(["harness", "cli"], missing, version)).toThrow("--engine cli: the Pulumi CLI cannot be built: Go is not installed");
    expect(chooseEngines(["harness"], () => expect.unreachable("the CLI probed"), version)).toEqual({ engines: ["harness"], version: null });
  });

  it("takes --repeats as one count for every N or one per N (a long N = 1000 run once)", () => {
    const one = parseArgs(["--sizes", "20,100", "--repeats", "3", "--engine", "harness"]);
    expect([repeatsAt(one, 0), repeatsAt(one, 1), one.engines]).toEqual([3, 3, ["harness"]]);
    const each = parseArgs(["--sizes", "20,100,1000", "--repeats", "3,3,1"]);
    expect([repeatsAt(each, 0), repeatsAt(each, 1), repeatsAt(each, 2), each.engines]).toEqual([3, 3, 1, null]);
    expect(() => parseArgs(["--sizes", "20,100,1000", "--repeats", "3,1"])).toThrow("--repeats: 2 counts for 3 sizes");
    expect(() => parseArgs(["--sizes", "16"])).toThrow("--sizes: '16' is not an integer of at least 20");
  });
});

describe("benchSizeCli", () => {
  it("runs the smallest N through the real Pulumi CLI, five phases with the minimal calls, each followed by the floor through the CLI", async () => {
    const result = await benchSizeCli(MIN_N, { registrations: await recordRegistrations(MIN_N), emptyPreviews: 1 });
    expect(result.phases.map((p) => p.phase)).toEqual(["create", "no-op up", "change 10%", "refresh", "destroy"]);
    for (const p of result.phases) {
      expect({ phase: p.phase, drift: p.drift }).toEqual({ phase: p.phase, drift: 0 });
      expectMinimum(p, generateStack(MIN_N).composition);
      expect({ phase: p.phase, floor: (p.floorMs ?? 0) > 0, own: p.overheadMs }).toEqual({ phase: p.phase, floor: true, own: result.emptyPreviewMs });
    }
    // The CLI's own summary of each command: every resource of the program, the stack's included.
    expect(result.phases.map((p) => p.steps)).toEqual([{ created: 23 }, { unchanged: 23 }, { updated: 2, unchanged: 21 }, { unchanged: 23 }, { deleted: 23 }]);
    expect(result.emptyPreviewSamples).toHaveLength(1);
    expect(result.emptyPreviewMs).toBeGreaterThan(0);
  }, 600_000);
});
