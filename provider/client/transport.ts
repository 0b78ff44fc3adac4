import { Pool, type Dispatcher } from "undici";

/** Timeouts of one request, in milliseconds. */
export interface Timeouts {
  /** TCP + TLS connect. */
  connectMs: number;
  /** From sending the request to receiving the response headers. */
  headersMs: number;
  /** Longest silence while receiving the response body. */
  bodyMs: number;
  /**
   * The whole answer: from sending the request to the last byte of its body. The silence timeouts
   * above never fire while bytes keep coming, so a body that never ends (or trickles) is stopped here.
   */
  totalMs: number;
  /**
   * How long an idle pooled connection is kept before the client closes it. A server closes idle
   * keep-alive connections after its own timeout; a request written on a connection it has just
   * closed fails. So this stays below the idle timeouts servers commonly use (5 s in Node's http
   * server and many proxies, 72 s in fastify): the client closes first. A server's
   * `Keep-Alive: timeout=N` hint shortens it further (kept at most N − 1 s, not at all for N ≤ 1).
   */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000, totalMs: 120_000, idleMs: 4_000 };

/** Largest response body read by default (32 MiB): a list page of 1,000 objects is a few MB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** The code of an answer whose body is larger than the client reads. */
export const RESPONSE_TOO_LARGE = "ERR_RESPONSE_TOO_LARGE";
/** The code of an answer not complete within `Timeouts.totalMs`. */
export const RESPONSE_TIMEOUT = "ERR_RESPONSE_TIMEOUT";

/**
 * Connections a pool opens to one origin at most. The base URL's gate (endpoint.ts) bounds requests in
 * flight well below this (16 by default); the pool's bound only keeps a larger setting from opening
 * connections without limit.
 */
const MAX_CONNECTIONS = 64;

/** One request as the client sends it. */
export interface TransportRequest {
  origin: string;
  path: string;
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body?: string;
}

/** What bounds one answer: its timeouts and the largest body read. */
export interface ResponseLimits {
  timeouts: Timeouts;
  maxResponseBytes: number;
}

/** A transport failure with the code the client classifies it by. */
function failure(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * A keep-alive connection pool of undici for `origin`. Redirects are not followed (no redirect
 * interceptor): a 3xx is an answer like any other and ends the request as an error, so the token is
 * never sent anywhere but the base URL. undici's retry interceptor is not used either: the client's
 * own policies (policies.ts) retry and wait out rate limits, per method and across its clients.
 *
 * A request about to go on a pooled connection that sat idle waits one turn of the event loop first
 * (undici's idle-socket validation), so a close the server sent while it was idle is seen and the
 * request goes on a new connection instead: the server never receives it half-written.
 */
function newPool(origin: string, t: Timeouts): Pool {
  return new Pool(origin, {
    connections: MAX_CONNECTIONS,
    connect: { timeout: t.connectMs },
    headersTimeout: t.headersMs,
    bodyTimeout: t.bodyMs,
    keepAliveTimeout: t.idleMs,
    // A server's `Keep-Alive: timeout=N` may shorten the idle time, never lengthen it; kept N − 1 s.
    keepAliveMaxTimeout: t.idleMs,
    keepAliveTimeoutThreshold: 1_000,
  });
}

interface Shared {
  pool: Pool;
  refs: number;
}

const pools = new Map<string, Shared>();

/**
 * The keep-alive connection pool of an origin, shared process-wide and reference-counted: every
 * client of the same origin (and timeouts) reuses one pool; the last release closes it.
 */
export function acquirePool(origin: string, t: Timeouts): { dispatcher: Dispatcher; release: () => Promise<void> } {
  const key = `${origin} ${t.connectMs} ${t.headersMs} ${t.bodyMs} ${t.idleMs}`;
  let shared = pools.get(key);
  if (!shared) {
    shared = { pool: newPool(origin, t), refs: 0 };
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

/**
 * Sends one request on `dispatcher` and reads its whole body, within `limits.timeouts.totalMs` and
 * `limits.maxResponseBytes`; never throws.
 */
export async function sendOnce(dispatcher: Dispatcher, req: TransportRequest, limits: ResponseLimits): Promise<Attempt> {
  const t = limits.timeouts;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(failure(RESPONSE_TIMEOUT, `no complete answer within ${t.totalMs} ms`)), t.totalMs);
  try {
    const res = await dispatcher.request({
      origin: req.origin,
      path: req.path,
      method: req.method,
      headers: req.body === undefined ? req.headers : { ...req.headers, "content-length": String(Buffer.byteLength(req.body)) },
      ...(req.body === undefined ? {} : { body: req.body }),
      headersTimeout: t.headersMs,
      bodyTimeout: t.bodyMs,
      signal: abort.signal,
    });
    const headers = res.headers as Record<string, string | string[] | undefined>;
    if (res.statusCode === 204 || res.statusCode === 205) {
      await res.body.dump();
      return { kind: "answer", status: res.statusCode, headers, text: "" };
    }
    const text = await readBody(res.body, headers, limits.maxResponseBytes);
    return { kind: "answer", status: res.statusCode, headers, text };
  } catch (error) {
    return { kind: "failure", code: errorCode(error), error };
  } finally {
    clearTimeout(timer);
  }
}

/** The body as UTF-8 text, refused (and the connection dropped) once it passes `max` bytes. */
async function readBody(body: Dispatcher.ResponseData["body"], headers: Record<string, string | string[] | undefined>, max: number): Promise<string> {
  const tooLarge = () => failure(RESPONSE_TOO_LARGE, `the response body is larger than ${max} bytes`);
  const declared = Number(headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) {
    body.destroy(tooLarge());
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      const e = tooLarge();
      body.destroy(e);
      throw e;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
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

/** What went wrong on the wire, in words (with the limit that was reached). */
export function describeFailure(code: string, e: unknown, limits: ResponseLimits): string {
  const t = limits.timeouts;
  switch (code) {
    case "UND_ERR_CONNECT_TIMEOUT":
      return `could not connect within ${t.connectMs} ms (${code})`;
    case "UND_ERR_HEADERS_TIMEOUT":
      return `no response within ${t.headersMs} ms (${code})`;
    case "UND_ERR_BODY_TIMEOUT":
      return `the response body stalled for more than ${t.bodyMs} ms (${code})`;
    case RESPONSE_TIMEOUT:
      return `the answer was not complete within ${t.totalMs} ms, headers and body together (${code})`;
    case RESPONSE_TOO_LARGE:
      return `the response body is larger than the ${limits.maxResponseBytes} bytes the client reads (${code})`;
    case "UND_ERR_SOCKET":
    case "ECONNRESET":
    case "EPIPE":
      return `connection reset (${code})`;
    case "ECONNREFUSED":
      return `connection refused (${code})`;
    default: {
      const msg = e instanceof Error ? e.message : String(e);
      return `network error: ${msg} (${code})`;
    }
  }
}
