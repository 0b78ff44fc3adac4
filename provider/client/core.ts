import { baseKey, checkBaseUrl } from "./baseUrl";
import { RequestCall, type CallSide } from "./call";
import { endpointFor, type Endpoint } from "./endpoint";
import type { ApiError, HttpMethod } from "./errors";
import { DEFAULT_RETRY, definedOnly, type ClientOptions, type ClientStats } from "./options";
import { DEFAULT_MAX_LIST_PAGES, encodeQuery, listAll, paginate, stripQuery, type Query } from "./paging";
import { routeProblem } from "./path";
import { POLICIES } from "./policies";
import { compose, type Call, type PolicyContext, type Send, type Sent } from "./policy";
import { SecretValues } from "./secrets";
import { refusedToken } from "./tokenRefusal";
import type { Dispatcher } from "undici";
import { acquirePool, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUTS, sendOnce, type ResponseLimits, type Timeouts } from "./transport";

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
 * The request core: authentication, JSON, errors and debug logging around one attempt on the
 * transport (`transport.ts`), which the client's policies wrap (`policies.ts`: the retry policy, the
 * rate-limit policy and the gate of the base URL, each a module of its
 * own). Paging is `paging.ts`. The typed API areas are thin layers over `request`, `paginate` and
 * `listAll`.
 */
export class RequestCore {
  /** Counters of this client. */
  readonly stats: ClientStats = { requests: 0, retries: 0, rateLimited: 0, rateLimitWaits: 0, rateLimitWaitMs: 0, longestWaitMs: 0 };
  /** The vetted base URL. */
  readonly baseUrl: URL;
  /**
   * The run's secret values: the token, and what the kinds register when they send or receive a secret
   * field. Every error message and debug line of this client is redacted with it; callers redact their own
   * texts with it too (`secrets.redact`).
   */
  readonly secrets: SecretValues;

  readonly #headers: Record<string, string>;
  readonly #jsonHeaders: Record<string, string>;
  readonly #origin: string;
  readonly #prefix: string;
  readonly #dispatcher: Dispatcher;
  readonly #releaseTransport: (() => Promise<void>) | undefined;
  readonly #endpoint: Endpoint;
  readonly #timeouts: Timeouts;
  readonly #limits: ResponseLimits;
  readonly #maxListPages: number;
  readonly #side: CallSide;
  readonly #context: PolicyContext;
  readonly #send: Send;
  readonly #writeListeners = new Set<(path: string) => void>();
  #closed = false;

  constructor(opts: ClientOptions) {
    this.baseUrl = checkBaseUrl(opts.baseUrl);
    checkOptions(opts);
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
    this.#maxListPages = opts.maxListPages ?? DEFAULT_MAX_LIST_PAGES;
    this.#limits = { timeouts: this.#timeouts, maxResponseBytes: opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES };
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
    const secrets = (this.secrets = new SecretValues(opts.token));
    this.#side = { secrets, limits: this.#limits, log: log === undefined ? undefined : (line: string) => log(secrets.redact(line)) };
    const retry = { ...DEFAULT_RETRY, ...definedOnly(opts.retry ?? {}) };
    this.#context = { retry, stats: this.stats, endpoint: this.#endpoint, log: this.#side.log };
    this.#send = compose(this.#context, POLICIES, (call) => this.#sendOnce(call));
  }

  /** Wall time requests of this base URL have spent held by rate limits in this process (shared by its clients). */
  get rateLimitHeldMs(): number {
    return Math.round(this.#endpoint.heldMs());
  }

  /** The API's refusal of this client's token, once it refused it (see tokenRefusal.ts). */
  get tokenRefused(): ApiError | undefined {
    return refusedToken(this.#context);
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
   * Sends one request and returns the parsed JSON body (`undefined` for 204/205). Throws ApiError for
   * every non-2xx answer, every transport failure and any other success without a JSON body (for a
   * create: outcome unknown).
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
    const unroutable = routeProblem(stripQuery(path));
    if (unroutable) throw new Error(`${method} ${stripQuery(path)}: not sent: the path ${unroutable}`);
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const call = new RequestCall(this.#side, {
      id: nextRequestId++,
      method,
      path: stripQuery(path),
      idempotent: opts.idempotent ?? method !== "POST",
      target: this.#prefix + path + encodeQuery(opts.query),
      headers: body === undefined ? this.#headers : this.#jsonHeaders,
      body,
    });
    const sent = await this.#send(call);
    call.logLast(sent);
    if (sent.kind === "failure") throw call.failureError(sent);
    if (sent.status < 200 || sent.status >= 300) throw call.answerError(sent, undefined, sent.retryAfterMs);
    return call.parse<T>(sent);
  }

  /** One attempt on the transport: the core every policy wraps. */
  async #sendOnce(call: Call): Promise<Sent> {
    if (call.tries > 0) this.stats.retries++;
    this.stats.requests++;
    const started = performance.now();
    const attempt = await sendOnce(this.#dispatcher, {
      origin: this.#origin,
      path: call.target,
      method: call.method,
      headers: call.headers,
      body: call.body,
    }, this.#limits);
    return { ...attempt, ms: Math.round(performance.now() - started) };
  }

  /** Iterates the items of a list endpoint, following `next.page` with `limit=1000` (unless given). */
  paginate<T>(path: string, query: Query = {}): AsyncIterableIterator<T> {
    return paginate<T>((m, p, o) => this.request(m, p, o), path, query, this.#maxListPages);
  }

  /** Collects every item of a list endpoint across all pages. */
  listAll<T>(path: string, query?: Query): Promise<T[]> {
    return listAll<T>((m, p, o) => this.request(m, p, o), path, query, this.#maxListPages);
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
}

/** Refuses a missing or malformed token and a bound that is not a positive integer. */
function checkOptions(opts: ClientOptions): void {
  if (typeof opts.token !== "string" || opts.token.length === 0) {
    throw new Error("docsplatform API token is missing: the client needs a non-empty token");
  }
  if (/[\r\n\0]/.test(opts.token) || opts.token.trim() !== opts.token) {
    throw new Error("docsplatform API token contains whitespace or control characters");
  }
  if (opts.maxConcurrency !== undefined && (!Number.isInteger(opts.maxConcurrency) || opts.maxConcurrency < 1)) {
    throw new Error(`maxConcurrency must be a positive integer, got ${opts.maxConcurrency}`);
  }
  if (opts.maxListPages !== undefined && (!Number.isInteger(opts.maxListPages) || opts.maxListPages < 1)) {
    throw new Error(`maxListPages must be a positive integer, got ${opts.maxListPages}`);
  }
  if (opts.maxResponseBytes !== undefined && (!Number.isInteger(opts.maxResponseBytes) || opts.maxResponseBytes < 1)) {
    throw new Error(`maxResponseBytes must be a positive integer, got ${opts.maxResponseBytes}`);
  }
}
