import type { SiteExternalLink as ApiLink, UpdateExternalLinkBody } from "../client";
import { type KindDefinition, type ResourceArgs, adoptOne, declaredAmong, limit, ORGANIZATION_FIELD, SITE_FIELD } from "./kind";
import { readListed } from "./lists";
import { makeProvider } from "./provider";

/** Inputs of a SiteExternalLink. */
export interface SiteExternalLinkInputs {
  organizationId: string;
  siteId: string;
  /** 2 to 128 characters; the natural key `adopt` looks up by. */
  title: string;
  /** An absolute http or https URL. */
  url: string;
  description?: string | null;
  icon?: string | null;
  condition?: string | null;
  localizedTitle?: Record<string, string> | null;
  localizedDescription?: Record<string, string> | null;
  /** The section group holding the link; null or omitted: the site's root. */
  sectionGroupId?: string | null;
  /** Staged, not live; not managed when omitted. */
  draft?: boolean;
}

/** Outputs of a SiteExternalLink. */
export interface SiteExternalLinkOutputs {
  organizationId: string;
  siteId: string;
  title: string;
  url: string;
  description: string | null;
  icon: string | null;
  condition: string | null;
  localizedTitle: Record<string, string> | null;
  localizedDescription: Record<string, string> | null;
  sectionGroupId: string | null;
  draft: boolean;
}

function toOutputs(where: { organizationId: string; siteId: string }, link: ApiLink): SiteExternalLinkOutputs {
  return {
    organizationId: where.organizationId,
    siteId: where.siteId,
    title: link.title,
    url: link.url,
    description: link.description ?? null,
    icon: link.icon ?? null,
    condition: link.condition ?? null,
    localizedTitle: link.localizedTitle ?? null,
    localizedDescription: link.localizedDescription ?? null,
    sectionGroupId: link.sectionGroup ?? null,
    draft: link.draft === true,
  };
}

/** Fields the link's PATCH takes under their own names. */
const PATCHED = ["title", "url", "description", "icon", "condition", "localizedTitle", "localizedDescription", "draft"] as const;

export const siteExternalLinkKind = {
  name: "SiteExternalLink",
  noun: { one: "external link", many: "external links" },
  doc: "A navigation entry leading away from the site (an absolute http or https URL), at the root or inside a section group, in display order with the sections.",
  outputs: ["sectionGroupId", "draft"],
  fields: {
    organizationId: ORGANIZATION_FIELD,
    siteId: SITE_FIELD,
    title: { schema: limit("externalLinkTitle"), doc: "Link title, 2 to 128 characters.", required: true },
    url: { schema: limit("externalLinkURL"), doc: "Where the link leads: an absolute http or https URL, at most 2048 characters.", required: true },
    description: { schema: limit("externalLinkDescription"), doc: "Link description, at most 256 characters.", absent: "clear" },
    icon: { schema: limit("icon"), doc: "Icon name, at most 50 characters.", absent: "clear" },
    condition: { schema: limit("expression"), doc: "Expression deciding whether a visitor sees the link (e.g. visitor.claims.staff), at most 1024 characters.", absent: "clear" },
    localizedTitle: { schema: limit("loc128"), doc: "Title per language (non-default languages), each at most 128 characters.", absent: "clear" },
    localizedDescription: { schema: limit("loc256"), doc: "Description per language (non-default languages), each at most 256 characters.", absent: "clear" },
    sectionGroupId: { schema: limit("id"), doc: "The section group holding the link; the site's root when omitted.", absent: "clear", stack: "context" },
    draft: { schema: { type: "boolean" }, doc: "Draft: staged and not live (true), or live (false). Not managed when omitted, so removing the line never publishes a staged link.", absent: "unmanaged", initial: false },
  },

  naturalKey: { field: "title", scope: "site" },

  async create(ctx, inputs) {
    const link = await ctx.client.navigation.createLink(inputs.organizationId, inputs.siteId, {
      ...declaredAmong<Record<string, unknown>>(inputs, ["description", "icon", "condition", "localizedTitle", "localizedDescription", "draft"]),
      title: inputs.title,
      url: inputs.url,
      ...(inputs.sectionGroupId ? { parent: inputs.sectionGroupId } : {}),
    });
    return { id: link.id, outs: toOutputs(inputs, link) };
  },

  async read(ctx, id, state) {
    const link = await readListed("externalLinks", ctx.client, state.organizationId, state.siteId, id);
    return link ? toOutputs(state, link) : undefined;
  },

  async update(ctx, id, olds, news, changed) {
    const body: UpdateExternalLinkBody = declaredAmong(news, PATCHED, changed);
    // Into a group, or back to the root (last in that level; the site's order puts it in place).
    if (changed.includes("sectionGroupId")) body.parent = news.sectionGroupId ?? null;
    if (Object.keys(body).length === 0) return olds;
    return toOutputs(olds, await ctx.client.navigation.updateLink(olds.organizationId, olds.siteId, id, body));
  },

  outputsOf: (link: ApiLink, where) => toOutputs(where, link),

  async delete(ctx, id, olds) {
    await ctx.client.navigation.deleteLink(olds.organizationId, olds.siteId, id);
  },

  async adopt(ctx, inputs) {
    const what = `external links of site ${inputs.siteId} are titled ${JSON.stringify(inputs.title)}`;
    return adoptOne("SiteExternalLink", what, ctx.client.navigation.links(inputs.organizationId, inputs.siteId), (l) => l.title === inputs.title, (l) => toOutputs(inputs, l));
  },
} satisfies KindDefinition<SiteExternalLinkInputs, SiteExternalLinkOutputs>;

/** The dynamic provider of SiteExternalLink (serialised through `provider/providers/siteExternalLink`). */
export const siteExternalLinkProvider = makeProvider<SiteExternalLinkInputs, SiteExternalLinkOutputs>(siteExternalLinkKind);

/** Arguments of a SiteExternalLink. */
export type SiteExternalLinkArgs = ResourceArgs<SiteExternalLinkInputs>;
