/**
 * A site whose repository owns its structure (Git Sync priority git) and whose docs.yaml takes that
 * structure from the same site file (`structure: {file}`), through the engine harness against the
 * emulator: the installation's save imports the file, and the structure's resources take over what the
 * import made (no section twice) only after it; a second up and an unchanged push change nothing; a
 * push the local file has not caught up with is drift that refresh and preview name; the local file
 * changed the same way plans nothing; destroy.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import type { PreparedProgram, ProgramRunner } from "../../test/harness";
import { startNoCodeProgram, stopProgram } from "../../test/support/program";
import { BRANCH, pushSiteFile, REPOSITORY } from "../../test/support/gitSyncRepository";
import { changes, upAndSettle, writes } from "../../test/support/steps";

const FOLDER = "docs/handbook";

const DOCS = `organization: demo-org
spaces:
  - {key: guides-latest, title: Guides}
  - {key: api-v1, title: API v1}
sites:
  - key: handbook
    title: Handbook
    gitSync:
      provider: github
      repository: ${REPOSITORY}
      branch: ${BRANCH}
      projectDirectory: ${FOLDER}
      priority: git
    structure:
      file: ${FOLDER}/gitbook-docs.yaml
`;

const GUIDES = `    - type: section
      key: guides
      title: Guides
      path: guides
      default: true
      children:
        - {type: space, key: guides-latest, title: Guides, path: latest, default: true, content: {directory: ./guides}}
`;
const API = (title: string) => `    - type: section
      key: api
      title: ${title}
      path: api
      children:
        - {type: space, key: api-v1, title: API v1, path: v1, default: true, content: {directory: ./api}}
`;
const siteFile = (...nodes: string[]) => `version: 1\nsite:\n  title: Handbook\n  structure:\n${nodes.join("")}`;
const SITE_FILE = siteFile(GUIDES, API("API"));
/** The API section renamed and moved first. */
const MOVED = siteFile(API("API reference"), GUIDES);

