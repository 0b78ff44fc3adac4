/**
 * A site's assistant in the stack file: its MCP servers (`mcpServers`), agent settings (`agent`), agent
 * channels (`agentChannels`) and context connections (`contextConnections`). The entries' types, the
 * checks a schema cannot express (a channel's setup member for its type, a connector's setup members and
 * which of them are secrets, one channel per type, unique server names), and what `tree` and `diff` show
 * of them: names only, never a header or a secret setting.
 */
import limits from "../../schemas/limits.json";
import { CHANNEL_MEMBER, setupOf, type SetupMember } from "../resources/assistantRules";
import type { siteAgentChannelKind, SiteAgentChannelInputs } from "../resources/siteAgentChannel";
import type { siteAgentSettingsKind, SiteAgentSettingsInputs } from "../resources/siteAgentSettings";
import type { siteContextConnectionKind, SiteContextConnectionInputs } from "../resources/siteContextConnection";
import type { siteMcpServerKind, SiteMcpServerInputs } from "../resources/siteMcpServer";
import { urlProblem } from "../urls";
import type { Declared, Keyed } from "../file/model";

/** An MCP server of a site; natural key: name. */
export type StackMcpServer = Keyed & Declared<typeof siteMcpServerKind, SiteMcpServerInputs> & { adopt?: boolean };
/** A channel of a site's agent; natural key: type. */
export type StackAgentChannel = Keyed & Declared<typeof siteAgentChannelKind, SiteAgentChannelInputs> & { adopt?: boolean };
/** A context connection of a site's agent. */
export type StackContextConnection = Keyed & Declared<typeof siteContextConnectionKind, SiteContextConnectionInputs>;
/** A site's agent settings block. */
export type StackAgentSettings = Declared<typeof siteAgentSettingsKind, SiteAgentSettingsInputs>;

/** What a site may declare about its assistant. */
export interface StackAssistant {
  mcpServers?: StackMcpServer[];
  /** Absent: the site's agent settings are not managed. */
  agent?: StackAgentSettings;
  agentChannels?: StackAgentChannel[];
  contextConnections?: StackContextConnection[];
}

