/**
 * A site's assistant (api-extensions area 10): its external MCP servers (list, create, read, update,
 * delete; headers served in full, as the description returns them) and its agent settings (read, and a
 * PUT that replaces the whole). A site never configured answers the defaults emulator/README.md states.
 */
import { badRequest } from "../errors";
import { applyPatch, compact } from "../objects";
import { limit, listQuery, nullable, obj, type Schema } from "../schema";
import { ownedRow, requireSite, view } from "../access";
import { paginate } from "../paging";
import type { Ctx, Route } from "../context";
import { newId } from "../seed";
import type { AgentSettingsRow, JsonObject, McpServerRow, SiteRow } from "../model";
import { siteLocation, type View } from "../present";

type SiteP = { organizationId: string; siteId: string };
type ServerP = SiteP & { siteMcpServerId: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

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

function findServer(ctx: AnyCtx, site: SiteRow, id: string): McpServerRow {
  return ownedRow(ctx, "mcpServers", id, "site", site.id, "MCP server");
}

/** Registers a site's MCP server and agent settings routes. */
export function registerSiteAgent(route: Route): void {
  registerMcpServers(route);
  registerMcpServer(route);
  registerAgentSettings(route);
}

/** The list and create of a site's MCP servers. */
function registerMcpServers(route: Route): void {
  route<SiteP, { page?: string; limit?: number }>({
    method: "GET",
    url: `${SITES}/mcp-servers`,
    query: listQuery(),
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin", "read MCP servers (their headers are credentials)");
      const v = view(ctx, role);
      const items = [...ctx.store.all("mcpServers")].filter((s) => s.site === site.id);
      return { status: 200, body: paginate(items, ctx.query, `mcp-servers:${site.id}`, (s) => presentServer(v, site, s)) };
    },
  });

  route<SiteP, Record<string, never>, ServerBody>({
    method: "POST",
    url: `${SITES}/mcp-servers`,
    body: { ...obj(SERVER_PROPERTIES, ["name", "url", "headers"]), additionalProperties: false },
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const b = ctx.body;
      const server: McpServerRow = { id: newId("mcp_"), site: site.id, name: b.name, url: b.url, transport: b.transport ?? "sse", headers: { ...b.headers }, condition: b.condition ?? null, createdAt: ctx.store.nowIso() };
      ctx.store.put("mcpServers", server);
      const v = view(ctx, role);
      return { status: 201, body: presentServer(v, site, server), location: `${siteLocation(v, site)}/mcp-servers/${server.id}` };
    },
  });
}

/** Read, update and delete one MCP server. */
function registerMcpServer(route: Route): void {
  route<ServerP>({
    method: "GET",
    url: `${SITES}/mcp-servers/:siteMcpServerId`,
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin", "read MCP servers (their headers are credentials)");
      return { status: 200, body: presentServer(view(ctx, role), site, findServer(ctx, site, ctx.params.siteMcpServerId)) };
    },
  });

  route<ServerP, Record<string, never>, Partial<ServerBody>>({
    method: "PATCH",
    url: `${SITES}/mcp-servers/:siteMcpServerId`,
    body: { ...obj(SERVER_PROPERTIES), additionalProperties: false },
    handler: (ctx) => {
      const { site, role } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      const server = findServer(ctx, site, ctx.params.siteMcpServerId);
      const b = ctx.body ?? {};
      // Only the fields given change; `headers`, when given, is the whole new map.
      applyPatch(server, b, ["name", "url", "transport", "headers", "condition"]);
      ctx.store.touch("mcpServers", server);
      return { status: 200, body: presentServer(view(ctx, role), site, server) };
    },
  });

  route<ServerP>({
    method: "DELETE",
    url: `${SITES}/mcp-servers/:siteMcpServerId`,
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
      ctx.store.del("mcpServers", findServer(ctx, site, ctx.params.siteMcpServerId).id);
      return { status: 205 };
    },
  });
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
