import type { ApiClient, Installation, InstallationSelection } from "../client";
import { isConflict, isNotFound } from "../client/errors";
import { type Created, type KindContext, type KindDefinition, type ResourceArgs, exactlyOne, limit, orGone, ORGANIZATION_FIELD } from "./kind";
import { type Digest, secretDigest, secretDigests } from "./digest";
import { makeProvider } from "./provider";

/** Inputs of IntegrationInstallation: an integration installed on the organisation and enabled on sites and spaces. */
export interface IntegrationInstallationInputs {
  organizationId: string;
  /** The integration's name: the organisation's own or a published one. */
  integration: string;
  /** Configuration values that are not secret. */
  configuration?: Record<string, unknown>;
  /** Configuration values that are secrets, by name: pass them as a Pulumi secret. Sent merged into `configuration`. */
  secretConfiguration?: Record<string, string>;
  /** IDs of the sites it is enabled on. */
  sites?: string[];
  /** IDs of the spaces it is enabled on. */
  spaces?: string[];
  siteSelection?: InstallationSelection;
  spaceSelection?: InstallationSelection;
}

/** Outputs of IntegrationInstallation. */
export interface IntegrationInstallationOutputs {
  organizationId: string;
  integration: string;
  /** The configuration without the secret values. */
  configuration: Record<string, unknown>;
  /** One SHA-256 per secret configuration value (of `name NUL value`), stored as a secret: a changed value is an update. */
  secretConfiguration: Record<string, Digest>;
  sites: string[];
  spaces: string[];
  siteSelection: InstallationSelection;
  spaceSelection: InstallationSelection;
  status: string;
  url: string;
}

const sortedIds = (v: unknown): unknown => (Array.isArray(v) ? [...v].sort() : v);

/** Outputs from the live installation: the secret names' values become digests, the rest stays the configuration. */
function toOutputs(organizationId: string, integration: string, i: Installation, secretNames: readonly string[], sites: string[], spaces: string[]): IntegrationInstallationOutputs {
  const configuration: Record<string, unknown> = {};
  const secretConfiguration: Record<string, Digest> = {};
  for (const [name, value] of Object.entries(i.configuration ?? {})) {
    if (secretNames.includes(name)) secretConfiguration[name] = secretDigest(name, value);
    else configuration[name] = value;
  }
  return {
    organizationId,
    integration,
    configuration,
    secretConfiguration,
    sites,
    spaces,
    siteSelection: i.site_selection,
    spaceSelection: i.space_selection,
    status: i.status,
    url: i.urls.location,
  };
}

/** The whole configuration to send: the plain values and the secret ones. */
function configurationOf(inputs: IntegrationInstallationInputs): Record<string, unknown> {
  return { ...(inputs.configuration ?? {}), ...(inputs.secretConfiguration ?? {}) };
}

const siteIdOf = (s: { site: string | { id: string } }): string => (typeof s.site === "string" ? s.site : s.site.id);
const spaceIdOf = (s: { space: string | { id: string } }): string => (typeof s.space === "string" ? s.space : s.space.id);

async function enabledOn(client: ApiClient, name: string, id: string): Promise<{ sites: string[]; spaces: string[] }> {
  const [sites, spaces] = await Promise.all([client.installations.listSites(name, id), client.installations.listSpaces(name, id)]);
  return { sites: sites.map(siteIdOf), spaces: spaces.map(spaceIdOf) };
}

/**
 * Enables or disables on sites and spaces until the live lists are the declared ones. Each call means
 * "make it so": an enable answered 409 (already enabled) or a disable answered 404 (not enabled) has
 * nothing left to do — as after an earlier attempt whose answer was lost, which the state does not show.
 */
async function reconcileTargets(ctx: KindContext, name: string, id: string, live: { sites: string[]; spaces: string[] }, inputs: IntegrationInstallationInputs): Promise<{ sites: string[]; spaces: string[] }> {
  const api = ctx.client.installations;
  const sites = inputs.sites ?? [];
  const spaces = inputs.spaces ?? [];
  const gone = (e: unknown) => {
    if (!isNotFound(e)) throw e;
  };
  const already = (e: unknown) => {
    if (!isConflict(e)) throw e;
  };
  for (const s of live.sites.filter((x) => !sites.includes(x))) await api.disableOnSite(name, id, s).catch(gone);
  for (const s of live.spaces.filter((x) => !spaces.includes(x))) await api.disableOnSpace(name, id, s).catch(gone);
  for (const s of sites.filter((x) => !live.sites.includes(x))) await api.enableOnSite(name, id, s).catch(already);
  for (const s of spaces.filter((x) => !live.spaces.includes(x))) await api.enableOnSpace(name, id, s).catch(already);
  return { sites: [...sites], spaces: [...spaces] };
}

/** The PATCH body for the changed fields (configuration whole, with its secret values). */
function patchBody(inputs: IntegrationInstallationInputs, changed: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if ((changed.includes("configuration") || changed.includes("secretConfiguration")) && (inputs.configuration !== undefined || inputs.secretConfiguration !== undefined)) {
    body.configuration = configurationOf(inputs);
  }
  if (changed.includes("siteSelection") && inputs.siteSelection !== undefined) body.site_selection = inputs.siteSelection;
  if (changed.includes("spaceSelection") && inputs.spaceSelection !== undefined) body.space_selection = inputs.spaceSelection;
  return body;
}

