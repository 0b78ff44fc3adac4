import type { ShareLink as ApiShareLink } from "../client";
import { type FieldSpec, type InputsOf, type KindDefinition, type ResourceArgs, type StoredOf, boolean, limit, ORGANIZATION_FIELD, SITE_FIELD } from "./kind";
import { makeProvider } from "./provider";
import { siteObject } from "./siteObject";

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

/** Read from the site's share-link list, PATCH `{active, name}`, adopt by name. */
const crud = siteObject({
  list: "shareLinks",
  outputs: (link: ApiShareLink) => ({ name: link.name ?? "", active: link.active ?? null, url: link.urls?.published ?? null, createdAt: link.createdAt ?? null }),
  fields,
  adopt: { kind: "ShareLink", field: "name", objects: "share links", verb: "are named" },
});

/** The ShareLink kind: POST `{name}`, then PATCH `{active}` when the new link's differs. */
export const shareLinkKind = {
  name: "ShareLink",
  noun: { one: "share link", many: "share links" },
  doc: "A share link of a site: its URL carries a secret token.",
  outputs: ["active", "url"],
  fields,

  secretOutputs: ["url"],
  ...crud,

  async create(ctx, inputs) {
    const { organizationId, siteId } = inputs;
    let link = await ctx.client.shareLinks.create(organizationId, siteId, { name: inputs.name });
    ctx.created?.(link.id, crud.outputsOf(link, inputs));
    if (inputs.active !== undefined && link.active !== inputs.active) {
      link = await ctx.client.shareLinks.update(organizationId, siteId, link.id, { active: inputs.active });
    }
    return { id: link.id, outs: crud.outputsOf(link, inputs) };
  },
} satisfies KindDefinition<ShareLinkInputs, ShareLinkOutputs>;

/** The dynamic provider of ShareLink (serialised through `provider/providers/shareLink`). */
export const shareLinkProvider = makeProvider<ShareLinkInputs, ShareLinkOutputs>(shareLinkKind);

/** Arguments of a ShareLink. */
export type ShareLinkArgs = ResourceArgs<ShareLinkInputs>;
