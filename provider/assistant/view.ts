/** What `tree` and `diff` show of a site's assistant: names only, never a header or a secret setting. */
import type { Keyed } from "../file/refs";
import type { StackAgentSettings, StackAssistant } from "./model";

/** The lines `tree` shows for a site's assistant: names only (servers by name, channels by type, connections by label or connector). */
export function assistantSummary(site: StackAssistant): string[] {
  const out: string[] = [];
  const servers = site.mcpServers ?? [];
  if (servers.length > 0) out.push(`MCP servers: ${servers.map((s) => s.name).join(", ")}`);
  const channels = site.agentChannels ?? [];
  if (channels.length > 0) out.push(`channels: ${channels.map((c) => `${c.type.replace(/^builtin:/, "")} (${c.role ?? "support"})`).join(", ")}`);
  const connections = site.contextConnections ?? [];
  // By name: the platform lists connections in creation order, which creates running side by side do not fix.
  if (connections.length > 0) out.push(`context connections: ${connections.map(connectionName).sort((a, b) => a.localeCompare(b)).join(", ")}`);
  if (site.agent !== undefined) out.push("agent settings: managed");
  return out;
}

/** A connection as a reviewer reads it: its label and connector, or its connector. */
export function connectionName(c: { connector: string; label?: string | null }): string {
  const connector = c.connector.replace(/^builtin:/, "");
  return c.label ? `${c.label} (${connector})` : connector;
}

/** One change of a site's assistant between two versions of the file: `+` added, `-` removed, `~` changed. */
export interface AssistantChange {
  sign: "+" | "-" | "~";
  text: string;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Entries of two lists matched by key. */
function byKey<T extends Keyed>(before: T[] | undefined, after: T[] | undefined): { pairs: [T, T][]; added: T[]; removed: T[] } {
  const b = before ?? [];
  const a = after ?? [];
  return {
    pairs: a.flatMap((x) => {
      const old = b.find((y) => y.key === x.key || (x.previousKeys ?? []).includes(y.key));
      return old ? [[old, x] as [T, T]] : [];
    }),
    added: a.filter((x) => !b.some((y) => y.key === x.key || (x.previousKeys ?? []).includes(y.key))),
    removed: b.filter((y) => !a.some((x) => x.key === y.key || (x.previousKeys ?? []).includes(y.key))),
  };
}

/** What changed in a map of secret sources: names only (a source is where a value comes from; the value is never shown). */
function sourceChanges(what: string, before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): string[] {
  const b = before ?? {};
  const a = after ?? {};
  const out: string[] = [];
  for (const name of Object.keys(a)) {
    if (!(name in b)) out.push(`${what} ${name} added`);
    else if (!same(a[name], b[name])) out.push(`${what} ${name} now from another source`);
  }
  for (const name of Object.keys(b)) if (!(name in a)) out.push(`${what} ${name} removed`);
  return out;
}

/** Changed fields of two entries, named (values shown but for secrets, whose names alone are). */
function fieldChanges<T extends object>(b: T, a: T, fields: readonly (keyof T & string)[]): string[] {
  const before = b as Record<string, unknown>;
  const after = a as Record<string, unknown>;
  return fields.filter((f) => !same(before[f], after[f])).map((f) => (after[f] === undefined ? `${f} removed` : `${f} ${JSON.stringify(before[f] ?? null)} → ${JSON.stringify(after[f])}`));
}

/** Every change of a site's assistant: servers, channels, connections and the agent settings, each named. */
export function assistantChanges(before: StackAssistant, after: StackAssistant): AssistantChange[] {
  const out: AssistantChange[] = [];
  const servers = byKey(before.mcpServers, after.mcpServers);
  for (const s of servers.added) out.push({ sign: "+", text: `MCP server ${JSON.stringify(s.name)} (${s.url})` });
  for (const s of servers.removed) out.push({ sign: "-", text: `MCP server ${JSON.stringify(s.name)}` });
  for (const [b, a] of servers.pairs) {
    const what = [...fieldChanges(b, a, ["name", "url", "transport", "condition"]), ...sourceChanges("header", b.headers, a.headers)];
    if (what.length > 0) out.push({ sign: "~", text: `MCP server ${JSON.stringify(a.name)}: ${what.join("; ")}` });
  }
  const channels = byKey(before.agentChannels, after.agentChannels);
  for (const c of channels.added) out.push({ sign: "+", text: `agent channel ${c.type} (${c.role ?? "support"})` });
  for (const c of channels.removed) out.push({ sign: "-", text: `agent channel ${c.type}` });
  for (const [b, a] of channels.pairs) {
    const what = fieldChanges(b, a, ["type", "setupSettings", "role"]);
    if (what.length > 0) out.push({ sign: "~", text: `agent channel ${a.type}: ${what.join("; ")}` });
  }
  const connections = byKey(before.contextConnections, after.contextConnections);
  for (const c of connections.added) out.push({ sign: "+", text: `context connection ${connectionName(c)}` });
  for (const c of connections.removed) out.push({ sign: "-", text: `context connection ${connectionName(c)}: the agent stops learning from it` });
  for (const [b, a] of connections.pairs) {
    const what = [...fieldChanges(b, a, ["connector", "setupSettings", "usageSettings", "label", "filter"]), ...sourceChanges("secret setting", b.secretSettings, a.secretSettings)];
    if (what.length > 0) out.push({ sign: "~", text: `context connection ${connectionName(a)}: ${what.join("; ")}` });
  }
  out.push(...agentChanges(before.agent, after.agent));
  return out;
}

/** The agent settings: taken under management, no longer managed, or each block changed (instructions named, not quoted). */
function agentChanges(before: StackAgentSettings | undefined, after: StackAgentSettings | undefined): AssistantChange[] {
  if (before === undefined && after === undefined) return [];
  if (after === undefined) return [{ sign: "~", text: "agent settings no longer managed (they stay as they are)" }];
  if (before === undefined) return [{ sign: "+", text: "agent settings managed by the file (the whole settings are replaced)" }];
  const what: string[] = [];
  if (!same(before.scans, after.scans)) what.push(`topic scans ${before.scans?.topics ?? "auto"} → ${after.scans?.topics ?? "auto"}`);
  if (!same(before.findings, after.findings)) what.push(`change requests from findings ${before.findings?.changeRequests ?? "never"} → ${after.findings?.changeRequests ?? "never"}`);
  if (!same(before.editing, after.editing)) what.push("editing instructions changed");
  return what.length === 0 ? [] : [{ sign: "~", text: `agent settings: ${what.join("; ")}` }];
}
