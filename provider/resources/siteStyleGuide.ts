import type { Site } from "../client";
import { type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type ResourceArgs, type StoredOf, limit, orGone, ORGANIZATION_FIELD, SITE_FIELD } from "./kind";
import { siteReads } from "./lists";
import { makeProvider } from "./provider";

/** The fields of a SiteStyleGuide: its one declaration. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  siteId: SITE_FIELD,
  styleGuideId: {
    schema: limit("id"),
    doc: "The style guide space attached to the site: in the stack file, the site's styleGuide, a key of styleGuides or {id: \"<guide space ID>\"}.",
    required: true,
    stack: "context",
  },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a SiteStyleGuide. */
export type SiteStyleGuideInputs = InputsOf<typeof fields>;

/** Outputs of a SiteStyleGuide: the guide the site has (null when none is attached: drift). */
export type SiteStyleGuideOutputs = Omit<StoredOf<typeof fields>, "styleGuideId"> & { styleGuideId: string | null };

const attachedTo = (site: Site): string | null => site.styleguide?.space ?? null;

function toOutputs(organizationId: string, site: Site): SiteStyleGuideOutputs {
  return { organizationId, siteId: site.id, styleGuideId: attachedTo(site) };
}

async function attach(ctx: KindContext, inputs: SiteStyleGuideInputs): Promise<SiteStyleGuideOutputs> {
  return toOutputs(inputs.organizationId, await ctx.client.sites.update(inputs.organizationId, inputs.siteId, { styleguide: inputs.styleGuideId }));
}

/**
 * The SiteStyleGuide kind: which guide a site's editing agent uses, set by the site PATCH's `styleguide`.
 * Its own resource, not a field of the site, because a guide is made through the site (`POST
 * {site}/styleguide`) that then attaches it. Removing the site's `styleGuide` detaches the guide
 * (`styleguide: null`), which stays in place.
 */
export const siteStyleGuideKind = {
  name: "SiteStyleGuide",
  noun: { one: "style guide attachment", many: "style guide attachments" },
  doc: "The style guide attached to a site.",
  fields,

  // One read first: a site that already has the guide (an adopted site's) is not sent it again.
  async create(ctx, inputs) {
    const live = toOutputs(inputs.organizationId, await ctx.client.sites.get(inputs.organizationId, inputs.siteId));
    return { id: `${inputs.siteId}/styleguide`, outs: live.styleGuideId === inputs.styleGuideId ? live : await attach(ctx, inputs) };
  },

  // The site's read, shared with the site's own (one GET of a site for both in a refresh).
  async read(ctx, _id, state) {
    const site = await orGone(siteReads.site(ctx.client, state.organizationId, state.siteId));
    return site ? toOutputs(state.organizationId, site) : undefined;
  },

  async update(ctx, _id, _olds, news) {
    return attach(ctx, news);
  },

  outputsOf: (site: Site, where) => toOutputs(where.organizationId, site),

  // Detached only while the site still has this guide: one attached by hand since is left alone.
  async delete(ctx, _id, olds) {
    const site = await orGone(ctx.client.sites.get(olds.organizationId, olds.siteId));
    if (site && attachedTo(site) === olds.styleGuideId) await ctx.client.sites.update(olds.organizationId, olds.siteId, { styleguide: null });
  },
} satisfies KindDefinition<SiteStyleGuideInputs, SiteStyleGuideOutputs>;

/** The dynamic provider of SiteStyleGuide (serialised through `provider/providers/siteStyleGuide`). */
export const siteStyleGuideProvider = makeProvider<SiteStyleGuideInputs, SiteStyleGuideOutputs>(siteStyleGuideKind);

/** Arguments of a SiteStyleGuide. */
export type SiteStyleGuideArgs = ResourceArgs<SiteStyleGuideInputs>;
