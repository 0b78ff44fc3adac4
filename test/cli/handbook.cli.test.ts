/**
 * The no-code handbook (examples/handbook) through the real Pulumi CLI against the emulator: the plan,
 * up, a second run with nothing to do and no API call, day-two edits shown by `preview --diff`, a hand
 * edit found by refresh, the stack's outputs, its exported state (secrets only as ciphertext), destroy
 * (created spaces kept). What the engine harness tests assert holds here the same way.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { apiOf, type Api } from "../support/api";
import type { RunningEmulator } from "../../emulator";
import type { PreparedProgram } from "../harness/program";
import { HANDBOOK, startCliProject, type CliProject } from "./project";
import { kindsAndNames, resourceSummary as summary, type PulumiCli } from "./pulumi";

/** Distinctive enough that any occurrence is a leak. */
const TOKEN = `dpt_cli_${randomBytes(16).toString("hex")}`;
const CONFIG_SECRET = `cfg_cli_${randomBytes(16).toString("hex")}`;

let emu: RunningEmulator;
let program: PreparedProgram;
let cli: PulumiCli;
let api: Api;

/** API calls since the last clear, as `METHOD route`, then cleared. */
function calls(): string[] {
  const log = emu.control.log().map((c) => `${c.method} ${c.route.replace(/^\/v1\/orgs\/:organizationId/, "")}`);
  emu.control.clearLog();
  return log;
}

function editDocs(edit: (doc: ReturnType<typeof parseDocument>) => void, dir = program.dir): void {
  const file = path.join(dir, "docs.yaml");
  const doc = parseDocument(fs.readFileSync(file, "utf8"));
  edit(doc);
  fs.writeFileSync(file, doc.toString());
}

let project: CliProject;

beforeAll(async () => {
  project = await startCliProject(HANDBOOK, {
    token: TOKEN,
    // The installation takes a secret configuration value from the environment.
    prepare: (dir) => editDocs((doc) => doc.setIn(["installations", 0, "secretConfiguration"], doc.createNode({ apiKey: { env: "STATUS_BADGES_API_KEY" } })), dir),
  });
  ({ emu, program, cli } = project);
  api = apiOf({ url: emu.url, token: TOKEN });
  Object.assign(cli.env, { STATUS_BADGES_API_KEY: CONFIG_SECRET });
  emu.control.clearLog();
}, 120_000);

afterAll(() => project?.stop());

