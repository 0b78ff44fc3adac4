import type { IncomingHttpHeaders } from "node:http";

/** Default bound on in-flight requests per base URL, process-wide. */
export const DEFAULT_MAX_CONCURRENCY = 16;

/** Raised to a waiter whose rate-limit wait would exceed its cap. */
export class RateLimitWaitExceeded extends Error {
  constructor(readonly waitMs: number) {
    super(`rate limit wait of ${waitMs} ms exceeds the cap`);
  }
}

interface Waiter {
  resolve: () => void;
  reject: (e: Error) => void;
  maxWaitMs: number;
}

/**
 * Process-wide state of one base URL: a semaphore bounding in-flight requests and the
 * rate-limit budget learnt from `X-RateLimit-*` headers. Every client of the same base URL
 * shares it, so concurrent callers slow down together: a request is only sent when a slot is
 * free and the estimated remaining budget of the current window is above zero; after a 429
 * everyone pauses until `Retry-After`.
 */
export class Endpoint {
  private active = 0;
  private readonly queue: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;
  /** X-RateLimit-Limit, once seen. */
  private limit: number | undefined;
  /** Estimated requests left in the current window (undefined: unknown, send freely). */
  private remaining: number | undefined;
  /** End of the current window (epoch ms); 0 when unknown. */
  private resetAt = 0;
  /** Reset of the window that already ended: responses naming it again are stale. */
  private endedReset = 0;
  /** No request is sent before this time (epoch ms): set by a 429. */
  private pausedUntil = 0;

  constructor(public maxConcurrency: number) {}

  /** Requests currently holding a slot. */
  get inFlight(): number {
    return this.active;
  }

  /**
   * Waits for a slot and for the rate-limit budget, then takes both. `first` puts the caller at
   * the head of the queue (a request retrying after a 429 goes before fresh ones).
   */
  acquire(maxWaitMs: number, first = false): Promise<void> {
    if (this.queue.length === 0 && this.active < this.maxConcurrency && this.blockedFor(Date.now()) === 0) {
      this.take();
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter = { resolve, reject, maxWaitMs };
      if (first) this.queue.unshift(waiter);
      else this.queue.push(waiter);
      this.pump();
    });
  }

  /** Gives the slot back, learning from the response headers when there are any. */
  release(headers?: IncomingHttpHeaders): void {
    if (headers) this.observe(headers);
    this.active--;
    this.pump();
  }

  /** After a 429: nobody sends before `untilMs`, and the window's budget is spent. */
  pause(untilMs: number): void {
    if (untilMs > this.pausedUntil) this.pausedUntil = untilMs;
    this.remaining = 0;
    this.pump();
  }

  /** Milliseconds a request would wait right now for the rate limit (for 429 decisions). */
  rateWaitMs(now = Date.now()): number {
    return Math.max(0, this.blockedFor(now));
  }

  private take(): void {
    this.active++;
    if (this.remaining !== undefined) this.remaining--;
  }

  private observe(h: IncomingHttpHeaders): void {
    const limit = headerNumber(h["x-ratelimit-limit"]);
    const remaining = headerNumber(h["x-ratelimit-remaining"]);
    const reset = headerNumber(h["x-ratelimit-reset"]);
    if (limit !== undefined) this.limit = limit;
    if (remaining === undefined) return;
    // Other requests in flight may not be counted by the server yet: assume they are not.
    const estimate = remaining - (this.active - 1);
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

  /** 0: may send now; > 0: wait that many ms; -1: wait for an answer in flight to learn more. */
  private blockedFor(now: number): number {
    if (now < this.pausedUntil) return this.pausedUntil - now;
    if (this.resetAt !== 0 && now >= this.resetAt) {
      // A new window: its full budget minus what is still in flight; its end is learnt from the next answer.
      this.endedReset = this.resetAt;
      this.resetAt = 0;
      this.remaining = this.limit === undefined ? undefined : this.limit - this.active;
    }
    if (this.remaining !== undefined && this.remaining <= 0) {
      if (this.resetAt > now) return this.resetAt - now;
      if (this.active > 0) return -1;
      this.remaining = undefined; // nothing in flight and nothing known: try
    }
    return 0;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      if (this.active >= this.maxConcurrency) return;
      const now = Date.now();
      const wait = this.blockedFor(now);
      if (wait === 0) {
        this.take();
        this.queue.shift()!.resolve();
        continue;
      }
      if (wait > 0) {
        this.rejectImpatient(wait);
        if (this.queue.length > 0) this.wakeAt(now + wait + jitter(wait));
      }
      return;
    }
  }

  private rejectImpatient(wait: number): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const w = this.queue[i]!;
      if (wait > w.maxWaitMs) {
        this.queue.splice(i, 1);
        w.reject(new RateLimitWaitExceeded(wait));
      }
    }
  }

  private wakeAt(at: number): void {
    if (this.timer !== undefined && this.timerAt <= at) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = at;
    // Kept referenced: a command waiting out a rate limit must not exit early.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, Math.max(0, at - Date.now()));
  }
}

/** Spreads waiters of several processes a little, never earlier than the server asked. */
function jitter(waitMs: number): number {
  return Math.random() * Math.min(250, waitMs * 0.2);
}

function headerNumber(v: string | string[] | undefined): number | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  if (s === undefined || s.trim() === "") return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

const endpoints = new Map<string, Endpoint>();

/** The process-wide Endpoint of a base URL; an explicit `maxConcurrency` resizes its semaphore. */
export function endpointFor(key: string, maxConcurrency: number | undefined): Endpoint {
  let ep = endpoints.get(key);
  if (!ep) {
    ep = new Endpoint(maxConcurrency ?? envConcurrency() ?? DEFAULT_MAX_CONCURRENCY);
    endpoints.set(key, ep);
  } else if (maxConcurrency !== undefined && ep.maxConcurrency !== maxConcurrency) {
    ep.maxConcurrency = maxConcurrency;
  }
  return ep;
}

function envConcurrency(): number | undefined {
  const raw = process.env.DOCSPLATFORM_MAX_CONCURRENCY;
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    throw new Error(`DOCSPLATFORM_MAX_CONCURRENCY must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return n;
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
