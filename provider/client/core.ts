import type { Dispatcher } from "undici";
import { baseKey, checkBaseUrl } from "./baseUrl";
import { Endpoint, RateLimitWaitExceeded, endpointFor, resetInMs, retryAfterMs } from "./endpoint";
import { ApiError, redact, type HttpMethod } from "./errors";
import { acquirePool, DEFAULT_TIMEOUTS, envTimeouts, STALE_CONNECTION, type Timeouts, type Transport } from "./transport";
import type { ListEnvelope } from "./types";

/** Query parameters; `undefined` values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** Options of one request. */
export interface RequestOptions {
  query?: Query;
  /** Serialised as JSON once. */
  body?: unknown;
  /** Whether a retry after an unknown outcome is safe. Default: every method but POST. */
  idempotent?: boolean;
}

/** Retry and rate-limit tuning. */
export interface RetryOptions {
  /** Retries of 5xx answers, resets and timeouts (idempotent requests only). Default 4. */
  maxRetries?: number;
  /** First backoff delay; doubles per retry, with jitter. Default 200 ms. */
  baseDelayMs?: number;
  /** Backoff cap. Default 5 s. */
  maxDelayMs?: number;
  /** A rate-limit wait longer than this fails with the 429 instead of sleeping. Default 60 s. */
  maxRateLimitWaitMs?: number;
  /** 429 answers one request may retry after. Default 10. */
  maxRateLimitRetries?: number;
}

/** Options of an ApiClient. */
export interface ClientOptions {
  /** `https://…`, or `http://` on a loopback host. Paths (`/v1/…`) are appended to it. */
  baseUrl: string;
  /** API token, sent as `Authorization: Bearer <token>` and never shown anywhere. */
  token: string;
  /** Transport to use instead of the shared keep-alive pool of the base URL (tests, proxies): an undici `Dispatcher` fits. */
  dispatcher?: Dispatcher | Transport;
  /** In-flight request bound per base URL, process-wide. Default `DOCSPLATFORM_MAX_CONCURRENCY` or 16. */
  maxConcurrency?: number;
  /**
   * Default 10 s connect, 30 s headers and body, 4 s before an idle pooled connection is closed
   * (below common server idle timeouts; see `Timeouts.idleMs`); `DOCSPLATFORM_TIMEOUT_MS` sets
   * headers and body.
   */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number; idleMs?: number };
  retry?: RetryOptions;
  /** Receives debug lines (redacted). Default: stderr when `DOCSPLATFORM_DEBUG=1`, else none. */
  logger?: (line: string) => void;
  userAgent?: string;
}

/** Counters of one client, for tests and the benchmark. */
export interface ClientStats {
  /** Attempts sent (a retry counts again). */
  requests: number;
  /** Attempts that were retries of an earlier attempt (after 5xx, 429, reset, timeout or a stale pooled connection). */
  retries: number;
  /** 429 answers received. */
  rateLimited: number;
}

const DEFAULT_RETRY: Required<RetryOptions> = {
  maxRetries: 4,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  maxRateLimitWaitMs: 60_000,
  maxRateLimitRetries: 10,
};

/** Transport failures where the request certainly never reached the server. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT", STALE_CONNECTION]);
/** Transport failures worth a retry (when the method allows it). */
const TRANSIENT = new Set([
  ...NOT_SENT,
  "UND_ERR_SOCKET",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
]);

type Attempt =
  | { kind: "answer"; status: number; headers: Record<string, string | string[] | undefined>; text: string }
  | { kind: "failure"; code: string; error: unknown };

let nextRequestId = 1;

/**
 * The request core: authentication, the process-wide concurrency bound and rate-limit
 * coordination of the base URL, retries, timeouts, JSON, errors, paging and debug logging.
 * The typed API areas are thin layers over `request`, `paginate` and `listAll`.
 */
export class RequestCore {
  /** Counters of this client. */
  readonly stats: ClientStats = { requests: 0, retries: 0, rateLimited: 0 };
  /** The vetted base URL. */
  readonly baseUrl: URL;

  readonly #token: string;
  readonly #headers: Record<string, string>;
  readonly #jsonHeaders: Record<string, string>;
  readonly #origin: string;
  readonly #prefix: string;
  readonly #dispatcher: Transport;
  readonly #releaseTransport: (() => Promise<void>) | undefined;
  readonly #endpoint: Endpoint;
  readonly #timeouts: Timeouts;
  readonly #retry: Required<RetryOptions>;
  readonly #log: ((line: string) => void) | undefined;
  readonly #writeListeners = new Set<(path: string) => void>();
  #closed = false;

