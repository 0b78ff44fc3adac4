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

/** One setup member of a connector: its limit, and whether it is required, a secret, or masked on read. */
export interface SetupMember {
  limit: string;
  optional?: true;
  secret?: true;
  /** The API answers a mask instead of the value: the state's digest of the declared value stands. */
  maskedOnRead?: true;
}

const member = (limit: string, extra: Omit<SetupMember, "limit"> = {}): SetupMember => ({ limit, ...extra });
const TOKEN = member("connectionSecret", { secret: true });
const GITHUB = { repository: member("connectionRepository"), token: TOKEN };

/** Each builtin connector's setup members (`integration:<name>` connectors, e-mail and API take none). */
export const CONNECTOR_SETUP: Record<string, Record<string, SetupMember>> = {
  "builtin:email": {},
  "builtin:api": {},
  "builtin:website": { url: member("connectionURL") },
  "builtin:youtube": { channelId: member("youtubeChannel") },
  "builtin:github-discussions": GITHUB,
  "builtin:github-issues": GITHUB,
  "builtin:intercom": { token: TOKEN },
  "builtin:front": { token: TOKEN },
  "builtin:pylon": { token: TOKEN },
  "builtin:hubspot": { token: TOKEN },
  "builtin:linear": { token: TOKEN },
  "builtin:zendesk": { subdomain: member("connectionSetting"), email: member("connectionSetting"), apiToken: TOKEN },
  "builtin:zoho-desk": {
    dataCenter: member("connectionSetting"),
    orgId: member("connectionSetting"),
    clientId: member("connectionSetting"),
    clientSecret: TOKEN,
    refreshToken: TOKEN,
  },
  "builtin:freshdesk": { domain: member("connectionSetting"), apiKey: member("connectionSecret", { secret: true, maskedOnRead: true }) },
  "builtin:jira": {
    baseUrl: member("connectionURL"),
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