/** A finding at a JSON pointer of the file. */
export interface AssistantIssue {
  pointer: string;
  reason: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const show = (v: unknown): string => JSON.stringify(v);

type Limit = { type?: string; minLength?: number; maxLength?: number; pattern?: string; format?: string; "x-patternWords"?: string; properties?: Record<string, { $ref?: string }> };
const LIMITS = (limits as unknown as { definitions: Record<string, Limit> }).definitions;

/** Why a value breaks the limit `name` of limits.json, in words (a pattern by its words); undefined when it keeps it. */
export function limitProblem(name: string, value: unknown): string | undefined {
  const l = LIMITS[name];
  if (!l) return undefined;
  if (l.type === "object") {
    if (!isObject(value)) return "must be an object";
    for (const [k, v] of Object.entries(value)) {
      const ref = l.properties?.[k]?.$ref?.replace("#/definitions/", "");
      if (!ref) return `has ${show(k)}, which is not one of ${Object.keys(l.properties ?? {}).join(", ")}`;
      const p = limitProblem(ref, v);
      if (p) return `${k} ${p}`;
    }
    return undefined;
  }
  if (typeof value !== "string") return "must be a string";
  if (l.minLength !== undefined && value.length < l.minLength) return l.minLength === 1 ? "must not be empty" : `must be at least ${l.minLength} characters`;
  if (l.maxLength !== undefined && value.length > l.maxLength) return `must be at most ${l.maxLength} characters`;
  if (l.pattern !== undefined && !new RegExp(l.pattern, "u").test(value)) return `must be ${l["x-patternWords"] ?? "of the documented form"}`;
  if (l.format === "fetched-url" || l.format === "followed-url") return urlProblem(value, l.format === "fetched-url" ? "fetched" : "followed");
  if (l.format === "email" && !/^[^\s@]+@[^\s@]+$/.test(value)) return "must be an e-mail address";
  return undefined;
}

/** The checks of every site's assistant. */
export function assistantIssues(stack: unknown): AssistantIssue[] {
  const issues: AssistantIssue[] = [];
  if (!isObject(stack)) return issues;
  list(stack.sites).forEach((site, i) => {
    if (!isObject(site)) return;
    const at = `/sites/${i}`;
    uniqueValues(issues, `${at}/mcpServers`, list(site.mcpServers), "name", "MCP server names are unique in a site (adopt finds a server by its name)");
    uniqueValues(issues, `${at}/agentChannels`, list(site.agentChannels), "type", "a site has one channel of each type (adopt finds a channel by its type)");
    list(site.agentChannels).forEach((c, j) => channelIssues(issues, `${at}/agentChannels/${j}`, c));
    list(site.contextConnections).forEach((c, j) => connectionIssues(issues, `${at}/contextConnections/${j}`, c));
  });
  return issues;
}

/** Two entries of one list with the same `field`: the second is refused, naming the first. */
function uniqueValues(issues: AssistantIssue[], at: string, entries: unknown[], field: string, why: string): void {
  const seen = new Map<unknown, number>();
  entries.forEach((e, j) => {
    if (!isObject(e) || e[field] === undefined) return;
    const first = seen.get(e[field]);
    if (first !== undefined) issues.push({ pointer: `${at}/${j}/${field}`, reason: `${field} ${show(e[field])} is also that of entry ${first} of this list: ${why}` });
    else seen.set(e[field], j);
  });
}

/** A channel's setup names the member of its type only (the schema holds each item to its form). */
function channelIssues(issues: AssistantIssue[], at: string, c: unknown): void {
  if (!isObject(c) || typeof c.type !== "string" || !isObject(c.setupSettings)) return;
  const accepted = CHANNEL_MEMBER[c.type];
  if (accepted === undefined) return; // the schema names the types
  for (const member of Object.keys(c.setupSettings)) {
    if (member !== accepted) issues.push({ pointer: `${at}/setupSettings/${member}`, reason: `a ${c.type} channel takes only ${accepted} (${member} belongs to another type of channel)` });
  }
}

/** A connection's settings: its connector's members only, secrets under secretSettings only, required ones given, each value of its form. */
function connectionIssues(issues: AssistantIssue[], at: string, c: unknown): void {
  if (!isObject(c) || typeof c.connector !== "string") return;
  const members = setupOf(c.connector);
  // An unknown connector is the schema's to name (its pattern's words list them).
  if (members === undefined) return;
  const plain = isObject(c.setupSettings) ? c.setupSettings : {};
  const secret = isObject(c.secretSettings) ? c.secretSettings : {};
  for (const [name, value] of Object.entries(plain)) {
    const rule = members[name];
    if (!rule) issues.push({ pointer: `${at}/setupSettings/${name}`, reason: `a ${c.connector} connection has no setting ${show(name)}${settingsWords(members)}` });
    else if (rule.secret) issues.push({ pointer: `${at}/setupSettings/${name}`, reason: `${name} is a secret: give it under secretSettings as {env: NAME} or {config: key}, never as plain text in the file` });
    else {
      const problem = limitProblem(rule.limit, value);
      if (problem) issues.push({ pointer: `${at}/setupSettings/${name}`, reason: `${name} ${problem}` });
    }
  }
  for (const name of Object.keys(secret)) {
    if (!members[name]?.secret) issues.push({ pointer: `${at}/secretSettings/${name}`, reason: `${show(name)} is not a secret setting of a ${c.connector} connection${secretWords(members)}` });
  }
  for (const [name, rule] of Object.entries(members)) {
    if (rule.optional || name in secret || name in plain) continue;
    issues.push({ pointer: at, reason: `a ${c.connector} connection needs ${rule.secret ? `secretSettings.${name} ({env: NAME} or {config: key})` : `setupSettings.${name}`}` });
  }
}

function settingsWords(members: Record<string, SetupMember>): string {
  const names = Object.entries(members).filter(([, m]) => !m.secret).map(([n]) => n);
  return names.length === 0 ? " (it takes none)" : ` (it takes ${names.join(", ")})`;
}

function secretWords(members: Record<string, SetupMember>): string {
  const names = Object.entries(members).filter(([, m]) => m.secret).map(([n]) => n);
  return names.length === 0 ? " (it takes none)" : ` (it takes ${names.join(", ")})`;
}

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
