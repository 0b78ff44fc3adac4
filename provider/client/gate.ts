import { RateLimitWaitExceeded } from "./endpoint";
import { ApiError } from "./errors";
import type { Policy, Sent } from "./policy";
import { learnsWindow } from "./rateLimitState";

/**
 * The gate policy: every attempt waits at the base URL's gate (the in-flight bound and the rate-limit
 * budget, `endpoint.ts`) and gives its slot back when answered, teaching the budget the answer's
 * `X-RateLimit-*` headers (unless a `Retry-After` says they come from another limiter). A hold past
 * the single-wait or total-wait limit fails at once with a 429 naming the limit; how long the rate limit
 * held the request goes into the client's stats and its debug log.
 */
export const gatePolicy: Policy = ({ endpoint, retry: r, stats, log }) => (next) => async (call) => {
  const first = call.ahead;
  call.ahead = false;
  let held: number;
  try {
    held = await endpoint.acquire({ maxWaitMs: r.maxRateLimitWaitMs, maxTotalWaitMs: r.maxTotalRateLimitWaitMs }, first);
  } catch (e) {
    if (!(e instanceof RateLimitWaitExceeded)) throw e;
    const detail =
      e.limit === "single"
        ? `rate limited: requests to this API are held ${seconds(e.waitMs)} more, beyond the limit of ${seconds(r.maxRateLimitWaitMs)} on a single rate-limit wait`
        : totalLimitDetail(e.waitMs, e.spentMs, r.maxTotalRateLimitWaitMs);
    throw new ApiError({ status: 429, code: "HTTP_429", method: call.method, path: call.path, detail, retryAfterMs: e.waitMs });
  }
  if (held > 0) {
    const ms = Math.round(held);
    stats.rateLimitWaits++;
    stats.rateLimitWaitMs += ms;
    if (ms > stats.longestWaitMs) stats.longestWaitMs = ms;
    log?.(`docsplatform: #${call.id} waited ${ms} ms for the rate limit before ${call.method} ${call.path}`);
  }
  let sent: Sent | undefined;
  try {
    sent = await next(call);
    return sent;
  } finally {
    endpoint.release(sent?.kind === "answer" && learnsWindow(sent.status, sent.headers) ? sent.headers : undefined);
  }
};

/** Why a wait of `wait` ms would take the process's rate-limit holds past their total limit. */
export function totalLimitDetail(wait: number, spent: number, max: number): string {
  return `rate limited: waiting ${seconds(wait)} more would take the time this process has spent held by rate limits (${seconds(spent)}) past its limit of ${seconds(max)} on total rate-limit waiting`;
}

/** `3 s`, `1.5 s`: whole seconds when exact, else one decimal (rounded up, never shorter than asked). */
export function seconds(ms: number): string {
  const s = Math.ceil(ms / 100) / 10;
  return Number.isInteger(s) ? `${s} s` : `${s.toFixed(1)} s`;
}
