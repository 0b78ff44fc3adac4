import type { SiteExternalLink as ApiLink, UpdateExternalLinkBody } from "../client";
import { type FieldSpec, type InputsOf, type KindDefinition, type ResourceArgs, type StoredOf, boolean, declaredAmong, limit, ORGANIZATION_FIELD, patchBody, reported, SITE_FIELD } from "./kind";
import { makeProvider } from "./provider";
import { siteObject } from "./siteObject";

/** The fields of a SiteExternalLink: its one declaration, from which its types, schema and patch body derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  siteId: SITE_FIELD,
  title: { schema: limit("externalLinkTitle"), doc: "Link title, 2 to 128 characters.", required: true, patched: true },
  url: { schema: limit("externalLinkURL"), doc: "Where the link leads: an absolute http or https URL, at most 2048 characters.", required: true, patched: true },
  description: { schema: limit("externalLinkDescription"), doc: "Link description, at most 256 characters.", absent: "clear", patched: true, show: { label: "description", bare: true, quoted: true } },
  icon: { schema: limit("icon"), doc: "Icon name, at most 50 characters.", absent: "clear", patched: true, show: { label: "icon" } },
  condition: { schema: limit("expression"), doc: "Expression deciding whether a visitor sees the link (e.g. visitor.claims.staff), at most 1024 characters.", absent: "clear", patched: true },
  localizedTitle: { schema: limit<Record<string, string>>("loc128"), doc: "Title per language (non-default languages), each at most 128 characters.", absent: "clear", patched: true },
  localizedDescription: { schema: limit<Record<string, string>>("loc256"), doc: "Description per language (non-default languages), each at most 256 characters.", absent: "clear", patched: true },
  sectionGroupId: { schema: limit("id"), doc: "The section group holding the link; the site's root when omitted.", absent: "clear", stack: "context" },
  draft: { schema: boolean(), doc: "Draft: staged and not live (true), or live (false). Not managed when omitted, so removing the line never publishes a staged link.", absent: "unmanaged", initial: false, patched: true },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a SiteExternalLink (its declared fields; `title` is the natural key `adopt` looks up by). */
export type SiteExternalLinkInputs = InputsOf<typeof fields>;

/** Outputs of a SiteExternalLink: its fields as stored. */
export type SiteExternalLinkOutputs = StoredOf<typeof fields>;

/** Read from the site's structure, PATCH the changed fields (a new group as `parent`), adopt by title. */
const crud = siteObject({
  list: "externalLinks",
  outputs: (link: ApiLink) => ({
    ...reported(link, ["title", "url", "description", "icon", "condition", "localizedTitle", "localizedDescription"]),
    sectionGroupId: link.sectionGroup ?? null,
    draft: link.draft === true,
  }),
  fields,
  // Into a group, or back to the root (last in that level; the site's order puts it in place).
  body: (news: SiteExternalLinkInputs, changed) => ({ ...patchBody<UpdateExternalLinkBody>(fields, news, changed), ...(changed.includes("sectionGroupId") ? { parent: news.sectionGroupId ?? null } : {}) }),
  adopt: { kind: "SiteExternalLink", field: "title", objects: "external links", verb: "are titled" },
});

/** The SiteExternalLink kind: POST with every declared field, PATCH with the changed ones (a new group as `parent`). */
export const siteExternalLinkKind = {
  name: "SiteExternalLink",
  noun: { one: "external link", many: "external links" },
  doc: "A navigation entry leading away from the site (an absolute http or https URL), at the root or inside a section group, in display order with the sections.",
  outputs: ["sectionGroupId", "draft"],
  fields,

  ...crud,

  async create(ctx, inputs) {
    const link = await ctx.client.navigation.createLink(inputs.organizationId, inputs.siteId, {
      ...declaredAmong<Record<string, unknown>>(inputs, ["description", "icon", "condition", "localizedTitle", "localizedDescription", "draft"]),
      title: inputs.title,
      url: inputs.url,
      ...(inputs.sectionGroupId ? { parent: inputs.sectionGroupId } : {}),
    });
    return { id: link.id, outs: crud.outputsOf(link, inputs) };
  },
} satisfies KindDefinition<SiteExternalLinkInputs, SiteExternalLinkOutputs>;

/** The dynamic provider of SiteExternalLink (serialised through `provider/providers/siteExternalLink`). */
export const siteExternalLinkProvider = makeProvider<SiteExternalLinkInputs, SiteExternalLinkOutputs>(siteExternalLinkKind);

/** Arguments of a SiteExternalLink. */
export type SiteExternalLinkArgs = ResourceArgs<SiteExternalLinkInputs>;
