import * as http from "node:http";
import * as https from "node:https";

/** Timeouts of one request, in milliseconds. */
export interface Timeouts {
  /** TCP + TLS connect. */
  connectMs: number;
  /** From sending the request to receiving the response headers. */
  headersMs: number;
  /** Longest silence while receiving the response body. */
  bodyMs: number;
  /**
   * How long an idle pooled connection is kept before the client closes it. A server closes idle
   * keep-alive connections after its own timeout; a request written on a connection it has just
   * closed fails. So this stays below the idle timeouts servers commonly use (5 s in Node's http
   * server and many proxies, 72 s in fastify): the client closes first. A server's
   * `Keep-Alive: timeout=N` hint shortens it further (Node's agent keeps such a connection at most
   * N − 1 s, and not at all for N ≤ 1).
   */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000, idleMs: 4_000 };

/**
 * The code of a request that failed on a pooled connection the server had closed while it was idle,
 * before any byte of the request was written: the server never saw it, so any method may be sent
 * again (on a new connection).
 */
export const STALE_CONNECTION = "ERR_STALE_CONNECTION";

/** One request as the client sends it. */
export interface TransportRequest {
  origin: string;
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  headersTimeout: number;
  bodyTimeout: number;
  /** Send on a new connection of its own rather than a pooled one (after a stale pooled connection). */
  freshConnection?: boolean;
}

/** One answer: status, headers and a body read once. */
export interface TransportResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: { text(): Promise<string>; dump(): Promise<void> };
}

/**
 * What the client needs of a transport: undici's `Dispatcher` fits (tests and proxies inject one),
 * and so does the default {@link HttpPool}.
 */
export interface Transport {
  request(req: TransportRequest): Promise<TransportResponse>;
}

/** A transport failure with the code the client classifies it by (undici's codes for timeouts). */
function failure(code: string, message: string, cause?: unknown): Error {
  return Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code });
}

/**
 * A keep-alive connection pool on Node's own HTTP client. It replaces undici's Pool in the provider:
 * undici parses HTTP with a WebAssembly build of llhttp whose optimising compile takes ~35 MB of
 * native memory on the first request, and loading undici another ~15 MB — in the plugin process,
 * which serves every resource of a stack. Node's built-in parser costs neither.
 * Timeouts carry undici's error codes, so errors read the same whichever transport is used.
 *
 * Stale connections: a pooled connection may have been closed by the server while idle, its close
 * not yet seen when a request picks it. A request on a reused connection is therefore written only
 * after one turn of the event loop, in which such a close arrives; the request then fails with
 * {@link STALE_CONNECTION} having sent nothing, and the other idle connections (as old or older) are
 * dropped. Once written, a failure before any response is not told apart from a server that acted
 * and then dropped the connection, so it keeps its own code (for a create: outcome unknown).
 */
export class HttpPool implements Transport {
  readonly #agent: http.Agent;
  readonly #secure: boolean;
  readonly #connectMs: number;

  constructor(origin: string, t: Timeouts) {
    this.#secure = new URL(origin).protocol === "https:";
    this.#connectMs = t.connectMs;
    // `timeout` is the idle time after which a pooled connection is closed (see Timeouts.idleMs); the
    // socket timeout it also sets on a request in flight only emits an event nobody acts on here.
    const options: http.AgentOptions = { keepAlive: true, keepAliveMsecs: 1_000, scheduling: "lifo", timeout: t.idleMs };
    this.#agent = this.#secure ? new https.Agent(options) : new http.Agent(options);
  }

