import type { SiteSectionGroup as ApiGroup } from "../client";
import { type FieldSpec, type InputsOf, type KindDefinition, type ResourceArgs, type StoredOf, type ValueSchema, boolean, limit, ORGANIZATION_FIELD, SITE_FIELD, orGone } from "./kind";
import { makeProvider } from "./provider";
import { siteObject } from "./siteObject";

/** Membership compares as a set: the order inside the group belongs to SiteStructureOrder. */
function asSet(v: unknown): unknown {
  return Array.isArray(v) ? [...v].map(String).sort() : v;
}

/** The fields of a SiteSectionGroup: its one declaration, from which its types, schema and patch body derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  siteId: SITE_FIELD,
  title: { schema: limit("sectionGroupTitle"), doc: "Section group title, 1 to 100 characters.", required: true, patched: true },
  icon: { schema: limit("icon"), doc: "Icon name, at most 50 characters.", absent: "clear", patched: true, show: { label: "icon" } },
  draft: { schema: boolean(), doc: "Draft: staged and not live (true), or live (false). Not managed when omitted, so removing the line never publishes a staged group.", absent: "unmanaged", initial: false, addedLater: true, patched: true },
  sections: { schema: { type: "array", uniqueItems: true, items: limit("id") } as ValueSchema<string[]>, doc: "The sections in the group; a section belongs to at most one group.", absent: { reset: [] }, normalize: asSet, stack: "context" },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a SiteSectionGroup (its declared fields; `sections` are the IDs in the group, their order kept by SiteStructureOrder). */
export type SiteSectionGroupInputs = InputsOf<typeof fields>;

/** Outputs of a SiteSectionGroup: its fields as stored (`sections` in display order). */
export type SiteSectionGroupOutputs = StoredOf<typeof fields>;

/** Read from the site's section-group list, PATCH `{title, icon, draft}`, adopt by title. */
const crud = siteObject({
  list: "sectionGroups",
  outputs: (group: ApiGroup) => ({ title: group.title, icon: group.icon ?? null, sections: (group.sections ?? []).map((s) => s.id), draft: group.draft === true }),
  fields,
  adopt: { kind: "SiteSectionGroup", field: "title", objects: "section groups", verb: "are titled" },
});

/** The SiteSectionGroup kind: POST `{title, icon, sections}`, PATCH `{title, icon}`, membership by add/remove. */
export const siteSectionGroupKind = {
  name: "SiteSectionGroup",
  noun: { one: "section group", many: "section groups" },
  doc: "A group of sections of a site.",
  outputs: ["sections"],
  fields,

  ...crud,

  async create(ctx, inputs) {
    const group = await ctx.client.sectionGroups.create(inputs.organizationId, inputs.siteId, {
      title: inputs.title,
      ...(inputs.icon === undefined ? {} : { icon: inputs.icon }),
      ...(inputs.sections === undefined ? {} : { sections: inputs.sections }),
      ...(inputs.draft === undefined ? {} : { draft: inputs.draft }),
    });
    return { id: group.id, outs: crud.outputsOf(group, inputs) };
  },

  async update(ctx, id, olds, news, changed) {
    const { organizationId, siteId } = olds;
    let outs = await crud.update(ctx, id, olds, news, changed);
    if (changed.includes("sections") && news.sections !== undefined) {
      const want = new Set(news.sections);
      const have = new Set(outs.sections);
      for (const sectionId of news.sections) {
        if (!have.has(sectionId)) outs = crud.outputsOf(await ctx.client.sectionGroups.addSection(organizationId, siteId, id, sectionId), olds);
      }
      const leaving = [...have].filter((s) => !want.has(s));
      // A section moving to another group may already be there (adding it to a group moves it): not found is done.
      for (const sectionId of leaving) await orGone(ctx.client.sectionGroups.removeSection(organizationId, siteId, id, sectionId));
      if (leaving.length > 0) outs = { ...outs, sections: outs.sections.filter((s) => want.has(s)) };
    }
    return outs;
  },
} satisfies KindDefinition<SiteSectionGroupInputs, SiteSectionGroupOutputs>;

/** The dynamic provider of SiteSectionGroup (serialised through `provider/providers/siteSectionGroup`). */
export const siteSectionGroupProvider = makeProvider<SiteSectionGroupInputs, SiteSectionGroupOutputs>(siteSectionGroupKind);

/** Arguments of a SiteSectionGroup. */
export type SiteSectionGroupArgs = ResourceArgs<SiteSectionGroupInputs>;
