/**
 * The Pulumi CLI's own ways of narrowing a run, on the handbook: `up --target` one site, `refresh
 * --preview-only` (drift shown, state unchanged), and `pulumi import`, which the engine cannot do for a
 * dynamic resource — the package's adoption path (`docsplatform export`, then `pulumi up` in a new
 * stack) is the answer, and takes every object over with no create.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import type { RunningEmulator } from "../../emulator";
import { apiOf, type Api } from "../support/api";
import { prepareProgram, REPO_ROOT, type PreparedProgram } from "../harness/program";
import { HANDBOOK_SECRET_ENV } from "../harness/handbookSecrets";
import { HANDBOOK, startCliProject, type CliProject } from "./project";
import { kindsAndNames, PulumiCli } from "./pulumi";
const SITE = "pulumi-nodejs:dynamic/docsplatform:Site";

let emu: RunningEmulator;
let program: PreparedProgram;
let cli: PulumiCli;
let api: Api;

function editDocs(edit: (doc: ReturnType<typeof parseDocument>) => void): void {
  const file = path.join(program.dir, "docs.yaml");
  const doc = parseDocument(fs.readFileSync(file, "utf8"));
  edit(doc);
  fs.writeFileSync(file, doc.toString());
}

function writes(): string[] {
  const out = emu.control.log().filter((c) => c.method !== "GET").map((c) => `${c.method} ${c.route.replace(/^\/v1\/orgs\/:organizationId/, "")}`);
  emu.control.clearLog();
  return out;
}

let project: CliProject;

beforeAll(async () => {
  project = await startCliProject(HANDBOOK);
  ({ emu, program, cli } = project);
  api = apiOf(emu);
  await cli.run(["up", "--yes", "--skip-preview"]);
  emu.control.clearLog();
}, 180_000);

afterAll(() => project?.stop());

describe("narrowed runs through the Pulumi CLI", { timeout: 300_000 }, () => {
  it("up --target one site updates that site alone; the rest stays planned", async () => {
    editDocs((doc) => {
      doc.setIn(["sites", 0, "title"], "Company handbook");
      doc.setIn(["sites", 0, "sections", 0, "title"], "User guides");
    });
    const { deployment } = await cli.exportState();
    const site = deployment.resources!.find((r) => r.type === SITE && r.urn.endsWith("::handbook/handbook"))!;
    const up = await cli.run(["up", "--yes", "--skip-preview", "--target", site.urn]);
    expect(up.stdout).toMatch(/~ 1 updated/);
    expect(writes()).toEqual(["PATCH /sites/:siteId"]);
    const rest = await cli.run(["preview"]);
    expect(rest.stdout).toMatch(/~ 1 to update/);
    await cli.run(["up", "--yes", "--skip-preview"]);
    expect(writes()).toEqual(["PATCH /sites/:siteId/sections/:siteSectionId"]);
  });

  it("refresh --preview-only shows a hand edit and leaves the state as it was", async () => {
    const sites = await api<{ items: { id: string; title: string }[] }>("GET", "/v1/orgs/demo-org/sites");
    const portal = sites.items.find((s) => s.title === "Partner portal")!;
    await api("PATCH", `/v1/orgs/demo-org/sites/${portal.id}`, { title: "Partners (edited by hand)" });
    const before = (await cli.exportState()).text;
    const shown = await cli.run(["refresh", "--preview-only"]);
    expect(shown.stdout).toMatch(/~ 1 to update/);
    expect(JSON.parse((await cli.exportState()).text).deployment.resources).toEqual(JSON.parse(before).deployment.resources);
    // The next up puts the file's title back.
    await cli.run(["up", "--yes", "--skip-preview", "--refresh"]);
    expect((await api<{ items: { title: string }[] }>("GET", "/v1/orgs/demo-org/sites")).items.map((s) => s.title)).toContain("Partner portal");
  });

  it("pulumi import cannot take over a dynamic resource; export and up in a new stack take everything over with no create", async () => {
    const portal = (await api<{ items: { id: string; title: string }[] }>("GET", "/v1/orgs/demo-org/sites")).items.find((s) => s.title === "Partner portal")!;
    const imported = await cli.run(["import", SITE, "imported-portal", portal.id, "--yes"], { allowFailure: true });
    expect(imported.code).not.toBe(0);

    // The adoption path: the live organisation written as a stack file, and a new stack that declares it.
    const adopt = await prepareProgram(HANDBOOK, { installPackage: true });
    const adopter = new PulumiCli(adopt.dir, [emu.token]);
    try {
      const docs = path.join(adopt.dir, "docs.yaml");
      fs.rmSync(docs);
      await new Promise<void>((resolve, reject) =>
        execFile(
          process.execPath,
          [path.join(REPO_ROOT, "dist", "provider", "cli.js"), "export", "--org", "demo-org", "--out", docs],
          { cwd: adopt.dir, env: { ...process.env, DOCSPLATFORM_API_URL: emu.url, DOCSPLATFORM_API_TOKEN: emu.token } },
          (e) => (e ? reject(e) : resolve()),
        ),
      );
      // What export cannot read back (an integration's script) it names at a placeholder path; the user supplies it.
      for (const [placeholder] of fs.readFileSync(docs, "utf8").matchAll(/supply\/[\w./-]+/g)) {
        fs.mkdirSync(path.dirname(path.join(adopt.dir, placeholder)), { recursive: true });
        fs.copyFileSync(path.join(HANDBOOK, "integrations", "status-badges.js"), path.join(adopt.dir, placeholder));
      }
      // Export writes the installation's configuration values it cannot tell from secrets as environment sources.
      // So are the assistant's secrets (the values the handbook used).
      Object.assign(adopter.env, {
        INSTALLATION_DEMO_STATUS_BADGES_THEME: "dark",
      });
      // Named after the site's exported key, which earlier tests' edits changed.
      for (const [, name] of fs.readFileSync(docs, "utf8").matchAll(/env: ((?:MCP|CONNECTION)_\w+)/g)) {
        adopter.env[name!] = HANDBOOK_SECRET_ENV[name!.startsWith("MCP_") ? "HANDBOOK_MCP_TOKEN" : "HANDBOOK_GITHUB_TOKEN"]!;
      }
      await adopter.initStack("adopted", emu);
      emu.control.clearLog();
      const up = await adopter.run(["up", "--yes", "--skip-preview"]);
      expect(up.stdout).toMatch(/created/);
      // No object is made: the only POSTs publish the script the user supplied over the live one, and find the
      // Git Sync installation by the platform's refusal of a second one (409).
      expect(writes().filter((w) => w.startsWith("POST ") && !w.includes("/structure")).sort()).toEqual(["POST /v1/integrations/:integrationName", "POST /v1/git/installations"].sort());
      expect(kindsAndNames((await adopter.exportState()).deployment).length).toBeGreaterThan(30);
      await adopter.run(["preview", "--expect-no-changes"]);
    } finally {
      adopter.close();
      adopt.cleanup();
    }
  });
});