  constructor(opts: ClientOptions) {
    this.baseUrl = checkBaseUrl(opts.baseUrl);
    if (typeof opts.token !== "string" || opts.token.length === 0) {
      throw new Error("docsplatform API token is missing (set docsplatform:apiToken or DOCSPLATFORM_API_TOKEN)");
    }
    if (/[\r\n\0]/.test(opts.token) || opts.token.trim() !== opts.token) {
      throw new Error("docsplatform API token contains whitespace or control characters");
    }
    if (opts.maxConcurrency !== undefined && (!Number.isInteger(opts.maxConcurrency) || opts.maxConcurrency < 1)) {
      throw new Error(`maxConcurrency must be a positive integer, got ${opts.maxConcurrency}`);
    }
    this.#token = opts.token;
    const common = {
      authorization: `Bearer ${opts.token}`,
      accept: "application/json",
      "user-agent": opts.userAgent ?? "pulumi-docsplatform",
    };
    this.#headers = common;
    this.#jsonHeaders = { ...common, "content-type": "application/json" };
    this.#origin = this.baseUrl.origin;
    this.#prefix = this.baseUrl.pathname.replace(/\/+$/, "");
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...envTimeouts(), ...definedOnly(opts.timeouts ?? {}) };
    this.#retry = { ...DEFAULT_RETRY, ...definedOnly(opts.retry ?? {}) };
    if (opts.dispatcher) {
      this.#dispatcher = opts.dispatcher;
      this.#releaseTransport = undefined;
    } else {
      const held = acquirePool(this.#origin, this.#timeouts);
      this.#dispatcher = held.dispatcher;
      this.#releaseTransport = held.release;
    }
    this.#endpoint = endpointFor(baseKey(this.baseUrl), opts.maxConcurrency);
    const log = opts.logger ?? (process.env.DOCSPLATFORM_DEBUG === "1" ? (l: string) => process.stderr.write(`${l}\n`) : undefined);
    this.#log = log === undefined ? undefined : (line: string) => log(redact(line, this.#token));
  }

  /**
   * Calls `listener` with the path (e.g. `/v1/orgs/o/sites/s/sections`, no query) of every write
   * (any method but GET) this client finishes, whatever its outcome. Returns the unsubscribe.
   */
  onWrite(listener: (path: string) => void): () => void {
    this.#writeListeners.add(listener);
    return () => this.#writeListeners.delete(listener);
  }

