/**
 * The no-code project: the handbook example is Pulumi.yaml (`typescript: false`), a package.json whose
 * `main` is the package's ready-made program, and docs.yaml — no program file of its own. Run the way
 * `pulumi up` runs it (the real language host and plugin, test/harness) against the emulator: preview,
 * up, a second up without API calls, destroy; with `docsplatform:file` naming a file in a subfolder; and
 * the serialised providers compared with those of a TypeScript program declaring the same file.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { type RunningEmulator } from "../emulator";
import { runnerAgainst, type PreparedProgram, type ProgramRunner, type RunResult } from "../test/harness";
import { startProgram, stopProgram, type ProgramAgainstEmulator } from "../test/support/program";

const HANDBOOK = path.resolve(__dirname, "../examples/handbook");

/** Every file of a folder, relative to it (node_modules left out). */
function filesOf(dir: string, rel = ""): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = path.join(rel, e.name);
    if (e.name === "node_modules") return [];
    return e.isDirectory() ? filesOf(dir, p) : [p];
  });
}

/** Custom-resource steps by op. */
function ops(result: RunResult): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of result.steps.filter((s) => s.custom)) out[s.op] = (out[s.op] ?? 0) + 1;
  return out;
}

/** Each custom resource's serialised provider, by URN. */
function providersByUrn(runner: ProgramRunner): Record<string, unknown> {
  return Object.fromEntries(
    runner
      .resources()
      .filter((r) => r.custom && r.type.startsWith("pulumi-nodejs:dynamic/"))
      .map((r) => [r.urn, r.inputs["__provider"]]),
  );
}

describe("the handbook as a no-code project", () => {
  it("is Pulumi.yaml, package.json and docs.yaml: no program file, typescript off, the package as its one dependency", () => {
    // The integration's script is content the stack file publishes, not a program of the project.
    expect(filesOf(HANDBOOK).filter((f) => /\.(ts|js|mjs|cjs)$/.test(f) && !f.startsWith("integrations/"))).toEqual([]);
    const project = parseYaml(fs.readFileSync(path.join(HANDBOOK, "Pulumi.yaml"), "utf8")) as { runtime: { name: string; options: { typescript: boolean } } };
    expect(project.runtime).toEqual({ name: "nodejs", options: { typescript: false } });
    const pkg = JSON.parse(fs.readFileSync(path.join(HANDBOOK, "package.json"), "utf8")) as { main: string; dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies)).toEqual(["pulumi-docsplatform"]);
    expect(pkg.main).toBe("node_modules/pulumi-docsplatform/dist/provider/program.js");
  });
});

describe.each([
  { where: "docs.yaml at the project's root (the default)", file: undefined },
  { where: "docsplatform:file naming a file in a subfolder", file: "platform/docs.yaml" },
])("the no-code handbook through the engine: $where", ({ file }) => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  /** Custom resources the file declares: what the preview plans. */
  let declared: number;

  beforeAll(async () => {
    ({ emu, program, runner } = await startProgram(HANDBOOK, { runner: file === undefined ? {} : { config: { "docsplatform:file": file } } }));
    if (file !== undefined) {
      // The file moves into the subfolder: nothing is left at the root to be read by mistake.
      fs.mkdirSync(path.dirname(path.join(program.dir, file)), { recursive: true });
      fs.renameSync(path.join(program.dir, "docs.yaml"), path.join(program.dir, file));
      fs.renameSync(path.join(program.dir, "integrations"), path.join(program.dir, path.dirname(file), "integrations"));
      for (const folder of ["developer-portal", "openapi"]) fs.renameSync(path.join(program.dir, folder), path.join(program.dir, path.dirname(file), folder));
    }
  });
  afterAll(() => stopProgram({ emu, program, runner }));

  it("preview plans every object and makes no write", async () => {
    const preview = await runner.preview();
    declared = preview.steps.filter((s) => s.custom).length;
    expect(declared).toBeGreaterThanOrEqual(31);
    expect(ops(preview)).toEqual({ create: declared });
    expect(preview.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
  });

  it("up creates them and exports the sites' URLs and IDs", async () => {
    const up = await runner.up();
    expect(ops(up)).toEqual({ create: declared });
    const sites = emu.store.snapshot().organizations.find((o) => o.id === "demo-org")!.sites;
    expect(up.outputs["siteIds"]).toEqual({
      handbook: sites.find((s) => s.title === "Handbook")!.id,
      "partner-preview": sites.find((s) => s.title === "Partner preview")!.id,
      "partner-portal": sites.find((s) => s.title === "Partner portal")!.id,
      "developer-portal": sites.find((s) => s.title === "Developer portal")!.id,
    });
    expect(Object.keys(up.outputs["siteUrls"] as object)).toEqual(["developer-portal", "handbook", "partner-portal", "partner-preview"]);
    // The component is named after the project and records the file as given, relative to the root.
    const component = runner.resources().find((r) => r.type === "docsplatform:index:DocsPlatform")!;
    expect(component.urn.endsWith("::handbook")).toBe(true);
    expect(component.inputs["file"]).toBe(file ?? "docs.yaml");
  });

  it("a second up changes nothing and makes no API call", async () => {
    const again = await runner.up();
    expect(ops(again)).toEqual({ same: declared });
    expect(again.apiCalls).toEqual([]);
  });

  it("destroy deletes what up created", async () => {
    const destroyed = await runner.destroy();
    expect(ops(destroyed)).toEqual({ delete: declared });
    expect(runner.resources()).toEqual([]);
  });
});

