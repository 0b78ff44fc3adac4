import { baseKey, checkBaseUrl } from "./baseUrl";
import { Endpoint, RateLimitWaitExceeded, endpointFor } from "./endpoint";
import { ApiError, redact, type HttpMethod } from "./errors";
import { DEFAULT_RETRY, definedOnly, type ClientOptions, type ClientStats, type RetryOptions } from "./options";
import { encodeQuery, listAll, paginate, stripQuery, type Query } from "./paging";
import { askedWait, learnsWindow, retryAfterMs } from "./ratelimit";
import { backoffMs, notSent, retryFailure, retryServerError } from "./retry";
import { TokenRefusal } from "./tokenRefusal";
import { acquirePool, DEFAULT_TIMEOUTS, describeFailure, sendOnce, STALE_CONNECTION, type Timeouts, type Transport } from "./transport";

export type { ClientOptions, ClientStats, RetryOptions } from "./options";
export type { Query } from "./paging";

/** Options of one request. */
export interface RequestOptions {
  query?: Query;
  /** Serialised as JSON once. */
  body?: unknown;
  /** Whether a retry after an unknown outcome is safe. Default: every method but POST. */
  idempotent?: boolean;
}

let nextRequestId = 1;

/**
 * The request core: authentication, JSON, errors and debug logging around one loop that asks its
 * policies — the gate of the base URL (in-flight bound and rate limit, `endpoint.ts` and
 * `ratelimit.ts`), the retry policy (`retry.ts`) and the transport (`transport.ts`) — what to do
 * with each attempt. Paging is `paging.ts`. The typed API areas are thin layers over `request`,
 * `paginate` and `listAll`.
 */
export class RequestCore {
  /** Counters of this client. */
  readonly stats: ClientStats = { requests: 0, retries: 0, rateLimited: 0, rateLimitWaits: 0, rateLimitWaitMs: 0, longestWaitMs: 0 };
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
  readonly #tokenRefusal = new TokenRefusal();
  #closed = false;

  constructor(opts: ClientOptions) {
    this.baseUrl = checkBaseUrl(opts.baseUrl);
    if (typeof opts.token !== "string" || opts.token.length === 0) {
      throw new Error("docsplatform API token is missing: the client needs a non-empty token");
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
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...definedOnly(opts.timeouts ?? {}) };
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
    const log = opts.logger ?? (opts.debug ? (l: string) => process.stderr.write(`${l}\n`) : undefined);
    this.#log = log === undefined ? undefined : (line: string) => log(redact(line, this.#token));
  }

