import type { SiteSpaceCustomizationBody, SiteSpaceCustomizationSettings } from "../client";
import { type KindContext, type KindDefinition, type ResourceArgs, limit, orGone, ORGANIZATION_FIELD, SITE_FIELD } from "./kind";
import { siteReads } from "./lists";
import { differing, MEMBER_DOCS, memberFields, observed, OVERRIDE_SETTINGS, project, withCleared } from "./look";
import { makeProvider } from "./provider";

/**
 * A site space's override of its site's customization (for a language variant or a content version),
 * with the API's own member names. The declared members are the whole truth of the overrides: a member
 * removed from the block is cleared (the site's value shows again), and a removed block deletes every
 * override of the site space.
 */

/** The members a site space may override. */
export const OVERRIDE_MEMBERS = Object.keys(OVERRIDE_SETTINGS.properties);

type Members = Partial<Record<string, unknown>>;

export interface SiteSpaceCustomizationInputs extends Members {
  organizationId: string;
  siteId: string;
  siteSpaceId: string;
}

export interface SiteSpaceCustomizationOutputs extends Members {
  organizationId: string;
  siteId: string;
  siteSpaceId: string;
  /** The members the declaration holds. */
  declared: string[];
}

/** The declared members of `inputs` (null: not declared). */
function declaredMembers(inputs: Members): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of OVERRIDE_MEMBERS) if (inputs[m] !== undefined && inputs[m] !== null) out[m] = inputs[m];
  return out;
}

/**
 * The outputs for the effective settings: each declared member seen through its declaration's shape;
 * each other member null, or — when `site` (the site's settings) shows it overridden by hand — the
 * overriding values (drift that the next update clears).
 */
function toOutputs(where: { organizationId: string; siteId: string; siteSpaceId: string }, effective: SiteSpaceCustomizationSettings, shapes: Record<string, unknown>, site?: Record<string, unknown>): SiteSpaceCustomizationOutputs {
  const eff = effective as unknown as Record<string, unknown>;
  const outs: SiteSpaceCustomizationOutputs = { organizationId: where.organizationId, siteId: where.siteId, siteSpaceId: where.siteSpaceId, declared: Object.keys(shapes) };
  for (const m of OVERRIDE_MEMBERS) {
    const schema = OVERRIDE_SETTINGS.properties[m];
    if (m in shapes) outs[m] = site ? observed(eff[m], shapes[m], site[m], schema) : project(eff[m], shapes[m], schema);
    else outs[m] = site ? (differing(eff[m], site[m], schema) ?? null) : null;
  }
  return outs;
}

/** One merging PATCH body: the declared members, and `null` for every member the previous outputs held that the declaration no longer does. */
function patchBody(previous: Members, declared: Record<string, unknown>): { body: Record<string, unknown>; clearsAnnouncement: boolean } {
  const body: Record<string, unknown> = {};
  let clearsAnnouncement = false;
  for (const m of OVERRIDE_MEMBERS) {
    const next = withCleared(previous[m], declared[m], OVERRIDE_SETTINGS.properties[m]);
    if (next === undefined) continue;
    // An announcement override cannot be cleared by itself (the API takes no null for it).
    if (m === "announcement" && next === null) clearsAnnouncement = true;
    else body[m] = next;
  }
  return { body, clearsAnnouncement };
}

async function apply(ctx: KindContext, where: SiteSpaceCustomizationInputs, previous: Members, declared: Record<string, unknown>): Promise<SiteSpaceCustomizationSettings> {
  const { organizationId: org, siteId: site, siteSpaceId: ss } = where;
  let { body, clearsAnnouncement } = patchBody(previous, declared);
  if (clearsAnnouncement) {
    // Only the delete clears it: every override goes, then the declared ones are set again.
    await ctx.client.customization.clearOverrides(org, site, ss);
    body = declared;
  }
  if (Object.keys(body).length === 0) return ctx.client.customization.getSiteSpace(org, site, ss);
  return ctx.client.customization.override(org, site, ss, body as SiteSpaceCustomizationBody);
}

export const siteSpaceCustomizationKind = {
  name: "SiteSpaceCustomization",
  noun: { one: "site-space customization", many: "site-space customizations" },
  doc: "A site space's override of its site's customization (a language variant or a content version), with the API's own member names.",
  outputs: ["declared"],
  fields: {
    organizationId: ORGANIZATION_FIELD,
    siteId: SITE_FIELD,
    siteSpaceId: { schema: limit("id"), doc: "ID of the site space the overrides apply to.", required: true, createOnly: true, stack: "context" },
    ...memberFields(OVERRIDE_SETTINGS, MEMBER_DOCS, "clear"),
  },

  async create(ctx, inputs) {
    const declared = declaredMembers(inputs);
    const effective = await apply(ctx, inputs, {}, declared);
    return { id: inputs.siteSpaceId, outs: toOutputs(inputs, effective, declared) };
  },

  async read(ctx, id, state) {
    const where = { organizationId: state.organizationId, siteId: state.siteId, siteSpaceId: id };
    const effective = await orGone(ctx.client.customization.getSiteSpace(where.organizationId, where.siteId, id));
    if (!effective) return undefined;
    const shapes: Record<string, unknown> = {};
    for (const m of state.declared ?? []) shapes[m] = state[m];
    // Overrides beyond the declared ones can only be told from the site's own settings: the process's one
    // read of them, shared with the site's look and its other site spaces' overrides (lists.ts).
    const site = effective.hasOverrides ? ((await siteReads.customization(ctx.client, where.organizationId, where.siteId)) as unknown as Record<string, unknown>) : undefined;
    return toOutputs(where, effective, shapes, site);
  },

  async update(ctx, id, olds, news) {
    const declared = declaredMembers(news);
    const where = { organizationId: olds.organizationId, siteId: olds.siteId, siteSpaceId: id };
    return toOutputs(where, await apply(ctx, where, olds, declared), declared);
  },

  async delete(ctx, id, olds) {
    await ctx.client.customization.clearOverrides(olds.organizationId, olds.siteId, id);
  },
} satisfies KindDefinition<SiteSpaceCustomizationInputs, SiteSpaceCustomizationOutputs>;

/** The dynamic provider of SiteSpaceCustomization (serialised through `provider/providers/siteSpaceCustomization`). */
export const siteSpaceCustomizationProvider = makeProvider<SiteSpaceCustomizationInputs, SiteSpaceCustomizationOutputs>(siteSpaceCustomizationKind);

/** Arguments of a SiteSpaceCustomization. */
export type SiteSpaceCustomizationArgs = ResourceArgs<SiteSpaceCustomizationInputs>;
