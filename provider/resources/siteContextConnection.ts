import type { ConnectionUsageSettings, ContextConnection, UpdateConnectionBody } from "../client";
import { type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type ResourceArgs, limit, ORGANIZATION_FIELD, SITE_FIELD } from "./kind";
import { CONNECTOR_SETUP, connectionSource, setupOf, URL_SETTINGS, SOURCE_MEMBERS } from "./assistantRules";
import { type Digest, secretDigest, secretDigests } from "./digest";
import { makeProvider } from "./provider";
import { siteObject } from "./siteObject";

/** A setup compared member by member, in one order. */
const sortedMembers = (v: unknown): unknown => (v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v);

/**
 * Every setup member of every connector, each described; which ones a connector takes is its rule
 * (assistantRules.ts). A URL the platform fetches (a website's url, Jira's baseUrl) is held to its limit
 * here, as every fetched URL is by its field's schema: the kind's check and the loader refuse a private
 * host in the same words.
 */
const SETUP_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: Object.fromEntries(
    [...new Set(Object.values(CONNECTOR_SETUP).flatMap((m) => Object.entries(m)))].map(([name, m]) => [
      name,
      {
        ...(URL_SETTINGS.has(m.limit) ? limit(m.limit) : {}),
        description: m.secret ? `A secret (${name}): given under secretSettings from config or the environment, never here.` : `The ${name} of the connectors that take it.`,
      },
    ]),
  ),
};

/** What a connection created without usage settings gets (the emulator's decision, stated in its README). */
export const INITIAL_USAGE: ConnectionUsageSettings = { changeRequests: false, search: true, searchBoost: "x1.0" };

/** The fields of a SiteContextConnection: its one declaration, from which its types and schema derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  siteId: SITE_FIELD,
  connector: {
    schema: limit("connectionConnector"),
    doc: "The source the site's agent learns from: builtin:email, api, website, youtube, github-discussions, github-issues, intercom, front, pylon, hubspot, linear, zendesk, zoho-desk, freshdesk, jira, or integration:<name>. A change replaces the connection. With the setup settings that name the source (a website's url, a repository, ...), the connection's natural key: adopt, and a run after one killed mid-create, find a live connection by them.",
    required: true,
    createOnly: true,
  },
  setupSettings: {
    schema: SETUP_SCHEMA as FieldSpec<Record<string, unknown>>["schema"],
    doc: "The connector's settings that are not secrets (a website's url, a repository, a Zendesk subdomain, Jira's baseUrl and statusMapping, ...), with the API's member names.",
    absent: { reset: {} },
    normalize: sortedMembers,
  },
  secretSettings: {
    schema: { type: "object", additionalProperties: limit("connectionSecret") } as FieldSpec<Record<string, string>>["schema"],
    doc: "The connector's secret settings (token, apiToken, apiKey, clientSecret, refreshToken), by member name; sent inside setupSettings. The state keeps a SHA-256 of each name and value, as a secret: a changed value is an update; Freshdesk's apiKey and Jira's apiToken are masked on read, so a change of those made by hand is not seen.",
    absent: { reset: {} },
    normalize: secretDigests,
    stack: "secretSources",
  },
  usageSettings: {
    schema: limit<ConnectionUsageSettings>("connectionUsage"),
    doc: "How its records are used: changeRequests (propose change requests from them), search (show them in search), searchBoost (x0.8, x1.0, x1.2), sync (push change-request state back).",
    absent: "unmanaged",
    initial: INITIAL_USAGE,
    normalize: sortedMembers,
  },
  label: { schema: limit("connectionLabel"), doc: "Label of the connection, at most 128 characters (set after creation: the API takes it on update only).", absent: { reset: "" } },
  filter: { schema: limit("connectionFilter"), doc: "What is ingested: a tag, label or expression, per connector; empty: everything.", absent: { reset: "" } },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a SiteContextConnection. */
export type SiteContextConnectionInputs = InputsOf<typeof fields>;

/** Outputs of a SiteContextConnection: its settings (secrets as digests) and what the platform reports. */
export interface SiteContextConnectionOutputs {
  organizationId: string;
  siteId: string;
  connector: string;
  setupSettings: Record<string, unknown>;
  /** A secret output: one SHA-256 per secret member, never a value. */
  secretSettings: Record<string, Digest>;
  usageSettings: ConnectionUsageSettings;
  label: string;
  filter: string;
  status: string;
  records: number;
}

/** Where the outputs come from besides the live object: the declared or stored secrets stand for the masked members. */
export interface ConnectionWhere {
  organizationId: string;
  siteId: string;
  secretSettings?: Record<string, unknown> | null;
}

