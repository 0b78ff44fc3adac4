import type { ShareLink as ApiShareLink, UpdateShareLinkBody } from "../client";
import { type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type ResourceArgs, type StoredOf, boolean, limit, ORGANIZATION_FIELD, SITE_FIELD, adoptOne, patchBody } from "./kind";
import { readListed } from "./lists";
import { makeProvider } from "./provider";

/** The fields of a ShareLink: its one declaration, from which its types, schema and patch body derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  siteId: SITE_FIELD,
  name: { schema: limit("shareLinkName"), doc: "Name of the share link, at most 50 characters; adopt finds an existing link by it.", required: true, patched: true },
  active: { schema: boolean(), doc: "Whether the link grants access.", absent: { reset: true }, patched: true },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a ShareLink: a named secret link to a site whose visibility is `share-link`. */
export type ShareLinkInputs = InputsOf<typeof fields>;

/** Outputs of a ShareLink. `url` holds the secret token and is stored as a secret. */
export type ShareLinkOutputs = Omit<StoredOf<typeof fields>, "active"> & {
  /** As the API answers it (null when it says nothing). */
  active: boolean | null;
  /** The site's published URL with the link's secret `?token=`: a secret output. */
  url: string | null;
  createdAt: string | null;
};

function toOutputs(parent: { organizationId: string; siteId: string }, link: ApiShareLink): ShareLinkOutputs {
  return {
    organizationId: parent.organizationId,
    siteId: parent.siteId,
    name: link.name ?? "",
    active: link.active ?? null,
    url: link.urls?.published ?? null,
    createdAt: link.createdAt ?? null,
  };
}

async function adopt(ctx: KindContext, inputs: ShareLinkInputs) {
  const what = `share links of site ${inputs.siteId} are named ${JSON.stringify(inputs.name)}`;
  // A fresh walk, not a coalesced one: a walk begun before an uncertain create may miss its result.
  return adoptOne("ShareLink", what, ctx.client.shareLinks.list(inputs.organizationId, inputs.siteId), (l) => l.name === inputs.name, (l) => toOutputs(inputs, l));
}

/** The ShareLink kind: POST `{name}`, PATCH `{active, name}`, read from the site's share-link list. */
export const shareLinkKind = {
  name: "ShareLink",
  noun: { one: "share link", many: "share links" },
  doc: "A share link of a site: its URL carries a secret token.",
  outputs: ["active", "url", "createdAt"],
  fields,

  secretOutputs: ["url"],
  naturalKey: { field: "name", scope: "site" },

  async create(ctx, inputs) {
    const { organizationId, siteId } = inputs;
    let link = await ctx.client.shareLinks.create(organizationId, siteId, { name: inputs.name });
    ctx.created?.(link.id, toOutputs(inputs, link));
    if (inputs.active !== undefined && link.active !== inputs.active) {
      link = await ctx.client.shareLinks.update(organizationId, siteId, link.id, { active: inputs.active });
    }
    return { id: link.id, outs: toOutputs(inputs, link) };
  },

  async read(ctx, id, state) {
    const link = await readListed("shareLinks", ctx.client, state.organizationId, state.siteId, id);
    return link ? toOutputs(state, link) : undefined;
  },

  async update(ctx, id, olds, news, changed) {
    const body = patchBody<UpdateShareLinkBody>(fields, news, changed);
    const link = await ctx.client.shareLinks.update(olds.organizationId, olds.siteId, id, body);
    return toOutputs(olds, link);
  },

  outputsOf: (link: ApiShareLink, where) => toOutputs(where, link),

  async delete(ctx, id, olds) {
    await ctx.client.shareLinks.delete(olds.organizationId, olds.siteId, id);
  },

  adopt,
} satisfies KindDefinition<ShareLinkInputs, ShareLinkOutputs>;

/** The dynamic provider of ShareLink (serialised through `provider/providers/shareLink`). */
export const shareLinkProvider = makeProvider<ShareLinkInputs, ShareLinkOutputs>(shareLinkKind);

/** Arguments of a ShareLink. */
export type ShareLinkArgs = ResourceArgs<ShareLinkInputs>;
