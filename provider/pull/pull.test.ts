/**
 * `docsplatform pull` over the emulator on real HTTP: an organisation built by hand and exported, its
 * file hand-edited (comments, quoting); changes made through the API as the editor makes them are
 * pulled back, and the file's diff is exactly the changed lines; a second pull writes nothing. Also:
 * `--check`/`--diff`, a file that does not validate refused before any read, a platform that cannot be
 * read leaving the file untouched, and secrets only ever as sources.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ApiClient } from "../client";
import { exportMain } from "../export/cli";
import { loadStackFile } from "../stack/load";
import { buildVariedOrganization, type VariedOrganization } from "../../test/support/variedOrganization";
import { pullMain } from "./cli";
import { changedLines } from "../../test/support/changedLines";

const ORG = "demo-org";
const SECRET = "Bearer mcp-secret-4242";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let emu: RunningEmulator;
let api: ApiClient;
let env: NodeJS.ProcessEnv;
let dir: string;
let file: string;
let made: VariedOrganization;

async function pull(...argv: string[]): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await pullMain(argv, { env, cwd: dir, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { code, stdout, stderr };
}

const siteId = async (title: string): Promise<string> => (await api.sites.list(ORG)).find((s) => s.title === title)!.id;

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  env = { DOCSPLATFORM_API_URL: emu.url, DOCSPLATFORM_API_TOKEN: "dev-token" };
  api = new ApiClient({ baseUrl: emu.url, token: "dev-token" });
  made = await buildVariedOrganization(api, ORG);
  // Blocks the file will declare: a redirect and an MCP server on the handbook site.
  await api.redirects.create(ORG, made.handbookId, { source: "/old-guides", destination: { kind: "external", url: "https://demo.test/guides" } });
  await api.mcpServers.create(ORG, made.handbookId, { name: "Status", url: "https://mcp.status.demo.test/sse", headers: {} });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pull-"));
  file = path.join(dir, "docs.yaml");
  let out = "";
  expect(await exportMain(["--org", ORG, "--caller", "admin@demo.test"], { env, cwd: dir, stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true } })).toBe(0);
  // Hand edits the pull must keep: a comment of our own, double quotes, a flow map (export writes one).
  out = out
    .replace("teams:\n", "# Teams are managed here; members by user ID.\nteams:\n")
    .replace("    title: Handbook\n", '    title: "Handbook"   # the public one\n');
  expect(out).toContain("adaptiveContent: {enabled: true}");
  fs.writeFileSync(file, out);
}, 60_000);

afterAll(async () => {
  await api?.close();
  await emu?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("docsplatform pull", () => {
  it("an exported file, hand-edited, is already up to date: nothing written", async () => {
    const before = fs.readFileSync(file, "utf8");
    const r = await pull("docs.yaml");
    expect(r.stderr).toContain("pull: docs.yaml is up to date with organization demo-org");
    expect(r.code).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });

  it("UI-style changes across kinds come back as exactly the changed lines; a second pull writes nothing", async () => {
    const before = fs.readFileSync(file, "utf8");
    const partner = made.partnerId;
    const handbook = made.handbookId;
    // Organisation settings, a team renamed, a site's field, a section's title and description.
    await api.orgs.update(ORG, { defaultRole: "comment" } as never);
    const reviewers = (await api.teams.list(ORG)).find((t) => t.title === "Reviewers")!;
    await api.teams.update(ORG, reviewers.id, { title: "Review board" });
    await api.sites.update(ORG, handbook, { title: "Handbook & Co" });
    const guides = (await api.sections.list(ORG, handbook)).find((s) => s.path === "guides")!;
    await api.sections.update(ORG, handbook, guides.id, { title: "How-to guides" } as never);
    // A share link removed and one added; a redirect and an MCP server (with a secret header) added.
    const globex = (await api.shareLinks.list(ORG, partner)).find((l) => l.name === "Globex (expired)")!;
    await api.shareLinks.delete(ORG, partner, globex.id);
    await api.shareLinks.create(ORG, partner, { name: "Initech" });
    await api.redirects.create(ORG, handbook, { source: "/faq", destination: { kind: "site-section", siteSectionId: guides.id } });
    await api.mcpServers.create(ORG, handbook, { name: "Tickets", url: "https://mcp.tickets.demo.test/sse", headers: { Authorization: SECRET } });

    const r = await pull("docs.yaml");
    expect(r.code, r.stderr).toBe(0);
    const after = fs.readFileSync(file, "utf8");
    expect(after).not.toContain(SECRET);
    expect(r.stderr + r.stdout).not.toContain(SECRET);
    const lines = changedLines(before, after);
    expect(lines).toEqual(
      expect.arrayContaining([
        "-  defaultRole: read",
        "+  defaultRole: comment",
        "-    title: Reviewers",
        "+    title: Review board",
        '-    title: "Handbook"   # the public one',
        '+    title: "Handbook & Co"   # the public one',
        "-        title: Guides",
        "+        title: How-to guides",
        "-      - key: globex-expired",
        "-        name: Globex (expired)",
        "-        active: false",
        "+      - key: initech",
        "+        name: Initech",
      ]),
    );
    // The share link gone, the new one adopted, the new server's secret header a source to set.
    expect(after).not.toContain("Globex");
    expect(after).toContain("      - key: initech\n        name: Initech\n        adopt: true\n");
    expect(after).toMatch(/ {6}- key: tickets\n {8}name: Tickets\n {8}url: https:\/\/mcp.tickets.demo.test\/sse\n {8}headers:\n {10}Authorization:\n {12}env: MCP_[A-Z_]+\n(.*\n)* {8}adopt: true\n/);
    // Only the changed lines: every removed line is one that changed, every other line byte-identical.
    expect(lines.some((l) => l.includes("/faq"))).toBe(true);
    expect(lines.some((l) => l.includes("Tickets"))).toBe(true);
    expect(lines.every((l) => l.startsWith("+") || ["-  defaultRole: read", "-    title: Reviewers", '-    title: "Handbook"   # the public one', "-        title: Guides", "-      - key: globex-expired", "-        name: Globex (expired)", "-        active: false"].includes(l) || l === "-        adopt: true")).toBe(true);
    expect(after).toContain("# Teams are managed here; members by user ID.\nteams:\n");
    expect(after).toContain("adaptiveContent: {enabled: true}");
    // The secret header is a source to set, said on stderr; the file validates.
    expect(r.stderr).toMatch(/pull: to supply: .*mcpServers.*tickets.*headers.*env/i);
    const loaded = loadStackFile(file);
    expect(loaded.ok, loaded.ok ? "" : loaded.problems.map((p) => p.message).join("\n")).toBe(true);

    const again = await pull("docs.yaml");
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("is up to date");
    expect(fs.readFileSync(file, "utf8")).toBe(after);
  });

  it("removed and added objects in declared blocks round-trip: a redirect and an MCP server gone, a section added and one removed", async () => {
    const handbook = made.handbookId;
    const archive = made.archiveId;
    const redirect = (await api.redirects.list(ORG, handbook)).find((r) => r.source === "/old-guides")!;
    await api.redirects.delete(ORG, handbook, redirect.id);
    const tickets = (await api.mcpServers.list(ORG, handbook)).find((m) => m.name === "Tickets")!;
    await api.mcpServers.delete(ORG, handbook, tickets.id);
    const archived = await api.sections.list(ORG, archive);
    await api.sections.delete(ORG, archive, archived.find((s) => s.path === "Old-Guides")!.id);
    await api.sections.create(ORG, archive, { spaceId: "space-changelog", title: "Old changes" });
    const before = fs.readFileSync(file, "utf8");

    const r = await pull("docs.yaml");
    expect(r.code, r.stderr).toBe(0);
    const after = fs.readFileSync(file, "utf8");
    expect(after).not.toContain("/old-guides");
    expect(after).not.toContain("Tickets");
    expect(after).not.toContain("Old-Guides");
    expect(after).toMatch(/ {6}- key: old-changes\n {8}title: Old changes\n {8}path: old-changes\n {8}space: changelog\n {8}adopt: true\n/);
    // Nothing but removed lines and the added section's.
    expect(changedLines(before, after).filter((l) => l.startsWith("+")).every((l) => /old-changes|Old changes|space: changelog|adopt: true/.test(l))).toBe(true);
    expect(loadStackFile(file).ok).toBe(true);
    const again = await pull("docs.yaml");
    expect(again.stderr).toContain("is up to date");
    expect(fs.readFileSync(file, "utf8")).toBe(after);
  });

  it("--check exits 1 with the unified diff and writes nothing; --diff exits 0; nothing to pull exits 0", async () => {
    expect((await pull("--check", "docs.yaml")).code).toBe(0);
    const before = fs.readFileSync(file, "utf8");
    await api.orgs.update(ORG, { defaultRole: "edit" } as never);
    const check = await pull("--check", "docs.yaml");
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("--- a/docs.yaml\n+++ b/docs.yaml\n@@ ");
    expect(check.stdout).toContain("\n-  defaultRole: comment\n+  defaultRole: edit\n");
    const diff = await pull("--diff", "docs.yaml");
    expect(diff.code).toBe(0);
    expect(diff.stdout).toBe(check.stdout);
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    expect((await pull("docs.yaml")).code).toBe(0);
  });

  it("a file that does not validate is refused before any read, with file:line:col", async () => {
    const bad = path.join(dir, "bad.yaml");
    fs.writeFileSync(bad, "organization: demo-org\nsites:\n  - key: x\n");
    const r = await pull("bad.yaml");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.yaml does not validate; nothing was read or written/);
    expect(r.stderr).toMatch(/bad\.yaml:3:\d+: /);
    expect(fs.readFileSync(bad, "utf8")).toBe("organization: demo-org\nsites:\n  - key: x\n");
  });

  it("a platform that cannot be read leaves the file untouched", async () => {
    const before = fs.readFileSync(file, "utf8");
    const closed = await startEmulator({ port: 0 });
    const url = closed.url;
    await closed.close();
    let stderr = "";
    const code = await pullMain(["docs.yaml"], { env: { DOCSPLATFORM_API_URL: url, DOCSPLATFORM_API_TOKEN: "dev-token", DOCSPLATFORM_RETRY_MAX: "0" }, cwd: dir, stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) } });
    expect(code).toBe(2);
    expect(stderr).toContain("docs.yaml was not changed");
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    const wrong = await pullMain(["docs.yaml"], { env: { ...env, DOCSPLATFORM_API_TOKEN: "reader-token-wrong" }, cwd: dir, stdout: { write: () => true }, stderr: { write: () => true } });
    expect(wrong).toBe(2);
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });
});
