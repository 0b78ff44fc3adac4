import { sleep, type Policy } from "./policy";
import { refuseWait } from "./rateLimitPolicy";
import { backoffMs, retryFailure, retryServerError } from "./retryRules";

/**
 * The retry policy (`retryRules.ts` decides what is worth another attempt): a transient transport failure,
 * or a 5xx, is tried again after a capped exponential backoff — or, for a 5xx whose `Retry-After`
 * paused the base URL, once that pause is over, ahead of fresh requests (unless the wait is past the
 * client's wait limits). At most `maxRetries` times, and only when sending twice is harmless or
 * nothing was sent.
 */
export const retryPolicy: Policy = (ctx) => (next) => async (call) => {
  const r = ctx.retry;
  for (;;) {
    const sent = await next(call);
    const retries = call.retried.backoff ?? 0;
    if (sent.kind === "failure") {
      if (!retryFailure(sent.code, call.idempotent, retries, r.maxRetries)) return sent;
      const delay = backoffMs(retries, r.baseDelayMs, r.maxDelayMs);
      call.retry(sent, "backoff", `retry in ${delay} ms`);
      await sleep(delay);
      continue;
    }
    if (sent.status < 500 || !retryServerError(call.idempotent, retries, r.maxRetries)) return sent;
    const after = sent.retryAfterMs;
    const refusal = after === undefined ? undefined : refuseWait(ctx, after, 0);
    if (refusal !== undefined) {
      call.logLast(sent);
      throw call.answerError(sent, refusal, after);
    }
    const delay = after ?? backoffMs(retries, r.baseDelayMs, r.maxDelayMs);
    call.retry(sent, "backoff", `retry in ${delay} ms`);
    if (after === undefined) await sleep(delay);
    else call.ahead = true;
  }
};
