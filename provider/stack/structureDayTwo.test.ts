/**
 * The handbook's developer portal, whose structure comes from its site file (developer-portal/
 * gitbook-docs.yaml), through the real language host and plugin (test/harness) against the emulator:
 * up builds it as the file says, a second up makes no call, a section moved in the site file is one
 * change with the one move it needs, a section renamed by hand on the platform is drift that refresh and
 * preview report and up repairs; every site of the handbook written as a site file by `docsplatform
 * site-file` and read back plans no change but for what a site file cannot hold; destroy removes it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument, type YAMLMap, type YAMLSeq } from "yaml";
import type { RunningEmulator, SnapshotSite } from "../../emulator";
import type { PreparedProgram, ProgramRunner } from "../../test/harness";
import { startProgram, stopProgram } from "../../test/support/program";
import { changes, upAndSettle, writes } from "../../test/support/steps";
import { siteFileMain } from "../export/structureCli";
import { diffStacks, renderDiffText } from "../view/diff";
import { formatProblem, loadStackFile } from "./load";
import type { ResolvedStack } from "./resolve";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");

describe("a site whose structure comes from its site file", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  const siteFile = () => path.join(program.dir, "developer-portal", "gitbook-docs.yaml");

  function portal(): SnapshotSite {
    return emu.store.org("demo-org").sites.find((s) => s.title === "Developer portal")!;
  }

  function loaded(): ResolvedStack {
    const r = loadStackFile(path.join(program.dir, "docs.yaml"));
    if (!r.ok) throw new Error(r.problems.map(formatProblem).join("\n"));
    return r;
  }

  beforeAll(async () => {
    ({ emu, program, runner } = await startProgram(HANDBOOK));
  }, 300_000);
  afterAll(() => stopProgram({ emu, program, runner }));

  it("up builds the site as the site file says; a second up makes no call", async () => {
    const up = await upAndSettle(runner);
    expect(up.error).toBeUndefined();
    const site = portal();
    expect(site.sections.map((s) => [s.title, s.path, s.default, s.siteSpaces.map((ss) => [ss.path, ss.space, ss.default])])).toEqual([
      ["Get started", "start", true, [["guides", "space-guides", true]]],
      ["API", "api", false, [["v1", "space-api", true], ["changes", "space-changelog", false]]],
    ]);
    const api = site.sections.find((s) => s.title === "API")!;
    expect(site.sectionGroups.map((g) => [g.title, g.sections])).toEqual([["Reference", [api.path]]]);
    expect(changes(up).filter((c) => c.includes("/developer-portal")).sort()).toEqual([
      "create Site handbook/developer-portal",
      "create SiteExternalLink handbook/developer-portal/portal-status",
      "create SiteGitSync handbook/developer-portal",
      "create SiteSection handbook/developer-portal/portal-api",
      "create SiteSection handbook/developer-portal/portal-start",
      "create SiteSectionGroup handbook/developer-portal/portal-reference",
      "create SiteSpace handbook/developer-portal/guides",
      "create SiteSpace handbook/developer-portal/portal-api-v1",
      "create SiteSpace handbook/developer-portal/portal-changes",
      "create SiteStructureOrder handbook/developer-portal",
    ]);
  });

  it("a section moved in the site file: one change, the minimal calls, and one line of docsplatform diff", async () => {
    const before = loaded();
    // The "Get started" section moves below the group.
    const doc = parseDocument(fs.readFileSync(siteFile(), "utf8"));
    const structure = doc.getIn(["site", "structure"]) as YAMLSeq;
    const section = structure.items[0]!;
    structure.items.splice(0, 1);
    structure.items.push(section);
    fs.writeFileSync(siteFile(), doc.toString());
    const after = loaded();
    // What readers notice: one entry moved, in the developer portal only.
    const diff = renderDiffText(diffStacks(before, after)).trimEnd().split("\n");
    expect(diff[0]).toBe("Developer portal (site developer-portal): 1 moved");
    expect(diff.slice(1).filter((l) => l.trim() !== "")).toEqual([expect.stringMatching(/^ {2}> .* moved/)]);
    const up = await upAndSettle(runner);
    expect(changes(up)).toEqual(["update SiteStructureOrder handbook/developer-portal"]);
    expect(writes(up)).toHaveLength(1);
    expect(portal().sections.map((s) => s.title)).toEqual(["API", "Get started"]);
  });

  it("a section renamed by hand on the platform is drift: refresh reports it, preview plans it back, up repairs it", async () => {
    const site = portal();
    const api = site.sections.find((s) => s.path === "api")!;
    const res = await fetch(`${emu.url}/v1/orgs/demo-org/sites/${site.id}/sections/${api.id}`, {
      method: "PATCH",
      headers: { authorization: "Bearer dev-token", "content-type": "application/json" },
      body: JSON.stringify({ title: "API (edited by hand)" }),
    });
    expect(res.status).toBe(200);
    const refresh = await runner.refresh();
    expect(refresh.apiCalls.every((c) => c.method === "GET")).toBe(true);
    expect(refresh.drift.map((s) => s.urn.slice(s.urn.lastIndexOf("::") + 2))).toEqual(["handbook/developer-portal/portal-api"]);
    const preview = await runner.preview();
    const detail = JSON.stringify(preview.steps.filter((st) => st.custom && st.op !== "same").map((st) => [st.urn, st.diffs]));
    expect(changes(preview), detail).toEqual(["update SiteSection handbook/developer-portal/portal-api"]);
    const up = await upAndSettle(runner);
    expect(changes(up)).toEqual(["update SiteSection handbook/developer-portal/portal-api"]);
    expect(writes(up)).toEqual(["PATCH /sites/:siteId/sections/:siteSectionId 200"]);
    expect(portal().sections.find((s) => s.path === "api")!.title).toBe("API");
  });

  it("every site's structure written by docsplatform site-file and read back through structure: the plan changes only what a site file cannot hold", async () => {
    let out = "";
    let err = "";
    const code = await siteFileMain(["docs.yaml", "--out", "sites"], { cwd: program.dir, stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } });
    expect(code, err).toBe(0);
    // Named, not dropped: the handbook's section draft flag and its site space's look override.
    expect(err).toContain(`site-file: note: site "handbook": section "whats-new": its draft flag (true) has no place in a site file`);
    expect(err).toContain(`site-file: note: site "handbook": site space "api-v1": its look override (customization) has no place in a site file`);
    // Each site's entry as the command printed it replaces the site's own structure.
    const printed = out.split(/^wrote .*\n/m).slice(1).map((block) => parseDocument(block.replace(/^ {4}/gm, "")).toJS() as { structure: Record<string, unknown> });
    expect(printed).toHaveLength(4);
    const docs = parseDocument(fs.readFileSync(path.join(program.dir, "docs.yaml"), "utf8"));
    const sites = docs.get("sites") as YAMLSeq;
    sites.items.forEach((site, i) => {
      const entry = site as YAMLMap;
      for (const f of ["sections", "sectionGroups", "siteSpaces", "defaultSiteSection", "defaultSiteSpace"]) entry.delete(f);
      entry.set("structure", docs.createNode(printed[i]!.structure));
    });
    fs.writeFileSync(path.join(program.dir, "docs.yaml"), docs.toString());
    const preview = await runner.preview();
    const detail = JSON.stringify(preview.steps.filter((st) => st.custom && st.op !== "same").map((st) => [st.urn, st.diffs]));
    // Site spaces renamed for the file (a section's shorthand gave them its key) keep their resources through structure.previousKeys.
    expect(changes(preview), detail).toEqual(["delete SiteSpaceCustomization handbook/handbook/api-v1"]);
    expect(preview.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
  });

  it("destroy removes it", async () => {
    const destroyed = await runner.destroy();
    expect(destroyed.error).toBeUndefined();
    expect(emu.store.org("demo-org").sites.find((s) => s.title === "Developer portal")).toBeUndefined();
  });
});
