/**
 * An owned list: the objects one parent holds (a site's MCP servers, an organisation's SAML providers), listed,
 * created, updated and deleted (and where the API has it, read one by one) under one collection route. An area
 * that is such a list is one row — its route and how its calls differ — and its own file keeps only the calls
 * that are its own.
 */
import type { RequestCore } from "./core";
import type { Query } from "./paging";
import { route } from "./path";

/** One owned list: its collection route and its quirks. */
export interface OwnedListRow {
  /** The collection's route, `{}` for each parent's ID in order: `/v1/orgs/{}/sites/{}/share-links`. An object's route is this and `/{}`. */
  collection: string;
  /** A create's method: POST, or PUT where the API creates with one (on every call, so it is never retried blindly either). */
  create?: "POST" | "PUT";
  /** An update's method: PATCH, or PUT where the API replaces the whole object. */
  update?: "PATCH" | "PUT";
}

/**
 * The calls of an owned list whose parents' IDs are `P` (labelled, in route order) and whose list takes the
 * query `Q`: `list` and `iterate` (every page, 1,000 to a page unless `limit` is given), `create`, `update`, `delete`.
 */
export class OwnedList<P extends readonly string[], Item, Create, Update = Create, Q extends object = { limit?: number }> {
  readonly #parents: number;

  constructor(
    protected readonly core: RequestCore,
    private readonly row: OwnedListRow,
  ) {
    this.#parents = row.collection.split("{}").length - 1;
  }

  /** Every item, across all pages. */
  list(...args: [...P, query?: Q]): Promise<Item[]> {
    return this.core.listAll(this.collection(args), this.query(args));
  }
  /** The items page by page, as they come. */
  iterate(...args: [...P, query?: Q]): AsyncIterableIterator<Item> {
    return this.core.paginate(this.collection(args), this.query(args));
  }
  /** Creates an object; never retried blindly (an unknown outcome raises ApiError.outcomeUnknown). */
  create(...args: [...P, body: Create]): Promise<Item> {
    return this.core.request(this.row.create ?? "POST", this.collection(args), { body: args[this.#parents], idempotent: false });
  }
  update(...args: [...P, id: string, body: Update]): Promise<Item> {
    return this.core.request(this.row.update ?? "PATCH", this.item(args), { body: args[this.#parents + 1] });
  }
  delete(...args: [...P, id: string]): Promise<void> {
    return this.core.request("DELETE", this.item(args));
  }

  /** The collection's path from the parents' IDs that lead `args`. */
  protected collection(args: readonly unknown[]): string {
    return route(this.row.collection, ...(args.slice(0, this.#parents) as string[]));
  }
  /** One object's path from the parents' IDs and the object's ID that lead `args`. */
  protected item(args: readonly unknown[]): string {
    return route(`${this.row.collection}/{}`, ...(args.slice(0, this.#parents + 1) as string[]));
  }
  private query(args: readonly unknown[]): Query {
    return { ...(args[this.#parents] as Q | undefined) } as Query;
  }
}

/** An owned list whose objects the API also reads one by one. */
export class OwnedItems<P extends readonly string[], Item, Create, Update = Create, Q extends object = { limit?: number }> extends OwnedList<P, Item, Create, Update, Q> {
  get(...args: [...P, id: string]): Promise<Item> {
    return this.core.request("GET", this.item(args));
  }
}

/** The parents of an organisation's list. */
export type InOrganization = [orgId: string];
/** The parents of a site's list. */
export type InSite = [orgId: string, siteId: string];
