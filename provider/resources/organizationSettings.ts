import type { Organization, Role, UpdateOrganizationBody } from "../client";
import { type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type LiveOf, type ResourceArgs, type ValueSchema, boolean, orGone, limit, ORGANIZATION_FIELD, declaredAmong, patchedFields } from "./kind";
import { jsonEqual, makeProvider } from "./provider";

/** Content shown by default: a site of the organization. */
export interface DefaultContent {
  type: "site";
  site: string;
}

const normalizeDomains = (v: unknown): unknown =>
  Array.isArray(v) ? [...new Set(v.map((d) => String(d).toLowerCase()))].sort() : v;

/** The fields of OrganizationSettings: its one declaration; every setting is the PATCH body's field of the same name. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  title: { schema: limit("orgTitle"), doc: "Organisation title, 2 to 255 characters.", absent: "unmanaged", patched: true },
  emailDomains: { schema: { type: "array", uniqueItems: true, items: { type: "string", minLength: 1 } } as ValueSchema<string[]>, doc: "E-mail domains whose users may join the organisation (e.g. demo.test).", absent: "unmanaged", initial: [], normalize: normalizeDomains, patched: true },
  hostname: { schema: limit("orgHostname"), doc: "Default hostname of the organisation's public content, 3 to 32 characters.", absent: "unmanaged", patched: true },
  defaultRole: { schema: limit<Role | null>("role"), doc: "Role given to new members: admin, create, review, edit, comment or read; null for guests (a value of its own, so an omitted line is not managed).", absent: "unmanaged", patched: true },
  defaultContent: { schema: {"type": "object", "required": ["type", "site"], "additionalProperties": false, "properties": {"type": {"const": "site"}, "site": limit("id")}} as ValueSchema<DefaultContent>, doc: "Site shown by default to visitors of the organisation: a site key of this file or {id: \"<site ID>\"}.", absent: "clear", stack: { ref: "sites", wrap: (site) => ({ type: "site", site }), unwrap: (v) => (v as { site?: string } | null)?.site ?? null }, patched: true },
  logo: { schema: limit("orgLogo"), doc: "URI of the organisation logo, at most 2048 characters.", absent: "clear", patched: true },
  sso: { schema: boolean(), doc: "Enforce single sign-on for the whole organisation.", absent: "unmanaged", patched: true },
  ai: { schema: boolean(), doc: "Enable AI features for the organisation.", absent: "unmanaged", patched: true },
  inviteLinks: { schema: boolean(), doc: "Allow joining the organisation through invite links.", absent: "unmanaged", patched: true },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of OrganizationSettings: the organisation and the settings it manages (email domains compared as a set: order and case do not matter). */
export type OrganizationSettingsInputs = InputsOf<typeof fields>;

/** What an OrganizationSettings resource may set on an existing organization. */
export type OrganizationSettingsValues = Omit<OrganizationSettingsInputs, "organizationId">;

type Setting = Exclude<keyof typeof fields, "organizationId">;

/** The settings as the organization has them (absent ones as null; a title and the domains it always has). */
export type LiveOrganizationSettings = Omit<LiveOf<typeof fields>, "organizationId"> & { title: string; emailDomains: string[] };

/** Outputs of OrganizationSettings: the live settings and the values they had before this resource set them. */
export type OrganizationSettingsOutputs = LiveOrganizationSettings & {
  organizationId: string;
  /** Values of the managed settings before this resource first set them: restored on delete. */
  previous: Partial<LiveOrganizationSettings>;
  type: string | null;
  plan: string | null;
  appUrl: string | null;
};

const SETTINGS = patchedFields(fields) as Setting[];
/** Settings the PATCH accepts null for. */
const NULLABLE: ReadonlySet<Setting> = new Set<Setting>(["defaultRole", "defaultContent", "logo"]);

function liveSettings(org: Organization): LiveOrganizationSettings {
  return {
    title: org.title,
    emailDomains: org.emailDomains ?? [],
    hostname: org.hostname ?? null,
    defaultRole: org.defaultRole ?? null,
    defaultContent: org.defaultContent ? { type: org.defaultContent.type, site: org.defaultContent.site } : null,
    logo: org.urls?.logo ?? null,
    sso: org.sso ?? null,
    ai: org.ai ?? null,
    inviteLinks: org.inviteLinks ?? null,
  };
}

