/**
 * Export of each site's assistant: its MCP servers, agent settings, agent channels and context
 * connections, written back with keys. A header value and a connection's secret setting are written as
 * an `{env: NAME}` source to fill in, never as a value (the API returns most of them as they are).
 * Agent settings are written only when they were ever set (a site never configured has the platform's
 * defaults, which the file need not repeat).
 */
import type { ApiClient, ContextConnection, SiteAgentSettings, SiteChannel, SiteMcpServer } from "../client";
import { setupOf } from "../resources/assistantRules";
import { INITIAL_USAGE } from "../resources/siteContextConnection";
import { instructionsText } from "../resources/siteAgentSettings";
import type { StackAgentChannel, StackAgentSettings, StackAssistant, StackContextConnection, StackMcpServer } from "./model";

/** The environment variable export names for one secret of a site's assistant. */
export function assistantVariable(...parts: string[]): string {
  return parts.join("_").toUpperCase().replace(/[^A-Z0-9_]/g, "_");
}

/** A key from a name: lowercase, other characters to `-`, at most 60 characters, unique among `taken`. */
function keyFrom(name: string, taken: Set<string>, fallback: string): string {
  const base = (name.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^[^a-z0-9]+/, "").replace(/-+$/, "") || fallback).slice(0, 60);
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
  taken.add(key);
  return key;
}

/** The assistant of one site as the stack file writes it, and the variables its secrets are to be supplied in. */
export interface AssistantExport {
  assistant: StackAssistant;
  supply: string[];
}

/** Reads one site's assistant (three list walks and one read) and writes it as stack-file blocks. */
export async function readAssistant(client: ApiClient, org: string, site: { id: string; key: string }, count: (n: number) => void): Promise<AssistantExport> {
  const [servers, channels, connections, agent] = await Promise.all([
    client.mcpServers.list(org, site.id),
    client.channels.list(org, site.id),
    client.contextConnections.list(org, site.id),
    client.agentSettings.get(org, site.id),
  ]);
  count(servers.length + channels.length + connections.length + 1);
  const supply: string[] = [];
  const assistant: StackAssistant = {};
  const keys = new Set<string>();
  if (servers.length > 0) assistant.mcpServers = servers.map((s) => serverEntry(s, site.key, keyFrom(s.name, keys, "mcp-server"), supply));
  if (agent.updatedAt !== undefined) assistant.agent = agentEntry(agent);
  if (channels.length > 0) assistant.agentChannels = channels.map((c) => channelEntry(c, keyFrom(c.type.replace(/^builtin:/, ""), keys, "channel")));
  if (connections.length > 0) assistant.contextConnections = connections.map((c) => connectionEntry(c, site.key, keyFrom(c.label || c.connector.replace(/^[a-z]+:/, ""), keys, "connection"), supply));
  return { assistant, supply };
}

function serverEntry(s: SiteMcpServer, siteKey: string, key: string, supply: string[]): StackMcpServer {
  const headers: Record<string, { env: string }> = {};
  for (const name of Object.keys(s.headers ?? {})) {
    const env = assistantVariable("MCP", siteKey, key, name);
    headers[name] = { env };
    supply.push(env);
  }
  return {
    key,
    name: s.name,
    url: s.url,
    ...(s.transport !== "sse" ? { transport: s.transport } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(s.condition ? { condition: s.condition } : {}),
  } as StackMcpServer;
}

function agentEntry(a: SiteAgentSettings): StackAgentSettings {
  const doc = a.editing.customInstructions;
  return { scans: { topics: a.scans.topics }, findings: { changeRequests: a.findings.changeRequests }, editing: { customInstructions: instructionsText(doc) ?? doc } };
}

function channelEntry(c: SiteChannel, key: string): StackAgentChannel {
  const setup = c.setupSettings ?? {};
  return { key, type: c.type, ...(Object.keys(setup).length > 0 ? { setupSettings: setup } : {}), ...(c.role !== "support" ? { role: c.role } : {}) };
}

function connectionEntry(c: ContextConnection, siteKey: string, key: string, supply: string[]): StackContextConnection {
  const members = setupOf(c.connector) ?? {};
  const setupSettings: Record<string, unknown> = {};
  const secretSettings: Record<string, { env: string }> = {};
  for (const [name, value] of Object.entries(c.setupSettings ?? {})) {
    if (!members[name]?.secret) {
      setupSettings[name] = value;
      continue;
    }
    const env = assistantVariable("CONNECTION", siteKey, key, name);
    secretSettings[name] = { env };
    supply.push(env);
  }
  const usage = c.usageSettings;
  return {
    key,
    connector: c.connector,
    ...(Object.keys(setupSettings).length > 0 ? { setupSettings } : {}),
    ...(Object.keys(secretSettings).length > 0 ? { secretSettings } : {}),
    ...(usage && JSON.stringify(sorted(usage)) !== JSON.stringify(sorted(INITIAL_USAGE)) ? { usageSettings: usage } : {}),
    ...(c.label ? { label: c.label } : {}),
    ...(c.filter ? { filter: c.filter } : {}),
  } as StackContextConnection;
}

const sorted = (o: object): object => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
