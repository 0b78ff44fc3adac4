/**
 * Lifecycle rows (see lifecycle.cases.ts) of a site's assistant: SiteMcpServer, SiteAgentSettings,
 * SiteAgentChannel and SiteContextConnection.
 */
import type { Json, LifecycleCase, LifecycleEnv, Parents } from "./lifecycle";

const sites = (env: LifecycleEnv) => `/v1/orgs/${env.orgId}/sites`;

async function twoSites(env: LifecycleEnv): Promise<Parents> {
  const make = async () => (await env.api<{ id: string }>("POST", sites(env), { title: env.unique("Assistant site") })).id;
  return { siteId: await make(), otherSiteId: await make() };
}

async function deleteSites(env: LifecycleEnv, p: Parents): Promise<void> {
  for (const id of [p.siteId, p.otherSiteId]) await env.api("DELETE", `${sites(env)}/${id}`).catch(() => undefined);
}

function check(ok: boolean, what: string, outs: Json): void {
  if (!ok) throw new Error(`${what} not applied: ${JSON.stringify(outs)}`);
}

const on = (env: LifecycleEnv, outs: Json, suffix: string) => `${sites(env)}/${String(outs.siteId)}/${suffix}`;

export const assistantCases: LifecycleCase[] = [
  {
    kind: "SiteMcpServer",
    module: "siteMcpServer",
    setup: twoSites,
    create: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, name: "Search", url: "https://mcp.example.com/sse", headers: { Authorization: "Bearer lc-one-1234" } }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, name: "", url: "https://mcp.example.com", headers: {} }), property: "name" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, name: "S", url: "http://localhost:9", headers: {} }), property: "url" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, name: "S", url: "https://mcp.example.com", transport: "ws" }), property: "transport" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, name: "S", url: "https://mcp.example.com", headers: { A: "x".repeat(513) } }), property: "headers.A" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, transport: "http", condition: "visitor.claims.staff" }),
      expect: (outs) => check(outs.transport === "http" && outs.condition === "visitor.claims.staff", "transport and condition", outs),
    },
    moreUpdates: [
      {
        name: "a header value (compared by digest)",
        inputs: (_env, _p, current) => ({ ...current, headers: { Authorization: "Bearer lc-two-5678" } }),
        expect: (outs) => check(!JSON.stringify(outs).includes("lc-two-5678") && typeof (outs.headers as Record<string, { sha256?: string }>).Authorization?.sha256 === "string", "header digest", outs),
      },
    ],
    replace: { inputs: (_env, p, current) => ({ ...current, siteId: p.otherSiteId }), replaces: ["siteId"] },
    outOfBandEdit: (env, id, outs) => env.api("PATCH", on(env, outs, `mcp-servers/${id}`), { headers: { Authorization: "Bearer by-hand-9999" } }),
    outOfBandDelete: (env, id, outs) => env.api("DELETE", on(env, outs, `mcp-servers/${id}`)),
    adopt: {
      prepare: async (env, p) => (await env.api<{ id: string }>("POST", `${sites(env)}/${p.siteId}/mcp-servers`, { name: "Kept", url: "https://mcp.example.com", headers: {} })).id,
      inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, name: "Kept", url: "https://mcp.example.com" }),
    },
    teardown: deleteSites,
  },
  {
    kind: "SiteAgentSettings",
    module: "siteAgentSettings",
    setup: twoSites,
    create: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, scans: { topics: "never" }, editing: { customInstructions: "Be brief." } }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, scans: { topics: "daily" } }), property: "scans.topics" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, findings: {} }), property: "findings.changeRequests" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, editing: { customInstructions: { object: "page" } } }), property: "editing.customInstructions.object" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, findings: { changeRequests: "always" }, editing: { customInstructions: "Be brief.\n\nCite the API." } }),
      expect: (outs) => check((outs.findings as Json).changeRequests === "always" && (outs.editing as Json).customInstructions === "Be brief.\n\nCite the API.", "findings and instructions", outs),
    },
    replace: { inputs: (_env, p, current) => ({ ...current, siteId: p.otherSiteId }), replaces: ["siteId"] },
    outOfBandEdit: (env, _id, outs) =>
      env.api("PUT", on(env, outs, "agent-settings"), { scans: { topics: "auto" }, findings: { changeRequests: "never" }, editing: { customInstructions: { object: "document", data: {}, nodes: [] } } }),
    outOfBandDelete: (env, _id, outs) => env.api("DELETE", `${sites(env)}/${String(outs.siteId)}`),
    teardown: deleteSites,
  },
  {
    kind: "SiteAgentChannel",
    module: "siteAgentChannel",
    setup: twoSites,
    create: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, type: "builtin:slack", setupSettings: { allowedChannels: ["docs-*"] } }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, type: "builtin:teams" }), property: "type" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, type: "builtin:slack", setupSettings: { allowedChannels: ["#x"] } }), property: "setupSettings.allowedChannels" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, type: "builtin:slack", role: "owner" }), property: "role" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, role: "collaborator", setupSettings: { allowedChannels: ["docs-*", "support"] } }),
      expect: (outs) => check(outs.role === "collaborator" && JSON.stringify(outs.setupSettings) === JSON.stringify({ allowedChannels: ["docs-*", "support"] }), "role and setup", outs),
    },
    replace: { inputs: (_env, _p, current) => ({ ...current, type: "builtin:discord", setupSettings: {} }), replaces: ["type"] },
    outOfBandEdit: (env, id, outs) => env.api("PATCH", on(env, outs, `channels/${id}`), { role: "support" }),
    outOfBandDelete: (env, id, outs) => env.api("DELETE", on(env, outs, `channels/${id}`)),
    adopt: {
      prepare: async (env, p) => (await env.api<{ id: string }>("POST", `${sites(env)}/${p.siteId}/channels`, { type: "builtin:linear", setupSettings: {} })).id,
      inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, type: "builtin:linear" }),
    },
    teardown: deleteSites,
  },
  {
    kind: "SiteContextConnection",
    module: "siteContextConnection",
    setup: twoSites,
    create: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, connector: "builtin:jira", setupSettings: { baseUrl: "https://acme.atlassian.net", apiEmail: "bot@acme.test" }, secretSettings: { apiToken: "jira-lc-1" }, label: "Jira" }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, connector: "builtin:notion" }), property: "connector" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, connector: "builtin:api", filter: "x".repeat(1025) }), property: "filter" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, connector: "builtin:api", usageSettings: { search: true } }), property: "usageSettings.changeRequests" },
      // The URLs the platform fetches name a public host, as every fetched URL's (its check, as the loader's).
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, connector: "builtin:website", setupSettings: { url: "http://169.254.169.254/latest" } }), property: "setupSettings.url" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, connector: "builtin:jira", setupSettings: { baseUrl: "http://localhost:8080", apiEmail: "bot@acme.test" }, secretSettings: { apiToken: "t" } }), property: "setupSettings.baseUrl" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, filter: "project = DOC", usageSettings: { changeRequests: true, search: false, searchBoost: "x0.8" } }),
      expect: (outs) => check(outs.filter === "project = DOC" && (outs.usageSettings as Json).searchBoost === "x0.8", "filter and usage", outs),
    },
    moreUpdates: [
      {
        // Jira's apiToken is masked on read: the state's digest of the declared value stands for it.
        name: "a masked secret rotated",
        inputs: (_env, _p, current) => ({ ...current, secretSettings: { apiToken: "jira-lc-2" } }),
        expect: (outs) => check(typeof (outs.secretSettings as Record<string, { sha256?: string }>).apiToken?.sha256 === "string" && !JSON.stringify(outs).includes("jira-lc-2"), "token digest", outs),
      },
    ],
    replace: { inputs: (_env, _p, current) => ({ ...current, connector: "builtin:website", setupSettings: { url: "https://acme.test" }, secretSettings: {} }), replaces: ["connector"] },
    outOfBandEdit: (env, id, outs) => env.api("PATCH", on(env, outs, `context-connections/${id}`), { label: "Changed by hand" }),
    outOfBandDelete: (env, id, outs) => env.api("DELETE", on(env, outs, `context-connections/${id}`)),
    teardown: deleteSites,
  },
];