function toOutputs(org: Organization, previous: Partial<LiveOrganizationSettings>): OrganizationSettingsOutputs {
  return {
    organizationId: org.id,
    ...liveSettings(org),
    previous,
    type: org.type ?? null,
    plan: org.plan ?? null,
    appUrl: org.urls?.app ?? null,
  };
}

// Structural: the engine delivers objects with their keys sorted (`{site, type}`), the API answers `{type, site}`.
const sameSetting = (f: Setting, a: unknown, b: unknown): boolean =>
  f === "emailDomains" ? jsonEqual(normalizeDomains(a), normalizeDomains(b)) : jsonEqual(a, b);

/**
 * One PATCH with the wanted settings that differ from the live ones. A value the API cannot set
 * back (null for hostname, sso or ai: the organization never had one) is left as it is.
 */
async function apply(ctx: KindContext, org: Organization, wanted: Partial<LiveOrganizationSettings>): Promise<Organization> {
  const live = liveSettings(org);
  const body: Record<string, unknown> = {};
  for (const f of SETTINGS) {
    const v = wanted[f];
    if (v === undefined || sameSetting(f, v, live[f])) continue;
    if (v === null && !NULLABLE.has(f)) continue;
    body[f] = v;
  }
  if (Object.keys(body).length === 0) return org;
  return ctx.client.orgs.update(org.id, body as UpdateOrganizationBody);
}

function declared(inputs: OrganizationSettingsValues, names: readonly string[] = SETTINGS): Partial<LiveOrganizationSettings> {
  return declaredAmong(inputs, SETTINGS, names);
}

/**
 * The OrganizationSettings kind: takes over the existing organization and patches its declared
 * settings, remembering the values it replaced; delete patches them back.
 */
export const organizationSettingsKind = {
  name: "OrganizationSettings",
  noun: { one: "organisation settings", many: "organisation settings" },
  doc: "Settings of the organisation itself (it always exists: taken over, restored on destroy).",
  outputs: [...SETTINGS, "previous", "appUrl"],
  fields,


  naturalKey: { field: "organizationId", scope: "organization" },

  async create(ctx, inputs) {
    const org = await ctx.client.orgs.get(inputs.organizationId);
    const wanted = declared(inputs);
    const live = liveSettings(org);
    const previous: Record<string, unknown> = {};
    for (const f of Object.keys(wanted) as Setting[]) previous[f] = live[f];
    // Held from here on: if a change fails, the values to restore on delete are already recorded.
    ctx.created?.(org.id, toOutputs(org, previous as Partial<LiveOrganizationSettings>));
    const updated = await apply(ctx, org, wanted);
    return { id: org.id, outs: toOutputs(updated, previous as Partial<LiveOrganizationSettings>) };
  },

  async read(ctx, id, state) {
    const org = await orGone(ctx.client.orgs.get(id));
    return org ? toOutputs(org, state.previous ?? {}) : undefined;
  },

  async update(ctx, id, olds, news, changed) {
    const wanted = declared(news, changed);
    // A setting managed for the first time: remember the value it had before.
    const previous: Record<string, unknown> = { ...olds.previous };
    for (const f of Object.keys(wanted) as Setting[]) if (!(f in previous)) previous[f] = olds[f];
    const org = await ctx.client.orgs.get(id);
    return toOutputs(await apply(ctx, org, wanted), previous as Partial<LiveOrganizationSettings>);
  },

  outputsOf: (org: Organization) => toOutputs(org, {}),

  async delete(ctx, id, olds) {
    const org = await ctx.client.orgs.get(id);
    await apply(ctx, org, olds.previous ?? {});
  },
} satisfies KindDefinition<OrganizationSettingsInputs, OrganizationSettingsOutputs>;

/** The dynamic provider of OrganizationSettings (serialised through `provider/providers/organizationSettings`). */
export const organizationSettingsProvider = makeProvider<OrganizationSettingsInputs, OrganizationSettingsOutputs>(organizationSettingsKind);

/** Arguments of OrganizationSettings. */
export type OrganizationSettingsArgs = ResourceArgs<OrganizationSettingsInputs>;
