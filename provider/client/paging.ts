import { ApiError, type HttpMethod } from "./errors";
import type { ListEnvelope } from "./types";

/** Query parameters; `undefined` values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** The one request function paging needs: a GET with a query, answering the parsed body. */
export type GetFn = <T>(method: HttpMethod, path: string, opts: { query?: Query }) => Promise<T>;

/** Pages one list walk follows at most by default: 10 million objects at 1,000 a page. */
export const DEFAULT_MAX_LIST_PAGES = 10_000;

/**
 * Iterates the items of a list endpoint, following `next.page` with `limit=1000` (unless given).
 * Cursors are opaque: one seen twice is an error (a server looping), never followed again; a list
 * still going after `maxPages` pages is an error too (a server handing out fresh cursors forever).
 */
export async function* paginate<T>(request: GetFn, path: string, query: Query = {}, maxPages = DEFAULT_MAX_LIST_PAGES): AsyncIterableIterator<T> {
  let page: string | undefined;
  const seen = new Set<string>();
  const base: Query = { ...query, limit: query.limit ?? 1000 };
  for (let pages = 1; ; pages++) {
    const env = await request<ListEnvelope<T>>("GET", path, { query: page === undefined ? base : { ...base, page } });
    if (!env || !Array.isArray(env.items)) {
      throw new ApiError({ status: 200, code: "ERR_NOT_A_LIST", method: "GET", path: stripQuery(path), detail: "the response is not a list envelope" });
    }
    yield* env.items;
    const next = env.next?.page;
    if (next === undefined || next === null || next === "") return;
    if (seen.has(next)) {
      throw new ApiError({ status: 200, code: "ERR_PAGE_LOOP", method: "GET", path: stripQuery(path), detail: `the server returned a page cursor twice (after ${pages} pages): the list would never end` });
    }
    if (pages >= maxPages) {
      throw new ApiError({ status: 200, code: "ERR_PAGE_LIMIT", method: "GET", path: stripQuery(path), detail: `the list did not end within ${maxPages} pages (the client's maxListPages)` });
    }
    seen.add(next);
    page = next;
  }
}

/** Collects every item of a list endpoint across all pages. */
export async function listAll<T>(request: GetFn, path: string, query?: Query, maxPages?: number): Promise<T[]> {
  const out: T[] = [];
  for await (const item of paginate<T>(request, path, query, maxPages)) out.push(item);
  return out;
}

/** `?a=1&b=x` from a query; `undefined` values are left out. */
export function encodeQuery(q: Query | undefined): string {
  if (!q) return "";
  let s = "";
  for (const key of Object.keys(q)) {
    const v = q[key];
    if (v === undefined) continue;
    s += `${s ? "&" : "?"}${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`;
  }
  return s;
}

/** The path without its query (a query may hold a share key: never shown). */
export function stripQuery(path: string): string {
  const i = path.indexOf("?");
  return i < 0 ? path : path.slice(0, i);
}