describe("the no-code handbook through the Pulumi CLI", { timeout: 300_000 }, () => {
  it("preview plans every object as a create and writes nothing", async () => {
    const preview = await cli.run(["preview"]);
    expect(summary(preview)).toEqual({ "to create": 49 });
    expect(preview.stdout).not.toMatch(/^\s+[~-]\s/m);
    expect(calls().filter((c) => !c.startsWith("GET"))).toEqual([]);
  });

  it("up creates them all", async () => {
    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(summary(up)).toEqual({ created: 49 });
    const { deployment } = await cli.exportState();
    expect(kindsAndNames(deployment)).toHaveLength(47);
    expect(kindsAndNames(deployment)).toContain("SiteSection handbook/handbook/guides");
    calls();
  });

  it("preview --expect-no-changes passes, and makes no API call", async () => {
    const preview = await cli.run(["preview", "--expect-no-changes"]);
    expect(summary(preview)).toEqual({ unchanged: 49 });
    expect(calls()).toEqual([]);
  });

  it("a second up changes nothing and makes no API call", async () => {
    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(summary(up)).toEqual({ unchanged: 49 });
    expect(calls()).toEqual([]);
  });

  it("a renamed section title: preview --diff shows the changed property, up makes one PATCH", async () => {
    editDocs((doc) => doc.setIn(["sites", 0, "sections", 0, "title"], "User guides"));
    const preview = await cli.run(["preview", "--diff"]);
    expect(summary(preview)).toEqual({ "to update": 1, unchanged: 48 });
    expect(preview.stdout).toMatch(/~ pulumi-nodejs:dynamic\/docsplatform:SiteSection: \(update\)/);
    expect(preview.stdout).toMatch(/~ title\s*: "Guides" => "User guides"/);
    // Internal inputs never show as changed properties.
    expect(preview.stdout).not.toMatch(/~ (location|allowLockout)\b/);
    calls();
    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(summary(up)).toEqual({ updated: 1, unchanged: 48 });
    expect(calls().filter((c) => !c.startsWith("GET"))).toEqual(["PATCH /sites/:siteId/sections/:siteSectionId"]);
  });

  it("a dropped share link: preview --diff shows the delete, up deletes it", async () => {
    editDocs((doc) => (doc.getIn(["sites", 1, "shareLinks"]) as { delete(i: number): void }).delete(1));
    const preview = await cli.run(["preview", "--diff"]);
    expect(summary(preview)).toEqual({ "to delete": 1, unchanged: 48 });
    expect(preview.stdout).toMatch(/- pulumi-nodejs:dynamic\/docsplatform:ShareLink: \(delete\)/);
    calls();
    await cli.run(["up", "--yes", "--skip-preview"]);
    expect(calls().filter((c) => !c.startsWith("GET"))).toEqual(["DELETE /sites/:siteId/share-links/:shareLinkId"]);
  });

  it("a hand edit on the platform: preview --refresh --expect-no-changes fails, refresh finds it, up puts it back", async () => {
    const sites = await api<{ items: { id: string; title: string }[] }>("GET", "/v1/orgs/demo-org/sites");
    const handbook = sites.items.find((s) => s.title === "Handbook")!;
    const sections = await api<{ items: { id: string; title: string }[] }>("GET", `/v1/orgs/demo-org/sites/${handbook.id}/sections`);
    const guides = sections.items.find((s) => s.title === "User guides")!;
    await api("PATCH", `/v1/orgs/demo-org/sites/${handbook.id}/sections/${guides.id}`, { title: "Edited by hand" });

    const drift = await cli.run(["preview", "--refresh", "--expect-no-changes"], { allowFailure: true });
    expect(drift.code).not.toBe(0);
    expect(`${drift.stdout}\n${drift.stderr}`).toMatch(/no changes were expected for preview but changes were proposed/i);

    const refresh = await cli.run(["refresh", "--yes", "--skip-preview"]);
    expect(summary(refresh)).toMatchObject({ updated: 1 });
    const { deployment } = await cli.exportState();
    const state = deployment.resources!.find((r) => r.urn.endsWith("::handbook/handbook/guides"))!;
    expect(state.outputs!["title"]).toBe("Edited by hand");

    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(summary(up)).toMatchObject({ updated: 1 });
    const after = await api<{ items: { id: string; title: string }[] }>("GET", `/v1/orgs/demo-org/sites/${handbook.id}/sections`);
    expect(after.items.find((s) => s.id === guides.id)?.title).toBe("User guides");
    calls();
  });

  it("pulumi stack output: the sites' URLs and IDs by key", async () => {
    const { stdout } = await cli.run(["stack", "output", "--json"]);
    const outputs = JSON.parse(stdout) as { siteUrls: Record<string, string>; siteIds: Record<string, string> };
    expect(Object.keys(outputs.siteUrls).sort()).toEqual(["handbook", "partner-portal", "partner-preview"]);
    expect(Object.keys(outputs.siteIds).sort()).toEqual(["handbook", "partner-portal", "partner-preview"]);
  });

  it("pulumi stack export: the token, the visitor-auth private key and the integration secret appear only as ciphertext", async () => {
    const { text, deployment } = await cli.exportState();
    const portal = (await api<{ items: { id: string; title: string }[] }>("GET", "/v1/orgs/demo-org/sites")).items.find((s) => s.title === "Partner portal")!;
    const { privateKey } = await api<{ privateKey: string }>("GET", `/v1/orgs/demo-org/sites/${portal.id}/publishing/auth`);
    expect(privateKey.length).toBeGreaterThan(16);
    for (const secret of [TOKEN, privateKey, CONFIG_SECRET]) expect(text.includes(secret)).toBe(false);
    // The key is in the state, as a secret the passphrase provider encrypted.
    const auth = deployment.resources!.find((r) => r.type.endsWith(":VisitorAuth"))!;
    expect(JSON.stringify(auth.outputs)).toMatch(/"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","ciphertext"/);
    const config = fs.readFileSync(path.join(program.dir, "Pulumi.dev.yaml"), "utf8");
    expect(config.includes(TOKEN)).toBe(false);
    expect(config).toMatch(/docsplatform:apiToken:\s+secure: /);
  });

  it("destroy removes every object but the space the file created", async () => {
    const down = await cli.run(["destroy", "--yes", "--skip-preview"]);
    expect(summary(down)).toMatchObject({ deleted: expect.any(Number) });
    expect(down.stdout).toMatch(/delete\[retain\]|retain/i);
    const { deployment } = await cli.exportState();
    expect(kindsAndNames(deployment)).toEqual([]);
    const spaces = await api<{ items: { title: string }[] }>("GET", "/v1/orgs/demo-org/spaces");
    expect(spaces.items.map((s) => s.title)).toContain("What's new");
    const sites = await api<{ items: unknown[] }>("GET", "/v1/orgs/demo-org/sites");
    expect(sites.items).toEqual([]);
  });
});
