/** A site's AI surface in the emulator: MCP servers, agent settings, channels and context connections (limits, errors, paging, deletes, sync, test). */
import { describe, expect, it } from "vitest";
import { listAll } from "../test/support/api";
import { shareEmulator } from "../test/support/emulatorSuite";

const emu = shareEmulator();
const admin = emu.caller();
const reader = emu.caller("reader-token");
const S = "/v1/orgs/demo-org/sites";

async function site(): Promise<string> {
  const s = (await admin("POST", S, { title: "Assistant site", spaces: ["space-guides"] })).body;
  return `${S}/${s.id}`;
}

describe("MCP servers", () => {
  it("create (transport sse by default, headers served in full), read, patch, list paged, delete 205 then 404", async () => {
    const base = await site();
    const r = await admin("POST", `${base}/mcp-servers`, { name: "Search", url: "https://mcp.demo.test/sse", headers: { Authorization: "Bearer mcp-secret-1" } });
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(r.body.urls.location);
    expect(r.body).toMatchObject({ object: "site-mcp-server", name: "Search", transport: "sse", headers: { Authorization: "Bearer mcp-secret-1" } });
    expect(r.body.condition).toBeUndefined();
    const id = r.body.id;
    const patched = await admin("PATCH", `${base}/mcp-servers/${id}`, { transport: "http", condition: "visitor.claims.staff" });
    expect(patched.body).toMatchObject({ name: "Search", transport: "http", condition: "visitor.claims.staff", headers: { Authorization: "Bearer mcp-secret-1" } });
    expect((await admin("PATCH", `${base}/mcp-servers/${id}`, { condition: null })).body.condition).toBeUndefined();
    for (let i = 0; i < 3; i++) await admin("POST", `${base}/mcp-servers`, { name: `S${i}`, url: "https://mcp.demo.test", headers: {} });
    const page = await admin("GET", `${base}/mcp-servers?limit=2`);
    expect(page.body.items).toHaveLength(2);
    expect(page.body.next.page).toBeTruthy();
    expect(await listAll(admin, `${base}/mcp-servers`)).toHaveLength(4);
    expect((await admin("GET", `${base}/mcp-servers/${id}`)).status).toBe(200);
    expect((await admin("DELETE", `${base}/mcp-servers/${id}`)).status).toBe(205);
    expect((await admin("DELETE", `${base}/mcp-servers/${id}`)).status).toBe(404);
    expect((await admin("GET", `${base}/mcp-servers/${id}`)).status).toBe(404);
    expect((await admin("PATCH", `${base}/mcp-servers/nope`, { name: "x" })).status).toBe(404);
  });

  it("400 naming the field: name, url, transport, header name and value, unknown member; headers for admins only", async () => {
    const base = await site();
    for (const [body, field] of [
      [{ name: "", url: "https://a.test", headers: {} }, /body\/name/],
      [{ name: "x", url: "not a url", headers: {} }, /body\/url/],
      [{ name: "x", url: "https://a.test", transport: "ws", headers: {} }, /body\/transport/],
      [{ name: "x", url: "https://a.test", headers: { "Bad Header": "v" } }, /body\/headers/],
      [{ name: "x", url: "https://a.test", headers: { A: "x".repeat(513) } }, /body\/headers\/A/],
      [{ name: "x", url: "https://a.test" }, /headers/],
      [{ name: "x", url: "https://a.test", headers: {}, extra: 1 }, /extra/],
    ] as const) {
      const bad = await admin("POST", `${base}/mcp-servers`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.message).toMatch(field);
    }
    expect((await reader("GET", `${base}/mcp-servers`)).status).toBe(403);
  });
});

