import type { Space, StyleGuideEntry } from "../client";
import { type Created, type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type ResourceArgs, type StoredOf, limit, orGone, ORGANIZATION_FIELD } from "./kind";
import { makeProvider } from "./provider";

/** The fields of a StyleGuide: its one declaration. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  siteId: {
    schema: limit("id"),
    doc: "The site the platform makes the guide for: a site key of this file or {id: \"<site ID>\"}. The platform keeps one guide of its own per site, so a site's guide made earlier is taken over. Give exactly one of site and id.",
    absent: "unmanaged",
    createOnly: true,
    stack: { ref: "sites", as: "site" },
  },
  spaceId: {
    schema: limit("id"),
    doc: "An existing style guide space to take over, by its space ID (what export writes). Give exactly one of site and id.",
    absent: "unmanaged",
    createOnly: true,
    stack: { as: "id" },
  },
  template: {
    schema: limit("styleguideTemplate"),
    doc: "The built-in template a new guide starts from (e.g. technical-writing); omitted: a blank guide. Used only when the guide is made: a guide's content is people's work, so a later change makes no call.",
    absent: "unmanaged",
  },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a StyleGuide. */
export type StyleGuideInputs = InputsOf<typeof fields>;

/** Outputs of a StyleGuide: the guide space (its ID, title, app URL), the site it was made for and the template declared when it was. */
export type StyleGuideOutputs = Omit<StoredOf<typeof fields>, "siteId" | "spaceId" | "template"> & {
  siteId: string | null;
  /** The guide space, which sites attach by its ID. */
  spaceId: string;
  template: string | null;
  title: string;
  appUrl: string | null;
};

function toOutputs(organizationId: string, space: Space, made: { siteId?: string | null; template?: string | null }): StyleGuideOutputs {
  return { organizationId, siteId: made.siteId ?? null, spaceId: space.id, template: made.template ?? null, title: space.title, appUrl: space.urls?.app ?? null };
}

/** The guide space of this ID, if it is a live style guide of the organisation. */
async function guideSpace(ctx: KindContext, organizationId: string, spaceId: string): Promise<Space | undefined> {
  const space = await orGone(ctx.client.spaces.get(spaceId));
  if (!space || space.deletedAt || space.organization !== organizationId || space.type !== "styleguide") return undefined;
  return space;
}

async function takeOver(ctx: KindContext, inputs: StyleGuideInputs): Promise<Created<StyleGuideOutputs>> {
  const space = await guideSpace(ctx, inputs.organizationId, inputs.spaceId as string);
  if (!space) throw new Error(`StyleGuide: space ${inputs.spaceId} is not a style guide of organization ${inputs.organizationId}`);
  return { id: space.id, outs: toOutputs(inputs.organizationId, space, {}) };
}

/**
 * The StyleGuide kind: a site's own guide space, made (or, made earlier, returned) by `POST
 * {site}/styleguide`, or an existing guide space taken over by ID. A guide is content: it is never
 * deleted because its entry goes (the component declares it with `retainOnDelete`); sites attach it with
 * their `styleGuide` (SiteStyleGuide).
 */
export const styleGuideKind = {
  name: "StyleGuide",
  noun: { one: "style guide", many: "style guides" },
  doc: "A style guide: a space of writing rules the platform's editing agent checks edits against, on the sites it is attached to.",
  list: {
    property: "styleGuides",
    after: "openapi",
    definition: "styleGuide",
    name: "styleguide",
    keyFrom: "title",
    doc: "Style guides of the organisation: each made for a site of this file (the platform keeps one of its own per site) or an existing guide space by ID. Sites attach one with their styleGuide. Removing an entry leaves the guide in place.",
    entryDoc: "A style guide space: exactly one of site (made for that site) and id (an existing guide).",
    exactlyOne: ["site", "id"],
    afterSites: true,
    readAll: async (client, org) => client.styleGuides.list(org),
  } as const,
  outputs: ["spaceId", "siteId", "title", "appUrl"],
  fields,

  naturalKey: { field: "spaceId", scope: "organization" },
  retainedOnDelete: () => true,

  // The stack file's loader says the same, located; this guards a program of one's own.
  refuse: (_olds, news) => ((news.siteId === undefined) === (news.spaceId === undefined) ? [{ property: "siteId", reason: "siteId: give exactly one of siteId (a site to make the guide for) and spaceId (an existing guide)" }] : []),

  async create(ctx, inputs) {
    if (inputs.spaceId) return takeOver(ctx, inputs);
    const space = await ctx.client.styleGuides.ensure(inputs.organizationId, inputs.siteId as string, inputs.template === undefined ? {} : { template: inputs.template });
    return { id: space.id, outs: toOutputs(inputs.organizationId, space, inputs) };
  },

  async read(ctx, id, state) {
    const space = await guideSpace(ctx, state.organizationId, state.spaceId ?? id);
    return space ? toOutputs(state.organizationId, space, state) : undefined;
  },

  // Only the template can change in place, and it applies when a guide is made: nothing to send.
  async update(_ctx, _id, olds, news) {
    return { ...olds, template: news.template ?? null };
  },

  outputsOf: (entry: StyleGuideEntry, where) => toOutputs(where.organizationId, entry.space, {}),

  // Never called through the component (retained): a program of one's own that deletes it leaves the guide too.
  async delete() {},

  adopt: async (ctx, inputs) => (inputs.spaceId ? takeOver(ctx, inputs) : undefined),
} satisfies KindDefinition<StyleGuideInputs, StyleGuideOutputs>;

/** The dynamic provider of StyleGuide (serialised through `provider/providers/styleGuide`). */
export const styleGuideProvider = makeProvider<StyleGuideInputs, StyleGuideOutputs>(styleGuideKind);

/** Arguments of a StyleGuide. */
export type StyleGuideArgs = ResourceArgs<StyleGuideInputs>;
