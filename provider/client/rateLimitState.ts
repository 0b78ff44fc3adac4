import type { IncomingHttpHeaders } from "node:http";

/**
 * The rate-limit state, as servers really send limits (the rate-limit policy, `rateLimitPolicy.ts`, acts on it):
 * - `X-RateLimit-Limit/Remaining/Reset` on ordinary answers describe a window; its budget is
 *   tracked ({@link RateLimitBudget}) and requests are held while it is estimated spent.
 * - A 429 (or a 503) with `Retry-After` (seconds or an HTTP date) is the authority for that answer:
 *   everyone waits that long, then tries. It may come from another limiter than the window learnt
 *   from other answers (a per-second burst limit or a gateway in front of an hourly quota), so it
 *   neither zeroes that window's budget nor is its pause extended to that window's reset.
 * - A 429 without `Retry-After` waits for its own `X-RateLimit-Reset` (then it is the window that
 *   answered, and its headers are learnt), else for a backoff.
 */

/** What a rate-limited answer asks the client to wait, and on whose word. */
export interface AskedWait {
  ms: number;
  /** `retry-after`: the answer's Retry-After; `reset`: its own X-RateLimit-Reset. */
  from: "retry-after" | "reset";
}

/** The wait a 429 or 503 answer asks for: its `Retry-After`, else its own `X-RateLimit-Reset`; undefined when it names neither. */
export function askedWait(headers: IncomingHttpHeaders, now = Date.now()): AskedWait | undefined {
  const after = retryAfterMs(headers["retry-after"], now);
  if (after !== undefined) return { ms: after, from: "retry-after" };
  const reset = resetInMs(headers["x-ratelimit-reset"], now);
  if (reset !== undefined) return { ms: reset, from: "reset" };
  return undefined;
}

/**
 * Whether the `X-RateLimit-*` headers of an answer are learnt. Every answer's are, except a 429
 * or 503 that carries `Retry-After`: that answer may come from another limiter, and its own
 * `Retry-After` already says when to try again.
 */
export function learnsWindow(status: number, headers: IncomingHttpHeaders): boolean {
  return !((status === 429 || status === 503) && retryAfterMs(headers["retry-after"]) !== undefined);
}

/**
 * The shared rate-limit knowledge of one base URL: the budget of the window learnt from
 * `X-RateLimit-*` headers, and a pause set by `Retry-After`. Pure state: the gate that holds
 * requests ({@link Endpoint}) asks {@link blockedFor} and tells it what it sends and receives.
 */
export class RateLimitBudget {
  /** X-RateLimit-Limit, once seen. */
  private limit: number | undefined;
  /** Estimated requests left in the current window (undefined: unknown, send freely). */
  private remaining: number | undefined;
  /** End of the current window (epoch ms); 0 when unknown. */
  private resetAt = 0;
  /** Reset of the window that already ended: responses naming it again are stale. */
  private endedReset = 0;
  /** No request is sent before this time (epoch ms): set by a `Retry-After`. */
  private pausedUntil = 0;

  /** One request sent: one less in the window's budget. */
  spend(): void {
    if (this.remaining !== undefined) this.remaining--;
  }

  /** Learns from an answer's `X-RateLimit-*` headers; `inFlight` counts the answer's own request. */
  observe(h: IncomingHttpHeaders, inFlight: number): void {
    const limit = headerNumber(h["x-ratelimit-limit"]);
    const remaining = headerNumber(h["x-ratelimit-remaining"]);
    const reset = headerNumber(h["x-ratelimit-reset"]);
    if (limit !== undefined) this.limit = limit;
    if (remaining === undefined) return;
    // Other requests in flight may not be counted by the server yet: assume they are not.
    const estimate = remaining - (inFlight - 1);
    if (reset !== undefined) {
      const resetMs = reset * 1000;
      if (resetMs <= this.endedReset) return; // a late answer from a window that has ended
      if (resetMs > this.resetAt) {
        this.resetAt = resetMs;
        this.remaining = estimate;
        return;
      }
      if (resetMs < this.resetAt) return;
    }
    this.remaining = this.remaining === undefined ? estimate : Math.min(this.remaining, estimate);
  }

  /** After a `Retry-After`: nobody sends before `untilMs`. The window's budget is left as it is. */
  pause(untilMs: number): void {
    if (untilMs > this.pausedUntil) this.pausedUntil = untilMs;
  }

  /**
   * 0: may send now; > 0: wait that many ms; -1: the budget is spent and its end unknown, wait for
   * an answer in flight to learn more. `inFlight`: requests sent and not answered yet.
   */
  blockedFor(now: number, inFlight: number): number {
    if (now < this.pausedUntil) return this.pausedUntil - now;
    if (this.resetAt !== 0 && now >= this.resetAt) {
      // A new window: its full budget minus what is still in flight; its end is learnt from the next answer.
      this.endedReset = this.resetAt;
      this.resetAt = 0;
      this.remaining = this.limit === undefined ? undefined : this.limit - inFlight;
    }
    if (this.remaining !== undefined && this.remaining <= 0) {
      if (this.resetAt > now) return this.resetAt - now;
      if (inFlight > 0) return -1;
      this.remaining = undefined; // nothing in flight and nothing known: try
    }
    return 0;
  }
}

function headerNumber(v: string | string[] | undefined): number | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  if (s === undefined || s.trim() === "") return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/** Parses `Retry-After` (seconds, possibly fractional, or an HTTP date) into milliseconds. */
export function retryAfterMs(v: string | string[] | undefined, now = Date.now()): number | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  if (s === undefined || s.trim() === "") return undefined;
  const secs = Number(s);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const date = Date.parse(s);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Parses `X-RateLimit-Reset` (epoch seconds) into milliseconds from now. */
export function resetInMs(v: string | string[] | undefined, now = Date.now()): number | undefined {
  const n = headerNumber(v);
  return n === undefined ? undefined : Math.max(0, n * 1000 - now);
}
