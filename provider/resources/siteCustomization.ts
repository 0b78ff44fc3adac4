import type { SiteCustomizationSettings } from "../client";
import { type KindContext, type KindDefinition, type ResourceArgs, orGone, ORGANIZATION_FIELD, SITE_FIELD } from "./kind";
import { siteReads } from "./lists";
import { keptPageActions, MEMBER_DOCS, memberFields, mergeDeclared, observed, sameJson, SITE_SETTINGS } from "./look";
import { makeProvider } from "./provider";

/**
 * A site's customization, declared with the API's own member names. The API's PUT replaces the whole
 * object and the platform does not publish its defaults, so nothing is invented: when the resource first
 * applies it records the site's live look (for a new site, the platform's own default); a declared member
 * is the file's, merged over the recorded look member by member; a member left out (or removed later)
 * goes back to the recorded value; destroy puts the whole recorded look back.
 */

/** The members of the settings, as the API names them. */
export const CUSTOMIZATION_MEMBERS = Object.keys(SITE_SETTINGS.properties).filter((m) => m !== "updatedAt");

type Members = Partial<Record<string, unknown>>;

/** Inputs of a SiteCustomization: the site, and any members of its settings (partly, member by member). */
export interface SiteCustomizationInputs extends Members {
  organizationId: string;
  siteId: string;
}

/** Outputs of a SiteCustomization. */
export interface SiteCustomizationOutputs extends Members {
  organizationId: string;
  siteId: string;
  /** The members the declaration holds (each output is the live value seen through the declaration's shape). */
  declared: string[];
  /** The site's whole look when the resource first applied: what an omitted member, and destroy, go back to. */
  recorded: Record<string, unknown>;
  updatedAt: string | null;
}

/** The settings without their read-only member. */
function settingsOf(live: SiteCustomizationSettings): Record<string, unknown> {
  const { updatedAt: _updatedAt, ...rest } = live as unknown as Record<string, unknown>;
  return rest;
}

/** The declared members of `inputs` (a null one is left out: it stands for the recorded value). */
function declaredMembers(inputs: Members): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of CUSTOMIZATION_MEMBERS) if (inputs[m] !== undefined && inputs[m] !== null) out[m] = inputs[m];
  return out;
}

/** The whole settings the declaration asks for: the recorded look with the declared members in place. */
export function desiredSettings(recorded: Record<string, unknown>, declared: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(recorded);
  for (const [m, v] of Object.entries(declared)) out[m] = mergeDeclared(recorded[m], v, SITE_SETTINGS.properties[m]);
  return out;
}

/**
 * The outputs for the live settings: each declared member seen through the shape of its declaration
 * (`shapes`); each other member null while it is the recorded value, else the live value (drift that the
 * next update puts back).
 */
function toOutputs(where: { organizationId: string; siteId: string }, live: SiteCustomizationSettings, shapes: Record<string, unknown>, recorded: Record<string, unknown>): SiteCustomizationOutputs {
  const settings = settingsOf(live);
  const outs: SiteCustomizationOutputs = { organizationId: where.organizationId, siteId: where.siteId, declared: Object.keys(shapes), recorded, updatedAt: live.updatedAt ?? null };
  for (const m of CUSTOMIZATION_MEMBERS) {
    if (m in shapes) outs[m] = observed(settings[m], shapes[m], recorded[m], SITE_SETTINGS.properties[m]);
    else outs[m] = sameJson(settings[m], baseline(m, recorded, live)) ? null : (settings[m] ?? null);
  }
  // The platform keeps `assistant` in step with the AI mode: a declared list it kept so is what was declared.
  const declaredActions = (shapes.pageActions as { items?: string[] } | undefined)?.items;
  const liveActions = (settings.pageActions as { items: string[] }).items;
  if (declaredActions && sameJson(keptPageActions(declaredActions, live.ai.mode), liveActions)) outs.pageActions = { ...(outs.pageActions as object), items: declaredActions };
  return outs;
}

/** What an omitted member stands for: the recorded value, page actions as the platform keeps them for the live AI mode. */
function baseline(member: string, recorded: Record<string, unknown>, live: SiteCustomizationSettings): unknown {
  if (member !== "pageActions" || recorded.pageActions === undefined) return recorded[member];
  return { items: keptPageActions((recorded.pageActions as { items: string[] }).items, live.ai.mode) };
}

/** PUTs the settings the declaration asks for when they differ from the live ones; answers the live settings after. */
async function apply(ctx: KindContext, where: { organizationId: string; siteId: string }, live: SiteCustomizationSettings, desired: Record<string, unknown>): Promise<SiteCustomizationSettings> {
  if (sameJson(settingsOf(live), desired)) return live;
  return ctx.client.customization.put(where.organizationId, where.siteId, desired as unknown as SiteCustomizationSettings);
}

export const siteCustomizationKind = {
  name: "SiteCustomization",
  noun: { one: "site customization", many: "site customizations" },
  doc: "A site's customization (its look, header, footer, AI and page settings), with the API's own member names.",
  outputs: ["declared", "recorded"],
  fields: {
    organizationId: ORGANIZATION_FIELD,
    siteId: SITE_FIELD,
    ...memberFields(SITE_SETTINGS, MEMBER_DOCS, "restore", ["updatedAt"]),
  },

  async create(ctx, inputs) {
    const where = { organizationId: inputs.organizationId, siteId: inputs.siteId };
    const live = await ctx.client.customization.get(where.organizationId, where.siteId);
    // The look before the file: a new site's is the platform's own default.
    const recorded = settingsOf(live);
    const declared = declaredMembers(inputs);
    ctx.created?.(inputs.siteId, toOutputs(where, live, {}, recorded));
    const after = await apply(ctx, where, live, desiredSettings(recorded, declared));
    return { id: inputs.siteId, outs: toOutputs(where, after, declared, recorded) };
  },

  async read(ctx, id, state) {
    // The process's one read of the site's look, shared with its site spaces' overrides (lists.ts).
    const live = await orGone(siteReads.customization(ctx.client, state.organizationId, id));
    if (!live) return undefined;
    const shapes: Record<string, unknown> = {};
    for (const m of state.declared ?? []) shapes[m] = state[m];
    return toOutputs(state, live, shapes, state.recorded ?? settingsOf(live));
  },

  async update(ctx, id, olds, news) {
    const declared = declaredMembers(news);
    const desired = desiredSettings(olds.recorded, declared);
    // The whole object goes in one PUT: no read first (a hand-made change elsewhere is this resource's drift, put back too).
    const after = await ctx.client.customization.put(olds.organizationId, id, desired as unknown as SiteCustomizationSettings);
    return toOutputs(olds, after, declared, olds.recorded);
  },

  async delete(ctx, id, olds) {
    if (olds.recorded) await ctx.client.customization.put(olds.organizationId, id, olds.recorded as unknown as SiteCustomizationSettings);
  },
} satisfies KindDefinition<SiteCustomizationInputs, SiteCustomizationOutputs>;

/** The dynamic provider of SiteCustomization (serialised through `provider/providers/siteCustomization`). */
export const siteCustomizationProvider = makeProvider<SiteCustomizationInputs, SiteCustomizationOutputs>(siteCustomizationKind);

/** Arguments of a SiteCustomization. */
export type SiteCustomizationArgs = ResourceArgs<SiteCustomizationInputs>;
