/**
 * The rules of a site's assistant that a schema cannot say by itself, written once for the kinds, the
 * stack checks, export and the views: which setup member each channel type takes, and each context
 * connector's setup members (which are required, which are secrets, which the API masks on read), with
 * the limit each value is held to (a name in `schemas/limits.json`).
 */

/** The one setup member each channel type accepts (an empty list, or none, allows all). */
export const CHANNEL_MEMBER: Record<string, "allowedChannels" | "allowedTeams" | "allowedRepositories"> = {
  "builtin:slack": "allowedChannels",
  "builtin:linear": "allowedTeams",
  "builtin:github": "allowedRepositories",
  "builtin:discord": "allowedChannels",
};

/** One setup member of a connector: its limit, and whether it is required, a secret, masked on read, or names the source. */
export interface SetupMember {
  limit: string;
  optional?: true;
  secret?: true;
  /**
   * It names the external source the connection reads (a website, a repository, a help desk's account):
   * with the connector, the connection's natural key (the platform keeps nothing of a connection unique).
   */
  source?: true;
  /** The API answers a mask instead of the value: the state's digest of the declared value stands. */
  maskedOnRead?: true;
}

const member = (limit: string, extra: Omit<SetupMember, "limit"> = {}): SetupMember => ({ limit, ...extra });

/** The limits of the setup members that are URLs the platform fetches: the connection's schema holds them (a fetched URL's rule). */
export const URL_SETTINGS: ReadonlySet<string> = new Set(["connectionURL", "jiraBaseURL"]);
const TOKEN = member("connectionSecret", { secret: true });
const SOURCE = { source: true } as const;
const GITHUB = { repository: member("connectionRepository", SOURCE), token: TOKEN };

/** Each builtin connector's setup members (`integration:<name>` connectors, e-mail and API take none). */
export const CONNECTOR_SETUP: Record<string, Record<string, SetupMember>> = {
  "builtin:email": {},
  "builtin:api": {},
  "builtin:website": { url: member("connectionURL", SOURCE) },
  "builtin:youtube": { channelId: member("youtubeChannel", SOURCE) },
  "builtin:github-discussions": GITHUB,
  "builtin:github-issues": GITHUB,
  "builtin:intercom": { token: TOKEN },
  "builtin:front": { token: TOKEN },
  "builtin:pylon": { token: TOKEN },
  "builtin:hubspot": { token: TOKEN },
  "builtin:linear": { token: TOKEN },
  "builtin:zendesk": { subdomain: member("connectionSetting", SOURCE), email: member("connectionSetting"), apiToken: TOKEN },
  "builtin:zoho-desk": {
    dataCenter: member("connectionSetting", SOURCE),
    orgId: member("connectionSetting", SOURCE),
    clientId: member("connectionSetting"),
    clientSecret: TOKEN,
    refreshToken: TOKEN,
  },
  "builtin:freshdesk": { domain: member("connectionSetting", SOURCE), apiKey: member("connectionSecret", { secret: true, maskedOnRead: true }) },
  "builtin:jira": {
    baseUrl: member("jiraBaseURL", SOURCE),
    apiEmail: member("jiraEmail"),
    apiToken: member("connectionSecret", { secret: true, maskedOnRead: true }),
    statusMapping: member("jiraStatusMapping", { optional: true }),
  },
};

/** The setup members of a connector: its own, or none for `integration:<name>`; undefined for an unknown connector. */
export function setupOf(connector: string): Record<string, SetupMember> | undefined {
  if (/^integration:[^:]+$/.test(connector)) return {};
  return CONNECTOR_SETUP[connector];
}

/** The names of a connector's secret members. */
export function secretMembers(connector: string): string[] {
  return Object.entries(setupOf(connector) ?? {})
    .filter(([, m]) => m.secret)
    .map(([name]) => name);
}

/**
 * A connection's natural key: its connector and the setup members that name its source, in the
 * connector's order (`builtin:github-issues repository=demo-org/product`); the connector alone for one
 * that names none (e-mail, API, an integration, a token-only help desk: one account per token).
 * Undefined for an unknown connector.
 */
export function connectionSource(connector: string, setupSettings: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const members = setupOf(connector);
  if (members === undefined) return undefined;
  const named = Object.entries(members)
    .filter(([, m]) => m.source)
    .map(([name]) => `${name}=${typeof setupSettings?.[name] === "string" ? setupSettings[name] : JSON.stringify(setupSettings?.[name] ?? null)}`);
  return [connector, ...named].join(" ");
}

/** The setup members that name a source, in words, for messages and the reference. */
export const SOURCE_MEMBERS = [...new Set(Object.values(CONNECTOR_SETUP).flatMap((m) => Object.entries(m).filter(([, r]) => r.source).map(([name]) => name)))];
