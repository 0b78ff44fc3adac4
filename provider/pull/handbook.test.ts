/**
 * The handbook (comments, anchors, flow maps, every kind) applied to the emulator through the real
 * language host and dynamic-provider plugin, then pulled: right after `up` the pull writes nothing; after
 * a batch of UI-style changes through the API, only the changed lines differ and every other line of
 * the file is byte-identical; a second pull writes nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../client";
import { startProgram, stopProgram, type ProgramAgainstEmulator } from "../../test/support/program";
import { pullMain } from "./cli";
import { changedLines } from "../../test/support/changedLines";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");
const ORG = "demo-org";

let started: ProgramAgainstEmulator;
let api: ApiClient;

async function pull(): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const code = await pullMain(["docs.yaml"], {
    env: { DOCSPLATFORM_API_URL: started.emu.url, DOCSPLATFORM_API_TOKEN: started.emu.token },
    cwd: started.program.dir,
    stdout: { write: () => true },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stderr };
}

beforeAll(async () => {
  started = await startProgram(HANDBOOK);
  api = new ApiClient({ baseUrl: started.emu.url, token: started.emu.token });
  const up = await started.runner.up();
  expect(up.error).toBeUndefined();
}, 240_000);

afterAll(async () => {
  await api?.close();
  if (started) await stopProgram(started);
});

describe("pull on the handbook", { timeout: 120_000 }, () => {
  it("right after up: nothing to pull, the file untouched", async () => {
    const file = path.join(started.program.dir, "docs.yaml");
    const before = fs.readFileSync(file, "utf8");
    const r = await pull();
    expect(r.stderr).toContain("is up to date");
    expect(r.code).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });

  it("a batch of UI changes: only the changed lines differ, every other line byte-identical; a second pull writes nothing", async () => {
    const file = path.join(started.program.dir, "docs.yaml");
    const before = fs.readFileSync(file, "utf8");
    const sites = await api.sites.list(ORG);
    const handbook = sites.find((s) => s.title === "Handbook")!;
    const preview = sites.find((s) => s.title === "Partner preview")!;
    const team = (await api.teams.list(ORG)).find((t) => t.title === "Reviewers")!;
    const guides = (await api.sections.list(ORG, handbook.id)).find((s) => s.path === "guides")!;
    const server = (await api.mcpServers.list(ORG, handbook.id)).find((s) => s.name === "Status tools")!;
    const globex = (await api.shareLinks.list(ORG, preview.id)).find((l) => l.name === "Globex (expired)")!;

    await api.teams.update(ORG, team.id, { title: "Review board" });
    await api.sections.update(ORG, handbook.id, guides.id, { title: "How-to guides" } as never);
    await api.mcpServers.update(ORG, handbook.id, server.id, { url: "https://mcp.status.demo.test/v2/sse" });
    await api.shareLinks.update(ORG, preview.id, globex.id, { active: true } as never);
    await api.orgs.update(ORG, { defaultRole: "comment" } as never);
    // The header recoloured in the look editor (a member of a flow map, its quoting kept).
    const look = await api.customization.get(ORG, handbook.id);
    await api.customization.put(ORG, handbook.id, { ...look, styling: { ...look.styling, primaryColor: { ...(look.styling.primaryColor as object), light: "#FF5500" } } } as never);

    const r = await pull();
    expect(r.code, r.stderr).toBe(0);
    const after = fs.readFileSync(file, "utf8");
    const lines = changedLines(before, after);
    expect(lines.sort()).toEqual(
      [
        "-  defaultRole: read",
        "+  defaultRole: comment",
        "-    title: Reviewers",
        "+    title: Review board",
        "-        title: Guides",
        "+        title: How-to guides",
        "-        url: https://mcp.status.demo.test/sse",
        "+        url: https://mcp.status.demo.test/v2/sse",
        "-        active: false",
        '-        primaryColor: {light: "#0B5FFF", dark: "#7AA2FF"}',
        '+        primaryColor: {light: "#FF5500", dark: "#7AA2FF"}',
      ].sort(),
    );
    // Every line not changed is where it was: the file is the old one with exactly these lines edited.
    expect(after.split("\n").length).toBe(before.split("\n").length - 1);

    const again = await pull();
    expect(again.stderr).toContain("is up to date");
    expect(fs.readFileSync(file, "utf8")).toBe(after);
  });

  it("a structure owned by a site file is pulled into that site file, only its changed line; docs.yaml untouched", async () => {
    const file = path.join(started.program.dir, "docs.yaml");
    const siteFile = path.join(started.program.dir, "developer-portal", "gitbook-docs.yaml");
    const before = fs.readFileSync(file, "utf8");
    const siteBefore = fs.readFileSync(siteFile, "utf8");
    const portal = (await api.sites.list(ORG)).find((s) => s.title === "Developer portal")!;
    const start = (await api.sections.list(ORG, portal.id)).find((s) => s.path === "start")!;
    await api.sections.update(ORG, portal.id, start.id, { title: "Start here" } as never);

    const r = await pull();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("developer-portal/gitbook-docs.yaml");
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    const siteAfter = fs.readFileSync(siteFile, "utf8");
    expect(changedLines(siteBefore, siteAfter)).toEqual(["-      title: Get started", "+      title: Start here"]);
    const again = await pull();
    expect(again.stderr).toContain("is up to date");
    expect(fs.readFileSync(siteFile, "utf8")).toBe(siteAfter);
  });
});
