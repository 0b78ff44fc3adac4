/**
 * The retry rules: which failures are worth another attempt, for which methods, and after how long.
 * Answers (5xx, 429) and transport failures are classified here; the retry policy (`retryPolicy.ts`)
 * and the rate-limit policy apply them, and the request core only asks.
 */

/** Transport failures where the request certainly never reached the server. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);
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

/** True when a transport failure with this code certainly sent nothing (any method may be sent again). */
export function notSent(code: string): boolean {
  return NOT_SENT.has(code);
}

/**
 * Whether a transport failure is retried: a transient failure, for an idempotent request or one
 * that was never sent, while retries are left.
 */
export function retryFailure(code: string, idempotent: boolean, retries: number, maxRetries: number): boolean {
  return TRANSIENT.has(code) && (idempotent || NOT_SENT.has(code)) && retries < maxRetries;
}

/**
 * Whether a 5xx answer is retried: only an idempotent request (a create answered 5xx may have
 * acted: its outcome is unknown), while retries are left.
 */
export function retryServerError(idempotent: boolean, retries: number, maxRetries: number): boolean {
  return idempotent && retries < maxRetries;
}

/** Capped exponential backoff with jitter: between half and all of `min(max, base · 2^retry)`. */
export function backoffMs(retry: number, baseDelayMs: number, maxDelayMs: number): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** retry);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}