describe("agent settings", () => {
  it("a site never configured answers the defaults; PUT replaces the whole and records who; 400 on a part missing", async () => {
    const base = await site();
    const first = await admin("GET", `${base}/agent-settings`);
    expect(first.body).toMatchObject({ object: "site-agent-settings", scans: { topics: "auto" }, findings: { changeRequests: "never" }, editing: { customInstructions: { object: "document", nodes: [] } } });
    expect(first.body.updatedAt).toBeUndefined();
    const doc = { object: "document", data: {}, nodes: [{ object: "block", type: "paragraph", nodes: [] }] };
    const put = await admin("PUT", `${base}/agent-settings`, { scans: { topics: "never" }, findings: { changeRequests: "auto-fixable" }, editing: { customInstructions: doc } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ scans: { topics: "never" }, findings: { changeRequests: "auto-fixable" }, updatedBy: "demo-admin" });
    expect((await admin("GET", `${base}/agent-settings`)).body.editing.customInstructions).toEqual(doc);
    const missing = await admin("PUT", `${base}/agent-settings`, { scans: { topics: "never" }, findings: { changeRequests: "never" } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/editing/);
    const badEnum = await admin("PUT", `${base}/agent-settings`, { scans: { topics: "daily" }, findings: { changeRequests: "never" }, editing: { customInstructions: doc } });
    expect(badEnum.body.error.message).toMatch(/body\/scans\/topics/);
    expect((await admin("GET", `${S}/nope/agent-settings`)).status).toBe(404);
  });
});

describe("channels", () => {
  it("create (role support by default, pending), the one setup member per type, PATCH replaces the setup, delete", async () => {
    const base = await site();
    const c = await admin("POST", `${base}/channels`, { type: "builtin:slack", setupSettings: { allowedChannels: ["docs-*", "support"] } });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ object: "site-channel", type: "builtin:slack", role: "support", status: "pending", answers: 0 });
    const gh = await admin("POST", `${base}/channels`, { type: "builtin:github", setupSettings: { allowedRepositories: ["acme/*"] }, role: "collaborator" });
    expect(gh.body.role).toBe("collaborator");
    for (const [body, field] of [
      [{ type: "builtin:teams", setupSettings: {} }, /body\/type/],
      [{ type: "builtin:slack", setupSettings: { allowedChannels: ["#general"] } }, /body\/setupSettings\/allowedChannels\/0/],
      [{ type: "builtin:github", setupSettings: { allowedRepositories: ["acme"] } }, /allowedRepositories\/0/],
      [{ type: "builtin:slack", setupSettings: { allowedRepositories: ["a/b"] } }, /body\/setupSettings\/allowedRepositories is not a setting of a builtin:slack channel/],
      [{ type: "builtin:slack" }, /setupSettings/],
    ] as const) {
      const bad = await admin("POST", `${base}/channels`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.message).toMatch(field);
    }
    const p = await admin("PATCH", `${base}/channels/${c.body.id}`, { type: "builtin:slack", setupSettings: {}, role: "collaborator" });
    expect(p.body).toMatchObject({ setupSettings: {}, role: "collaborator" });
    expect((await admin("PATCH", `${base}/channels/${c.body.id}`, { type: "builtin:slack" })).status).toBe(400);
    expect((await listAll(admin, `${base}/channels`)).map((x: { type: string }) => x.type)).toEqual(["builtin:slack", "builtin:github"]);
    expect((await admin("DELETE", `${base}/channels/${c.body.id}`)).status).toBe(205);
    expect((await admin("DELETE", `${base}/channels/${c.body.id}`)).status).toBe(404);
  });
});

