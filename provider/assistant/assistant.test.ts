/**
 * The site's assistant of the handbook (its MCP server, agent settings, agent channels and context
 * connections) through the real language host and plugin (test/harness) against the emulator: preview,
 * up, a second up with no call, day-two edits, refresh after a hand edit, destroy. Every MCP header value
 * and connection token the run uses is scanned for in the state outside secrets, the logs, an error that
 * echoes a request body, `docsplatform export` and the views: none may appear.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument, type YAMLMap, type YAMLSeq } from "yaml";
import type { RunningEmulator } from "../../emulator";
import { HANDBOOK_SECRET_ENV, type ProgramRunner, type PreparedProgram, type RunOptions, type RunResult } from "../../test/harness";
import { exposedInState } from "../../test/support/secrets";
import { startProgram, stopProgram } from "../../test/support/program";
import { cutHandbook } from "../../test/support/smallerHandbook";
import { changes, writes } from "../../test/support/steps";
import { exportMain } from "../export/cli";
import { diffMain, treeMain } from "../view/cli";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");
const ORG = "demo-org";
/** The header value the day-two row rotates to, and one set by hand on the platform. */
const ROTATED = "Bearer mcp-rotated-3e9b71c0aa";
const BY_HAND = "Bearer mcp-by-hand-84d20f6b1e";

