/** The checks of a site's assistant a schema cannot express (its types in model.ts). */
import limits from "../../schemas/limits.json";
import { CHANNEL_MEMBER, connectionSource, setupOf, URL_SETTINGS, type SetupMember } from "../resources/assistantRules";
import { urlProblem, urlUseOf } from "../urls";

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
  const use = urlUseOf(l.format);
  if (use !== undefined) return urlProblem(value, use);
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
    adoptedSources(issues, `${at}/contextConnections`, list(site.contextConnections));
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

/**
 * Two connections of a site read from one source (connector and the settings naming it), one of them
 * adopting: adopt would not know which live connection is whose. Without adopt both are made.
 */
function adoptedSources(issues: AssistantIssue[], at: string, entries: unknown[]): void {
  const bySource = new Map<string, number[]>();
  entries.forEach((e, j) => {
    if (!isObject(e) || typeof e.connector !== "string") return;
    const source = connectionSource(e.connector, isObject(e.setupSettings) ? e.setupSettings : undefined);
    if (source !== undefined) bySource.set(source, [...(bySource.get(source) ?? []), j]);
  });
  for (const [source, same] of bySource) {
    if (same.length < 2 || !same.some((j) => (entries[j] as Record<string, unknown>).adopt === true)) continue;
    for (const j of same.slice(1)) {
      issues.push({ pointer: `${at}/${j}/connector`, reason: `this connection reads from the same source as entry ${same[0]} of this list (${source}): adopt finds a connection by its connector and the settings naming its source, so they must differ` });
    }
  }
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
    // A URL the platform fetches is the connection's schema's to judge, as every fetched URL is.
    else if (!URL_SETTINGS.has(rule.limit)) {
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