describe("a site whose repository owns the structure docs.yaml takes from the same site file", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  const push = (text: string) => pushSiteFile(emu.url, FOLDER, text);
  const site = () => emu.store.snapshot().organizations[0]!.sites.find((s) => s.title === "Handbook")!;
  const sectionRows = () => [...emu.store.all("sections")].filter((s) => s.site === site().id);
  const spaceTitle = (id: string) => emu.store.get("spaces", id)?.title;
  const shape = () => site().sections.map((s) => [s.title, s.path, s.siteSpaces.map((ss) => [ss.path, spaceTitle(ss.space)])]);
  const imported = () => [...emu.store.all("gitInstallations")].find((g) => g.target.type === "site")!.imported;
  const short = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

  beforeAll(async () => {
    // The project holds the site file docs.yaml reads; the repository holds the same file, pushed.
    ({ emu, program, runner } = await startNoCodeProgram("gitowned", { "docs.yaml": DOCS, [`${FOLDER}/gitbook-docs.yaml`]: SITE_FILE }));
    await push(SITE_FILE);
  }, 300_000);
  afterAll(() => stopProgram({ emu, program, runner }));

  it("up: the installation's save imports the structure, which the structure's resources take over (no section made twice); a second up makes no call", async () => {
    const up = await upAndSettle(runner);
    expect(up.error).toBeUndefined();
    // Nothing of the structure is POSTed: the import made it, the resources took it over.
    expect(writes(up).filter((w) => w.startsWith("POST"))).toEqual(expect.arrayContaining(["POST /v1/git/installations 201"]));
    expect(writes(up).filter((w) => w.startsWith("POST") && /section|site-space|siteSpace/i.test(w))).toEqual([]);
    expect(sectionRows()).toHaveLength(2);
    // The structure waits for the installation, whose save imports the file: every structural step ends after it.
    const done = changes(up);
    const installed = done.indexOf("create SiteGitSync gitowned/handbook");
    const structural = done.filter((c) => /Site(Section|Space|SectionGroup|StructureOrder) /.test(c));
    expect(structural.length).toBeGreaterThanOrEqual(4);
    for (const c of structural) expect(done.indexOf(c), c).toBeGreaterThan(installed);
    expect([...emu.store.all("siteSpaces")].filter((ss) => ss.site === site().id)).toHaveLength(2);
    // The objects are the import's (its IDs by node key); their site spaces publish docs.yaml's spaces.
    const ids = imported();
    expect(site().sections.map((s) => s.id)).toEqual([ids.guides!.id, ids.api!.id]);
    expect(shape()).toEqual([["Guides", "guides", [["latest", "Guides"]]], ["API", "api", [["v1", "API v1"]]]]);
    const declaredSpaces = runner.resources().filter((r) => ["gitowned/guides-latest", "gitowned/api-v1"].includes(short(r.urn))).map((r) => r.id);
    expect(declaredSpaces).toHaveLength(2);
    expect(site().sections.flatMap((s) => s.siteSpaces.map((ss) => ss.space)).sort()).toEqual([...declaredSpaces].sort());

    const again = await runner.up();
    expect(again.apiCalls).toEqual([]);
  });

  it("a push of the unchanged file keeps every ID and field: refresh finds no drift, up makes no call", async () => {
    const before = JSON.stringify(site().sections);
    await push(SITE_FILE);
    expect(JSON.stringify(site().sections)).toBe(before);
    const refresh = await runner.refresh();
    expect(refresh.drift.map((s) => short(s.urn))).toEqual([]);
    expect((await runner.up()).apiCalls).toEqual([]);
  });

  it("a push the local file has not caught up with is drift: refresh and preview name the renamed and moved section; the local file changed the same way plans nothing", async () => {
    await push(MOVED);
    expect(shape()).toEqual([["API reference", "api", [["v1", "API v1"]]], ["Guides", "guides", [["latest", "Guides"]]]]);
    expect(sectionRows()).toHaveLength(2);
    const refresh = await runner.refresh();
    expect(refresh.apiCalls.every((c) => c.method === "GET")).toBe(true);
    expect(refresh.drift.map((s) => short(s.urn)).sort()).toEqual(["gitowned/handbook", "gitowned/handbook/api"].sort());
    // Until pushed the same way, up would bring the platform back to the local file: preview says so.
    const preview = await runner.preview();
    expect(changes(preview).sort()).toEqual(["update SiteSection gitowned/handbook/api", "update SiteStructureOrder gitowned/handbook"]);
    expect(refresh.drift.find((s) => short(s.urn) === "gitowned/handbook/api")?.diffs).toContain("title");

    fs.writeFileSync(path.join(program.dir, FOLDER, "gitbook-docs.yaml"), MOVED);
    const caughtUp = await runner.preview();
    expect(changes(caughtUp)).toEqual([]);
    const up = await runner.up();
    expect(writes(up)).toEqual([]);
  });

  it("refuses, before any call, a site title in docs.yaml other than the site file's (the import sets the title from the site file)", async () => {
    const docs = path.join(program.dir, "docs.yaml");
    const before = fs.readFileSync(docs, "utf8");
    fs.writeFileSync(docs, before.replace("    title: Handbook\n", "    title: Team handbook\n"));
    const preview = await runner.preview({ allowError: true });
    expect(preview.apiCalls).toEqual([]);
    expect(preview.error?.message).toMatch(/gitbook-docs\.yaml:3:\d+: .*site\.title: "Handbook" differs from the site's title in .*docs\.yaml \("Team handbook", line 7\)/);
    fs.writeFileSync(docs, before);
  });

  it("destroy removes the installation and the site", async () => {
    const down = await runner.destroy();
    expect(down.error).toBeUndefined();
    expect([...emu.store.all("gitInstallations")]).toEqual([]);
    expect(emu.store.snapshot().organizations[0]!.sites.find((s) => s.title === "Handbook")).toBeUndefined();
  });
});
