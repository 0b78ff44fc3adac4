import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import {
  DYNAMIC_PROVIDER_TYPE,
  ProgramRunner,
  RunError,
  SECRET_SIG,
  SIG_KEY,
  UNKNOWN,
  prepareProgram,
  runnerAgainst,
  type PreparedProgram,
  type RunResult,
  type Step,
} from "./index";

const TINY = path.resolve(__dirname, "../fixtures/tiny");
const ORG = "/v1/orgs/demo-org";

/** Custom-resource steps as `op name` strings, sorted, for compact assertions. */
function customSteps(result: RunResult): string[] {
  return result.steps.filter((s) => s.custom).map(label).sort();
}
function label(s: Step): string {
  return `${s.op} ${s.urn.slice(s.urn.lastIndexOf("::") + 2)}`;
}
function writes(result: RunResult): string[] {
  return result.apiCalls.filter((c) => c.method !== "GET").map((c) => `${c.method} ${c.route} ${c.status}`);
}

async function listAll(emu: RunningEmulator, what: string): Promise<{ id: string; title?: string }[]> {
  const res = await fetch(`${emu.url}${ORG}/${what}?limit=1000`, { headers: { authorization: `Bearer ${emu.token}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: { id: string; title?: string }[] }).items;
}

describe("ProgramRunner on the tiny program", () => {
  let emu: RunningEmulator;
  const programs: PreparedProgram[] = [];
  const runners: ProgramRunner[] = [];

  async function newRunner(): Promise<ProgramRunner> {
    const program = await prepareProgram(TINY);
    programs.push(program);
    const runner = runnerAgainst(program.dir, emu);
    runners.push(runner);
    return runner;
  }

  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
  });
  beforeEach(() => {
    emu.control.reset();
  });
  afterAll(async () => {
    for (const r of runners) await r.close();
    for (const p of programs) p.cleanup();
    await emu?.close();
  });

  it("runs preview → up → no-op up → change → refresh with drift → destroy", async () => {
    const runner = await newRunner();
    const baseSites = (await listAll(emu, "sites")).length;
    const baseTeams = (await listAll(emu, "teams")).length;

    // Preview: nothing is created, new outputs are unknown, no state is written.
    const preview = await runner.preview();
    expect(customSteps(preview)).toEqual(["create docs-archive", "create docs-handbook", "create docs-preview", "create writers"]);
    expect(preview.apiCalls).toEqual([]);
    expect(preview.outputs).toMatchObject({ teamTitle: UNKNOWN, handbookId: UNKNOWN, linkUrl: UNKNOWN });
    expect(fs.existsSync(runner.stateFile)).toBe(false);
    const pluginPid = (await runner.plugin()).pid;

    // Up: four objects created through the API; the share-link URL comes back secret.
    const up = await runner.up();
    expect(customSteps(up)).toEqual(["create docs-archive", "create docs-handbook", "create docs-preview", "create writers"]);
    expect(up.steps.filter((s) => !s.custom).map(label).sort()).toEqual(["create docs", "create tiny-dev"]);
    expect(writes(up).sort()).toEqual([
      `POST ${ORG.replace("demo-org", ":organizationId")}/sites 201`,
      `POST ${ORG.replace("demo-org", ":organizationId")}/sites 201`,
      `POST ${ORG.replace("demo-org", ":organizationId")}/sites/:siteId/share-links 201`,
      `PUT ${ORG.replace("demo-org", ":organizationId")}/teams 201`,
    ]);
    expect(up.outputs["teamTitle"]).toBe("Writers");
    expect(up.outputs["linkUrl"]).toMatch(/^https:\/\/.+token=/);
    expect(up.secretOutputs).toEqual(["linkUrl"]);

    // The state is Pulumi-shaped: secret markers, never the token, the default provider recorded.
    const stateText = fs.readFileSync(runner.stateFile, "utf8");
    expect(stateText).not.toContain(emu.token);
    const link = runner.state().deployment.resources.find((r) => r.urn.endsWith("::docs-preview"))!;
    expect(link.urn).toBe("urn:pulumi:dev::tiny::tiny:index:Docs$pulumi-nodejs:dynamic/tiny:ShareLink::docs-preview");
    expect(link.outputs["url"]).toMatchObject({ [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(up.outputs["linkUrl"]) });
    expect(link.provider).toMatch(/^urn:pulumi:dev::tiny::pulumi:providers:pulumi-nodejs::default::/);
    expect(link.dependencies).toEqual([expect.stringMatching(/::docs-handbook$/)]);
    expect(runner.state().deployment.resources.filter((r) => r.type === DYNAMIC_PROVIDER_TYPE)).toHaveLength(1);

    // A second up with no change: every step `same`, not one API call.
    const noop = await runner.up();
    expect(noop.steps.every((s) => s.op === "same")).toBe(true);
    expect(noop.steps).toHaveLength(6);
    expect(noop.apiCalls).toEqual([]);

    // Change: the team title is updated in place; moving the link to another site replaces it,
    // creating the new link before deleting the old one.
    const change = await runner.up({ config: { "tiny:teamTitle": "Writers 2", "tiny:linkSite": "archive" } });
    expect(customSteps(change)).toEqual(["replace docs-preview", "same docs-archive", "same docs-handbook", "update writers"]);
    expect(change.steps.find((s) => s.op === "update")?.diffs).toEqual(["title"]);
    expect(change.steps.find((s) => s.op === "replace")?.diffs).toEqual(["siteId"]);
    expect(writes(change)).toEqual(
      expect.arrayContaining([`PATCH /v1/orgs/:organizationId/teams/:teamId 200`]),
    );
    const linkCalls = writes(change).filter((w) => w.includes("share-links"));
    expect(linkCalls.map((w) => w.split(" ")[0])).toEqual(["POST", "DELETE"]);
    expect(change.outputs["teamTitle"]).toBe("Writers 2");
    expect(change.outputs["linkUrl"]).not.toBe(up.outputs["linkUrl"]);
    expect(runner.resources().filter((r) => r.delete)).toEqual([]);

    // Out-of-band change, then refresh: the team shows as drifted, the state takes the live title.
    const teamId = runner.resources().find((r) => r.urn.endsWith("::writers"))!.id!;
    const patched = await fetch(`${emu.url}${ORG}/teams/${teamId}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Renamed by hand" }),
    });
    expect(patched.status).toBe(200);
    const refreshed = await runner.refresh();
    expect(refreshed.drift.map(label)).toEqual(["drift writers"]);
    expect(refreshed.drift[0]!.diffs).toEqual(["title"]);
    expect(refreshed.apiCalls.every((c) => c.method === "GET")).toBe(true);
    expect(runner.resources().find((r) => r.urn.endsWith("::writers"))!.outputs["title"]).toBe("Renamed by hand");

    // Destroy: everything goes, children before parents; the emulator is back to its seed.
    const destroyed = await runner.destroy();
    expect(customSteps(destroyed)).toEqual(["delete docs-archive", "delete docs-handbook", "delete docs-preview", "delete writers"]);
    const deletes = writes(destroyed).map((w) => w.split(" ")[1]);
    expect(deletes.indexOf("/v1/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId")).toBeLessThan(
      deletes.lastIndexOf("/v1/orgs/:organizationId/sites/:siteId"),
    );
    expect(runner.resources()).toEqual([]);
    expect(await listAll(emu, "sites")).toHaveLength(baseSites);
    expect(await listAll(emu, "teams")).toHaveLength(baseTeams);

    // The plugin was started once for the whole scenario.
    expect((await runner.plugin()).pid).toBe(pluginPid);
  });

  it("leaves a consistent state when a step fails, and the next up continues from it", async () => {
    const runner = await newRunner();
    emu.control.setFaults({ error5xxRate: 1, methods: ["POST"], routes: "share-links" });
    let failed: RunResult;
    try {
      failed = await runner.up({ allowError: true, parallel: 1 });
    } finally {
      emu.control.setFaults(null);
    }
    expect(failed.error?.message).toMatch(/docs-preview: create failed: .*HTTP 5\d\d/);
    expect(customSteps(failed)).toContain("create writers");
    const stored = runner.resources().map((r) => r.urn.slice(r.urn.lastIndexOf("::") + 2)).sort();
    expect(stored).toEqual(["default", "docs", "docs-archive", "docs-handbook", "tiny-dev", "writers"]);

    const resumed = await runner.up();
    expect(customSteps(resumed)).toEqual(["create docs-preview", "same docs-archive", "same docs-handbook", "same writers"]);
    await runner.destroy();
    expect(runner.resources()).toEqual([]);
  });

  it("refuses to delete a protected resource and deletes the rest", async () => {
    const runner = await newRunner();
    await runner.up({ config: { "tiny:protectTeam": "true" } });
    const err = await runner.destroy().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunError);
    expect((err as RunError).message).toMatch(/::writers: resource is protected/);
    const left = runner.resources().map((r) => r.urn.slice(r.urn.lastIndexOf("::") + 2)).sort();
    expect(left).toEqual(["default", "tiny-dev", "writers"]);

    // Unprotecting is a program change with no API call; then destroy completes.
    const unprotect = await runner.up({ config: { "tiny:protectTeam": "false" } });
    expect(unprotect.apiCalls.filter((c) => c.route.includes("/teams"))).toEqual([]);
    await runner.destroy();
    expect(runner.resources()).toEqual([]);
  });

  it("deletes resources the program no longer declares and reports program errors", async () => {
    const runner = await newRunner();
    await runner.up();
    const source = path.join(runner.dir, "index.ts");
    const original = fs.readFileSync(source, "utf8");
    fs.writeFileSync(source, original.replace(/const team = new Team[^\n]*\n/, "").replace(/export const teamTitle[^\n]*\n/, ""));
    const shrunk = await runner.up();
    expect(customSteps(shrunk)).toEqual(["delete writers", "same docs-archive", "same docs-handbook", "same docs-preview"]);
    expect(writes(shrunk)).toEqual(["DELETE /v1/orgs/:organizationId/teams/:teamId 204"]);

    fs.writeFileSync(source, `${original}\nthrow new Error("program exploded");\n`);
    const broken = await runner.up({ allowError: true });
    expect(broken.error?.message).toContain("program exploded");
    // A failed program deletes nothing: the team comes back on the next good run, the rest stays.
    expect(broken.apiCalls.filter((c) => c.method === "DELETE")).toEqual([]);
    fs.writeFileSync(source, original);
    await runner.destroy();
    expect(runner.resources()).toEqual([]);
  });
});