/** The live setup split: plain members as they are, secret ones as digests (a masked one: the digest of what was declared). */
function splitSetup(c: ContextConnection, where: ConnectionWhere): Pick<SiteContextConnectionOutputs, "setupSettings" | "secretSettings"> {
  const members = setupOf(c.connector) ?? {};
  const setupSettings: Record<string, unknown> = {};
  const secretSettings: Record<string, Digest> = {};
  const known = (secretDigests(where.secretSettings ?? {}) ?? {}) as Record<string, Digest>;
  for (const [name, value] of Object.entries(c.setupSettings ?? {})) {
    const rule = members[name];
    if (!rule?.secret) setupSettings[name] = value;
    else if (!rule.maskedOnRead) secretSettings[name] = secretDigest(name, value);
    else if (known[name]) secretSettings[name] = known[name];
  }
  return { setupSettings, secretSettings };
}

/** The setup the API takes: the plain members and the secret values together. */
function setupBody(inputs: SiteContextConnectionInputs): Record<string, unknown> {
  return { ...(inputs.setupSettings ?? {}), ...(inputs.secretSettings ?? {}) };
}

/** The natural key: the connector and the setup members naming its source (the platform keeps nothing of a connection unique). */
const sourceOf = (values: Readonly<Record<string, unknown>>): string | undefined =>
  typeof values.connector === "string" ? connectionSource(values.connector, values.setupSettings as Record<string, unknown> | undefined) : undefined;

const crud = siteObject({
  list: "contextConnections",
  outputs: (c: ContextConnection, where: ConnectionWhere) => ({
    connector: c.connector,
    ...splitSetup(c, where),
    usageSettings: c.usageSettings,
    label: c.label ?? "",
    filter: c.filter ?? "",
    status: c.status,
    records: c.records ?? 0,
  }),
  fields,
  // Adopt, a lost create's recovery and an earlier run's takeover find a connection by its source.
  adopt: {
    kind: "SiteContextConnection",
    field: "connector",
    objects: "context connections",
    verb: "read from",
    compound: { of: sourceOf, words: `the connector and the setup settings that name its source (${SOURCE_MEMBERS.join(", ")})` },
  },
});

/** The update request of the changed fields: a setup is the connector and all its settings. */
function updateBody(news: SiteContextConnectionInputs, changed: readonly string[]): UpdateConnectionBody {
  const body: UpdateConnectionBody = {};
  if (changed.includes("setupSettings") || changed.includes("secretSettings")) Object.assign(body, { connector: news.connector, setupSettings: setupBody(news) });
  if (changed.includes("usageSettings") && news.usageSettings) body.usageSettings = news.usageSettings;
  if (changed.includes("label")) body.label = news.label ?? "";
  if (changed.includes("filter")) body.filter = news.filter ?? "";
  return body;
}

async function update(ctx: KindContext, id: string, olds: SiteContextConnectionOutputs, news: SiteContextConnectionInputs, changed: string[]): Promise<SiteContextConnectionOutputs> {
  const body = updateBody(news, changed);
  if (Object.keys(body).length === 0) return olds;
  const live = await ctx.client.contextConnections.update(olds.organizationId, olds.siteId, id, body);
  // The new secrets stand for the masked members (the stored digests would be the old values').
  return crud.outputsOf(live, { ...olds, secretSettings: news.secretSettings ?? {} }) as SiteContextConnectionOutputs;
}

/** The SiteContextConnection kind: POST the connector with its settings, then PATCH the label (create takes none). */
export const siteContextConnectionKind = {
  name: "SiteContextConnection",
  noun: { one: "context connection", many: "context connections" },
  doc: "An external source the site's agent learns from (a website, a YouTube channel, GitHub issues, a help desk, Jira, an integration, ...): the connector's settings (secrets from config or the environment), how its records are used, a filter and a label.",
  fields,
  secretOutputs: ["secretSettings"],

  ...crud,
  update,

  async create(ctx, inputs) {
    const api = ctx.client.contextConnections;
    const setup = setupBody(inputs);
    let live = await api.create(inputs.organizationId, inputs.siteId, {
      connector: inputs.connector,
      ...(Object.keys(setup).length > 0 || Object.keys(setupOf(inputs.connector) ?? {}).length > 0 ? { setupSettings: setup } : {}),
      ...(inputs.usageSettings ? { usageSettings: inputs.usageSettings } : {}),
      ...(inputs.filter ? { filter: inputs.filter } : {}),
    });
    ctx.created?.(live.id, crud.outputsOf(live, inputs));
    if (inputs.label) live = await api.update(inputs.organizationId, inputs.siteId, live.id, { label: inputs.label });
    return { id: live.id, outs: crud.outputsOf(live, inputs) as SiteContextConnectionOutputs };
  },
} satisfies KindDefinition<SiteContextConnectionInputs, SiteContextConnectionOutputs>;

/** The dynamic provider of SiteContextConnection (serialised through `provider/providers/siteContextConnection`). */
export const siteContextConnectionProvider = makeProvider<SiteContextConnectionInputs, SiteContextConnectionOutputs>(siteContextConnectionKind);

/** Arguments of a SiteContextConnection. */
export type SiteContextConnectionArgs = ResourceArgs<SiteContextConnectionInputs>;
