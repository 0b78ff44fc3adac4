import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isNotFound, type ApiClient } from "./index";
import type { RunningEmulator } from "../../emulator";
import { Started } from "../../test/support/emulator";

// A site's assistant through the typed client against the emulator: every operation, lists walked past one page.
const ORG = "demo-org";
const started = new Started("dev-token");
let api: ApiClient;
let emu: RunningEmulator;
let siteId: string;

beforeAll(async () => {
  emu = await started.emulator();
  api = started.client(emu.url);
  siteId = (await api.sites.create(ORG, { title: "Assistant", spaces: ["space-guides"] })).id;
});

afterAll(async () => {
  await started.close();
});

describe("the site's assistant", () => {
  it("lists are walked page by page through the shared walker (three pages of 2 for five channels)", async () => {
    for (let i = 0; i < 5; i++) await api.channels.create(ORG, siteId, { type: "builtin:discord", setupSettings: {} });
    const before = emu.control.log().length;
    expect(await api.channels.list(ORG, siteId, { limit: 2 })).toHaveLength(5);
    expect(emu.control.log().slice(before).filter((e) => e.method === "GET" && e.path.includes("/channels"))).toHaveLength(3);
    const seen: string[] = [];
    for await (const c of api.channels.iterate(ORG, siteId, { limit: 4 })) seen.push(c.id);
    expect(seen).toHaveLength(5);
    for (const c of await api.channels.list(ORG, siteId)) await api.channels.delete(ORG, siteId, c.id);
  });

  it("MCP servers: create, get, update, list (paged), delete; a second delete is a 404", async () => {
    const s = await api.mcpServers.create(ORG, siteId, { name: "Search", url: "https://mcp.demo.test", headers: { "X-Key": "k-1" } });
    expect(s).toMatchObject({ object: "site-mcp-server", transport: "sse", headers: { "X-Key": "k-1" } });
    expect((await api.mcpServers.update(ORG, siteId, s.id, { transport: "http" })).transport).toBe("http");
    expect((await api.mcpServers.get(ORG, siteId, s.id)).name).toBe("Search");
    for (let i = 0; i < 3; i++) await api.mcpServers.create(ORG, siteId, { name: `S${i}`, url: "https://mcp.demo.test", headers: {} });
    expect(await api.mcpServers.list(ORG, siteId)).toHaveLength(4);
    await api.mcpServers.delete(ORG, siteId, s.id);
    expect(isNotFound(await api.mcpServers.delete(ORG, siteId, s.id).catch((e: unknown) => e))).toBe(true);
  });

  it("agent settings: defaults, then put replaces the whole", async () => {
    expect((await api.agentSettings.get(ORG, siteId)).scans.topics).toBe("auto");
    const doc = { object: "document" as const, data: {}, nodes: [] };
    const put = await api.agentSettings.put(ORG, siteId, { scans: { topics: "never" }, findings: { changeRequests: "always" }, editing: { customInstructions: doc } });
    expect(put).toMatchObject({ scans: { topics: "never" }, findings: { changeRequests: "always" } });
  });

  it("channels and context connections: create, update, list, sync, test, delete", async () => {
    const c = await api.channels.create(ORG, siteId, { type: "builtin:linear", setupSettings: { allowedTeams: ["DOC"] } });
    expect((await api.channels.update(ORG, siteId, c.id, { role: "collaborator" })).role).toBe("collaborator");
    expect((await api.channels.get(ORG, siteId, c.id)).setupSettings).toEqual({ allowedTeams: ["DOC"] });
    expect(await api.channels.list(ORG, siteId)).toHaveLength(1);
    await api.channels.delete(ORG, siteId, c.id);
    const k = await api.contextConnections.create(ORG, siteId, { connector: "builtin:intercom", setupSettings: { token: "ic-1" } });
    expect((await api.contextConnections.update(ORG, siteId, k.id, { label: "Support inbox" })).label).toBe("Support inbox");
    await api.contextConnections.sync(ORG, siteId, k.id);
    expect((await api.contextConnections.get(ORG, siteId, k.id)).status).toBe("succeeded");
    expect(await api.contextConnections.test(ORG, siteId, k.id)).toMatchObject({ success: true });
    expect(await api.contextConnections.list(ORG, siteId)).toHaveLength(1);
    await api.contextConnections.delete(ORG, siteId, k.id);
    expect(await api.contextConnections.list(ORG, siteId)).toHaveLength(0);
  });
});
