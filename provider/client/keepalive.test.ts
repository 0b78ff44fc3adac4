import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiClient, ApiError, isOutcomeUnknown } from "./index";

// Regression: a request written on a pooled keep-alive connection that the server had closed while it
// was idle failed with "socket hang up" (ECONNRESET); for a POST the client reported the outcome as
// unknown and the create failed although the server never saw it. A request about to reuse an idle
// connection now waits one event-loop turn (undici's idle-socket validation), sees the close and goes on a
// new connection; idle connections are closed by the client before common server idle timeouts.

let server: Server;
let base: string;
/** Requests the server received, by `METHOD path`. */
const received = new Map<string, number>();
let connections = 0;
/** Called (once) right after the server closed an idle connection. */
let onIdleClose: (() => void) | undefined;
const lines: string[] = [];

function handler(req: IncomingMessage, res: ServerResponse): void {
  const key = `${req.method} ${req.url}`;
  req.resume();
  req.on("end", () => {
    received.set(key, (received.get(key) ?? 0) + 1);
    if (req.url === "/v1/things" && req.method === "POST") {
      // An explicit `Connection: keep-alive` makes Node send no `Keep-Alive: timeout` hint, as many
      // servers and proxies send none: the client cannot know when the server closes idle connections.
      res.writeHead(201, { "content-type": "application/json", connection: "keep-alive" });
      res.end(JSON.stringify({ id: `thing-${received.get(key)}` }));
      return;
    }
    if (req.url === "/v1/cut-short") {
      // The server acted, then the connection broke in the middle of the answer.
      res.writeHead(201, { "content-type": "application/json", "content-length": "100", connection: "keep-alive" });
      res.write('{"id": "thi');
      setImmediate(() => res.socket?.destroy());
      return;
    }
    if (req.url === "/v1/dropped") {
      // The server acted, then dropped the connection before answering anything.
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { "content-type": "application/json", connection: "keep-alive" });
    res.end("{}");
  });
}

beforeAll(async () => {
  server = createServer(handler);
  // Idle connections are closed by the server after 300 ms, unless a client closes them first.
  server.keepAliveTimeout = 300;
  server.on("connection", () => connections++);
  // Fired when an idle keep-alive connection reaches keepAliveTimeout: close it, as Node would.
  server.on("timeout", (socket: Socket) => {
    socket.destroy();
    const next = onIdleClose;
    onIdleClose = undefined;
    next?.();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received.clear();
  lines.length = 0;
  onIdleClose = undefined;
});

function client(over: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}): ApiClient {
  return new ApiClient({
    baseUrl: base,
    token: "dpt_KEEPALIVE_0a9e3c",
    logger: (l) => lines.push(l),
    retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 20 },
    ...over,
  });
}

/** Sends `send()` in the same turn as the server closes the client's idle connection, before the client can see the close. */
function whenServerClosesIdle<T>(send: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    onIdleClose = () => send().then(resolve, reject);
  });
}

describe("a pooled connection the server closed while idle", () => {
  it("a POST sent as the server closes it goes on a new connection, and is processed once", async () => {
    const c = client({ timeouts: { idleMs: 60_000 } });
    await c.request("GET", "/v1/ping");
    const before = connections;
    const created = await whenServerClosesIdle(() => c.request<{ id: string }>("POST", "/v1/things", { body: { title: "x" } }));
    expect(created).toEqual({ id: "thing-1" });
    expect(received.get("POST /v1/things")).toBe(1);
    expect(connections).toBe(before + 1);
    // Nothing failed: the close was seen before the request was written, so it never needed a retry.
    expect(c.stats).toMatchObject({ requests: 2, retries: 0 });
    expect(lines.some((l) => /POST \/v1\/things 201 /.test(l))).toBe(true);
    await c.close();
  });

  it("a GET in the same case goes on a new connection without using up its retries", async () => {
    const c = client({ timeouts: { idleMs: 60_000 }, retry: { maxRetries: 0 } });
    await c.request("GET", "/v1/ping");
    await expect(whenServerClosesIdle(() => c.request("GET", "/v1/ping"))).resolves.toEqual({});
    expect(received.get("GET /v1/ping")).toBe(2);
    expect(c.stats.retries).toBe(0);
    await c.close();
  });

  it("a POST whose answer is cut short on a reused connection is still outcome-unknown, and not sent again", async () => {
    const c = client({ timeouts: { idleMs: 60_000 } });
    await c.request("GET", "/v1/ping");
    const err = await c.request("POST", "/v1/cut-short", { body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(isOutcomeUnknown(err)).toBe(true);
    expect(received.get("POST /v1/cut-short")).toBe(1);
    await c.close();
  });

  it("a POST the server dropped after reading it on a reused connection is outcome-unknown, and not sent again", async () => {
    // Written, then no answer: a server that acted and dropped the connection looks the same as one that
    // never read it, so a create is never repeated blindly.
    const c = client({ timeouts: { idleMs: 60_000 } });
    await c.request("GET", "/v1/ping");
    const err = await c.request("POST", "/v1/dropped", { body: {} }).catch((e: unknown) => e);
    expect(isOutcomeUnknown(err)).toBe(true);
    expect((err as ApiError).status).toBe(0);
    expect(received.get("POST /v1/dropped")).toBe(1);
    await c.close();
  });
});

describe("idle pooled connections", () => {
  it("are closed by the client after idleMs, before the server's idle timeout", async () => {
    const c = client({ timeouts: { idleMs: 50 } });
    let closedBy: "client" | "server" | undefined;
    const closed = new Promise<void>((resolve) => {
      server.once("connection", (socket: Socket) => {
        // The client's FIN arrives as the end of the stream; the server's own close does not end it first.
        socket.once("end", () => {
          closedBy ??= "client";
          resolve();
        });
        socket.once("close", () => {
          closedBy ??= "server";
          resolve();
        });
      });
    });
    await c.request("GET", "/v1/ping");
    await closed;
    expect(closedBy).toBe("client");
    await c.close();
  });
});