describe("the site's assistant of the handbook, through the engine", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  /** The environment of every run from the header rotation on. */
  let env: Record<string, string> = {};
  /** Everything a user could see of the runs: logs, program output, errors. */
  const seen: string[] = [];
  const docsFile = () => path.join(program.dir, "docs.yaml");
  const secrets = () => [...Object.values(HANDBOOK_SECRET_ENV), ROTATED, BY_HAND];

  function editDocs(edit: (doc: ReturnType<typeof parseDocument>) => void): void {
    const doc = parseDocument(fs.readFileSync(docsFile(), "utf8"));
    edit(doc);
    fs.writeFileSync(docsFile(), doc.toString());
  }

  function record(result: RunResult): RunResult {
    seen.push(result.output, ...result.logs.map((l) => l.message), ...result.warnings, result.error ? String(result.error.stack ?? result.error.message) : "");
    return result;
  }

  const run = async (op: "preview" | "up" | "refresh" | "destroy", opts: RunOptions = {}): Promise<RunResult> => record(await runner[op]({ env, ...opts }));

  /** An up, then a second one that changes nothing and makes no call. */
  async function upAndSettle(): Promise<RunResult> {
    const up = await run("up");
    expect(up.error).toBeUndefined();
    const again = await run("up");
    expect(changes(again)).toEqual([]);
    expect(again.apiCalls).toEqual([]);
    return up;
  }

  const siteId = () => emu.store.org(ORG).sites.find((s) => s.title === "Handbook")!.id;
  const rows = <T extends "mcpServers" | "channels" | "contextConnections">(table: T) => [...emu.store.all(table)].filter((r) => r.site === siteId());

  /** The copy's docs.yaml before any row's edit: what `docsplatform diff` compares the edited file with. */
  let original = "";

  beforeAll(async () => {
    ({ emu, program, runner } = await startProgram(HANDBOOK));
    // The rows edit and check the first site's assistant: the copy keeps that site (without its structure and
    // look) with the schema its conditions name, the collection and spaces, and leaves out the other sites and
    // the organisation's other blocks (test/support/smallerHandbook.ts): fewer objects in each program run.
    cutHandbook(docsFile(), {
      blocks: ["settings", "agentInstructions", "members", "teams", "saml", "openapi", "styleGuides", "translations", "integrations", "installations"],
      sitesFrom: 1,
      siteBlocks: ["styleGuide", "customization", "defaultSiteSection", "sections", "sectionGroups"],
      grants: true,
    });
    original = fs.readFileSync(docsFile(), "utf8");
  }, 300_000);
  afterAll(() => stopProgram({ emu, program, runner }));

  it("preview plans every block and writes nothing; up creates them; a second up makes no call", async () => {
    const preview = await run("preview");
    expect(preview.error).toBeUndefined();
    const planned = changes(preview).filter((c) => /SiteMcpServer|SiteAgent|SiteContextConnection/.test(c));
    expect(planned).toEqual([
      "create SiteAgentChannel handbook/handbook/github",
      "create SiteAgentChannel handbook/handbook/slack",
      "create SiteAgentSettings handbook/handbook",
      "create SiteContextConnection handbook/handbook/product-issues",
      "create SiteContextConnection handbook/handbook/website",
      "create SiteMcpServer handbook/handbook/status-tools",
    ]);
    expect(writes(preview)).toEqual([]);

    const up = await upAndSettle();
    const assistantWrites = writes(up).filter((w) => /mcp-servers|agent-settings|channels|context-connections/.test(w)).sort();
    expect(assistantWrites).toEqual([
      "PATCH /sites/:siteId/context-connections/:siteContextConnectionId 200",
      "POST /sites/:siteId/channels 201",
      "POST /sites/:siteId/channels 201",
      "POST /sites/:siteId/context-connections 201",
      "POST /sites/:siteId/context-connections 201",
      "POST /sites/:siteId/mcp-servers 201",
      "PUT /sites/:siteId/agent-settings 200",
    ]);
    const [server] = rows("mcpServers");
    expect(server).toMatchObject({ name: "Status tools", transport: "sse", headers: { Authorization: HANDBOOK_SECRET_ENV["HANDBOOK_MCP_TOKEN"] }, condition: "visitor.claims.staff == true" });
    // Created side by side: compared in one order.
    expect(rows("channels").map((c) => [c.type, c.role, c.setupSettings]).sort()).toEqual([
      ["builtin:github", "collaborator", { allowedRepositories: ["demo-org/*"] }],
      ["builtin:slack", "support", { allowedChannels: ["docs-*", "support"] }],
    ]);
    expect(rows("contextConnections").map((c) => [c.connector, c.label, c.filter, c.setupSettings]).sort()).toEqual([
      ["builtin:github-issues", "Product issues", "label:docs", { repository: "demo-org/product", token: HANDBOOK_SECRET_ENV["HANDBOOK_GITHUB_TOKEN"] }],
      ["builtin:website", null, null, { url: "https://www.demo.test" }],
    ]);
    const agent = emu.store.get("agentSettings", siteId())!;
    expect(agent).toMatchObject({ scans: { topics: "auto" }, findings: { changeRequests: "auto-fixable" } });
    expect(agent.editing.customInstructions.nodes).toHaveLength(2);
  });

  it("a refresh of the site's assistant reads each of its lists once", async () => {
    const refresh = await run("refresh");
    expect(refresh.error).toBeUndefined();
    expect(refresh.drift).toEqual([]);
    const reads = refresh.apiCalls.filter((c) => /mcp-servers|channels|context-connections/.test(c.route)).map((c) => `${c.method} ${c.route.replace(/^\/v1\/orgs\/:organizationId/, "")}`);
    expect(reads.sort()).toEqual(["GET /sites/:siteId/channels", "GET /sites/:siteId/context-connections", "GET /sites/:siteId/mcp-servers"]);
  });

  it("day two: a server added is 1 POST", async () => {
    editDocs((doc) =>
      (doc.getIn(["sites", 0, "mcpServers"]) as YAMLSeq).add(doc.createNode({ key: "search", name: "Search", url: "https://mcp.search.demo.test", transport: "http", headers: { "X-Api-Key": { env: "HANDBOOK_MCP_TOKEN" } } })),
    );
    const up = await upAndSettle();
    expect(changes(up)).toEqual(["create SiteMcpServer handbook/handbook/search"]);
    expect(writes(up)).toEqual(["POST /sites/:siteId/mcp-servers 201"]);
  });

  it("day two: a header value changed in the environment is 1 PATCH; an error echoing the body shows no value", async () => {
    env = { HANDBOOK_MCP_TOKEN: ROTATED };
    emu.control.setFaults({ echoBodyRate: 1, methods: ["PATCH"], routes: "/mcp-servers/" });
    const failed = await run("up", { allowError: true });
    emu.control.setFaults(null);
    expect(failed.error).toBeDefined();
    const shown = [String(failed.error?.message), ...failed.logs.map((l) => l.message)].join("\n");
    expect(shown).toMatch(/PATCH .*mcp-servers.*400/);
    expect(shown).toContain("[redacted]");
    const up = await upAndSettle();
    expect(changes(up)).toEqual(["update SiteMcpServer handbook/handbook/search", "update SiteMcpServer handbook/handbook/status-tools"]);
    expect(writes(up)).toEqual(["PATCH /sites/:siteId/mcp-servers/:siteMcpServerId 200", "PATCH /sites/:siteId/mcp-servers/:siteMcpServerId 200"]);
    expect(rows("mcpServers").map((s) => Object.values(s.headers))).toEqual([[ROTATED], [ROTATED]]);
  });

  it("day two: a connection removed is 1 DELETE", async () => {
    editDocs((doc) => (doc.getIn(["sites", 0, "contextConnections"]) as YAMLSeq).delete(1));
    const up = await upAndSettle();
    expect(changes(up)).toEqual(["delete SiteContextConnection handbook/handbook/website"]);
    expect(writes(up)).toEqual(["DELETE /sites/:siteId/context-connections/:siteContextConnectionId 205"]);
    expect(rows("contextConnections").map((c) => c.connector)).toEqual(["builtin:github-issues"]);
  });

  it("a hand edit on the platform (transport, a header value, a channel's role) is drift: refresh finds it, up puts the file back", async () => {
    const server = rows("mcpServers").find((s) => s.name === "Status tools");
    const slack = rows("channels").find((c) => c.type === "builtin:slack");
    const base = `${emu.url}/v1/orgs/${ORG}/sites/${siteId()}`;
    const patch = (p: string, body: unknown) => fetch(`${base}${p}`, { method: "PATCH", headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    expect((await patch(`/mcp-servers/${server!.id}`, { transport: "http", headers: { Authorization: BY_HAND } })).status).toBe(200);
    expect((await patch(`/channels/${slack!.id}`, { role: "collaborator" })).status).toBe(200);
    const refresh = await run("refresh");
    expect(refresh.error).toBeUndefined();
    expect(refresh.drift.map((s) => s.urn.slice(s.urn.lastIndexOf("::") + 2)).sort()).toEqual(["handbook/handbook/slack", "handbook/handbook/status-tools"]);
    const up = await upAndSettle();
    expect(changes(up)).toEqual(["update SiteAgentChannel handbook/handbook/slack", "update SiteMcpServer handbook/handbook/status-tools"]);
    expect(rows("mcpServers").find((s) => s.name === "Status tools")).toMatchObject({ transport: "sse", headers: { Authorization: ROTATED } });
    expect(rows("channels").find((c) => c.type === "builtin:slack")!.role).toBe("support");
  });

  it("no header value or token is in the state outside a secret, the logs, the errors, the export or the views", async () => {
    const state = fs.readFileSync(runner.stateFile, "utf8");
    expect(exposedInState(JSON.parse(state), secrets())).toEqual([]);
    let exported = "";
    let stderr = "";
    const io = { env: { DOCSPLATFORM_API_URL: emu.url, DOCSPLATFORM_API_TOKEN: emu.token }, stdout: { write: (t: string) => void (exported += t) }, stderr: { write: (t: string) => void (stderr += t) } };
    expect(await exportMain(["--org", ORG], io)).toBe(0);
    // Written back with keys, each secret as a source to fill in.
    const file = parseDocument(exported).toJS() as { sites: Record<string, unknown>[] };
    const handbook = file.sites.find((s) => s.title === "Handbook")!;
    expect(handbook.mcpServers).toEqual([
      { key: "status-tools", name: "Status tools", url: "https://mcp.status.demo.test/sse", headers: { Authorization: { env: "MCP_HANDBOOK_STATUS_TOOLS_AUTHORIZATION" } }, condition: "visitor.claims.staff == true" },
      { key: "search", name: "Search", url: "https://mcp.search.demo.test", transport: "http", headers: { "X-Api-Key": { env: "MCP_HANDBOOK_SEARCH_X_API_KEY" } } },
    ]);
    const byKey = (list: unknown) => [...(list as { key: string }[])].sort((a, b) => a.key.localeCompare(b.key));
    expect(byKey(handbook.agentChannels)).toEqual([
      { key: "github", type: "builtin:github", setupSettings: { allowedRepositories: ["demo-org/*"] }, role: "collaborator" },
      { key: "slack", type: "builtin:slack", setupSettings: { allowedChannels: ["docs-*", "support"] } },
    ]);
    expect(handbook.contextConnections).toEqual([
      {
        key: "product-issues",
        connector: "builtin:github-issues",
        setupSettings: { repository: "demo-org/product" },
        secretSettings: { token: { env: "CONNECTION_HANDBOOK_PRODUCT_ISSUES_TOKEN" } },
        usageSettings: { changeRequests: true, search: true, searchBoost: "x1.2" },
        label: "Product issues",
        filter: "label:docs",
      },
    ]);
    expect(handbook.agent).toEqual({ scans: { topics: "auto" }, findings: { changeRequests: "auto-fixable" }, editing: { customInstructions: "Write in plain English, in the second person.\n\nLink to the API reference for every endpoint you mention." } });
    let tree = "";
    expect(await treeMain(["--live", "--org", ORG], { ...io, stdout: { write: (t: string) => void (tree += t) } })).toBe(0);
    expect(tree).toContain("MCP servers: Status tools, Search");
    let diff = "";
    const base = path.join(program.dir, "base.yaml");
    fs.writeFileSync(base, original);
    expect(await diffMain([base, docsFile()], { ...io, stdout: { write: (t: string) => void (diff += t) } })).toBe(0);
    expect(diff).toContain('+ MCP server "Search" (https://mcp.search.demo.test)');
    expect(diff).toContain("- context connection website");
    for (const text of [...seen, exported, stderr, tree, diff]) for (const secret of secrets()) expect(text.includes(secret), secret).toBe(false);
  });

  it("destroy deletes the servers, channels and connections; the agent settings take no call (they stay with the site)", async () => {
    const destroyed = await run("destroy");
    expect(destroyed.error).toBeUndefined();
    const deletes = writes(destroyed).filter((w) => /mcp-servers|channels|context-connections|agent-settings/.test(w));
    expect(deletes.sort()).toEqual([
      "DELETE /sites/:siteId/channels/:siteChannelId 205",
      "DELETE /sites/:siteId/channels/:siteChannelId 205",
      "DELETE /sites/:siteId/context-connections/:siteContextConnectionId 205",
      "DELETE /sites/:siteId/mcp-servers/:siteMcpServerId 205",
      "DELETE /sites/:siteId/mcp-servers/:siteMcpServerId 205",
    ]);
    expect(emu.store.counts()).toMatchObject({ mcpServers: 0, channels: 0, contextConnections: 0 });
  });
});