describe("context connections", () => {
  it("create per connector (default usage), masked Freshdesk and Jira secrets, others in full, label by PATCH, setup replaced whole", async () => {
    const base = await site();
    const gh = await admin("POST", `${base}/context-connections`, { connector: "builtin:github-issues", setupSettings: { repository: "acme/docs", token: "ghp-secret-1" } });
    expect(gh.status).toBe(201);
    expect(gh.body).toMatchObject({ object: "context-connection", status: "pending", records: 0, usageSettings: { changeRequests: false, search: true, searchBoost: "x1.0" }, setupSettings: { token: "ghp-secret-1" } });
    const fd = await admin("POST", `${base}/context-connections`, { connector: "builtin:freshdesk", setupSettings: { domain: "acme", apiKey: "fd-secret-1" } });
    expect(fd.body.setupSettings).toEqual({ domain: "acme", apiKey: "********" });
    const jira = await admin("POST", `${base}/context-connections`, {
      connector: "builtin:jira",
      setupSettings: { baseUrl: "https://acme.atlassian.net", apiEmail: "bot@acme.test", apiToken: "jira-secret-1", statusMapping: { open: "To Do" } },
    });
    expect(jira.body.setupSettings.apiToken).toBe("********");
    expect(JSON.stringify(await listAll(admin, `${base}/context-connections`))).not.toMatch(/fd-secret-1|jira-secret-1/);
    const mail = await admin("POST", `${base}/context-connections`, { connector: "builtin:email", usageSettings: { changeRequests: true, search: false, searchBoost: "x1.2", sync: false } });
    expect(mail.body.email.ingestionAddress).toContain("@");
    expect((await admin("POST", `${base}/context-connections`, { connector: "integration:status-badges" })).status).toBe(201);
    const p = await admin("PATCH", `${base}/context-connections/${gh.body.id}`, { label: "Issues", filter: "label:docs", connector: "builtin:github-issues", setupSettings: { repository: "acme/site", token: "ghp-secret-2" } });
    expect(p.body).toMatchObject({ label: "Issues", filter: "label:docs", setupSettings: { repository: "acme/site", token: "ghp-secret-2" } });
  });

  it("400 naming the field: unknown connector, missing or wrong setup members, label on create; 404 and deletes", async () => {
    const base = await site();
    for (const [body, field] of [
      [{ connector: "builtin:notion" }, /body\/connector/],
      [{ connector: "builtin:zendesk", setupSettings: { subdomain: "a", email: "b" } }, /setupSettings.*apiToken/],
      [{ connector: "builtin:youtube", setupSettings: { channelId: "nope" } }, /setupSettings\/channelId/],
      [{ connector: "builtin:website" }, /setupSettings/],
      [{ connector: "builtin:email", setupSettings: { token: "x" } }, /setupSettings/],
      [{ connector: "builtin:intercom", setupSettings: { token: "t" }, label: "L" }, /label/],
      [{ connector: "builtin:intercom", setupSettings: { token: "t" }, usageSettings: { search: true } }, /usageSettings/],
    ] as const) {
      const bad = await admin("POST", `${base}/context-connections`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.message).toMatch(field);
    }
    expect((await admin("GET", `${base}/context-connections/nope`)).status).toBe(404);
    const c = await admin("POST", `${base}/context-connections`, { connector: "builtin:website", setupSettings: { url: "https://acme.test/docs" } });
    expect((await admin("DELETE", `${base}/context-connections/${c.body.id}`)).status).toBe(205);
    expect((await admin("DELETE", `${base}/context-connections/${c.body.id}`)).status).toBe(404);
  });

  it("sync: 204 then succeeded (400 for an e-mail connection); test: success, or success false with an error for refused credentials", async () => {
    const base = await site();
    const good = (await admin("POST", `${base}/context-connections`, { connector: "builtin:linear", setupSettings: { token: "lin-good" } })).body;
    const bad = (await admin("POST", `${base}/context-connections`, { connector: "builtin:linear", setupSettings: { token: "lin-invalid" } })).body;
    const mail = (await admin("POST", `${base}/context-connections`, { connector: "builtin:email" })).body;
    expect((await admin("POST", `${base}/context-connections/${good.id}/sync`)).status).toBe(204);
    const after = (await admin("GET", `${base}/context-connections/${good.id}`)).body;
    expect(after.status).toBe("succeeded");
    expect(after.syncedAt).toBeTruthy();
    expect((await admin("POST", `${base}/context-connections/${mail.id}/sync`)).status).toBe(400);
    expect((await admin("POST", `${base}/context-connections/${good.id}/test`)).body).toEqual({ object: "context-connection-test-result", success: true });
    expect((await admin("POST", `${base}/context-connections/${bad.id}/test`)).body).toMatchObject({ success: false, error: expect.any(String) });
    expect((await admin("POST", `${base}/context-connections/nope/test`)).status).toBe(404);
  });

  it("a deleted site takes its servers, channels, connections and agent settings with it", async () => {
    const base = await site();
    await admin("POST", `${base}/mcp-servers`, { name: "x", url: "https://a.test", headers: {} });
    await admin("POST", `${base}/channels`, { type: "builtin:discord", setupSettings: {} });
    await admin("POST", `${base}/context-connections`, { connector: "builtin:api" });
    const before = emu.store.counts();
    expect((await admin("DELETE", base)).status).toBe(205);
    const after = emu.store.counts();
    expect([after.mcpServers, after.channels, after.contextConnections]).toEqual([before.mcpServers - 1, before.channels - 1, before.contextConnections - 1]);
  });
});
