/** Paging of list answers: the envelope, and the opaque cursor that names its list. */
import { badRequest } from "./errors";

export interface ListQuery {
  page?: string;
  limit?: number;
}

/** A list envelope. */
export interface Page<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

const DEFAULT_PAGE_SIZE = 20;

/**
 * Pages `items` with an opaque cursor: base64url of the offset and the list's identity (route and filters),
 * so a cursor built by a client, or taken from another list, is a 400.
 */
export function paginate<T, U>(items: T[], query: ListQuery, listKey: string, present: (item: T) => U): Page<U> {
  const size = query.limit ?? DEFAULT_PAGE_SIZE;
  let offset = 0;
  if (query.page !== undefined) offset = decodeCursor(query.page, listKey);
  const slice = items.slice(offset, offset + size).map(present);
  const page: Page<U> = { items: slice, count: slice.length };
  if (offset + size < items.length) page.next = { page: encodeCursor(offset + size, listKey) };
  return page;
}

function listHash(listKey: string): string {
  let h = 2166136261;
  for (let i = 0; i < listKey.length; i++) {
    h ^= listKey.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return (h >>> 0).toString(36);
}

function encodeCursor(offset: number, listKey: string): string {
  return Buffer.from(`c1.${offset}.${listHash(listKey)}`).toString("base64url");
}

function decodeCursor(cursor: string, listKey: string): number {
  const text = Buffer.from(cursor, "base64url").toString();
  const m = /^c1\.(\d{1,9})\.([0-9a-z]+)$/.exec(text);
  if (!m || m[2] !== listHash(listKey)) throw badRequest("querystring/page", "is not a page cursor of this list (pass the `next.page` value of the previous page)");
  return Number(m[1]);
}
