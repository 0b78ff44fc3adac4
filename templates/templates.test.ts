/**
 * The `pulumi new` template (templates/docs-platform): its Pulumi.yaml parses with the template section
 * the CLI reads (asking for the API URL and the organisation, never the token), its starter docs.yaml
 * passes `docsplatform validate`, and the project it makes — the
 * folder with `${PROJECT}` and `${DESCRIPTION}` replaced as `pulumi new` replaces them, and the config
 * it prompts for set — runs through the engine harness against the emulator.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { RunResult } from "../test/harness";
import { startProgram, stopProgram, type ProgramAgainstEmulator } from "../test/support/program";

const TEMPLATE = path.resolve(__dirname, "docs-platform");
const CLI = path.resolve(__dirname, "../dist/provider/cli.js");

interface TemplateProject {
  name: string;
  description: string;
  runtime: { name: string; options: { typescript: boolean } };
  template: { description: string; quickstart?: string; config: Record<string, { description: string; secret?: boolean; default?: unknown }> };
}

/** What `pulumi new` does with a template's files: the project's name and description in place of the placeholders. */
function instantiate(into: string, project: string, description: string): void {
  for (const name of fs.readdirSync(TEMPLATE)) {
    const text = fs.readFileSync(path.join(TEMPLATE, name), "utf8");
    fs.writeFileSync(path.join(into, name), text.replaceAll("${PROJECT}", project).replaceAll("${DESCRIPTION}", description));
  }
}

function customOps(result: RunResult): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of result.steps.filter((s) => s.custom)) out[s.op] = (out[s.op] ?? 0) + 1;
  return out;
}

describe("the pulumi new template", () => {
  it("Pulumi.yaml: a no-code nodejs project whose template asks for the API URL and the organisation, not the token", () => {
    const project = parseYaml(fs.readFileSync(path.join(TEMPLATE, "Pulumi.yaml"), "utf8")) as TemplateProject;
    expect(project.name).toBe("${PROJECT}");
    expect(project.description).toBe("${DESCRIPTION}");
    expect(project.runtime).toEqual({ name: "nodejs", options: { typescript: false } });
    expect(project.template.description).toMatch(/\S/);
    // `pulumi new` prompts for every entry: the token is set afterwards (config as a secret, or DOCSPLATFORM_API_TOKEN), as the quickstart says.
    expect(Object.keys(project.template.config)).toEqual(["docsplatform:apiUrl", "docsplatform:organization"]);
    expect(Object.values(project.template.config).every((c) => c.description.length > 0)).toBe(true);
    expect(project.template.quickstart).toContain("pulumi config set --secret docsplatform:apiToken");
    expect(project.template.quickstart).toContain("DOCSPLATFORM_API_TOKEN");
    expect(fs.readdirSync(TEMPLATE).filter((f) => /\.(ts|js)$/.test(f))).toEqual([]);
  });

  it("its starter docs.yaml passes docsplatform validate", () => {
    const run = spawnSync(process.execPath, [CLI, "validate", path.join(TEMPLATE, "docs.yaml")], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/docs\.yaml: OK \(organisation your-organization-id: 1 site, 1 share link, 1 team\)\n$/);
    expect(run.status).toBe(0);
  });

  describe("the project it makes, through the engine against the emulator", () => {
    let src: string;
    let started: Partial<ProgramAgainstEmulator> = {};

    beforeAll(async () => {
      src = fs.mkdtempSync(path.join(os.tmpdir(), "docs-new-"));
      const dir = path.join(src, "team-docs");
      fs.mkdirSync(dir);
      instantiate(dir, "team-docs", "The team's docs platform");
      // The organisation comes from the config `pulumi new` prompts for, not from the starter file.
      started = await startProgram(dir, { runner: { config: { "docsplatform:organization": "demo-org" } } });
    });
    afterAll(async () => {
      await stopProgram(started);
      fs.rmSync(src, { recursive: true, force: true });
    });

    it("preview, up, a second up without API calls, destroy", async () => {
      const { runner, emu } = started as ProgramAgainstEmulator;
      const pkg = JSON.parse(fs.readFileSync(path.join(runner.dir, "package.json"), "utf8")) as { name: string };
      expect(pkg.name).toBe("team-docs");

      expect(customOps(await runner.preview())).toEqual({ create: 3 });
      const up = await runner.up();
      expect(customOps(up)).toEqual({ create: 3 });
      const org = emu.store.snapshot().organizations.find((o) => o.id === "demo-org")!;
      const site = org.sites.find((s) => s.title === "Documentation")!;
      expect(up.outputs["siteIds"]).toEqual({ docs: site.id });
      expect(org.teams.map((t) => t.title)).toContain("Docs team");
      expect(runner.resources().find((r) => r.type === "docsplatform:index:DocsPlatform")?.urn).toMatch(/::team-docs$/);

      const again = await runner.up();
      expect(customOps(again)).toEqual({ same: 3 });
      expect(again.apiCalls).toEqual([]);

      expect(customOps(await runner.destroy())).toEqual({ delete: 3 });
      const after = emu.store.snapshot().organizations.find((o) => o.id === "demo-org")!;
      expect(after.sites.some((s) => s.title === "Documentation")).toBe(false);
      expect(after.teams.some((t) => t.title === "Docs team")).toBe(false);
    });
  });
});