  /**
   * Sends one request and returns the parsed JSON body (`undefined` for 204/205 or an empty body).
   * Throws ApiError for every non-2xx answer and every transport failure.
   */
  async request<T>(method: HttpMethod, path: string, opts: RequestOptions = {}): Promise<T> {
    if (method === "GET") return this.#request<T>(method, path, opts);
    try {
      return await this.#request<T>(method, path, opts);
    } finally {
      const shown = stripQuery(path);
      for (const listener of this.#writeListeners) listener(shown);
    }
  }

  async #request<T>(method: HttpMethod, path: string, opts: RequestOptions): Promise<T> {
    if (this.#closed) throw new Error(`${method} ${stripQuery(path)}: the client is closed`);
    if (!path.startsWith("/")) throw new Error(`request path must start with '/': ${stripQuery(path)}`);
    const shownPath = stripQuery(path);
    const idempotent = opts.idempotent ?? method !== "POST";
    const fullPath = this.#prefix + path + encodeQuery(opts.query);
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const headers = body === undefined ? this.#headers : this.#jsonHeaders;
    const id = nextRequestId++;
    const r = this.#retry;
    let retries = 0;
    let rateLimitRetries = 0;
    // A request that found its pooled connection closed by the server (nothing sent) is sent again at
    // once on a new connection, whatever its method; this does not use up `maxRetries`.
    let staleRetries = 0;
    let fresh = false;

    for (;;) {
      try {
        await this.#endpoint.acquire(r.maxRateLimitWaitMs, rateLimitRetries > 0);
      } catch (e) {
        if (e instanceof RateLimitWaitExceeded) {
          throw new ApiError({
            status: 429,
            code: "HTTP_429",
            method,
            path: shownPath,
            detail: `rate limited; the next window opens in ${Math.ceil(e.waitMs / 1000)} s, beyond the ${r.maxRateLimitWaitMs} ms the client may wait`,
            retryAfterMs: e.waitMs,
          });
        }
        throw e;
      }
      if (retries + rateLimitRetries + staleRetries > 0) this.stats.retries++;
      this.stats.requests++;
      const started = performance.now();
      const attempt = await this.#send(method, fullPath, headers, body, fresh);
      fresh = false;
      const ms = Math.round(performance.now() - started);

      if (attempt.kind === "failure") {
        this.#endpoint.release();
        if (attempt.code === STALE_CONNECTION && staleRetries === 0) {
          this.#debug(id, method, shownPath, attempt.code, ms, retries + rateLimitRetries + staleRetries, "pooled connection closed by the server while idle, nothing sent: retry on a new connection");
          staleRetries++;
          fresh = true;
          continue;
        }
        const notSent = NOT_SENT.has(attempt.code);
        const retryable = TRANSIENT.has(attempt.code) && (idempotent || notSent) && retries < r.maxRetries;
        if (retryable) {
          const delay = this.#backoff(retries);
          this.#debug(id, method, shownPath, attempt.code, ms, retries + rateLimitRetries + staleRetries, `retry in ${delay} ms`);
          retries++;
          await sleep(delay);
          continue;
        }
        this.#debug(id, method, shownPath, attempt.code, ms, retries + rateLimitRetries + staleRetries);
        throw this.#transportError(method, shownPath, attempt, !idempotent && !notSent);
      }

      const { status, headers: resHeaders, text } = attempt;
      this.#endpoint.release(resHeaders);
      if (status >= 200 && status < 300) {
        this.#debug(id, method, shownPath, String(status), ms, retries + rateLimitRetries + staleRetries);
        if (text === "") return undefined as T;
        try {
          return JSON.parse(text) as T;
        } catch (e) {
          // The write happened (2xx) but its answer is unreadable: for a create, the outcome is unknown.
          throw new ApiError({
            status,
            code: "ERR_INVALID_JSON",
            method,
            path: shownPath,
            detail: `the response body is not valid JSON`,
            outcomeUnknown: !idempotent,
            cause: this.#sanitize(e),
          });
        }
      }

      if (status === 429) {
        this.stats.rateLimited++;
        const now = Date.now();
        const after = retryAfterMs(resHeaders["retry-after"], now);
        const reset = resetInMs(resHeaders["x-ratelimit-reset"], now);
        const wait = Math.max(after ?? 0, reset ?? 0) || this.#backoff(rateLimitRetries);
        this.#endpoint.pause(now + wait);
        if (wait <= r.maxRateLimitWaitMs && rateLimitRetries < r.maxRateLimitRetries) {
          this.#debug(id, method, shownPath, "429", ms, retries + rateLimitRetries + staleRetries, `rate limited, waiting ${wait} ms`);
          rateLimitRetries++;
          continue;
        }
        this.#debug(id, method, shownPath, "429", ms, retries + rateLimitRetries + staleRetries);
        throw this.#httpError(method, shownPath, status, text, false, wait);
      }

      if (status >= 500) {
        if (idempotent && retries < r.maxRetries) {
          const after = retryAfterMs(resHeaders["retry-after"]);
          const delay = Math.min(Math.max(this.#backoff(retries), after ?? 0), r.maxRateLimitWaitMs);
          this.#debug(id, method, shownPath, String(status), ms, retries + rateLimitRetries + staleRetries, `retry in ${delay} ms`);
          retries++;
          await sleep(delay);
          continue;
        }
        this.#debug(id, method, shownPath, String(status), ms, retries + rateLimitRetries + staleRetries);
        // A server error may come after the write was done: a create must not be repeated blindly.
        throw this.#httpError(method, shownPath, status, text, !idempotent);
      }

      this.#debug(id, method, shownPath, String(status), ms, retries + rateLimitRetries + staleRetries);
      throw this.#httpError(method, shownPath, status, text, false);
    }
  }

  /** Iterates the items of a list endpoint, following `next.page` with `limit=1000` (unless given). */
  async *paginate<T>(path: string, query: Query = {}): AsyncIterableIterator<T> {
    let page: string | undefined;
    const seen = new Set<string>();
    const base: Query = { ...query, limit: query.limit ?? 1000 };
    for (;;) {
      const env = await this.request<ListEnvelope<T>>("GET", path, { query: page === undefined ? base : { ...base, page } });
      if (!env || !Array.isArray(env.items)) {
        throw new ApiError({ status: 200, code: "ERR_NOT_A_LIST", method: "GET", path: stripQuery(path), detail: "the response is not a list envelope" });
      }
      yield* env.items;
      const next = env.next?.page;
      if (next === undefined || next === null || next === "") return;
      if (seen.has(next)) {
        throw new ApiError({ status: 200, code: "ERR_PAGE_LOOP", method: "GET", path: stripQuery(path), detail: "the server returned a page cursor twice" });
      }
      seen.add(next);
      page = next;
    }
  }

  /** Collects every item of a list endpoint across all pages. */
  async listAll<T>(path: string, query?: Query): Promise<T[]> {
    const out: T[] = [];
    for await (const item of this.paginate<T>(path, query)) out.push(item);
    return out;
  }

  /** Releases this client's hold on the shared connection pool; an injected dispatcher is left open. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#releaseTransport?.();
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  async #send(method: HttpMethod, path: string, headers: Record<string, string>, body: string | undefined, fresh: boolean): Promise<Attempt> {
    try {
      const res = await this.#dispatcher.request({
        origin: this.#origin,
        path,
        method,
        headers,
        body,
        headersTimeout: this.#timeouts.headersMs,
        bodyTimeout: this.#timeouts.bodyMs,
        ...(fresh ? { freshConnection: true } : {}),
      });
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

  #backoff(retry: number): number {
    const ceiling = Math.min(this.#retry.maxDelayMs, this.#retry.baseDelayMs * 2 ** retry);
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }

  #httpError(method: HttpMethod, path: string, status: number, text: string, outcomeUnknown: boolean, retryAfter?: number): ApiError {
    let detail = serverMessage(text);
    if (outcomeUnknown) detail = `${detail}${detail ? "; " : ""}outcome unknown: the server may have acted, look the object up before retrying`;
    return new ApiError({
      status,
      code: `HTTP_${status}`,
      method,
      path,
      detail: redact(detail, this.#token),
      outcomeUnknown,
      ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
    });
  }

  #transportError(method: HttpMethod, path: string, f: { code: string; error: unknown }, outcomeUnknown: boolean): ApiError {
    let detail = describeFailure(f.code, f.error, this.#timeouts);
    if (outcomeUnknown) detail = `outcome unknown (${detail}): the request was sent and the server may have acted, look the object up before retrying`;
    return new ApiError({ status: 0, code: f.code, method, path, detail: redact(detail, this.#token), outcomeUnknown, cause: this.#sanitize(f.error) });
  }

  /**
   * The cause as it is, unless it could carry response bytes (a JSON syntax error quotes the body,
   * an HTTP parser error keeps the raw `data`): then a copy with a redacted message and no data.
   */
  #sanitize(e: unknown): unknown {
    if (!(e instanceof Error)) return e;
    const data = (e as { data?: unknown }).data;
    if (data === undefined && !(e instanceof SyntaxError) && redact(e.message, this.#token) === e.message) return e;
    const copy = new Error(redact(e.message, this.#token));
    copy.name = e.name;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") Object.assign(copy, { code });
    return copy;
  }

  #debug(id: number, method: HttpMethod, path: string, status: string, ms: number, retries: number, next?: string): void {
    if (!this.#log) return;
    this.#log(`docsplatform: #${id} ${method} ${path} ${status} ${ms}ms retries=${retries}${next ? ` ${next}` : ""}`);
  }
}

function errorCode(e: unknown): string {
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

function describeFailure(code: string, e: unknown, t: Timeouts): string {
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

/** The `error.message` of an error body, or a short excerpt of a body that is not the usual shape. */
function serverMessage(text: string): string {
  if (text === "") return "";
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown }; message?: unknown };
    const m = parsed?.error?.message ?? parsed?.message;
    if (typeof m === "string") return m;
  } catch {
    // not JSON: fall through to an excerpt
  }
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

function encodeQuery(q: Query | undefined): string {
  if (!q) return "";
  let s = "";
  for (const key of Object.keys(q)) {
    const v = q[key];
    if (v === undefined) continue;
    s += `${s ? "&" : "?"}${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`;
  }
  return s;
}

function stripQuery(path: string): string {
  const i = path.indexOf("?");
  return i < 0 ? path : path.slice(0, i);
}

function definedOnly<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
