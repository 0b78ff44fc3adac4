/**
 * A new user's first run, exactly as the README tells it: `npm run package` packs the checkout and
 * writes the `pulumi new` template with the tarball inside; `pulumi new` makes a project from it (config
 * answered on the command line) and its own `npm install` installs the package from the project's
 * folder, with no registry copy of this package; the organisation is set in docs.yaml, as the template's
 * README says; then preview and up against the emulator.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { packTemplate } from "./packedTemplate";
import { PulumiCli } from "./pulumi";

let emu: RunningEmulator;
let cli: PulumiCli;
let template: string;
const workdir = fs.mkdtempSync(path.join(os.tmpdir(), "docsplatform-new-"));
const project = path.join(workdir, "our-docs");

beforeAll(async () => {
  // `npm run package` without its build step (the suite has just built), into a folder of the test's.
  template = packTemplate(path.join(workdir, "package")).template;
  emu = await startEmulator({ port: 0 });
  fs.mkdirSync(project);
  cli = new PulumiCli(project, [emu.token]);
}, 120_000);

afterAll(async () => {
  cli?.close();
  fs.rmSync(workdir, { recursive: true, force: true });
  await emu?.close();
});

describe("pulumi new from the packed template", { timeout: 300_000 }, () => {
  it("npm run package writes the tarball and a template whose package.json depends on it by file", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(template, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const dep = manifest.dependencies["pulumi-docsplatform"]!;
    expect(dep).toMatch(/^file:pulumi-docsplatform-\d+\.\d+\.\d+\.tgz$/);
    expect(fs.existsSync(path.join(template, dep.slice("file:".length)))).toBe(true);
  });

  it("pulumi new makes the project and its own npm install installs the package", async () => {
    const made = await cli.run(
      [
        "new",
        template,
        "--yes",
        "--stack",
        "dev",
        "--name",
        "our-docs",
        "--description",
        "Our docs platform",
        "--config",
        `docsplatform:apiUrl=${emu.url}`,
      ],
      { cwd: project },
    );
    expect(`${made.stdout}${made.stderr}`).not.toMatch(/npm (ERR|error)/);
    expect(fs.existsSync(path.join(project, "node_modules", "pulumi-docsplatform", "dist", "provider", "program.js"))).toBe(true);
    expect(fs.readFileSync(path.join(project, "Pulumi.yaml"), "utf8")).toMatch(/^name: our-docs$/m);
    expect(fs.readFileSync(path.join(project, ".gitignore"), "utf8")).toMatch(/^node_modules\/$/m);
    // Nor for the organisation: it is docs.yaml's, set there as the README says.
    expect(made.stdout).toContain("Set `organization:` in docs.yaml");
    const file = path.join(project, "docs.yaml");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/^organization: your-organization-id$/m, "organization: demo-org"));
    // The template asks for no token (`pulumi new` would prompt for it): it is set afterwards, as a secret.
    expect(made.stdout).toContain("pulumi config set --secret docsplatform:apiToken");
    await cli.run(["config", "set", "--secret", "docsplatform:apiToken", emu.token]);
    const config = fs.readFileSync(path.join(project, "Pulumi.dev.yaml"), "utf8");
    expect(config.includes(emu.token)).toBe(false);
    expect(config).toMatch(/docsplatform:apiToken:\s+secure: /);
  });

  it("the starter project previews and comes up against the platform", async () => {
    const preview = await cli.run(["preview"]);
    expect(preview.stdout).toMatch(/\+ 5 to create/);
    expect(`${preview.stdout}${preview.stderr}`).not.toMatch(/warning/i);
    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(up.stdout).toMatch(/\+ 5 created/);
    const again = await cli.run(["preview", "--expect-no-changes"]);
    expect(again.stdout).toMatch(/5 unchanged/);
    await cli.run(["destroy", "--yes", "--skip-preview"]);
  });
});
