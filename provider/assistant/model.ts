/**
 * A site's assistant in the stack file: its MCP servers (`mcpServers`), agent settings (`agent`), agent
 * channels (`agentChannels`) and context connections (`contextConnections`). The entries' types, the
 * checks a schema cannot express (a channel's setup member for its type, a connector's setup members and
 * which of them are secrets, one channel per type, unique server names), and what `tree` and `diff` show
 * of them: names only, never a header or a secret setting.
 */
import type { siteAgentChannelKind, SiteAgentChannelInputs } from "../resources/siteAgentChannel";
import type { siteAgentSettingsKind, SiteAgentSettingsInputs } from "../resources/siteAgentSettings";
import type { siteContextConnectionKind, SiteContextConnectionInputs } from "../resources/siteContextConnection";
import type { siteMcpServerKind, SiteMcpServerInputs } from "../resources/siteMcpServer";
import type { Declared } from "../file/declared";
import type { Keyed } from "../file/refs";

/** An MCP server of a site; natural key: name. */
export type StackMcpServer = Keyed & Declared<typeof siteMcpServerKind, SiteMcpServerInputs> & { adopt?: boolean };
/** A channel of a site's agent; natural key: type. */
export type StackAgentChannel = Keyed & Declared<typeof siteAgentChannelKind, SiteAgentChannelInputs> & { adopt?: boolean };
/** A context connection of a site's agent; natural key: connector and the setup settings naming its source. */
export type StackContextConnection = Keyed & Declared<typeof siteContextConnectionKind, SiteContextConnectionInputs> & { adopt?: boolean };
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

