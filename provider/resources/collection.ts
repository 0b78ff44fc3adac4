import type { Collection as ApiCollection, Role, UpdateCollectionBody } from "../client";
import { type Created, type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type ResourceArgs, type StoredOf, orGone, limit, ORGANIZATION_FIELD, adoptOne, patchBody, reported } from "./kind";
import { makeProvider } from "./provider";

/** The fields of a Collection: its one declaration, from which its types, schema and patch body derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  title: { schema: limit("collectionTitle"), doc: "Collection title, at most 50 characters.", required: true, patched: true },
  // An empty description and no description are the same to the API.
  description: { schema: limit("collectionDescription"), doc: "Collection description, at most 100 characters.", absent: { reset: "" }, normalize: (v: unknown) => v ?? "", patched: true },
  defaultLevel: { schema: limit<Role>("roleNonNull"), doc: "Default level of access to the collection's content: admin, create, review, edit, comment or read.", absent: "clear", patched: true },
  parent: { schema: limit("id"), doc: "Parent collection: a collection key of this file or {id: \"<collection ID>\"}; null or omitted: the top level.", absent: "clear", stack: { ref: "collections" } },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a Collection (its declared fields; `title` is the natural key `adopt` looks up by). */
export type CollectionInputs = InputsOf<typeof fields>;

/** Outputs of a Collection: its fields as stored, and what the API adds. */
export type CollectionOutputs = Omit<StoredOf<typeof fields>, "description"> & {
  description: string | null;
  url: string | null;
  appUrl: string | null;
};

function toOutputs(organizationId: string, c: ApiCollection): CollectionOutputs {
  return { organizationId, ...reported(c, ["title", "description", "defaultLevel", "parent"]), url: c.urls?.location ?? null, appUrl: c.urls?.app ?? null };
}

/** The one collection of the organization with exactly this title (nested ones included). */
function adopt(ctx: KindContext, inputs: CollectionInputs): Promise<Created<CollectionOutputs> | undefined> {
  const what = `collections of organization ${inputs.organizationId} are titled ${JSON.stringify(inputs.title)}`;
  return adoptOne("Collection", what, ctx.client.collections.list(inputs.organizationId, { nested: true }), (c) => c.title === inputs.title, (c) => toOutputs(inputs.organizationId, c));
}

/** The Collection kind: POST `{title, parent}`, PATCH for description/defaultLevel, `move` for parent. */
export const collectionKind = {
  name: "Collection",
  noun: { one: "collection", many: "collections" },
  doc: "A collection: a nestable group of spaces.",
  outputs: ["description", "defaultLevel", "parent", "url", "appUrl"],
  fields,

  naturalKey: { field: "title", scope: "organization" },

  async create(ctx, inputs) {
    const { organizationId } = inputs;
    let c = await ctx.client.collections.create(organizationId, {
      title: inputs.title,
      ...(typeof inputs.parent === "string" ? { parent: inputs.parent } : {}),
    });
    ctx.created?.(c.id, toOutputs(organizationId, c));
    // description and defaultLevel are only settable after creation.
    const patch = patchBody<UpdateCollectionBody>(fields, inputs, ["description", "defaultLevel"]);
    if (Object.keys(patch).length > 0) c = await ctx.client.collections.update(c.id, patch);
    return { id: c.id, outs: toOutputs(organizationId, c) };
  },

  async read(ctx, id, state) {
    const c = await orGone(ctx.client.collections.get(id));
    return c ? toOutputs(state.organizationId, c) : undefined;
  },

  async update(ctx, id, olds, news, changed) {
    let outs = olds;
    const patch = patchBody<UpdateCollectionBody>(fields, news, changed);
    if (Object.keys(patch).length > 0) outs = toOutputs(olds.organizationId, await ctx.client.collections.update(id, patch));
    if (changed.includes("parent")) {
      outs = toOutputs(olds.organizationId, await ctx.client.collections.move(id, { parent: news.parent ?? null }));
    }
    return outs;
  },

  outputsOf: (c: ApiCollection, where) => toOutputs(where.organizationId, c),

  async delete(ctx, id, olds) {
    // The API deletes a collection's spaces and nested collections along with it. Removing a
    // declared collection must never take content with it, so its contents first move up to the
    // collection's own parent (or the top level).
    const parent = olds.parent ?? null;
    const [spaces, collections] = await Promise.all([
      ctx.client.collections.listSpaces(id),
      ctx.client.collections.list(olds.organizationId, { nested: true }),
    ]);
    await Promise.all([
      ...spaces.map((s) => ctx.client.spaces.move(s.id, { parent })),
      ...collections.filter((c) => c.parent === id).map((c) => ctx.client.collections.move(c.id, { parent })),
    ]);
    await ctx.client.collections.delete(id);
  },

  adopt,
} satisfies KindDefinition<CollectionInputs, CollectionOutputs>;

/** The dynamic provider of Collection (serialised through `provider/providers/collection`). */
export const collectionProvider = makeProvider<CollectionInputs, CollectionOutputs>(collectionKind);

/** Arguments of a Collection. */
export type CollectionArgs = ResourceArgs<CollectionInputs>;
