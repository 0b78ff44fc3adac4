import type { Policy } from "./policy";
import { STALE_CONNECTION } from "./transport";

/**
 * The stale-connection policy: an attempt that found its pooled connection closed by the server while
 * idle sent nothing, so it is sent again at once on a new connection, whatever its method. Once per
 * request, and not taken from `maxRetries`; a second such failure is left to the retry policy.
 */
export const staleConnectionPolicy: Policy = () => (next) => async (call) => {
  for (;;) {
    const sent = await next(call);
    if (sent.kind !== "failure" || sent.code !== STALE_CONNECTION || (call.retried.stale ?? 0) > 0) return sent;
    call.retry(sent, "stale", "pooled connection closed by the server while idle, nothing sent: retry on a new connection");
    call.fresh = true;
  }
};