  request(r: TransportRequest): Promise<TransportResponse> {
    const url = new URL(r.path, r.origin);
    const send = this.#secure ? https.request : http.request;
    return new Promise<TransportResponse>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const arm = (ms: number, code: string, message: string, target: { destroy(e: Error): void } = req) => {
        clearTimeout(timer);
        timer = setTimeout(() => target.destroy(failure(code, message)), ms);
      };
      const headers: Record<string, string> = { ...r.headers };
      if (r.body !== undefined) headers["content-length"] = String(Buffer.byteLength(r.body));
      const req = send(url, { method: r.method, headers, agent: r.freshConnection ? false : this.#agent });
      let written = false;
      const write = () => {
        if (req.destroyed) return;
        written = true;
        req.end(r.body);
      };
      req.on("socket", (socket) => {
        const waitHeaders = () => arm(r.headersTimeout, "UND_ERR_HEADERS_TIMEOUT", `Headers Timeout Error`);
        if (socket.connecting) {
          arm(this.#connectMs, "UND_ERR_CONNECT_TIMEOUT", `Connect Timeout Error (${url.host}, timeout: ${this.#connectMs}ms)`);
          socket.once(this.#secure ? "secureConnect" : "connect", waitHeaders);
        } else {
          waitHeaders();
        }
        // A pooled connection: let a close the server sent while it was idle arrive before writing.
        if (req.reusedSocket) setImmediate(write);
        else write();
      });
      req.on("error", (e) => {
        clearTimeout(timer);
        if (req.reusedSocket && !written) {
          this.#dropIdle();
          reject(failure(STALE_CONNECTION, `the pooled connection was closed by the server before the request was sent (${String((e as { code?: unknown }).code ?? e.message)})`, e));
          return;
        }
        reject(e);
      });
      req.on("response", (res) => {
        const stall = () => arm(r.bodyTimeout, "UND_ERR_BODY_TIMEOUT", "Body Timeout Error", res);
        stall();
        const chunks: Buffer[] = [];
        const done = new Promise<string>((ok, fail) => {
          res.on("data", (c: Buffer) => {
            chunks.push(c);
            stall();
          });
          res.on("end", () => {
            clearTimeout(timer);
            ok(Buffer.concat(chunks).toString("utf8"));
          });
          // A response cut short by the server (ECONNRESET) or destroyed by the body timeout above.
          res.on("error", (e) => {
            clearTimeout(timer);
            fail(e);
          });
        });
        done.catch(() => undefined);
        resolve({
          statusCode: res.statusCode ?? 0,
          headers: res.headers,
          body: { text: () => done, dump: () => done.then(() => undefined) },
        });
      });
    });
  }

  /** Closes every idle pooled connection (after one of them turned out stale, the others are as old or older). */
  #dropIdle(): void {
    for (const sockets of Object.values(this.#agent.freeSockets)) for (const s of sockets ?? []) s.destroy();
  }

  /** Closes idle connections; requests in flight finish. */
  async close(): Promise<void> {
    this.#agent.destroy();
  }
}

interface Shared {
  pool: HttpPool;
  refs: number;
}

const pools = new Map<string, Shared>();

/**
 * A keep-alive connection pool for an origin, shared process-wide and reference-counted: every
 * client of the same origin (and connect and idle timeouts) reuses one pool; the last release closes it.
 */
export function acquirePool(origin: string, t: Timeouts): { dispatcher: Transport; release: () => Promise<void> } {
  const key = `${origin} ${t.connectMs} ${t.idleMs}`;
  let shared = pools.get(key);
  if (!shared) {
    shared = { pool: new HttpPool(origin, t), refs: 0 };
    pools.set(key, shared);
  }
  shared.refs++;
  const held = shared;
  let released = false;
  return {
    dispatcher: held.pool,
    release: async () => {
      if (released) return;
      released = true;
      held.refs--;
      if (held.refs === 0) {
        pools.delete(key);
        await held.pool.close();
      }
    },
  };
}

/** The outcome of one attempt: an answer with its body read, or a transport failure with its code. */
export type Attempt =
  | { kind: "answer"; status: number; headers: Record<string, string | string[] | undefined>; text: string }
  | { kind: "failure"; code: string; error: unknown };

/** Sends one request on `transport` and reads its whole body; never throws. */
export async function sendOnce(transport: Transport, req: TransportRequest): Promise<Attempt> {
  try {
    const res = await transport.request(req);
    if (res.statusCode === 204 || res.statusCode === 205) {
      await res.body.dump();
      return { kind: "answer", status: res.statusCode, headers: res.headers, text: "" };
    }
    const text = await res.body.text();
    return { kind: "answer", status: res.statusCode, headers: res.headers, text };
  } catch (error) {
    return { kind: "failure", code: errorCode(error), error };
  }
}

/** The code a transport failure is classified by (its own, its cause's, or `ERR_TRANSPORT`). */
export function errorCode(e: unknown): string {
  if (e && typeof e === "object") {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    const cause = (e as { cause?: unknown }).cause;
    if (cause && typeof cause === "object" && typeof (cause as { code?: unknown }).code === "string") {
      return (cause as { code: string }).code;
    }
  }
  return "ERR_TRANSPORT";
}

/** What went wrong on the wire, in words (with the timeout that expired). */
export function describeFailure(code: string, e: unknown, t: Timeouts): string {
  switch (code) {
    case "UND_ERR_CONNECT_TIMEOUT":
      return `could not connect within ${t.connectMs} ms (${code})`;
    case "UND_ERR_HEADERS_TIMEOUT":
      return `no response within ${t.headersMs} ms (${code})`;
    case "UND_ERR_BODY_TIMEOUT":
      return `the response body stalled for more than ${t.bodyMs} ms (${code})`;
    case "UND_ERR_SOCKET":
    case "ECONNRESET":
    case "EPIPE":
      return `connection reset (${code})`;
    case "ECONNREFUSED":
      return `connection refused (${code})`;
    case STALE_CONNECTION:
      return `the pooled connection was closed by the server before the request was sent, twice (${code})`;
    default: {
      const msg = e instanceof Error ? e.message : String(e);
      return `network error: ${msg} (${code})`;
    }
  }
}
