/**
 * The DocsPlatform component run through the engine harness on small stack files: an invalid file stops
 * the program before any resource is registered (so no API call is made) and names every problem; a key
 * renamed without `previousKeys` is a new resource (create, then delete of the old one); with the old key
 * kept in `previousKeys` it is the same resource.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import type { ProgramRunner, PreparedProgram, RunResult } from "../../test/harness";
import { startProgram, stopProgram } from "../../test/support/program";
import { changes } from "../../test/support/steps";
import { formatProblem, parseStack } from "./load";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");

const SMALL = (linkKey: string, previous = "") => `
organization: demo-org
sites:
  - key: preview
    title: Preview
    visibility: share-link
    siteSpaces:
      - key: guides
        space: {id: space-guides}
    shareLinks:
      - key: ${linkKey}${previous ? `\n        previousKeys: [${previous}]` : ""}
        name: Acme Corp
`;

describe("DocsPlatform", () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  const writeDocs = (text: string) => fs.writeFileSync(path.join(program.dir, "docs.yaml"), text);

  beforeAll(async () => {
    ({ emu, program, runner } = await startProgram(HANDBOOK));
  });
  afterAll(() => stopProgram({ emu, program, runner }));

  it("refuses an invalid stack file before registering anything, naming every problem", async () => {
    const broken = [
      "organization: demo-org",
      "teams:",
      "  - key: Docs Team", // not a key
      "    title: Docs",
      "sites:",
      "  - key: handbook",
      "    title: H", // too short
      "    defaultSiteSection: nowhere", // no such section
      "",
    ].join("\n");
    writeDocs(broken);
    const expected = parseStack(broken, "docs.yaml");
    if (expected.ok) throw new Error("the broken file loaded");
    expect(expected.problems.length).toBeGreaterThanOrEqual(3);

    const result = await runner.up({ allowError: true });
    expect(result.error?.message).toContain(`docs.yaml is not a valid stack file (${expected.problems.length} problems):`);
    for (const p of expected.problems) expect(result.error?.message).toContain(formatProblem(p));
    // Nothing registered but the stack itself; no request reached the API.
    expect(result.steps.filter((s) => s.type !== "pulumi:pulumi:Stack")).toEqual([]);
    expect(result.apiCalls).toEqual([]);
  });

  it("a key renamed without previousKeys is a new resource; with previousKeys it is the same one", async () => {
    writeDocs(SMALL("acme"));
    const up = await runner.up();
    expect(changes(up)).toEqual([
      "create ShareLink handbook/preview/acme",
      "create Site handbook/preview",
      "create SiteSpace handbook/preview/guides",
      "create SiteStructureOrder handbook/preview",
    ]);

    // Renamed with the old key kept: an alias, so nothing changes.
    writeDocs(SMALL("acme-corp", "acme"));
    const aliased = await runner.up();
    expect(changes(aliased)).toEqual([]);
    expect(aliased.apiCalls).toEqual([]);

    // Renamed again, this time without previousKeys: a new share link, then the old one is deleted.
    writeDocs(SMALL("acme-inc"));
    const renamed = await runner.up();
    expect(changes(renamed)).toEqual(["create ShareLink handbook/preview/acme-inc", "delete ShareLink handbook/preview/acme-corp"]);
    expect(renamed.apiCalls.filter((c) => c.method !== "GET").map((c) => c.method)).toEqual(["POST", "DELETE"]);

    await runner.destroy();
  });
});
