import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, ApiError, isOutcomeUnknown } from "./index";
import { SecretRecorder } from "../../test/support/secrets";

// Cases no real API server produces on purpose: a body that stalls after its headers, one that never
// ends or trickles, and a server that echoes the caller's credentials into its error message.
const TOKEN = "dpt_TRANSPORT_7c1e9a44b02f";
const rec = new SecretRecorder();
let server: Server;
let base: string;
let hits = 0;
let listPages = 0;
/** Another origin a redirect points to, and the requests it received. */
let elsewhere: Server;
let elsewhereBase: string;
const elsewhereSaw: (string | undefined)[] = [];

function handler(req: IncomingMessage, res: ServerResponse): void {
  hits++;
  if (req.url?.startsWith("/v1/stall-body")) {
    res.writeHead(200, { "content-type": "application/json", "content-length": String(10 * 1024 * 1024) });
    res.write('{"items": [');
    return; // never finishes
  }
  if (req.url?.startsWith("/v1/forever") || req.url?.startsWith("/v1/trickle")) {
    // Regression (#37): a body that never ends kept the silence timeout from firing and grew the
    // export to 15 GB. Bytes keep coming until the client hangs up.
    const trickle = req.url.startsWith("/v1/trickle");
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"items": [');
    const chunk = trickle ? " " : `${'"x",'.repeat(16 * 1024)}`;
    const timer = setInterval(() => res.write(chunk), trickle ? 20 : 1);
    res.on("close", () => clearInterval(timer));
    return;
  }
  if (req.url?.startsWith("/v1/lists/")) {
    // Regression (#37): a list whose cursor never ends was followed forever (188,709 pages in 180 s).
    listPages++;
    const cursor = req.url.startsWith("/v1/lists/loop") ? "again" : `fresh-${listPages}`;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ items: [{ n: listPages }], next: { page: cursor } }));
    return;
  }
  if (req.url?.startsWith("/v1/empty")) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end();
    return;
  }
  if (req.url?.startsWith("/v1/unreadable")) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(`${req.headers.authorization} is not JSON`);
    return;
  }
  if (req.url?.startsWith("/v1/moved")) {
    res.writeHead(307, { location: `${elsewhereBase}${req.url}` });
    res.end();
    return;
  }
  if (req.url?.startsWith("/v1/echo")) {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: 400, message: `bad header: ${req.headers.authorization}; token=${TOKEN}` } }));
    return;
  }
  res.writeHead(404, { "content-type": "text/plain" });
  res.end("nothing here");
}

beforeAll(async () => {
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  elsewhere = createServer((req, res) => {
    elsewhereSaw.push(req.headers.authorization);
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
  elsewhereBase = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => elsewhere.close(resolve));
  expect(rec.errors.length).toBeGreaterThan(0);
  expect(rec.occurrences(TOKEN)).toBe(0);
});

function client(over: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}): ApiClient {
  return new ApiClient({
    baseUrl: base,
    token: TOKEN,
    logger: rec.logger,
    timeouts: { bodyMs: 150, headersMs: 1_000 },
    retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 20 },
    ...over,
  });
}