// Why the project points at the program with package.json `main` and not Pulumi.yaml `main`: a `main`
// file moves the working directory of the language host (and of the plugin) to the file's folder, here
// inside the installed package. The closure serialiser then takes the package's modules for the
// program's own and tries to capture the providers by value instead of as a require() of the package.
describe("the no-code handbook with Pulumi.yaml `main` at the program instead", () => {
  let started: Partial<ProgramAgainstEmulator> = {};

  beforeAll(async () => {
    started = await startProgram(HANDBOOK);
    const dir = started.program!.dir;
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as Record<string, unknown>;
    fs.appendFileSync(path.join(dir, "Pulumi.yaml"), `main: ${String(pkg["main"])}\n`);
    delete pkg["main"];
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2));
    // A runner made after the edit reads the new Pulumi.yaml, as the CLI does on every command.
    await started.runner!.close();
    started.runner = runnerAgainst(dir, started.emu!);
  });
  afterAll(() => stopProgram(started));

  it("cannot serialise the providers as a require() of the package: the run fails before any API call", async () => {
    const { runner } = started as ProgramAgainstEmulator;
    const preview = await runner.preview({ allowError: true });
    const said = `${preview.error?.message ?? ""}\n${JSON.stringify(preview.logs)}`;
    expect(said).toMatch(/the provider module providers\/[A-Za-z]+\.js is not serialised as a require\(\) of the installed package pulumi-docsplatform/);
    expect(said).toContain("not Pulumi.yaml `main`");
    expect(preview.apiCalls).toEqual([]);
  });
});

describe("the no-code program's serialised providers", () => {
  let nocode: Partial<ProgramAgainstEmulator> = {};
  let own: Partial<ProgramAgainstEmulator> = {};

  beforeAll(async () => {
    [nocode, own] = await Promise.all([startProgram(HANDBOOK), startProgram(HANDBOOK)]);
    // The same project as a program of one's own: the five lines in TypeScript, type-checked as the CLI does.
    const dir = own.program!.dir;
    fs.writeFileSync(
      path.join(dir, "index.ts"),
      'import { DocsPlatform } from "pulumi-docsplatform";\n\n' +
        'const docs = new DocsPlatform("handbook", { file: "docs.yaml" });\n\n' +
        "export const siteUrls = docs.siteUrls;\nexport const siteIds = docs.siteIds;\n",
    );
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: handbook\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n");
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as Record<string, unknown>;
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ ...pkg, main: "index.ts" }, null, 2));
    await own.runner!.close();
    own.runner = runnerAgainst(dir, own.emu!, { env: { PULUMI_NODEJS_TRANSPILE_ONLY: "false" } });
  });
  afterAll(async () => {
    await stopProgram(nocode);
    await stopProgram(own);
  });

  it("are the TypeScript program's, resource for resource: a require() of the installed package", async () => {
    const [a, b] = await Promise.all([nocode.runner!.up(), own.runner!.up()]);
    expect(Object.keys(ops(a))).toEqual(["create"]);
    expect(ops(b)).toEqual(ops(a));
    const [ours, theirs] = [providersByUrn(nocode.runner!), providersByUrn(own.runner!)];
    expect(Object.keys(ours)).toHaveLength(ops(a)["create"]!);
    expect(ours).toEqual(theirs);
    for (const text of Object.values(ours)) expect(text).toMatch(/require\("pulumi-docsplatform\/dist\/provider\/providers\/[A-Za-z]+\.js"\)/);
  });
});
