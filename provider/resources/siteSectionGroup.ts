import type { SiteSectionGroup as ApiGroup, UpdateSectionGroupBody } from "../client";
import { type KindContext, type KindDefinition, type ResourceArgs, limit, ORGANIZATION_FIELD, SITE_FIELD, orGone, adoptOne, declaredAmong } from "./kind";
import { readListed } from "./lists";
import { makeProvider } from "./provider";

/** Inputs of a SiteSectionGroup. */
export interface SiteSectionGroupInputs {
  organizationId: string;
  siteId: string;
  /** 1 to 100 characters; the natural key `adopt` looks up by. */
  title: string;
  /** `null` removes the icon. */
  icon?: string | null;
  /** IDs of the sections in the group (their order is kept by SiteStructureOrder). */
  sections?: string[];
  /** Staged, not live; not managed when omitted. */
  draft?: boolean;
}

/** Outputs of a SiteSectionGroup. */
export interface SiteSectionGroupOutputs {
  organizationId: string;
  siteId: string;
  title: string;
  icon: string | null;
  /** Section IDs in the group, in display order. */
  sections: string[];
  draft: boolean;
}

function toOutputs(parent: { organizationId: string; siteId: string }, group: ApiGroup): SiteSectionGroupOutputs {
  return {
    organizationId: parent.organizationId,
    siteId: parent.siteId,
    title: group.title,
    icon: group.icon ?? null,
    sections: (group.sections ?? []).map((s) => s.id),
    draft: group.draft === true,
  };
}

/** Membership compares as a set: the order inside the group belongs to SiteStructureOrder. */
function asSet(v: unknown): unknown {
  return Array.isArray(v) ? [...v].map(String).sort() : v;
}

async function adopt(ctx: KindContext, inputs: SiteSectionGroupInputs) {
  const what = `section groups of site ${inputs.siteId} are titled ${JSON.stringify(inputs.title)}`;
  return adoptOne("SiteSectionGroup", what, ctx.client.sectionGroups.list(inputs.organizationId, inputs.siteId), (g) => g.title === inputs.title, (g) => toOutputs(inputs, g));
}

/** The SiteSectionGroup kind: POST `{title, icon, sections}`, PATCH `{title, icon}`, membership by add/remove. */
export const siteSectionGroupKind = {
  name: "SiteSectionGroup",
  doc: "A group of sections of a site.",
  outputs: ["sections"],
  fields: {
    organizationId: ORGANIZATION_FIELD,
    siteId: SITE_FIELD,
    title: { schema: limit("sectionGroupTitle"), doc: "Section group title, 1 to 100 characters.", required: true },
    icon: { schema: limit("icon"), doc: "Icon name, at most 50 characters.", absent: "clear" },
    draft: { schema: { type: "boolean" }, doc: "Draft: staged and not live (true), or live (false). Not managed when omitted, so removing the line never publishes a staged group.", absent: "unmanaged", initial: false, addedLater: true },
    sections: { schema: { type: "array", uniqueItems: true, items: limit("id") }, doc: "The sections in the group; a section belongs to at most one group.", absent: { reset: [] }, normalize: asSet, stack: "context" },
  },

  naturalKey: { field: "title", scope: "site" },

  async create(ctx, inputs) {
    const group = await ctx.client.sectionGroups.create(inputs.organizationId, inputs.siteId, {
      title: inputs.title,
      ...(inputs.icon === undefined ? {} : { icon: inputs.icon }),
      ...(inputs.sections === undefined ? {} : { sections: inputs.sections }),
      ...(inputs.draft === undefined ? {} : { draft: inputs.draft }),
    });
    return { id: group.id, outs: toOutputs(inputs, group) };
  },

  async read(ctx, id, state) {
    const group = await readListed("sectionGroups", ctx.client, state.organizationId, state.siteId, id);
    return group ? toOutputs(state, group) : undefined;
  },

  async update(ctx, id, olds, news, changed) {
    const { organizationId, siteId } = olds;
    let outs = olds;
    const body = declaredAmong<UpdateSectionGroupBody>(news, ["title", "icon", "draft"], changed);
    if (Object.keys(body).length > 0) outs = toOutputs(olds, await ctx.client.sectionGroups.update(organizationId, siteId, id, body));
    if (changed.includes("sections") && news.sections !== undefined) {
      const want = new Set(news.sections);
      const have = new Set(outs.sections);
      for (const sectionId of news.sections) {
        if (!have.has(sectionId)) outs = toOutputs(olds, await ctx.client.sectionGroups.addSection(organizationId, siteId, id, sectionId));
      }
      const leaving = [...have].filter((s) => !want.has(s));
      // A section moving to another group may already be there (adding it to a group moves it): not found is done.
      for (const sectionId of leaving) await orGone(ctx.client.sectionGroups.removeSection(organizationId, siteId, id, sectionId));
      if (leaving.length > 0) outs = { ...outs, sections: outs.sections.filter((s) => want.has(s)) };
    }
    return outs;
  },

  outputsOf: (group: ApiGroup, where) => toOutputs(where, group),

  async delete(ctx, id, olds) {
    await ctx.client.sectionGroups.delete(olds.organizationId, olds.siteId, id);
  },

  adopt,
} satisfies KindDefinition<SiteSectionGroupInputs, SiteSectionGroupOutputs>;

/** The dynamic provider of SiteSectionGroup (serialised through `provider/providers/siteSectionGroup`). */
export const siteSectionGroupProvider = makeProvider<SiteSectionGroupInputs, SiteSectionGroupOutputs>(siteSectionGroupKind);

/** Arguments of a SiteSectionGroup. */
export type SiteSectionGroupArgs = ResourceArgs<SiteSectionGroupInputs>;