/** The organisation's installation of the integration, with where it is enabled. */
async function adopt(ctx: KindContext, inputs: IntegrationInstallationInputs): Promise<Created<IntegrationInstallationOutputs> | undefined> {
  const items = await ctx.client.installations.listForOrg(inputs.organizationId, { search: inputs.integration });
  const found = exactlyOne("IntegrationInstallation", `installations of ${inputs.integration}`, items.filter((x) => x.integration.name === inputs.integration).map((x) => x.installation));
  if (!found) return undefined;
  const targets = await enabledOn(ctx.client, inputs.integration, found.id);
  return { id: found.id, outs: toOutputs(inputs.organizationId, inputs.integration, found, Object.keys(inputs.secretConfiguration ?? {}), targets.sites, targets.spaces) };
}

/** The IntegrationInstallation kind: install, configure, enable on sites and spaces; delete uninstalls. */
export const integrationInstallationKind = {
  name: "IntegrationInstallation",
  noun: { one: "installation", many: "installations" },
  doc: "An integration installed on the organisation with its configuration, enabled on chosen sites and spaces; deleting it uninstalls the integration.",
  outputs: ["url"],
  fields: {
    organizationId: ORGANIZATION_FIELD,
    integration: { schema: limit("integrationName"), doc: "Name of the integration: the organisation's own or a published one.", required: true, createOnly: true },
    configuration: {
      schema: { type: "object", additionalProperties: true },
      doc: "The installation's configuration values that are not secret; sent whole (with the secret ones) when either changes.",
      absent: "unmanaged",
    },
    secretConfiguration: {
      schema: { type: "object", additionalProperties: { type: "string" } },
      doc: "Configuration values that are secrets, by name; the state keeps a SHA-256 of each name and value, as a secret, so a changed value is an update.",
      absent: "unmanaged",
      normalize: secretDigests,
      stack: "secretSources",
    },
    sites: { schema: { type: "array", items: limit("id") }, doc: "IDs of the sites it is enabled on; others are disabled.", absent: { reset: [] }, normalize: sortedIds, stack: { ref: "sites" } },
    spaces: { schema: { type: "array", items: limit("id") }, doc: "IDs of the spaces it is enabled on; others are disabled.", absent: { reset: [] }, normalize: sortedIds, stack: { ref: "spaces" } },
    siteSelection: { schema: limit("installationSelection"), doc: "Whether it applies to all sites or the selection.", absent: "unmanaged", initial: "selected" },
    spaceSelection: { schema: limit("installationSelection"), doc: "Whether it applies to all spaces or the selection.", absent: "unmanaged", initial: "selected" },
  },
  secretOutputs: ["secretConfiguration"],
  naturalKey: { field: "integration", scope: "organization", enforced: "an integration is installed once on an organisation" },

  async create(ctx, inputs) {
    const api = ctx.client.installations;
    let i = await api.install(inputs.integration, inputs.organizationId);
    const secretNames = Object.keys(inputs.secretConfiguration ?? {});
    ctx.created?.(i.id, toOutputs(inputs.organizationId, inputs.integration, i, secretNames, [], []));
    const body = patchBody(inputs, ["configuration", "siteSelection", "spaceSelection"]);
    if (Object.keys(body).length > 0) i = await api.update(inputs.integration, i.id, body);
    const targets = await reconcileTargets(ctx, inputs.integration, i.id, { sites: [], spaces: [] }, inputs);
    return { id: i.id, outs: toOutputs(inputs.organizationId, inputs.integration, i, secretNames, targets.sites, targets.spaces) };
  },

  async read(ctx, id, state) {
    // With no state (Resource.get) the integration is found among the organisation's installations.
    const name = state.integration ?? (await ctx.client.installations.listForOrg(state.organizationId)).find((x) => x.installation.id === id)?.integration.name;
    const i = name === undefined ? undefined : await orGone(ctx.client.installations.get(name, id));
    if (!i || name === undefined) return undefined;
    const targets = await enabledOn(ctx.client, name, id);
    return toOutputs(state.organizationId, name, i, Object.keys(state.secretConfiguration ?? {}), targets.sites, targets.spaces);
  },

  // From the state: one PATCH when the configuration or a selection changed, one call per site or space enabled or disabled.
  async update(ctx, id, olds, news, changed) {
    const api = ctx.client.installations;
    const body = patchBody(news, changed);
    const i = Object.keys(body).length > 0 ? await api.update(olds.integration, id, body) : undefined;
    const targets = changed.includes("sites") || changed.includes("spaces") ? await reconcileTargets(ctx, olds.integration, id, olds, news) : { sites: olds.sites, spaces: olds.spaces };
    if (i === undefined) return { ...olds, ...targets };
    return toOutputs(olds.organizationId, olds.integration, i, Object.keys(news.secretConfiguration ?? olds.secretConfiguration ?? {}), targets.sites, targets.spaces);
  },

  async delete(ctx, id, olds) {
    await ctx.client.installations.uninstall(olds.integration, id);
  },

  adopt,
} satisfies KindDefinition<IntegrationInstallationInputs, IntegrationInstallationOutputs>;

/** The dynamic provider of IntegrationInstallation (serialised through `provider/providers/integrationInstallation`). */
export const integrationInstallationProvider = makeProvider<IntegrationInstallationInputs, IntegrationInstallationOutputs>(integrationInstallationKind);

/** Arguments of IntegrationInstallation. */
export type IntegrationInstallationArgs = ResourceArgs<IntegrationInstallationInputs>;
