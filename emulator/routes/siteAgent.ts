/**
 * A site's assistant (api-extensions area 10): its external MCP servers (list, create, read, update,
 * delete; headers served in full, as the description returns them) and its agent settings (read, and a
 * PUT that replaces the whole). A site never configured answers the defaults emulator/README.md states.
 */
import { badRequest } from "../errors";
import { applyPatch, compact } from "../objects";
import { limit, nullable, obj, type Schema } from "../schema";
import { requireSite, view } from "../access";
import type { Route } from "../context";
import { newId } from "../seed";
import type { AgentSettingsRow, JsonObject, McpServerRow, SiteRow } from "../model";
import { siteLocation, type View } from "../present";
import { registerSiteCollection } from "./siteCollection";

type SiteP = { organizationId: string; siteId: string };

const SITES = "/v1/orgs/:organizationId/sites/:siteId";

/** Header names are HTTP tokens (a header that cannot be sent is refused); values 1 to 512 characters. */
const HEADERS: Schema = { type: "object", propertyNames: limit("mcpHeaderName"), additionalProperties: limit("mcpHeaderValue") };

const SERVER_PROPERTIES: Record<string, Schema> = {
  name: limit("mcpServerName"),
  url: limit("mcpServerURL"),
  transport: limit("mcpTransport"),
  headers: HEADERS,
  condition: nullable(limit("expression")),
};

interface ServerBody {
  name: string;
  url: string;
  transport?: "sse" | "http";
  headers: Record<string, string>;
  condition?: string | null;
}

/** Agent settings of a site that was never configured (a decision: the description gives none). */
export function defaultAgentSettings(): Omit<AgentSettingsRow, "id" | "updatedAt" | "updatedBy"> {
  return { scans: { topics: "auto" }, findings: { changeRequests: "never" }, editing: { customInstructions: { object: "document", data: {}, nodes: [] } } };
}

const SETTINGS_BODY: Schema = {
  ...obj(
    {
      scans: { ...obj({ topics: limit("agentTopicScans") }, ["topics"]), additionalProperties: false },
      findings: { ...obj({ changeRequests: limit("agentFindingChangeRequests") }, ["changeRequests"]), additionalProperties: false },
      editing: { ...obj({ customInstructions: limit("agentDocument") }, ["customInstructions"]), additionalProperties: false },
    },
    ["scans", "findings", "editing"],
  ),
  additionalProperties: false,
};

function presentServer(v: View, site: SiteRow, s: McpServerRow): Record<string, unknown> {
  return compact({
    object: "site-mcp-server",
    id: s.id,
    name: s.name,
    url: s.url,
    transport: s.transport,
    headers: { ...s.headers },
    condition: s.condition ?? undefined,
    urls: { location: `${siteLocation(v, site)}/mcp-servers/${s.id}` },
  });
}

function presentSettings(v: View, site: SiteRow, row: AgentSettingsRow | undefined): Record<string, unknown> {
  const settings = row ?? defaultAgentSettings();
  return compact({
    object: "site-agent-settings",
    scans: { ...settings.scans },
    findings: { ...settings.findings },
    editing: { customInstructions: structuredClone(settings.editing.customInstructions) },
    updatedAt: row?.updatedAt,
    updatedBy: row?.updatedBy,
    urls: { location: `/v1/orgs/${site.org}/sites/${site.id}/agent-settings` },
  });
}

/** Registers a site's MCP server and agent settings routes. */
export function registerSiteAgent(route: Route): void {
  registerSiteCollection<"mcpServers", ServerBody, ServerBody>(route, {
    path: "mcp-servers",
    param: "siteMcpServerId",
    table: "mcpServers",
    what: "MCP server",
    read: { role: "admin", action: "read MCP servers (their headers are credentials)" },
    present: presentServer,
    create: {
      body: { ...obj(SERVER_PROPERTIES, ["name", "url", "headers"]), additionalProperties: false },
      row: (ctx, site) => {
        const b = ctx.body;
        return { id: newId("mcp_"), site: site.id, name: b.name, url: b.url, transport: b.transport ?? "sse", headers: { ...b.headers }, condition: b.condition ?? null, createdAt: ctx.store.nowIso() };
      },
    },
    update: {
      body: { ...obj(SERVER_PROPERTIES), additionalProperties: false },
      // Only the fields given change; `headers`, when given, is the whole new map.
      apply: (server, b) => applyPatch(server, b, ["name", "url", "transport", "headers", "condition"]),
    },
  });
  registerAgentSettings(route);
}

/** A site's agent settings: read (defaults until set) and replace. */
function registerAgentSettings(route: Route): void {
  route<SiteP>({
    method: "GET",
    url: `${SITES}/agent-settings`,
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      return { status: 200, body: presentSettings(view(ctx, role), site, ctx.store.get("agentSettings", site.id)) };
    },
  });

  route<SiteP, Record<string, never>, Pick<AgentSettingsRow, "scans" | "findings" | "editing">>({
    method: "PUT",
    url: `${SITES}/agent-settings`,
    body: SETTINGS_BODY,
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const b = ctx.body;
      if (b === undefined) throw badRequest("body", "must be an object with scans, findings and editing");
      const row: AgentSettingsRow = {
        id: site.id,
        scans: { topics: b.scans.topics },
        findings: { changeRequests: b.findings.changeRequests },
        editing: { customInstructions: structuredClone(b.editing.customInstructions) as JsonObject },
        updatedAt: ctx.store.nowIso(),
        updatedBy: ctx.user,
      };
      ctx.store.put("agentSettings", row);
      return { status: 200, body: presentSettings(view(ctx, role), site, row) };
    },
  });
}
