import type { Dispatcher } from "undici";

/** Retry and rate-limit tuning. */
export interface RetryOptions {
  /** Retries of 5xx answers, resets and timeouts (idempotent requests only). Default 4. */
  maxRetries?: number;
  /** First backoff delay; doubles per retry, with jitter. Default 200 ms. */
  baseDelayMs?: number;
  /** Backoff cap. Default 5 s. */
  maxDelayMs?: number;
  /** A single rate-limit wait longer than this fails with the 429 instead of sleeping. Default 60 s. */
  maxRateLimitWaitMs?: number;
  /**
   * Total time the requests of one base URL may spend held by rate limits in this process (one
   * `pulumi` command runs one process): past it, a request fails with a 429 naming this limit
   * instead of waiting more. Counted as wall time during which requests were held, so concurrent
   * waiters count once. Default 15 minutes.
   */
  maxTotalRateLimitWaitMs?: number;
  /** 429 answers one request may retry after. Default 10. */
  maxRateLimitRetries?: number;
}

/** Options of an ApiClient. The client reads no environment variable: the provider layer maps them to these options. */
export interface ClientOptions {
  /** `https://…`, or `http://` on a loopback host. Paths (`/v1/…`) are appended to it. */
  baseUrl: string;
  /** API token, sent as `Authorization: Bearer <token>` and never shown anywhere. */
  token: string;
  /** An undici `Dispatcher` to send on instead of the shared keep-alive pool of the base URL (tests, proxies). */
  dispatcher?: Dispatcher;
  /** In-flight request bound per base URL, process-wide. Default 16. */
  maxConcurrency?: number;
  /**
   * Default 10 s connect, 30 s headers and of silence within a body, 120 s for the whole answer (headers
   * and body: a body that keeps trickling fails then, `ERR_RESPONSE_TIMEOUT`), 4 s before an idle pooled connection is closed
   * (below common server idle timeouts; see `Timeouts.idleMs`).
   */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number; totalMs?: number; idleMs?: number };
  /**
   * Largest response body read, in bytes (default 32 MiB): a larger answer fails the request
   * (`ERR_RESPONSE_TOO_LARGE`) instead of filling memory.
   */
  maxResponseBytes?: number;
  /**
   * Pages one list walk follows at most (default 10,000): a list still going after them fails
   * (`ERR_PAGE_LIMIT`), as does a page cursor the server hands out twice (`ERR_PAGE_LOOP`).
   */
  maxListPages?: number;
  retry?: RetryOptions;
  /** Receives debug lines (redacted). Default: stderr when `debug` is set, else none. */
  logger?: (line: string) => void;
  /** Write one debug line per attempt to stderr (when no `logger` is given). */
  debug?: boolean;
  userAgent?: string;
}

/** Counters of one client, for tests, the benchmark and the reliability suite. */
export interface ClientStats {
  /** Attempts sent (a retry counts again). */
  requests: number;
  /** Attempts that were retries of an earlier attempt (after 5xx, 429, reset or timeout). */
  retries: number;
  /** 429 answers received. */
  rateLimited: number;
  /** Requests of this client that were held by a rate limit before being sent. */
  rateLimitWaits: number;
  /** Sum of those holds, per request (concurrent holds each count). */
  rateLimitWaitMs: number;
  /** The longest single hold of one request by a rate limit, as measured by the client. */
  longestWaitMs: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  maxRetries: 4,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  maxRateLimitWaitMs: 60_000,
  maxTotalRateLimitWaitMs: 15 * 60_000,
  maxRateLimitRetries: 10,
};

/** Default bound on in-flight requests per base URL, process-wide. */
export const DEFAULT_MAX_CONCURRENCY = 16;

/** `o` without its `undefined` values (so that spreading it over defaults keeps the defaults). */
export function definedOnly<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
