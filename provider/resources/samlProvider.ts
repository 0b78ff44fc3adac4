import type { Role, SamlProvider as ApiSamlProvider, UpdateSamlProviderBody } from "../client";
import { type FieldSpec, type InputsOf, type KindDefinition, type LiveOf, type ResourceArgs, limit, ORGANIZATION_FIELD, reported } from "./kind";
import { organizationObject } from "./organizationObject";
import { makeProvider } from "./provider";

/** The fields of a SamlProvider: its one declaration; every field but the organisation is the API's body as it is. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  label: { schema: limit("samlLabel"), doc: "Label shown on the login page, 1 to 30 characters.", required: true, patched: true },
  entityID: { schema: limit("samlEntityID"), doc: "Entity ID of the identity provider, at most 1024 characters. The API cannot remove it.", absent: "unmanaged", patched: true },
  certificate: { schema: limit("samlCertificate"), doc: "Signing certificate of the identity provider (PEM), at most 10000 characters. The API cannot remove it.", absent: "unmanaged", patched: true },
  ssoURL: { schema: limit("samlSsoURL"), doc: "Single sign-on URL of the identity provider, an absolute URI of at most 2048 characters. The API cannot remove it.", absent: "unmanaged", patched: true },
  defaultTeam: { schema: limit("id"), doc: "Team that users signing in through this provider join: a team key of this file or {id: \"<team ID>\"}. The API cannot remove it.", absent: "unmanaged", stack: { ref: "teams" }, patched: true },
  defaultRole: { schema: limit<Role | null>("role"), doc: "Role given to users signing in through this provider; null for guests (a value of its own, so an omitted line is not managed).", absent: "unmanaged", patched: true },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a SamlProvider: the API's body (the label is its natural key) and the organisation. */
export type SamlProviderInputs = InputsOf<typeof fields>;

/** Outputs of a SamlProvider: the declared fields as live (`defaultTeam` its ID: the API answers with the Team object), plus what the platform reports. */
export type SamlProviderOutputs = LiveOf<typeof fields> & {
  organizationId: string;
  label: string;
  status: string | null;
  /** The platform's side of the SAML exchange, to configure at the identity provider. */
  service: { acsURL: string | null; startURL: string | null; entityID: string | null } | null;
  url: string | null;
  createdAt: string | null;
};

function toOutputs(organizationId: string, p: ApiSamlProvider): SamlProviderOutputs {
  // `defaultTeam` is a Team object in responses but an ID in requests: keep the ID so declaring it is not drift.
  const team: unknown = p.defaultTeam;
  const defaultTeam = typeof team === "string" ? team : ((team as { id?: string } | null | undefined)?.id ?? null);
  return {
    organizationId,
    ...reported(p, ["label", "entityID", "certificate", "ssoURL", "defaultRole", "status", "createdAt"]),
    defaultTeam,
    service: p.service ? reported(p.service, ["acsURL", "startURL", "entityID"]) : null,
    url: p.urls?.location ?? null,
  };
}

/** The SamlProvider kind: one POST with every declared field, PATCH with the changed ones. */
export const samlProviderKind = {
  name: "SamlProvider",
  noun: { one: "SAML provider", many: "SAML providers" },
  doc: "A SAML single sign-on provider of the organisation.",
  list: {
    property: "saml",
    after: "teams",
    definition: "samlProvider",
    name: "saml",
    doc: "SAML single sign-on providers of the organisation.",
    entryDoc: "A SAML single sign-on provider.",
    readAll: (client, org) => client.saml.list(org),
  } as const,
  outputs: ["entityID", "certificate", "ssoURL", "defaultTeam", "defaultRole", "service", "url"],
  fields,

  ...organizationObject<SamlProviderInputs, SamlProviderOutputs, ApiSamlProvider, UpdateSamlProviderBody>({
    kind: "SamlProvider",
    area: (client) => client.saml,
    toOutputs,
    fields,
    naturalKey: { field: "label" },
    objects: "SAML providers",
    verb: "are labelled",
  }),
} satisfies KindDefinition<SamlProviderInputs, SamlProviderOutputs>;

/** The dynamic provider of SamlProvider (serialised through `provider/providers/samlProvider`). */
export const samlProviderProvider = makeProvider<SamlProviderInputs, SamlProviderOutputs>(samlProviderKind);

/** Arguments of a SamlProvider. */
export type SamlProviderArgs = ResourceArgs<SamlProviderInputs>;
