/**
 * A site's assistant: its external MCP servers and agent settings, the channels its agent works in and
 * the context connections it learns from. Paths and shapes only; lists through the shared page walker.
 * MCP server `headers` and the secret members of a connection's settings are credentials: the API
 * returns them on read (but Freshdesk's `apiKey` and Jira's `apiToken`, masked), and callers keep them
 * out of logs and views.
 */
import type { RequestCore } from "./core";
import { type InSite, OwnedItems } from "./ownedList";
import { path } from "./path";

/** How the platform reaches an MCP server. */
export type McpTransport = "sse" | "http";

/** An external MCP server whose tools the site's assistant may call. */
export interface SiteMcpServer {
  object: "site-mcp-server";
  id: string;
  name: string;
  url: string;
  transport: McpTransport;
  /** Sent with every request to the server: credentials, returned in full. */
  headers: Record<string, string>;
  condition?: string;
  urls: { location: string };
}

export interface CreateMcpServerBody {
  name: string;
  url: string;
  transport?: McpTransport;
  headers: Record<string, string>;
  condition?: string | null;
}
export type UpdateMcpServerBody = Partial<CreateMcpServerBody>;

/** A content document (the editing agent's instructions). */
export interface AgentDocument {
  object: "document";
  data: { schemaVersion?: number; [member: string]: unknown };
  nodes: Record<string, unknown>[];
  meta?: { token?: string };
}

/** A site's agent settings: replaced whole by `put`. */
export interface SiteAgentSettingsBody {
  scans: { topics: "auto" | "never" };
  findings: { changeRequests: "always" | "auto-fixable" | "never" };
  editing: { customInstructions: AgentDocument };
}
export interface SiteAgentSettings extends SiteAgentSettingsBody {
  object: "site-agent-settings";
  updatedAt?: string;
  updatedBy?: string;
  urls: { location: string };
}

/** Where a site's agent works. */
export type ChannelType = "builtin:slack" | "builtin:linear" | "builtin:github" | "builtin:discord";
export type ChannelRole = "support" | "collaborator";
/** The one member a channel type accepts (`allowedChannels`, `allowedTeams` or `allowedRepositories`). */
export type ChannelSetupSettings = { allowedChannels?: string[]; allowedTeams?: string[]; allowedRepositories?: string[] };

export interface SiteChannel {
  object: "site-channel";
  id: string;
  type: ChannelType;
  setupSettings: ChannelSetupSettings;
  role: ChannelRole;
  status: "active" | "pending";
  answers: number;
  createdAt: string;
  urls: { location: string };
}
export interface CreateChannelBody {
  type: ChannelType;
  setupSettings: ChannelSetupSettings;
  role?: ChannelRole;
}
/** A setup is its type and settings together (one without the other is a 400). */
export interface UpdateChannelBody {
  role?: ChannelRole;
  type?: ChannelType;
  setupSettings?: ChannelSetupSettings;
}

/** How a connection's records are used. */
export interface ConnectionUsageSettings {
  changeRequests: boolean;
  search: boolean;
  searchBoost: "x0.8" | "x1.0" | "x1.2";
  sync?: boolean;
}

export interface ContextConnection {
  object: "context-connection";
  id: string;
  /** `builtin:<name>` or `integration:<name>`. */
  connector: string;
  /** The connector's settings; secret members returned (Freshdesk `apiKey` and Jira `apiToken` masked). */
  setupSettings?: Record<string, unknown>;
  label?: string;
  filter?: string;
  usageSettings: ConnectionUsageSettings;
  status: "pending" | "syncing" | "succeeded" | "failed";
  records: number;
  failureReason?: string;
  failureMessage?: string;
  email?: { ingestionAddress: string };
  syncedAt?: string;
  createdAt: string;
  urls: { location: string };
}
export interface CreateConnectionBody {
  connector: string;
  setupSettings?: Record<string, unknown>;
  usageSettings?: ConnectionUsageSettings;
  filter?: string;
}
export interface UpdateConnectionBody {
  connector?: string;
  setupSettings?: Record<string, unknown>;
  usageSettings?: ConnectionUsageSettings;
  label?: string;
  filter?: string;
}
export interface ConnectionTestResult {
  object: "context-connection-test-result";
  success: boolean;
  error?: string;
}

const site = (orgId: string, siteId: string) => path`/v1/orgs/${orgId}/sites/${siteId}`;

/** A site's external MCP servers. */
export class McpServersApi extends OwnedItems<InSite, SiteMcpServer, CreateMcpServerBody, UpdateMcpServerBody> {
  constructor(core: RequestCore) {
    super(core, { collection: "/v1/orgs/{}/sites/{}/mcp-servers" });
  }
}

/** A site's agent settings: read, and replace whole. */
export class AgentSettingsApi {
  constructor(private readonly core: RequestCore) {}

  get(orgId: string, siteId: string): Promise<SiteAgentSettings> {
    return this.core.request("GET", `${site(orgId, siteId)}/agent-settings`);
  }
  put(orgId: string, siteId: string, body: SiteAgentSettingsBody): Promise<SiteAgentSettings> {
    return this.core.request("PUT", `${site(orgId, siteId)}/agent-settings`, { body });
  }
}

/** The channels a site's agent works in. */
export class ChannelsApi extends OwnedItems<InSite, SiteChannel, CreateChannelBody, UpdateChannelBody> {
  constructor(core: RequestCore) {
    super(core, { collection: "/v1/orgs/{}/sites/{}/channels" });
  }
}

/** The context connections a site's agent learns from. */
export class ContextConnectionsApi extends OwnedItems<InSite, ContextConnection, CreateConnectionBody, UpdateConnectionBody> {
  constructor(core: RequestCore) {
    super(core, { collection: "/v1/orgs/{}/sites/{}/context-connections" });
  }

  /** Starts a sync (204); a POST, not retried blindly. */
  sync(orgId: string, siteId: string, id: string): Promise<void> {
    return this.core.request("POST", `${this.item([orgId, siteId, id])}/sync`);
  }
  /** Checks the stored credentials against the service; a failure is `success: false`, not an error. */
  test(orgId: string, siteId: string, id: string): Promise<ConnectionTestResult> {
    return this.core.request("POST", `${this.item([orgId, siteId, id])}/test`);
  }
}
