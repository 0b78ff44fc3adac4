/**
 * The `pulumi new` template (templates/docs-platform): its Pulumi.yaml parses with the template section
 * the CLI reads (asking for the API URL alone: never the token, nor the organisation, which the starter
 * docs.yaml holds), its starter docs.yaml passes `docsplatform validate`, its .gitignore keeps
 * node_modules out and the package's tarball in, and the project it makes — the folder with `${PROJECT}`
 * and `${DESCRIPTION}` replaced as `pulumi new` replaces them, and the organisation set in docs.yaml as
 * the README says — runs through the engine harness against the emulator, warning only when a stack's
 * config names another organisation than the file.
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
  it("Pulumi.yaml: a no-code nodejs project whose template asks for the API URL, not the token nor the organisation", () => {
    const project = parseYaml(fs.readFileSync(path.join(TEMPLATE, "Pulumi.yaml"), "utf8")) as TemplateProject;
    expect(project.name).toBe("${PROJECT}");
    expect(project.description).toBe("${DESCRIPTION}");
    expect(project.runtime).toEqual({ name: "nodejs", options: { typescript: false } });
    expect(project.template.description).toMatch(/\S/);
    // `pulumi new` prompts for every entry: the token is set afterwards (config as a secret, or DOCSPLATFORM_API_TOKEN), as the quickstart says.
    // The organisation too: `pulumi new` could only store it in the stack's config, not in docs.yaml, where every tool reads it.
    expect(Object.keys(project.template.config)).toEqual(["docsplatform:apiUrl"]);
    expect(Object.values(project.template.config).every((c) => c.description.length > 0)).toBe(true);
    expect(project.template.quickstart).toContain("pulumi config set --secret docsplatform:apiToken");
    expect(project.template.quickstart).toContain("DOCSPLATFORM_API_TOKEN");
    expect(project.template.quickstart).toContain("Set `organization:` in docs.yaml");
    expect(fs.readdirSync(TEMPLATE).filter((f) => /\.(ts|js)$/.test(f))).toEqual([]);
  });

  it("its starter docs.yaml passes docsplatform validate", () => {
    const run = spawnSync(process.execPath, [CLI, "validate", path.join(TEMPLATE, "docs.yaml")], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/docs\.yaml: OK \(organisation your-organization-id: 1 site, 1 share link, 1 team\)\n$/);
    expect(run.status).toBe(0);
  });

  it("its .gitignore keeps node_modules out of a first `git add -A`, and the package's tarball in where the repository ignores *.tgz", () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), "docs-new-git-"));
    try {
      const git = (...args: string[]) => spawnSync("git", args, { cwd: repo, encoding: "utf8" });
      expect(git("init", "--quiet").status).toBe(0);
      fs.writeFileSync(path.join(repo, ".gitignore"), "*.tgz\n");
      const project = path.join(repo, "docs");
      fs.mkdirSync(path.join(project, "node_modules", "pulumi-docsplatform"), { recursive: true });
      fs.copyFileSync(path.join(TEMPLATE, ".gitignore"), path.join(project, ".gitignore"));
      for (const f of ["node_modules/pulumi-docsplatform/package.json", "pulumi-docsplatform-0.1.0.tgz", "package-lock.json"]) fs.writeFileSync(path.join(project, f), "{}\n");
      expect(git("add", "-A").status).toBe(0);
      expect(git("ls-files", "docs").stdout.split("\n").filter(Boolean)).toEqual(["docs/.gitignore", "docs/package-lock.json", "docs/pulumi-docsplatform-0.1.0.tgz"]);
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });

  describe("the project it makes, through the engine against the emulator", () => {
    let src: string;
    let started: Partial<ProgramAgainstEmulator> = {};

    beforeAll(async () => {
      src = fs.mkdtempSync(path.join(os.tmpdir(), "docs-new-"));
      const dir = path.join(src, "team-docs");
      fs.mkdirSync(dir);
      instantiate(dir, "team-docs", "The team's docs platform");
      // The organisation, set in the starter file as its README says.
      const file = path.join(dir, "docs.yaml");
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/^organization: your-organization-id$/m, "organization: demo-org"));
      started = await startProgram(dir);
    });
    afterAll(async () => {
      await stopProgram(started);
      fs.rmSync(src, { recursive: true, force: true });
    });

    it("preview, up, a second up without API calls, destroy", async () => {
      const { runner, emu } = started as ProgramAgainstEmulator;
      const pkg = JSON.parse(fs.readFileSync(path.join(runner.dir, "package.json"), "utf8")) as { name: string };
      expect(pkg.name).toBe("team-docs");

      const preview = await runner.preview();
      expect(customOps(preview)).toEqual({ create: 3 });
      expect(preview.logs.filter((l) => l.severity === "warning")).toEqual([]);
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

    it("a stack whose config names another organisation manages that one, and each run warns, naming both", async () => {
      const { runner } = started as ProgramAgainstEmulator;
      const preview = await runner.preview({ config: { "docsplatform:organization": "other-org" }, allowError: true });
      expect(preview.logs.filter((l) => l.severity === "warning").map((l) => l.message)).toEqual([
        "this stack manages organization other-org (config docsplatform:organization), not the demo-org docs.yaml declares, which docsplatform validate, tree, diff and emulator --seed-from read: set organization: other-org in the file, or remove the config",
      ]);
    });
  });
});
