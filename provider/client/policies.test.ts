import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { listAll, paginate, type GetFn } from "./paging";
import { backoffMs, notSent, retryFailure, retryServerError } from "./retryRules";

// The retry and paging policies alone; the request core composes them (client tests cover the composition on real HTTP).

describe("retry policy", () => {
  it("retries transient failures of idempotent requests, and of any request that was never sent", () => {
    expect(retryFailure("ECONNRESET", true, 0, 4)).toBe(true);
    expect(retryFailure("ECONNRESET", false, 0, 4)).toBe(false); // a POST may have acted
    expect(retryFailure("ECONNREFUSED", false, 0, 4)).toBe(true); // nothing was sent
    expect(retryFailure("UND_ERR_CONNECT_TIMEOUT", false, 0, 4)).toBe(true);
    expect(retryFailure("UND_ERR_HEADERS_TIMEOUT", true, 4, 4)).toBe(false); // out of retries
    expect(retryFailure("ERR_SOMETHING_ELSE", true, 0, 4)).toBe(false);
    expect(notSent("UND_ERR_CONNECT_TIMEOUT")).toBe(true);
    expect(notSent("UND_ERR_HEADERS_TIMEOUT")).toBe(false);
  });

  it("retries 5xx only for idempotent requests", () => {
    expect(retryServerError(true, 0, 4)).toBe(true);
    expect(retryServerError(false, 0, 4)).toBe(false);
    expect(retryServerError(true, 4, 4)).toBe(false);
  });

  it("backs off exponentially with jitter, capped", () => {
    for (let i = 0; i < 50; i++) {
      expect(backoffMs(0, 200, 5_000)).toBeGreaterThanOrEqual(100);
      expect(backoffMs(0, 200, 5_000)).toBeLessThanOrEqual(200);
      expect(backoffMs(3, 200, 5_000)).toBeGreaterThanOrEqual(800);
      expect(backoffMs(10, 200, 5_000)).toBeLessThanOrEqual(5_000);
    }
  });
});

describe("paging", () => {
  /** A list server in memory: pages of two, cursors as given. Used because the emulator never loops its cursors. */
  function pages(list: { items: number[]; next?: { page: string } }[]): { get: GetFn; queries: unknown[] } {
    const queries: unknown[] = [];
    const get = (async (_m: string, _p: string, opts: { query?: Record<string, unknown> }) => {
      queries.push(opts.query);
      const page = opts.query?.page === undefined ? 0 : Number(opts.query.page);
      return list[page];
    }) as GetFn;
    return { get, queries };
  }

  it("follows next.page with limit=1000 until the last page", async () => {
    const p = pages([{ items: [1, 2], next: { page: "1" } }, { items: [3], next: { page: "2" } }, { items: [] }]);
    expect(await listAll<number>(p.get, "/v1/x")).toEqual([1, 2, 3]);
    expect(p.queries).toEqual([{ limit: 1000 }, { limit: 1000, page: "1" }, { limit: 1000, page: "2" }]);
  });

  it("refuses a cursor seen twice and an answer that is not a list", async () => {
    const loop = pages([{ items: [1], next: { page: "1" } }, { items: [2], next: { page: "1" } }]);
    await expect(listAll(loop.get, "/v1/x")).rejects.toMatchObject({ code: "ERR_PAGE_LOOP" });
    const notList = (async () => ({ nope: true })) as unknown as GetFn;
    const it = paginate(notList, "/v1/x?secret=1");
    await expect(it.next()).rejects.toBeInstanceOf(ApiError);
    await expect(listAll(notList, "/v1/x?secret=1")).rejects.toMatchObject({ code: "ERR_NOT_A_LIST", path: "/v1/x" });
  });
});