describe("transport failures", () => {
  it("a body that stalls mid-way times out and is retried for GET, then fails with status 0", async () => {
    // undici checks body and headers timeouts on a timer wheel of about 1 s: one retry keeps this short.
    const c = client({ retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 20 } });
    hits = 0;
    const err = (await rec.failure(c.request("GET", "/v1/stall-body"))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(0);
    expect(err.code).toBe("UND_ERR_BODY_TIMEOUT");
    expect(err.message).toMatch(/^GET \/v1\/stall-body: the response body stalled for more than 150 ms/);
    expect(hits).toBe(2);
    expect(c.stats).toMatchObject({ requests: 2, retries: 1 });
    await c.close();
  });

  it("a body that never ends fails at the size limit, once, naming the request", async () => {
    const c = client({ maxResponseBytes: 256 * 1024 });
    hits = 0;
    const err = (await rec.failure(c.request("GET", "/v1/forever?page=abc"))) as ApiError;
    expect(err).toMatchObject({ status: 0, code: "ERR_RESPONSE_TOO_LARGE", outcomeUnknown: false });
    expect(err.message).toBe("GET /v1/forever: the response body is larger than the 262144 bytes the client reads (ERR_RESPONSE_TOO_LARGE)");
    expect(hits).toBe(1); // the same answer again would be as large: not retried
    await c.close();
  });

  it("the default size limit is 32 MiB", async () => {
    const c = client();
    const err = (await rec.failure(c.request("GET", "/v1/forever"))) as ApiError;
    expect(err.message).toContain("larger than the 33554432 bytes");
    await c.close();
  });

  it("a body that trickles (never silent for bodyMs) fails at the total time, once, naming the request", async () => {
    const c = client({ timeouts: { bodyMs: 150, headersMs: 1_000, totalMs: 400 } });
    hits = 0;
    const started = performance.now();
    const err = (await rec.failure(c.request("GET", "/v1/trickle"))) as ApiError;
    expect(err).toMatchObject({ status: 0, code: "ERR_RESPONSE_TIMEOUT" });
    expect(err.message).toBe("GET /v1/trickle: the answer was not complete within 400 ms, headers and body together (ERR_RESPONSE_TIMEOUT)");
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(hits).toBe(1);
    await c.close();
  });

  it("a create whose answer never ends is outcome-unknown", async () => {
    const c = client({ maxResponseBytes: 64 * 1024 });
    const err = (await rec.failure(c.request("POST", "/v1/forever", { body: {} }))) as ApiError;
    expect(err).toMatchObject({ code: "ERR_RESPONSE_TOO_LARGE", outcomeUnknown: true });
    await c.close();
  });

  it("a list answering the same cursor again stops there, naming the list", async () => {
    const c = client();
    listPages = 0;
    const err = (await rec.failure(c.listAll("/v1/lists/loop"))) as ApiError;
    expect(err).toMatchObject({ code: "ERR_PAGE_LOOP" });
    expect(err.message).toBe("GET /v1/lists/loop: 200 OK: the server returned a page cursor twice (after 2 pages): the list would never end");
    expect(listPages).toBe(2);
    await c.close();
  });

  it("a list handing out fresh cursors forever stops at the page cap, naming the list", async () => {
    const c = client({ maxListPages: 25 });
    listPages = 0;
    const seen: unknown[] = [];
    const err = await (async () => {
      for await (const item of c.paginate("/v1/lists/endless")) seen.push(item);
    })().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "ERR_PAGE_LIMIT" });
    expect((err as ApiError).message).toBe("GET /v1/lists/endless: 200 OK: the list did not end within 25 pages (the client's maxListPages)");
    expect(listPages).toBe(25);
    expect(seen).toHaveLength(25);
    await c.close();
  });

  it("the default page cap is 10,000 pages", async () => {
    const c = client();
    listPages = 0;
    const err = (await rec.failure(c.listAll("/v1/lists/endless"))) as ApiError;
    expect(err.message).toContain("did not end within 10000 pages");
    expect(listPages).toBe(10_000);
    await c.close();
  }, 60_000);

  it("refuses a size limit that is not a positive integer", () => {
    expect(() => client({ maxResponseBytes: 0 })).toThrow("maxResponseBytes must be a positive integer, got 0");
  });

  it("a POST whose answer stalls is not retried and is outcome-unknown", async () => {
    const c = client();
    hits = 0;
    const err = (await rec.failure(c.request("POST", "/v1/stall-body", { body: { title: "x" } }))) as ApiError;
    expect(isOutcomeUnknown(err)).toBe(true);
    expect(err.status).toBe(0);
    expect(hits).toBe(1);
    await c.close();
  });

  it("a non-JSON error body becomes the message excerpt", async () => {
    const c = client();
    const err = (await rec.failure(c.request("GET", "/v1/nothing?shareKey=abc"))) as ApiError;
    expect(err.message).toBe("GET /v1/nothing: 404 Not Found: nothing here");
    expect(err.code).toBe("HTTP_404");
    await c.close();
  });

  it("redacts the token when a server echoes it back", async () => {
    const c = client();
    const err = (await rec.failure(c.request("GET", "/v1/echo"))) as ApiError;
    expect(err.status).toBe(400);
    expect(err.message).toBe("GET /v1/echo: 400 Bad Request: bad header: Bearer [redacted]; token=[redacted]");
    await c.close();
  });

  it("an unreadable 2xx body fails, and its cause does not quote the echoed token", async () => {
    const c = client();
    const err = (await rec.failure(c.request("POST", "/v1/unreadable", { body: {} }))) as ApiError;
    expect(err).toMatchObject({ status: 200, code: "ERR_INVALID_JSON", outcomeUnknown: true });
    expect(String((err.cause as Error).message)).toContain("[redacted]");
    await c.close();
  });

  it("a 307 to another origin is not followed: the request fails and the token goes nowhere else", async () => {
    const c = client();
    for (const method of ["GET", "POST", "PUT"] as const) {
      const err = (await rec.failure(c.request(method, "/v1/moved", { body: { title: "x" } }))) as ApiError;
      expect(err).toMatchObject({ status: 307, code: "HTTP_307" });
      expect(err.message).toBe(`${method} /v1/moved: 307 Temporary Redirect`);
    }
    expect(elsewhereSaw).toEqual([]);
    await c.close();
  });

  it("an empty 200 to a create is an uncertain create naming the request, not a TypeError later", async () => {
    // Regression (#37): an empty 200 answered undefined, and the kind failed on `undefined.id` with a
    // live, unmanaged object left behind.
    const c = client();
    const err = (await rec.failure(c.request("POST", "/v1/empty", { body: { name: "x" } }))) as ApiError;
    expect(err).toMatchObject({ status: 200, code: "ERR_EMPTY_ANSWER", outcomeUnknown: true });
    expect(err.message).toBe("POST /v1/empty: 200 OK: the answer has no body, where the API sends the object; outcome unknown: the server acted, look the object up before retrying");
    await c.close();
  });

  it("an empty 200 to a read or an update is a clean error naming the request", async () => {
    const c = client();
    for (const method of ["GET", "PATCH"] as const) {
      const err = (await rec.failure(c.request(method, "/v1/empty?page=x", { body: method === "GET" ? undefined : {} }))) as ApiError;
      expect(err).toMatchObject({ status: 200, code: "ERR_EMPTY_ANSWER", outcomeUnknown: false });
      expect(err.message).toBe(`${method} /v1/empty: 200 OK: the answer has no body, where the API sends the object`);
    }
    const garbled = (await rec.failure(c.request("PATCH", "/v1/unreadable", { body: {} }))) as ApiError;
    expect(garbled).toMatchObject({ code: "ERR_INVALID_JSON", outcomeUnknown: false });
    expect(garbled.message).toBe("PATCH /v1/unreadable: 200 OK: the response body is not valid JSON");
    await c.close();
  });

  it("retries a refused connection even for POST (nothing was sent), then reports it", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const c = client({ baseUrl: `http://127.0.0.1:${port}` });
    const err = (await rec.failure(c.request("POST", "/v1/orgs/x/sites", { body: {} }))) as ApiError;
    expect(err.code).toBe("ECONNREFUSED");
    expect(err.outcomeUnknown).toBe(false);
    expect(c.stats.requests).toBe(3);
    await c.close();
  });
});
