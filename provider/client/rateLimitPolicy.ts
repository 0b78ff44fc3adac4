import { seconds, totalLimitDetail } from "./gate";
import type { Policy, PolicyContext } from "./policy";
import { askedWait, retryAfterMs } from "./rateLimitState";
import { backoffMs } from "./retryRules";

/**
 * The rate-limit policy: what an answer asks of every caller of the base URL (`rateLimitState.ts` reads
 * the headers). A 429 pauses the base URL for its `Retry-After`, else its own `X-RateLimit-Reset`,
 * else a backoff, and the request tries again ahead of fresh ones — unless the wait is past the
 * client's wait limits, which ends it with the 429 naming the limit. A 5xx with `Retry-After`
 * pauses the base URL the same way; whether it is tried again is the retry policy's.
 */
export const rateLimitPolicy: Policy = (ctx) => (next) => async (call) => {
  for (;;) {
    const sent = await next(call);
    if (sent.kind !== "answer" || (sent.status !== 429 && sent.status < 500)) return sent;
    const now = Date.now();
    if (sent.status >= 500) {
      const after = retryAfterMs(sent.headers["retry-after"], now);
      if (after === undefined) return sent;
      ctx.endpoint.pause(now + after);
      return { ...sent, retryAfterMs: after };
    }
    ctx.stats.rateLimited++;
    const waits = call.retried.rateLimit ?? 0;
    const wait = askedWait(sent.headers, now)?.ms ?? backoffMs(waits, ctx.retry.baseDelayMs, ctx.retry.maxDelayMs);
    ctx.endpoint.pause(now + wait);
    const refusal = refuseWait(ctx, wait, waits);
    if (refusal !== undefined) {
      call.logLast(sent);
      throw call.answerError(sent, refusal, wait);
    }
    call.retry(sent, "rateLimit", `rate limited, waiting ${wait} ms`);
    call.ahead = true;
  }
};

/** Why a wait of `wait` ms asked by an answer, after `waits` such waits, is not taken (undefined: it is). */
export function refuseWait({ retry: r, endpoint }: PolicyContext, wait: number, waits: number): string | undefined {
  if (wait > r.maxRateLimitWaitMs) return `the API asked to wait ${seconds(wait)}, beyond the limit of ${seconds(r.maxRateLimitWaitMs)} on a single rate-limit wait`;
  const spent = endpoint.heldMs();
  if (spent + wait > r.maxTotalRateLimitWaitMs) return totalLimitDetail(wait, spent, r.maxTotalRateLimitWaitMs);
  if (waits >= r.maxRateLimitRetries) return `still rate limited after ${waits} waits, the limit of rate-limit retries of one request`;
  return undefined;
}
