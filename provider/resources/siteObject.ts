/**
 * The CRUD of a kind whose objects belong to one site and are read from the site's list (sections,
 * section groups, site spaces, share links, external links: the API has no single-object GET for them):
 * outputs that carry the object's organisation and site, read from the process's view of the list,
 * update with one PATCH of the changed fields (none changed: no request), delete by ID, and adopt by
 * the natural key among the site's objects in a fresh walk. A kind whose create or lookup has a shape
 * of its own writes that part itself, after the spread.
 */
import type { ApiClient, UpdateExternalLinkBody } from "../client";
import { type Created, type FieldSpec, type InputsOf, type KindContext, type NaturalKey, adoptOne, patchBody } from "./kind";
import { freshList, readListed, type Listed, type SiteListName } from "./lists";

/** Where an object of a site is. */
export interface SiteWhere {
  organizationId: string;
  siteId: string;
}

/** The update and delete requests of the objects of each site list. */
const AREAS = {
  sections: (client: ApiClient) => client.sections,
  sectionGroups: (client: ApiClient) => client.sectionGroups,
  siteSpaces: (client: ApiClient) => client.siteSpaces,
  shareLinks: (client: ApiClient) => client.shareLinks,
  externalLinks: (client: ApiClient) => ({
    update: (org: string, site: string, id: string, body: UpdateExternalLinkBody) => client.navigation.updateLink(org, site, id, body),
    delete: (org: string, site: string, id: string) => client.navigation.deleteLink(org, site, id),
  }),
  mcpServers: (client: ApiClient) => client.mcpServers,
  channels: (client: ApiClient) => client.channels,
  contextConnections: (client: ApiClient) => client.contextConnections,
} as const;

/** The body of the update request of a list's objects. */
type UpdateBody<L extends SiteListName> = Parameters<ReturnType<(typeof AREAS)[L]>["update"]>[3];

/** What a kind of site object tells the shared CRUD. `W`: what its outputs are made from besides the live object. */
export interface SiteObjectSpec<L extends SiteListName, R, Fs extends Record<string, FieldSpec>, W extends SiteWhere> {
  /** The site's list its objects are read from. */
  list: L;
  /** A live object's outputs besides its organisation and site (`where`: the inputs, or the outputs stored). */
  outputs(live: Listed<L>, where: W): R;
  /** The kind's declaration: the changed fields marked `patched` are the update's body, as they are. */
  fields: Fs;
  /** The update's body when it is more than the patched fields (none: `patchBody`). */
  body?(news: InputsOf<Fs>, changed: readonly string[]): UpdateBody<L>;
  /**
   * Adopt by the natural key, unique in the site (the kind's `naturalKey` is this one): the input it looks
   * up by, and how its error names duplicates ("share links", "are named"). Omitted: the kind has its own.
   */
  adopt?: { kind: string; field: keyof Listed<L> & keyof InputsOf<Fs> & string; objects: string; verb: string; compound?: NaturalKey["compound"] };
}

/** Read, update, delete, adopt (with its natural key) and `outputsOf` of a site's listed object. */
export function siteObject<L extends SiteListName, R, Fs extends Record<string, FieldSpec>, W extends SiteWhere = SiteWhere>(spec: SiteObjectSpec<L, R, Fs, W>) {
  type I = InputsOf<Fs>;
  // One object type (not an intersection), so that a kind's outputs type is inferred from it as it is.
  type O = { [K in keyof (SiteWhere & R)]: (SiteWhere & R)[K] };
  const outputsOf = (live: Listed<L>, where: W): O => ({ organizationId: where.organizationId, siteId: where.siteId, ...spec.outputs(live, where) }) as O;
  // The outputs stored are where the object is (they carry what `outputs` reads from `where`).
  const whereOf = (outs: O): W => outs as unknown as W;
  const bodyOf = spec.body ?? ((news: I, changed: readonly string[]) => patchBody<UpdateBody<L>>(spec.fields, news, changed));
  const area = AREAS[spec.list] as (client: ApiClient) => { update(org: string, site: string, id: string, body: UpdateBody<L>): Promise<Listed<L>>; delete(org: string, site: string, id: string): Promise<void> };
  const byKey = spec.adopt;
  return {
    naturalKey: byKey && { field: byKey.field, scope: "site" as const, ...(byKey.compound ? { compound: byKey.compound } : {}) },
    async read(ctx: KindContext, id: string, state: O): Promise<O | undefined> {
      const live = await readListed(spec.list, ctx.client, state.organizationId, state.siteId, id);
      return live ? outputsOf(live, whereOf(state)) : undefined;
    },
    async update(ctx: KindContext, id: string, olds: O, news: I, changed: string[]): Promise<O> {
      const body = bodyOf(news, changed);
      if (Object.keys(body as object).length === 0) return olds;
      return outputsOf(await area(ctx.client).update(olds.organizationId, olds.siteId, id, body), whereOf(olds));
    },
    async delete(ctx: KindContext, id: string, olds: O): Promise<void> {
      await area(ctx.client).delete(olds.organizationId, olds.siteId, id);
    },
    adopt:
      byKey &&
      ((ctx: KindContext, inputs: I): Promise<Created<O> | undefined> => {
        // The key's value: the field's, or the whole key where the field alone does not name one object.
        const keyOf = (values: object): unknown => (byKey.compound ? byKey.compound.of(values as Record<string, unknown>) : (values as Record<string, unknown>)[byKey.field]);
        const value = keyOf(inputs as object);
        const { organizationId, siteId } = inputs as unknown as SiteWhere;
        const what = `${byKey.objects} of site ${siteId} ${byKey.verb} ${JSON.stringify(value)}`;
        // A fresh walk, not the process's view: a view begun before an uncertain create may miss its result.
        const listed = freshList(spec.list, ctx.client, organizationId, siteId);
        return adoptOne(byKey.kind, what, listed, (a) => keyOf(a as object) === value, (a) => outputsOf(a, inputs as unknown as W));
      }),
    /** The outputs of a live object at `where`. */
    outputsOf,
  };
}

/**
 * Whether an object is the default of its level (a site's sections, or a level's site spaces) once the
 * declared `default` applies. Declared `false`: not the default, and no request (the object of its level
 * declared the default takes it, in the same run, in the stack file's order; the API cannot unset a
 * default). Declared `true`: `makeDefault` unless it already is. Not declared: as it is.
 */
export async function declaredDefault(declared: boolean | undefined, isDefault: boolean, makeDefault: () => Promise<unknown>): Promise<boolean> {
  if (declared === false) return false;
  if (declared !== true || isDefault) return isDefault;
  await makeDefault();
  return true;
}

/**
 * The natural key of a site's object that belongs to a level (the site's root, or a section) and is found
 * by its path there. A replacement declares the same path, which is unique at its level: the old object
 * goes first.
 */
export const PATH_AT_LEVEL = { naturalKey: { field: "path", scope: "level" }, deleteBeforeReplace: true } as const;
