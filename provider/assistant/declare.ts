/** The resources of each site's assistant: its MCP servers, agent settings, agent channels and context connections. */
import type * as pulumi from "@pulumi/pulumi";
import { SiteAgentChannel, SiteAgentSettings, SiteContextConnection, SiteMcpServer } from "../classes";
import { siteAgentChannelKind } from "../resources/siteAgentChannel";
import { siteAgentSettingsKind } from "../resources/siteAgentSettings";
import { siteContextConnectionKind } from "../resources/siteContextConnection";
import { siteMcpServerKind } from "../resources/siteMcpServer";
import type { StackAssistant } from "./model";
import type { Keyed } from "../file/model";
import { adoptOf, join, keysOf } from "../declare/names";
import type { SiteScope } from "../declare/siteDeclarer";

/** One site's assistant resources, each by key. */
export interface AssistantResources {
  mcpServers: Record<string, SiteMcpServer>;
  agent?: SiteAgentSettings;
  agentChannels: Record<string, SiteAgentChannel>;
  contextConnections: Record<string, SiteContextConnection>;
}

/**
 * Declares a site's assistant (the site at `/sites/<index>`, whose resource's ID is `siteId`): each
 * entry named `<component>/<site key>/<entry key>` (the agent settings `<component>/<site key>`, one per
 * site), renamed sites' and entries' former names as aliases; secret sources resolved by `scope.inputs`.
 */
export function declareAssistant(scope: SiteScope, site: Keyed & StackAssistant, index: number, siteId: pulumi.Input<string>): AssistantResources {
  const at = `/sites/${index}`;
  const where = { organizationId: scope.org, siteId };
  const scopes = [keysOf(site)];
  const name = (key: string) => join(scope.name, site.key, key);
  const out: AssistantResources = { mcpServers: {}, agentChannels: {}, contextConnections: {} };
  (site.mcpServers ?? []).forEach((s, i) => {
    out.mcpServers[s.key] = new SiteMcpServer(name(s.key), { ...scope.inputs(siteMcpServerKind, s, `${at}/mcpServers/${i}`), ...where, ...adoptOf(s) }, scope.with(s, scopes));
  });
  (site.agentChannels ?? []).forEach((c, i) => {
    out.agentChannels[c.key] = new SiteAgentChannel(name(c.key), { ...scope.inputs(siteAgentChannelKind, c, `${at}/agentChannels/${i}`), ...where, ...adoptOf(c) }, scope.with(c, scopes));
  });
  (site.contextConnections ?? []).forEach((c, i) => {
    out.contextConnections[c.key] = new SiteContextConnection(name(c.key), { ...scope.inputs(siteContextConnectionKind, c, `${at}/contextConnections/${i}`), ...where, ...adoptOf(c) }, scope.with(c, scopes));
  });
  if (site.agent !== undefined) out.agent = new SiteAgentSettings(join(scope.name, site.key), { ...scope.inputs(siteAgentSettingsKind, site.agent), ...where }, scope.with(site));
  return out;
}
