/**
 * What a user reads from the Pulumi CLI itself (#33), the no-code handbook: a tab in the stack file's
 * indentation is told in a few located lines with no stack trace; a preview of a file that adopts live
 * objects says which ones it will take over.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import type { RunningEmulator } from "../../emulator";
import type { PreparedProgram } from "../harness/program";
import { HANDBOOK, startCliProject, type CliProject } from "./project";
import type { PulumiCli } from "./pulumi";

let project: CliProject;
let emu: RunningEmulator;
let program: PreparedProgram;
let cli: PulumiCli;
const docsFile = () => path.join(program.dir, "docs.yaml");

beforeAll(async () => {
  project = await startCliProject(HANDBOOK);
  ({ emu, program, cli } = project);
}, 120_000);

afterAll(() => project?.stop());

describe("messages through the Pulumi CLI", { timeout: 300_000 }, () => {
  it("a tab in the indentation: the located tab, no stack trace, no dump of the error's fields", async () => {
    const saved = fs.readFileSync(docsFile(), "utf8");
    const lines = saved.split("\n");
    const deep = lines.findIndex((l, i) => i > 60 && l.startsWith("      - "));
    lines[deep] = `\t${lines[deep]!.slice(2)}`;
    fs.writeFileSync(docsFile(), lines.join("\n"));
    try {
      const preview = await cli.run(["preview"], { allowFailure: true });
      expect(preview.code).not.toBe(0);
      const said = `${preview.stdout}\n${preview.stderr}`;
      expect(said).toContain(`docs.yaml:${deep + 1}:1: YAML syntax error: a tab in the indentation; YAML indents with spaces only`);
      expect(said).not.toMatch(/^\s+at |problems: \[|StackFileError|Running program .* failed with an unhandled exception/m);
      // The diagnostic itself: the summary and the located line.
      const diagnostic = said.split("\n").filter((l) => /docs\.yaml/.test(l));
      expect(diagnostic.length).toBeLessThanOrEqual(3);
    } finally {
      fs.writeFileSync(docsFile(), saved);
    }
  });

  it("a preview of adopted objects says which live objects the up will take over", async () => {
    const site = (await (await fetch(`${emu.url}/v1/orgs/demo-org/sites`, { method: "POST", headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" }, body: JSON.stringify({ title: "Handbook" }) })).json()) as { id: string };
    const doc = parseDocument(fs.readFileSync(docsFile(), "utf8"));
    doc.setIn(["sites", 0, "adopt"], true);
    fs.writeFileSync(docsFile(), doc.toString());
    const preview = await cli.run(["preview"]);
    expect(preview.stdout).toContain(`adopt: will take over the live site "Handbook" (id ${site.id}) instead of creating one`);
  });

  it("preview --diff of a changed grant shows the grants, never the guard's settings (its location moved, allowLockout set)", async () => {
    await cli.run(["up", "--yes", "--skip-preview"]);
    fs.writeFileSync(docsFile(), `\n${fs.readFileSync(docsFile(), "utf8")}`);
    const doc = parseDocument(fs.readFileSync(docsFile(), "utf8"));
    doc.setIn(["spaces", 0, "permissions", 0, "role"], "comment");
    doc.setIn(["spaces", 0, "allowLockout"], true);
    fs.writeFileSync(docsFile(), doc.toString());
    const preview = await cli.run(["preview", "--diff"]);
    expect(preview.stdout).toMatch(/~ pulumi-nodejs:dynamic\/docsplatform:Permissions: \(update\)/);
    expect(preview.stdout).toMatch(/~ grants\s*:/);
    expect(preview.stdout).not.toMatch(/location|allowLockout|teamIds/);
  });
});
