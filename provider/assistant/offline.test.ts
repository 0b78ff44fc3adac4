/**
 * A site's assistant checked offline (so by `docsplatform validate` and before any call), each mistake
 * at its `file:line:col`, in words: a plain-text header value, a channel of an unknown type, a channel
 * pattern of the wrong form, a setup member of another type, an unknown connector, a connection's secret
 * written as plain text, a member its connector does not take, two channels of one type.
 */
import { describe, expect, it } from "vitest";
import { messagesOf, oneSiteFile } from "../../test/support/stackMessages";

/** What the loader says of a file whose one site is `handbook`, the site's further lines from line 6. */
const siteMessages = (lines: string): string[] => messagesOf(oneSiteFile(lines));

describe("MCP servers", () => {
  it("a header value written in the file is refused at the value, in words, without repeating it", () => {
    const said = siteMessages("    mcpServers:\n      - key: tools\n        name: Tools\n        url: https://mcp.demo.test\n        headers:\n          Authorization: Bearer s3cr3t-in-the-file\n");
    expect(said).toEqual([
      "docs.yaml:11:26: sites[0].mcpServers[0].headers.Authorization: is a plain-text secret: a secret value is never written in the file; give where it comes from, {env: NAME} (an environment variable) or {config: key} (set with `pulumi config set --secret key <value>`)",
    ]);
    expect(said.join("\n")).not.toContain("s3cr3t");
  });

  it("headers from the environment or config pass; a private URL and two servers of one name are refused", () => {
    const ok = oneSiteFile("    mcpServers:\n      - key: tools\n        name: Tools\n        url: https://mcp.demo.test\n        headers: { Authorization: { env: MCP_TOKEN }, X-Key: { config: mcpKey } }\n");
    expect(messagesOf(ok)).toEqual([]);
    const bad = oneSiteFile("    mcpServers:\n      - { key: a, name: Tools, url: 'http://127.0.0.1:8080' }\n      - { key: b, name: Tools, url: https://mcp.demo.test }\n");
    expect(messagesOf(bad)).toEqual([
      'docs.yaml:7:37: sites[0].mcpServers[0].url: names 127.0.0.1, a loopback address (127.0.0.0/8); the platform fetches this URL, so it must be a public address (got "http://127.0.0.1:8080")',
      'docs.yaml:8:25: sites[0].mcpServers[1].name: name "Tools" is also that of entry 0 of this list: MCP server names are unique in a site (adopt finds a server by its name)',
    ]);
  });

  it("a header taken from the package's own API token is refused: the token is never sent to an MCP server", () => {
    const said = siteMessages("    mcpServers:\n      - key: tools\n        name: Tools\n        url: https://mcp.demo.test\n        headers: { Authorization: { env: DOCSPLATFORM_API_TOKEN } }\n");
    expect(said).toEqual([
      'docs.yaml:10:42: sites[0].mcpServers[0].headers.Authorization.env: secret "Authorization": environment variable DOCSPLATFORM_API_TOKEN holds the platform API token this package acts with; it is never sent to an MCP server (give the MCP server a credential of its own)',
    ]);
  });
});

describe("agent channels", () => {
  it("an unknown type, a channel pattern of the wrong form and a setup member of another type are refused, each where it is written", () => {
    const said = siteMessages(
      "    agentChannels:\n      - key: teams\n        type: builtin:teams\n      - key: slack\n        type: builtin:slack\n        setupSettings: { allowedChannels: ['#general'] }\n      - key: linear\n        type: builtin:linear\n        setupSettings: { allowedRepositories: [acme/docs] }\n",
    );
    expect(said).toEqual([
      'docs.yaml:8:15: sites[0].agentChannels[0].type: must be one of builtin:slack, builtin:linear, builtin:github, builtin:discord (got "builtin:teams")',
      "docs.yaml:11:44: sites[0].agentChannels[1].setupSettings.allowedChannels[0]: must be a channel or team name: letters, digits, '_', '-' and '*' as a wildcard, like docs-* (got \"#general\")",
      "docs.yaml:14:47: sites[0].agentChannels[2].setupSettings.allowedRepositories: a builtin:linear channel takes only allowedTeams (allowedRepositories belongs to another type of channel)",
    ]);
  });

  it("two channels of one type are refused at the second", () => {
    const said = siteMessages("    agentChannels:\n      - { key: a, type: builtin:discord }\n      - { key: b, type: builtin:discord }\n");
    expect(said).toEqual(['docs.yaml:8:25: sites[0].agentChannels[1].type: type "builtin:discord" is also that of entry 0 of this list: a site has one channel of each type (adopt finds a channel by its type)']);
  });
});

describe("context connections", () => {
  it("an unknown connector is refused at the connector, naming the ones there are", () => {
    const said = siteMessages("    contextConnections:\n      - key: notion\n        connector: builtin:notion\n");
    expect(said).toEqual([
      'docs.yaml:8:20: sites[0].contextConnections[0].connector: must be a connector: builtin: followed by one of email, api, website, youtube, github-discussions, github-issues, intercom, front, pylon, hubspot, linear, zendesk, zoho-desk, freshdesk, jira, or integration:<integration name> (got "builtin:notion")',
    ]);
  });

  it("a secret as plain text, a member the connector does not take, a missing member and a value of the wrong form are refused", () => {
    const said = siteMessages(
      "    contextConnections:\n      - key: issues\n        connector: builtin:github-issues\n        setupSettings: { repository: acme, token: ghp-plain-text }\n      - key: desk\n        connector: builtin:zendesk\n        setupSettings: { subdomain: acme, url: https://acme.test }\n        secretSettings: { token: { env: DESK } }\n",
    );
    expect(said).toEqual([
      "docs.yaml:9:38: sites[0].contextConnections[0].setupSettings.repository: repository must be owner/repository of letters, digits, '_', '.' and '-', like acme/docs",
      "docs.yaml:9:51: sites[0].contextConnections[0].setupSettings.token: token is a secret: give it under secretSettings as {env: NAME} or {config: key}, never as plain text in the file",
      "docs.yaml:10:9: sites[0].contextConnections[1]: a builtin:zendesk connection needs secretSettings.apiToken ({env: NAME} or {config: key})",
      "docs.yaml:10:9: sites[0].contextConnections[1]: a builtin:zendesk connection needs setupSettings.email",
      'docs.yaml:12:48: sites[0].contextConnections[1].setupSettings.url: a builtin:zendesk connection has no setting "url" (it takes subdomain, email)',
      'docs.yaml:13:34: sites[0].contextConnections[1].secretSettings.token: "token" is not a secret setting of a builtin:zendesk connection (it takes apiToken)',
    ]);
    expect(said.join("\n")).not.toContain("ghp-plain-text");
  });

  it("two connections read from one source are refused when one adopts (adopt could not tell them apart), allowed otherwise", () => {
    const two = (adopt: string) =>
      siteMessages(
        `    contextConnections:\n      - { key: a, connector: builtin:website, setupSettings: { url: https://www.demo.test }${adopt} }\n      - { key: b, connector: builtin:website, setupSettings: { url: https://www.demo.test } }\n      - { key: c, connector: builtin:website, setupSettings: { url: https://blog.demo.test } }\n`,
      );
    expect(two("")).toEqual([]);
    expect(two(", adopt: true")).toEqual([
      "docs.yaml:8:30: sites[0].contextConnections[1].connector: this connection reads from the same source as entry 0 of this list (builtin:website url=https://www.demo.test): adopt finds a connection by its connector and the settings naming its source, so they must differ",
    ]);
  });
});
