import type { IncomingHttpHeaders } from "node:http";
import { DEFAULT_MAX_CONCURRENCY } from "./options";
import { RateLimitBudget } from "./rateLimitState";

export { DEFAULT_MAX_CONCURRENCY } from "./options";

/** Raised to a waiter whose rate-limit wait would exceed one of its limits. */
export class RateLimitWaitExceeded extends Error {
  constructor(
    /** The wait that was refused. */
    readonly waitMs: number,
    /** Which limit: one wait (`single`) or the process's total waiting on this base URL (`total`). */
    readonly limit: "single" | "total",
    /** Time already spent held on this base URL (for `total`). */
    readonly spentMs: number,
  ) {
    super(`rate limit wait of ${waitMs} ms exceeds the ${limit === "single" ? "limit on one wait" : "limit on total waiting"}`);
  }
}

/** The rate-limit limits of one waiter (from its client's options). */
export interface WaitLimits {
  /** Longest single wait. */
  maxWaitMs: number;
  /** Longest total time held on this base URL in this process. */
  maxTotalWaitMs: number;
}

interface Waiter {
  resolve: (heldMs: number) => void;
  reject: (e: Error) => void;
  limits: WaitLimits;
  /** When the rate limit started holding this waiter (performance.now()). */
  heldAt: number | undefined;
  /** How long the rate limit held it, once it no longer does. */
  heldMs: number;
}

/**
 * Process-wide gate of one base URL: a semaphore bounding in-flight requests, and the shared
 * {@link RateLimitBudget}. Every client of the same base URL shares it, so concurrent callers slow
 * down together: a request is only sent when a slot is free and the rate limit lets it. It also
 * measures the time requests are held by the rate limit (wall time, concurrent holds once), which
 * the total-wait limit is checked against.
 */
export class Endpoint {
  private active = 0;
  private readonly queue: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;
  readonly budget = new RateLimitBudget();
  /** Wall time during which waiters were held by the rate limit, ended holds only. */
  private heldTotal = 0;
  /** Start of the current hold (performance.now()), if waiters are held now. */
  private holdStart: number | undefined;

  constructor(public maxConcurrency: number) {}

  /** Requests currently holding a slot. */
  get inFlight(): number {
    return this.active;
  }

  /** Wall time so far during which requests of this base URL were held by a rate limit. */
  heldMs(now = performance.now()): number {
    return this.heldTotal + (this.holdStart === undefined ? 0 : now - this.holdStart);
  }

  /**
   * Waits for a slot and for the rate limit, then takes both; resolves with the milliseconds the
   * rate limit held the caller. `first` puts the caller at the head of the queue (a request
   * retrying after a 429 goes before fresh ones).
   */
  acquire(limits: WaitLimits, first = false): Promise<number> {
    if (this.queue.length === 0 && this.active < this.maxConcurrency && this.budget.blockedFor(Date.now(), this.active) === 0) {
      this.take();
      return Promise.resolve(0);
    }
    return new Promise<number>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, limits, heldAt: undefined, heldMs: 0 };
      if (first) this.queue.unshift(waiter);
      else this.queue.push(waiter);
      this.pump();
    });
  }

  /** Gives the slot back, learning from the response headers when given. */
  release(headers?: IncomingHttpHeaders): void {
    if (headers) this.budget.observe(headers, this.active);
    this.active--;
    this.pump();
  }

  /** After a `Retry-After`: nobody sends before `untilMs` (epoch ms). */
  pause(untilMs: number): void {
    this.budget.pause(untilMs);
    this.pump();
  }

  private take(): void {
    this.active++;
    this.budget.spend();
  }

  private pump(): void {
    while (this.queue.length > 0) {
      if (this.active >= this.maxConcurrency) return;
      const now = Date.now();
      const wait = this.budget.blockedFor(now, this.active);
      if (wait === 0) {
        this.endHold();
        this.take();
        const w = this.queue.shift()!;
        w.resolve(w.heldMs);
        continue;
      }
      if (wait > 0) {
        this.startHold(wait);
        if (this.queue.length > 0) this.wakeAt(now + wait + jitter(wait));
      }
      return;
    }
  }

  /** The rate limit holds the queue for `wait` ms: refuse waiters it would take past a limit, start the clocks of the others. */
  private startHold(wait: number): void {
    const t = performance.now();
    if (this.holdStart === undefined) this.holdStart = t;
    const spent = this.heldMs(t);
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const w = this.queue[i]!;
      const single = wait > w.limits.maxWaitMs;
      if (single || spent + wait > w.limits.maxTotalWaitMs) {
        this.queue.splice(i, 1);
        w.reject(new RateLimitWaitExceeded(wait, single ? "single" : "total", Math.round(spent)));
        continue;
      }
      if (w.heldAt === undefined) w.heldAt = t;
    }
    if (this.queue.length === 0) this.endHold();
  }

  /** The rate limit no longer holds the queue: close the hold and every waiter's measure of it. */
  private endHold(): void {
    if (this.holdStart === undefined) return;
    const t = performance.now();
    this.heldTotal += t - this.holdStart;
    this.holdStart = undefined;
    for (const w of this.queue) {
      if (w.heldAt !== undefined) {
        w.heldMs += t - w.heldAt;
        w.heldAt = undefined;
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

const endpoints = new Map<string, Endpoint>();

/** The process-wide Endpoint of a base URL; an explicit `maxConcurrency` resizes its semaphore. */
export function endpointFor(key: string, maxConcurrency: number | undefined): Endpoint {
  let ep = endpoints.get(key);
  if (!ep) {
    ep = new Endpoint(maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
    endpoints.set(key, ep);
  } else if (maxConcurrency !== undefined && ep.maxConcurrency !== maxConcurrency) {
    ep.maxConcurrency = maxConcurrency;
  }
  return ep;
}
