import { isNotFound } from "../client/errors";
import { type FieldSpec, type InputsOf, type KindDefinition, type ResourceArgs, type StoredOf, type ValueSchema, limit, orGone, ORGANIZATION_FIELD, SITE_FIELD } from "./kind";
import { siteList, type SiteListName } from "./lists";
import { deleteListed } from "./siteObject";
import { makeProvider } from "./provider";

/**
 * The lists of a site whose every object the file declares once it declares the list: an object made on
 * the platform in one of them is drift, and `up` deletes it. Each holds access or a connection (a share
 * link's secret URL, an MCP server, a channel that answers for the site, a connection to a tool), none
 * content: deleting one made by hand takes nothing people wrote.
 */
export const OWNED_LISTS = {
  shareLinks: { one: "share link", property: "shareLinks" },
  mcpServers: { one: "MCP server", property: "mcpServers" },
  channels: { one: "agent channel", property: "agentChannels" },
  contextConnections: { one: "context connection", property: "contextConnections" },
} as const satisfies Partial<Record<SiteListName, { one: string; property: string }>>;

/** A list {@link OWNED_LISTS} names. */
export type OwnedListName = keyof typeof OWNED_LISTS;

/** An object of the list that the file does not declare: its ID and its name, as the platform has them. */
export interface UndeclaredObject {
  id: string;
  name: string | null;
}

const byId = (objects: unknown): unknown => (Array.isArray(objects) ? [...objects].sort((a, b) => String((a as { id?: string }).id ?? a).localeCompare(String((b as { id?: string }).id ?? b))) : objects);

/** The fields of a SiteUndeclared: its one declaration. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  siteId: SITE_FIELD,
  list: {
    schema: { type: "string", enum: Object.keys(OWNED_LISTS) } as ValueSchema<OwnedListName>,
    doc: "The site's list: shareLinks, mcpServers, channels or contextConnections.",
    required: true,
    createOnly: true,
    stack: "context",
  },
  declared: {
    schema: { type: "array", uniqueItems: true, items: limit("id") } as ValueSchema<string[]>,
    doc: "IDs of the list's objects the file declares.",
    required: true,
    stack: "context",
    normalize: byId,
  },
  undeclared: {
    schema: { type: "array", items: { type: "object", required: ["id"], properties: { id: limit("id"), name: { type: ["string", "null"] } } } } as ValueSchema<UndeclaredObject[]>,
    doc: "Objects of the list on the platform that the file does not declare: found by a refresh, deleted by the next up.",
    absent: { reset: [] },
    stack: "context",
    normalize: byId,
  },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a SiteUndeclared. */
export type SiteUndeclaredInputs = InputsOf<typeof fields>;

/** Outputs of a SiteUndeclared: the declared IDs, and the objects a refresh found that the file does not declare. */
export type SiteUndeclaredOutputs = StoredOf<typeof fields>;

/** The name an object of a list goes by on the platform. */
function nameOf(item: object): string | null {
  for (const field of ["name", "title", "label"]) {
    const v = (item as Record<string, unknown>)[field];
    if (typeof v === "string" && v !== "") return v;
  }
  return null;
}

/**
 * The SiteUndeclared kind: that a site's list holds what the file declares and nothing else. The
 * component declares one for each list a site's entry declares (an empty list included); a list the
 * file leaves out is not managed, and one made by hand there is never looked at.
 *
 * It makes no call of its own in create or a no-op: a refresh reads the list from the view the list's
 * objects are read from (no further request), and stores the objects the file does not declare, which
 * the diff that follows shows as a change and names in words; the update deletes exactly those (a
 * 404 is done). Objects made a moment ago may not be listed yet (the list lags); they are found by
 * the next refresh.
 */
export const siteUndeclaredKind = {
  name: "SiteUndeclared",
  noun: { one: "list of a site", many: "lists of sites" },
  doc: "The objects of one list of a site (share links, MCP servers, agent channels or context connections) that the file does not declare: drift, deleted by up.",
  fields,

  async create(_ctx, inputs) {
    return { id: `${inputs.siteId}/${inputs.list}`, outs: { ...inputs, undeclared: [] } };
  },

  async read(ctx, _id, state) {
    const items = await orGone(siteList(state.list, ctx.client, state.organizationId, state.siteId));
    if (items === undefined) return undefined; // the site is gone
    const declared = new Set(state.declared);
    const undeclared = items.filter((item) => !declared.has(item.id)).map((item) => ({ id: item.id, name: nameOf(item) }));
    return { ...state, undeclared };
  },

  async update(ctx, _id, olds, news) {
    const declared = new Set(news.declared);
    for (const object of olds.undeclared ?? []) {
      if (declared.has(object.id)) continue;
      try {
        await deleteListed(olds.list, ctx.client, olds.organizationId, olds.siteId, object.id);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
    return { organizationId: olds.organizationId, siteId: olds.siteId, list: olds.list, declared: news.declared, undeclared: [] };
  },

  // Nothing to delete: the list's objects are the entries' own, and a list the file stops declaring is no longer managed.
  async delete() {},

  driftWords(field, live, where) {
    if (field !== "undeclared" || !Array.isArray(live)) return undefined;
    const list = OWNED_LISTS[where.list as OwnedListName];
    return (live as UndeclaredObject[]).map(
      (o) =>
        `drift: ${list.one} ${o.name === null ? "" : `${JSON.stringify(o.name)} `}(id ${o.id}) on site ${where.siteId} was made on the platform and is not in the file: ` +
        `\`pulumi up\` deletes it; to keep it, declare it in the site's \`${list.property}\``,
    );
  },
} satisfies KindDefinition<SiteUndeclaredInputs, SiteUndeclaredOutputs>;

/** The dynamic provider of SiteUndeclared (serialised through `provider/providers/siteUndeclared`). */
export const siteUndeclaredProvider = makeProvider<SiteUndeclaredInputs, SiteUndeclaredOutputs>(siteUndeclaredKind);

/** Arguments of a SiteUndeclared. */
export type SiteUndeclaredArgs = ResourceArgs<SiteUndeclaredInputs>;
