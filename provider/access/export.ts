/**
 * Export of access: every direct grant of the exported sites, spaces and collections, each visitor-auth
 * site's settings (never its private key) and the organisation's installations, each configuration
 * value decided by the integration's configuration schema (see {@link isPublicSetting}): a value the
 * integration publishes is written as it is, every other one as a secret source to fill in (the API
 * returns it as it is, and it may be a credential), never as a value.
 */
import type { ApiClient, IntegrationConfigurationSchema } from "../client";
import type { StackGrant, StackInstallation, StackVisitorAuth } from "./model";

/** How export names the objects it read: a key of the exported file, or undefined for one left out. */
export interface AccessKeys {
  team(id: string): string | undefined;
  site(id: string): string | undefined;
  space(id: string): string | undefined;
}

/** The access export adds to a stack file. */
export interface AccessExport {
  /** The direct grants of each object, by `site:<id>`, `space:<id>` or `collection:<id>`. */
  permissions: Map<string, StackGrant[]>;
  /** Visitor authentication by site ID. */
  visitorAuth: Map<string, StackVisitorAuth>;
  installations: StackInstallation[];
  /** Environment variables the installations' configuration values are to be supplied in. */
  supply: string[];
}

/** The environment variable export names for one configuration value of an installation. */
export function configurationVariable(key: string, name: string): string {
  return `INSTALLATION_${key}_${name}`.toUpperCase().replace(/[^A-Z0-9_]/g, "_");
}

/** A property of an integration's configuration schema, with the markings a platform may add to it. */
type SettingSchema = IntegrationConfigurationSchema["properties"][string] & { secret?: unknown; format?: unknown };

/**
 * Whether a configuration value can be written into the file as it is: the integration's account-level
 * configuration schema declares the setting, does not mark it secret (`secret: true`, a `password`
 * type or format), and the value is one it publishes itself — one of its `enum` choices or its
 * `default` — or a boolean or number where it declares that type (no credential is a yes/no or a
 * count). Anything else (free text, an object, a setting the schema does not declare) may be a
 * credential: the contract says to treat installation configuration as secret.
 */
export function isPublicSetting(schema: SettingSchema | undefined, value: unknown): boolean {
  if (schema === undefined) return false;
  if (schema.secret === true || schema.type === "password" || schema.format === "password") return false;
  if (Array.isArray(schema.enum) && schema.enum.some((choice) => choice === value)) return true;
  if (schema.default !== undefined && JSON.stringify(schema.default) === JSON.stringify(value)) return true;
  if (typeof value === "boolean") return schema.type === "boolean";
  if (typeof value === "number") return schema.type === "number" || schema.type === "integer";
  return false;
}

/** A key from an integration name: lowercase, other characters to `-`, at most 63 characters. */
function keyFrom(name: string, taken: Set<string>): string {
  const base = (name.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^[^a-z0-9]+/, "") || "installation").slice(0, 60);
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
  taken.add(key);
  return key;
}

/**
 * Reads the access of the objects export exported (`count` is told the objects of each read): grants,
 * visitor authentication of the sites whose visibility is `visitor-auth`, and installations.
 */
export async function readAccess(
  client: ApiClient,
  organizationId: string,
  objects: { sites: { id: string; visibility?: string }[]; spaces: string[]; collections: string[] },
  keys: AccessKeys,
  count: (objects: number) => void = () => undefined,
): Promise<AccessExport> {
  const out: AccessExport = { permissions: new Map(), visitorAuth: new Map(), installations: [], supply: [] };
  const grantsOf = async (api: ReturnType<ApiClient["permissions"]["space"]>): Promise<StackGrant[]> => {
    const [teams, users] = await Promise.all([api.listTeams(), api.listUsers()]);
    count(teams.length + users.length);
    return [
      ...teams.map((t) => ({ team: keys.team(t.team.id) ?? { id: t.team.id }, role: t.permission })),
      ...users.map((u) => ({ user: u.user.email ?? u.user.id, role: u.permission })),
    ];
  };
  for (const s of objects.sites) {
    const grants = await grantsOf(client.permissions.site(organizationId, s.id) as ReturnType<ApiClient["permissions"]["space"]>);
    if (grants.length > 0) out.permissions.set(`site:${s.id}`, grants);
    if (s.visibility === "visitor-auth") {
      const a = await client.publishingAuth.get(organizationId, s.id);
      count(1);
      out.visitorAuth.set(s.id, {
        ...(a.backend === "custom" ? {} : { backend: a.backend }),
        ...(a.fallbackURL === undefined ? {} : { fallbackURL: a.fallbackURL }),
        ...(a.logoutURL === undefined ? {} : { logoutURL: a.logoutURL }),
      });
    }
  }
  for (const id of objects.spaces) {
    const grants = await grantsOf(client.permissions.space(id));
    if (grants.length > 0) out.permissions.set(`space:${id}`, grants);
  }
  for (const id of objects.collections) {
    const grants = await grantsOf(client.permissions.collection(id));
    if (grants.length > 0) out.permissions.set(`collection:${id}`, grants);
  }
  const taken = new Set<string>();
  const installed = await client.installations.listForOrg(organizationId);
  count(installed.length);
  for (const { integration, installation } of installed) {
    const [sites, spaces] = await Promise.all([client.installations.listSites(integration.name, installation.id), client.installations.listSpaces(integration.name, installation.id)]);
    count(sites.length + spaces.length);
    const key = keyFrom(integration.name, taken);
    const values = installation.configuration ?? {};
    const settings = (integration.configurations?.account?.properties ?? {}) as Record<string, SettingSchema>;
    const all = Object.keys(values).sort();
    const plain = all.filter((n) => isPublicSetting(Object.prototype.hasOwnProperty.call(settings, n) ? settings[n] : undefined, values[n]));
    const names = all.filter((n) => !plain.includes(n));
    const configuration = Object.fromEntries(plain.map((n) => [n, values[n]]));
    const secretConfiguration = Object.fromEntries(names.map((n) => [n, { env: configurationVariable(key, n) }]));
    out.supply.push(...names.map((n) => `${configurationVariable(key, n)} (configuration value ${JSON.stringify(n)} of installation ${key})`));
    const idOf = (v: string | { id: string }) => (typeof v === "string" ? v : v.id);
    out.installations.push({
      key,
      adopt: true,
      integration: integration.name,
      ...(plain.length > 0 ? { configuration } : {}),
      ...(names.length > 0 ? { secretConfiguration } : {}),
      ...(sites.length > 0 ? { sites: sites.map((x) => idOf(x.site)).map((id) => keys.site(id) ?? { id }) } : {}),
      ...(spaces.length > 0 ? { spaces: spaces.map((x) => idOf(x.space)).map((id) => keys.space(id) ?? { id }) } : {}),
      ...(installation.site_selection === "selected" ? {} : { siteSelection: installation.site_selection }),
      ...(installation.space_selection === "selected" ? {} : { spaceSelection: installation.space_selection }),
    });
  }
  return out;
}