  /** Wall time requests of this base URL have spent held by rate limits in this process (shared by its clients). */
  get rateLimitHeldMs(): number {
    return Math.round(this.#endpoint.heldMs());
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
    // The refused-token policy (tokenRefusal.ts): after a refusal nothing more is sent.
    const done = await this.#tokenRefusal.admit(method, path);
    let error: unknown;
    try {
      return await this.#notifyingWrites<T>(method, path, opts);
    } catch (e) {
      error = e;
      throw e;
    } finally {
      done(error);
    }
  }

  /** The API's refusal of this client's token, once it refused it (see tokenRefusal.ts). */
  get tokenRefused(): ApiError | undefined {
    return this.#tokenRefusal.refused;
  }

  async #notifyingWrites<T>(method: HttpMethod, path: string, opts: RequestOptions): Promise<T> {
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
    // Set after an answer whose Retry-After paused the base URL: the retry goes ahead of fresh requests.
    let paused = false;
    const tries = () => retries + rateLimitRetries + staleRetries;

    for (;;) {
      await this.#gate(id, method, shownPath, paused);
      paused = false;
      if (tries() > 0) this.stats.retries++;
      this.stats.requests++;
      const started = performance.now();
      const attempt = await sendOnce(this.#dispatcher, {
        origin: this.#origin,
        path: fullPath,
        method,
        headers,
        body,
        headersTimeout: this.#timeouts.headersMs,
        bodyTimeout: this.#timeouts.bodyMs,
        ...(fresh ? { freshConnection: true } : {}),
      });
      fresh = false;
      const ms = Math.round(performance.now() - started);

      if (attempt.kind === "failure") {
        this.#endpoint.release();
        if (attempt.code === STALE_CONNECTION && staleRetries === 0) {
          this.#debug(id, method, shownPath, attempt.code, ms, tries(), "pooled connection closed by the server while idle, nothing sent: retry on a new connection");
          staleRetries++;
          fresh = true;
          continue;
        }
        if (retryFailure(attempt.code, idempotent, retries, r.maxRetries)) {
          const delay = backoffMs(retries, r.baseDelayMs, r.maxDelayMs);
          this.#debug(id, method, shownPath, attempt.code, ms, tries(), `retry in ${delay} ms`);
          retries++;
          await sleep(delay);
          continue;
        }
        this.#debug(id, method, shownPath, attempt.code, ms, tries());
        throw this.#transportError(method, shownPath, attempt, !idempotent && !notSent(attempt.code));
      }

      const { status, headers: resHeaders, text } = attempt;
      this.#endpoint.release(learnsWindow(status, resHeaders) ? resHeaders : undefined);
      if (status >= 200 && status < 300) {
        this.#debug(id, method, shownPath, String(status), ms, tries());
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
        // The answer's own word decides: Retry-After, else its X-RateLimit-Reset, else a backoff.
        this.stats.rateLimited++;
        const now = Date.now();
        const wait = askedWait(resHeaders, now)?.ms ?? backoffMs(rateLimitRetries, r.baseDelayMs, r.maxDelayMs);
        this.#endpoint.pause(now + wait);
        const refusal = this.#refuseWait(wait, rateLimitRetries);
        if (refusal === undefined) {
          this.#debug(id, method, shownPath, "429", ms, tries(), `rate limited, waiting ${wait} ms`);
          rateLimitRetries++;
          paused = true;
          continue;
        }
        this.#debug(id, method, shownPath, "429", ms, tries());
        throw this.#httpError(method, shownPath, status, text, false, wait, refusal);
      }

      if (status >= 500) {
        // A Retry-After on a 5xx (a 503 while overloaded or in maintenance) is honoured as on a 429:
        // every caller of the base URL waits that long.
        const now = Date.now();
        const after = retryAfterMs(resHeaders["retry-after"], now);
        if (after !== undefined) this.#endpoint.pause(now + after);
        if (retryServerError(idempotent, retries, r.maxRetries)) {
          const refusal = after === undefined ? undefined : this.#refuseWait(after, 0);
          if (refusal === undefined) {
            const delay = after ?? backoffMs(retries, r.baseDelayMs, r.maxDelayMs);
            this.#debug(id, method, shownPath, String(status), ms, tries(), `retry in ${delay} ms`);
            retries++;
            if (after === undefined) await sleep(delay);
            else paused = true;
            continue;
          }
          this.#debug(id, method, shownPath, String(status), ms, tries());
          throw this.#httpError(method, shownPath, status, text, false, after, refusal);
        }
        this.#debug(id, method, shownPath, String(status), ms, tries());
        // A server error may come after the write was done: a create must not be repeated blindly.
        throw this.#httpError(method, shownPath, status, text, !idempotent, after);
      }

      this.#debug(id, method, shownPath, String(status), ms, tries());
      throw this.#httpError(method, shownPath, status, text, false);
    }
  }

  /**
   * Waits at the base URL's gate (in-flight bound and rate limit) and records in `stats` how long
   * the rate limit held this request. A hold beyond the single-wait or total-wait limit fails at once
   * with a 429 ApiError naming the limit.
   */
  async #gate(id: number, method: HttpMethod, path: string, first: boolean): Promise<void> {
    const r = this.#retry;
    let held: number;
    try {
      held = await this.#endpoint.acquire({ maxWaitMs: r.maxRateLimitWaitMs, maxTotalWaitMs: r.maxTotalRateLimitWaitMs }, first);
    } catch (e) {
      if (!(e instanceof RateLimitWaitExceeded)) throw e;
      const detail =
        e.limit === "single"
          ? `rate limited: requests to this API are held ${seconds(e.waitMs)} more, beyond the limit of ${seconds(r.maxRateLimitWaitMs)} on a single rate-limit wait`
          : totalLimitDetail(e.waitMs, e.spentMs, r.maxTotalRateLimitWaitMs);
      throw new ApiError({ status: 429, code: "HTTP_429", method, path, detail, retryAfterMs: e.waitMs });
    }
    if (held > 0) {
      const ms = Math.round(held);
      this.stats.rateLimitWaits++;
      this.stats.rateLimitWaitMs += ms;
      if (ms > this.stats.longestWaitMs) this.stats.longestWaitMs = ms;
      this.#log?.(`docsplatform: #${id} waited ${ms} ms for the rate limit before ${method} ${path}`);
    }
  }

  /** Why a wait of `wait` ms asked by an answer is not taken (undefined: it is). */
  #refuseWait(wait: number, rateLimitRetries: number): string | undefined {
    const r = this.#retry;
    if (wait > r.maxRateLimitWaitMs) return `the API asked to wait ${seconds(wait)}, beyond the limit of ${seconds(r.maxRateLimitWaitMs)} on a single rate-limit wait`;
    const spent = this.#endpoint.heldMs();
    if (spent + wait > r.maxTotalRateLimitWaitMs) return totalLimitDetail(wait, spent, r.maxTotalRateLimitWaitMs);
    if (rateLimitRetries >= r.maxRateLimitRetries) return `still rate limited after ${rateLimitRetries} waits, the limit of rate-limit retries of one request`;
    return undefined;
  }

  /** Iterates the items of a list endpoint, following `next.page` with `limit=1000` (unless given). */
  paginate<T>(path: string, query: Query = {}): AsyncIterableIterator<T> {
    return paginate<T>((m, p, o) => this.request(m, p, o), path, query);
  }

  /** Collects every item of a list endpoint across all pages. */
  listAll<T>(path: string, query?: Query): Promise<T[]> {
    return listAll<T>((m, p, o) => this.request(m, p, o), path, query);
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

  #httpError(method: HttpMethod, path: string, status: number, text: string, outcomeUnknown: boolean, retryAfter?: number, why?: string): ApiError {
    let detail = serverMessage(text);
    if (why) detail = `${detail}${detail ? "; " : ""}${why}`;
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

function totalLimitDetail(wait: number, spent: number, max: number): string {
  return `rate limited: waiting ${seconds(wait)} more would take the time this process has spent held by rate limits (${seconds(spent)}) past its limit of ${seconds(max)} on total rate-limit waiting`;
}

/** `3 s`, `1.5 s`: whole seconds when exact, else one decimal (rounded up, never shorter than asked). */
function seconds(ms: number): string {
  const s = Math.ceil(ms / 100) / 10;
  return Number.isInteger(s) ? `${s} s` : `${s.toFixed(1)} s`;
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
