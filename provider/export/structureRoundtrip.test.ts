/**
 * A live organisation's site structures exported as Git Sync site files (`export --site-file`): each
 * file validates against the published description's schema (a copy in provider/site/testdata), the
 * stack file reads them through `structure: {file: …}`, and the handbook program run on it through the
 * real language host and plugin takes every object over without a write; the next plan is no change.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { RunningEmulator } from "../../emulator";
import type { PreparedProgram, ProgramRunner } from "../../test/harness";
import { stopProgram } from "../../test/support/program";
import { changes, writes } from "../../test/support/steps";
import { publishedSiteFileErrors } from "../../test/support/gitSyncSchema";
import { startHandbookOnVariedOrganization } from "../../test/support/variedOrganization";
import { loadStackFile } from "../stack/load";
import { siteModels } from "../site";
import { exportMain } from "./cli";

const ORG = "demo-org";

describe("export --site-file, then pulumi up on the exported files", () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  let err = "";
  const docsFile = (): string => path.join(program.dir, "docs.yaml");
  const sitesDir = (): string => path.join(program.dir, "sites");

  beforeAll(async () => {
    ({ emu, program, runner } = await startHandbookOnVariedOrganization(ORG));
    const code = await exportMain(["--org", ORG, "--out", docsFile(), "--site-file", sitesDir()], {
      env: { DOCSPLATFORM_API_URL: emu.url, DOCSPLATFORM_API_TOKEN: emu.token },
      stderr: { write: (t: string) => (err += t) },
      cwd: program.dir,
    });
    expect(code, err).toBe(0);
  }, 300_000);
  afterAll(() => stopProgram({ emu, program, runner }));

  it("writes one site file per site, each valid against the published GitSyncSiteConfig schema", () => {
    const validate = publishedSiteFileErrors();
    const files = fs.readdirSync(sitesDir()).map((site) => path.join(sitesDir(), site, "gitbook-docs.yaml"));
    expect(files.length).toBe(emu.store.org(ORG).sites.length);
    for (const file of files) expect(validate(parse(fs.readFileSync(file, "utf8"))), file).toEqual([]);
    // What a site file cannot hold is said, not dropped: the varied organisation's sections have paths the platform chose.
    expect(err).toMatch(/export: wrote sites\/[a-z0-9-]+\/gitbook-docs\.yaml \(site [a-z0-9-]+'s structure\)/);
  });

  it("the stack file reads them through structure: no site declares its structure inline, and the model is the live one", () => {
    const loaded = loadStackFile(docsFile());
    if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join("\n"));
    const text = fs.readFileSync(docsFile(), "utf8");
    expect(text).not.toMatch(/^\s+(sections|siteSpaces|sectionGroups):/m);
    const sites = loaded.stack.sites ?? [];
    expect(sites.every((s) => s.structure?.file.startsWith("sites/") && s.structure.adopt === true)).toBe(true);
    const live = emu.store.org(ORG).sites;
    for (const model of siteModels(loaded.stack)) {
      const site = live.find((s) => s.title === model.title)!;
      expect(model.sections.map((s) => s.url), model.title).toEqual(site.sections.map((s) => (s.default ? "/" : `/${s.path}`)));
    }
  });

  it("the first up takes every object over without a write; the plan after it is no change and no call", async () => {
    const up = await runner.up();
    expect(up.error).toBeUndefined();
    expect(up.steps.filter((s) => s.custom && s.op !== "create").map((s) => s.urn)).toEqual([]);
    expect(writes(up)).toEqual([]);
    const preview = await runner.preview();
    expect(changes(preview)).toEqual([]);
    expect(preview.apiCalls).toEqual([]);
    const again = await runner.up();
    expect(changes(again)).toEqual([]);
    expect(again.apiCalls).toEqual([]);
  });
});
