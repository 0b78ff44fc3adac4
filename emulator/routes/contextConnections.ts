/**
 * A site's context connections (api-extensions area 17): external sources the site's agent learns from,
 * each a connector with its own setup settings. Served with their settings as stored but for Freshdesk's
 * `apiKey` and Jira's `apiToken`, which are masked. `sync` runs at once here (204, then `succeeded`);
 * `test` checks the stored credentials (a value containing `invalid` fails, as a refused one would).
 */
import { badRequest } from "../errors";
import { compact } from "../objects";
import { limit, obj, type Schema } from "../schema";
import { requireSite } from "../access";
import type { Ctx, Route } from "../context";
import { newId } from "../seed";
import type { ConnectionRow, JsonObject, SiteRow } from "../model";
import { siteLocation, type View } from "../present";
import { registerSiteCollection } from "./siteCollection";

type ConnectionP = { organizationId: string; siteId: string; siteContextConnectionId: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

/** What a masked setup member is served as. */
export const MASKED = "********";

const closed = (properties: Record<string, Schema>, required: string[]): Schema => ({ ...obj(properties, required), additionalProperties: false });
const SECRET = limit("connectionSecret");
const SETTING = limit("connectionSetting");
const NONE = closed({}, []);
const TOKEN_ONLY = closed({ token: SECRET }, ["token"]);
const GITHUB = closed({ repository: limit("connectionRepository"), token: SECRET }, ["repository", "token"]);
const STATUS_MAPPING: Schema = limit("jiraStatusMapping");

/** Each builtin connector's setup settings, as the description gives them. */
const BUILTIN_SETUP: Record<string, Schema> = {
  email: NONE,
  api: NONE,
  website: closed({ url: limit("connectionURL") }, ["url"]),
  youtube: closed({ channelId: limit("youtubeChannel") }, ["channelId"]),
  "github-discussions": GITHUB,
  "github-issues": GITHUB,
  intercom: TOKEN_ONLY,
  front: TOKEN_ONLY,
  pylon: TOKEN_ONLY,
  hubspot: TOKEN_ONLY,
  linear: TOKEN_ONLY,
  zendesk: closed({ subdomain: SETTING, email: SETTING, apiToken: SECRET }, ["subdomain", "email", "apiToken"]),
  "zoho-desk": closed({ dataCenter: SETTING, orgId: SETTING, clientId: SETTING, clientSecret: SECRET, refreshToken: SECRET }, ["dataCenter", "orgId", "clientId", "clientSecret", "refreshToken"]),
  freshdesk: closed({ domain: SETTING, apiKey: SECRET }, ["domain", "apiKey"]),
  jira: closed({ baseUrl: limit("connectionURL"), apiEmail: limit("jiraEmail"), apiToken: SECRET, statusMapping: STATUS_MAPPING }, ["baseUrl", "apiEmail", "apiToken"]),
};

/** The members served masked, by connector (the description says these two are redacted on read). */
const MASKED_MEMBERS: Record<string, string[]> = { "builtin:freshdesk": ["apiKey"], "builtin:jira": ["apiToken"] };

/** The members holding credentials, whose values `test` checks. */
const CREDENTIALS = ["token", "apiToken", "apiKey", "clientSecret", "refreshToken"];

/** How a connection created without usage settings uses its records (a decision: the description gives none). */
export const DEFAULT_USAGE: ConnectionRow["usageSettings"] = { changeRequests: false, search: true, searchBoost: "x1.0" };

/**
 * The connector and setup settings of a body: `connector` picks the setup's schema (a discriminated
 * union the route's own schema cannot name per value), one branch per connector in one schema.
 */
const FED = ["email", "api"];
const SETUP: Schema = {
  type: "object",
  required: ["connector"],
  properties: { connector: limit("connectionConnector") },
  allOf: [
    ...Object.entries(BUILTIN_SETUP).map(([name, settings]) => ({
      if: { properties: { connector: { const: `builtin:${name}` } }, required: ["connector"] },
      // E-mail and API connections have no settings; every other builtin connector requires its own.
      then: FED.includes(name) ? { properties: { setupSettings: settings } } : { required: ["setupSettings"], properties: { setupSettings: settings } },
    })),
    { if: { properties: { connector: { pattern: "^integration:" } }, required: ["connector"] }, then: { properties: { setupSettings: NONE } } },
  ],
};

const OTHER_PROPERTIES: Record<string, Schema> = {
  connector: limit("connectionConnector"),
  setupSettings: { type: "object" },
  usageSettings: limit("connectionUsage"),
  filter: limit("connectionFilter"),
};

interface ConnectionBody {
  connector: string;
  setupSettings?: JsonObject;
  usageSettings?: ConnectionRow["usageSettings"];
  filter?: string;
  label?: string;
}

function presentConnection(v: View, site: SiteRow, c: ConnectionRow): Record<string, unknown> {
  const settings = structuredClone(c.setupSettings);
  for (const member of MASKED_MEMBERS[c.connector] ?? []) if (member in settings) settings[member] = MASKED;
  return compact({
    object: "context-connection",
    id: c.id,
    connector: c.connector,
    setupSettings: settings,
    label: c.label ?? undefined,
    filter: c.filter ?? undefined,
    usageSettings: { ...c.usageSettings },
    status: c.status,
    records: c.records,
    email: c.connector === "builtin:email" ? { ingestionAddress: `${c.id}@inbound.docsplatform.dev` } : undefined,
    syncedAt: c.syncedAt ?? undefined,
    createdAt: c.createdAt,
    urls: { location: `${siteLocation(v, site)}/context-connections/${c.id}` },
  });
}

/** Registers a site's context connection routes: the list's, then sync and test. */
export function registerContextConnections(route: Route): void {
  const { one, find } = registerSiteCollection<"contextConnections", ConnectionBody, ConnectionBody>(route, {
    path: "context-connections",
    param: "siteContextConnectionId",
    table: "contextConnections",
    what: "context connection",
    read: { role: "admin", action: "read context connections (their settings hold credentials)" },
    present: presentConnection,
    create: {
      // `label` is accepted by PATCH only, as the description gives it.
      body: { ...obj(OTHER_PROPERTIES, ["connector"]), additionalProperties: false, allOf: [SETUP] },
      row: (ctx, site) => {
        const b = ctx.body;
        return {
          id: newId("ctxc_"),
          site: site.id,
          connector: b.connector,
          setupSettings: structuredClone(b.setupSettings ?? {}),
          usageSettings: { ...(b.usageSettings ?? DEFAULT_USAGE) },
          label: null,
          filter: b.filter ?? null,
          status: "pending",
          records: 0,
          syncedAt: null,
          createdAt: ctx.store.nowIso(),
        };
      },
    },
    update: {
      body: {
        ...obj({ ...OTHER_PROPERTIES, label: limit("connectionLabel") }),
        additionalProperties: false,
        // A setup is the connector and its settings together (email, api and integration connectors have none).
        dependencies: { setupSettings: ["connector"] },
        if: { required: ["connector"] },
        then: SETUP,
      },
      apply: (c, b) => {
        if (b.connector !== undefined) {
          // The setup is replaced whole: a member left out is removed.
          c.connector = b.connector;
          c.setupSettings = structuredClone(b.setupSettings ?? {});
        }
        if (b.usageSettings !== undefined) c.usageSettings = { ...b.usageSettings };
        if (b.label !== undefined) c.label = b.label;
        if (b.filter !== undefined) c.filter = b.filter;
      },
    },
  });
  registerConnectionActions(route, one, find);
}

/** Sync (records are fetched at once here) and test (the stored credentials checked, nothing changed). */
function registerConnectionActions(route: Route, one: string, find: (ctx: AnyCtx, site: SiteRow, id: string) => ConnectionRow): void {
  /** The connection a request names, after checking the caller is an admin. */
  const named = (ctx: Ctx<ConnectionP, unknown, unknown>): ConnectionRow => {
    const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");
    return find(ctx, site, ctx.params.siteContextConnectionId);
  };
  route<ConnectionP>({
    method: "POST",
    url: `${one}/sync`,
    handler: (ctx) => {
      const c = named(ctx);
      // E-mail and API connections are fed by what is sent to them: there is nothing to fetch.
      if (c.connector === "builtin:email" || c.connector === "builtin:api") throw badRequest("siteContextConnectionId", `names a ${c.connector} connection, which is fed by what is sent to it and cannot be synced`);
      c.status = refused(c) ? "failed" : "succeeded";
      c.syncedAt = ctx.store.nowIso();
      ctx.store.touch("contextConnections", c);
      return { status: 204 };
    },
  });

  route<ConnectionP>({
    method: "POST",
    url: `${one}/test`,
    handler: (ctx) => {
      const c = named(ctx);
      const failed = refused(c);
      return { status: 200, body: compact({ object: "context-connection-test-result", success: !failed, error: failed ? "the service refused the stored credentials" : undefined }) };
    },
  });
}

/** Whether the service would refuse the stored credentials: here, a credential containing `invalid`. */
function refused(c: ConnectionRow): boolean {
  return CREDENTIALS.some((m) => typeof c.setupSettings[m] === "string" && (c.setupSettings[m] as string).includes("invalid"));
}

