import type { Role, SamlProvider as ApiSamlProvider, UpdateSamlProviderBody } from "../client";
import { type Created, type KindContext, type KindDefinition, type ResourceArgs, exactlyOne, orGone, limit, ORGANIZATION_FIELD } from "./kind";
import { makeProvider } from "./provider";

/** Inputs of a SamlProvider. */
export interface SamlProviderInputs {
  organizationId: string;
  /** 1 to 30 characters; the natural key `adopt` looks up by. */
  label: string;
  /** The identity provider's entity ID, at most 1024 characters. */
  entityID?: string;
  /** The identity provider's public signing certificate, at most 10000 characters. */
  certificate?: string;
  /** The identity provider's single sign-on URL, at most 2048 characters. */
  ssoURL?: string;
  /** ID of the team new SSO members join. */
  defaultTeam?: string;
  /** Role of new SSO members (null: guests). */
  defaultRole?: Role | null;
}

/** Outputs of a SamlProvider: the declared fields as live, plus what the platform reports. */
export interface SamlProviderOutputs {
  organizationId: string;
  label: string;
  entityID: string | null;
  certificate: string | null;
  ssoURL: string | null;
  /** ID of the default team (the API answers with the Team object). */
  defaultTeam: string | null;
  defaultRole: Role | null;
  status: string | null;
  /** The platform's side of the SAML exchange, to configure at the identity provider. */
  service: { acsURL: string | null; startURL: string | null; entityID: string | null } | null;
  url: string | null;
  createdAt: string | null;
}

/** The declared fields of a SamlProvider that the API body takes as they are. */
const BODY_FIELDS = ["label", "entityID", "certificate", "ssoURL", "defaultTeam", "defaultRole"] as const;

function toOutputs(organizationId: string, p: ApiSamlProvider): SamlProviderOutputs {
  // `defaultTeam` is a Team object in responses but an ID in requests: keep the ID so declaring it is not drift.
  const team: unknown = p.defaultTeam;
  const defaultTeam = typeof team === "string" ? team : ((team as { id?: string } | null | undefined)?.id ?? null);
  return {
    organizationId,
    label: p.label,
    entityID: p.entityID ?? null,
    certificate: p.certificate ?? null,
    ssoURL: p.ssoURL ?? null,
    defaultTeam,
    defaultRole: p.defaultRole ?? null,
    status: p.status ?? null,
    service: p.service
      ? { acsURL: p.service.acsURL ?? null, startURL: p.service.startURL ?? null, entityID: p.service.entityID ?? null }
      : null,
    url: p.urls?.location ?? null,
    createdAt: p.createdAt ?? null,
  };
}

/** The body of the declared fields among `names`. */
function bodyOf(inputs: SamlProviderInputs, names: readonly string[]): UpdateSamlProviderBody {
  const body: Record<string, unknown> = {};
  for (const f of BODY_FIELDS) if (names.includes(f) && inputs[f] !== undefined) body[f] = inputs[f];
  return body as UpdateSamlProviderBody;
}

/** The one SAML provider with exactly this label. */
async function adopt(ctx: KindContext, inputs: SamlProviderInputs): Promise<Created<SamlProviderOutputs> | undefined> {
  const providers = await ctx.client.saml.list(inputs.organizationId);
  const found = exactlyOne(
    "SamlProvider",
    `SAML providers of organization ${inputs.organizationId} are labelled ${JSON.stringify(inputs.label)}`,
    providers.filter((p) => p.label === inputs.label),
  );
  return found ? { id: found.id, outs: toOutputs(inputs.organizationId, found) } : undefined;
}

/** The SamlProvider kind: one POST with every declared field, PATCH with the changed ones. */
export const samlProviderKind = {
  name: "SamlProvider",
  doc: "A SAML single sign-on provider of the organisation.",
  outputs: ["entityID", "certificate", "ssoURL", "defaultTeam", "defaultRole", "status", "service", "url", "createdAt"],
  fields: {
    organizationId: ORGANIZATION_FIELD,
    label: { schema: limit("samlLabel"), doc: "Label shown on the login page, 1 to 30 characters.", required: true },
    entityID: { schema: limit("samlEntityID"), doc: "Entity ID of the identity provider, at most 1024 characters. The API cannot remove it.", absent: "unmanaged" },
    certificate: { schema: limit("samlCertificate"), doc: "Signing certificate of the identity provider (PEM), at most 10000 characters. The API cannot remove it.", absent: "unmanaged" },
    ssoURL: { schema: limit("samlSsoURL"), doc: "Single sign-on URL of the identity provider, an absolute URI of at most 2048 characters. The API cannot remove it.", absent: "unmanaged" },
    defaultTeam: { schema: limit("id"), doc: "Team that users signing in through this provider join: a team key of this file or {id: \"<team ID>\"}. The API cannot remove it.", absent: "unmanaged", stack: { ref: "teams" } },
    defaultRole: { schema: limit("role"), doc: "Role given to users signing in through this provider; null for guests (a value of its own, so an omitted line is not managed).", absent: "unmanaged" },
  },

  naturalKey: { field: "label", scope: "organization" },

  async create(ctx, inputs) {
    const body = { ...bodyOf(inputs, BODY_FIELDS), label: inputs.label };
    const created = await ctx.client.saml.create(inputs.organizationId, body);
    return { id: created.id, outs: toOutputs(inputs.organizationId, created) };
  },

  async read(ctx, id, state) {
    const p = await orGone(ctx.client.saml.get(state.organizationId, id));
    return p ? toOutputs(state.organizationId, p) : undefined;
  },

  async update(ctx, id, olds, news, changed) {
    const body = bodyOf(news, changed);
    if (Object.keys(body).length === 0) return olds;
    return toOutputs(olds.organizationId, await ctx.client.saml.update(olds.organizationId, id, body));
  },

  outputsOf: (p: ApiSamlProvider, where) => toOutputs(where.organizationId, p),

  async delete(ctx, id, olds) {
    await ctx.client.saml.delete(olds.organizationId, id);
  },

  adopt,
} satisfies KindDefinition<SamlProviderInputs, SamlProviderOutputs>;

/** The dynamic provider of SamlProvider (serialised through `provider/providers/samlProvider`). */
export const samlProviderProvider = makeProvider<SamlProviderInputs, SamlProviderOutputs>(samlProviderKind);

/** Arguments of a SamlProvider. */
export type SamlProviderArgs = ResourceArgs<SamlProviderInputs>;
