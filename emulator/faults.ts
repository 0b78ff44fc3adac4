/** Seeded fault injection and the fixed-window rate limit of the emulator. */

export interface FaultOptions {
  /** Seed of the PRNG: the same seed and the same request sequence give the same faults. */
  seed?: number;
  /** 0..1: answer 500/502/503 (error body) before acting. */
  error5xxRate?: number;
  /** 0..1: act (commit the write), then answer 500. */
  error5xxAfterCommitRate?: number;
  /** 0..1: for writes: commit, then destroy the socket without a response. */
  dropAfterCommitRate?: number;
  /** 0..1: destroy the socket before acting. */
  resetRate?: number;
  /** 0..1: delay the request by `stallMs` before acting (to outlast a client timeout). */
  stallRate?: number;
  stallMs?: number;
  /**
   * 0..1: for writes: commit, then hold the answer `slowAfterCommitMs` (past a client's timeout:
   * the client gives up on a write that took effect). Draws its value only when set, so seeds of
   * plans without it replay as before.
   */
  slowAfterCommitRate?: number;
  slowAfterCommitMs?: number;
  /**
   * 0..1: for writes: commit, then answer 200 with an empty body (a proxy or gateway that lost the
   * body). Draws its value only when set.
   */
  emptyAfterCommitRate?: number;
  /**
   * 0..1: for requests with a body: answer 400 repeating the whole request body in the error message,
   * before acting (a server that echoes what it refused, credentials included). Draws its value only when set.
   */
  echoBodyRate?: number;
  /**
   * List answers leave out objects created less than this many ms ago (wall time), as an API whose
   * lists are served from an index that catches up after writes. Single-object GETs are not affected.
   * Not random, and not narrowed by `methods` or `routes` (those pick which writes fail).
   */
  listLagMs?: number;
  /**
   * The first this many requests that `methods` and `routes` select go through untouched (and draw no
   * values); faults start with the next. With `resetRate: 1` on writes: the API is cut off after exactly
   * that many writes.
   */
  after?: number;
  /** Limit faults to these methods (default all). */
  methods?: string[];
  /** Limit faults to paths matching this (a string is a regular expression source). */
  routes?: RegExp | string;
}

/** What the fault plan decided for one request. */
export interface FaultDecision {
  reset: boolean;
  error5xx: number | null;
  stallMs: number;
  error5xxAfterCommit: boolean;
  dropAfterCommit: boolean;
  /** Commit, then answer this much later (0: at once). */
  slowAfterCommitMs: number;
  /** Commit, then answer 200 with no body. */
  emptyAfterCommit: boolean;
  /** Answer 400 quoting the request body, before acting. */
  echoBody: boolean;
}

/** mulberry32: a seeded source of numbers in [0, 1), small, fast and good enough to replay fault sequences. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STATUSES_5XX = [500, 502, 503];

/** Decides faults per request; every eligible request draws the same number of values, so sequences replay. */
export class FaultPlan {
  private readonly random: () => number;
  private readonly routes: RegExp | null;
  private readonly methods: Set<string> | null;
  /** Selected requests let through so far (see `after`). */
  private passed = 0;

  constructor(readonly opts: FaultOptions) {
    this.random = prng(opts.seed ?? 1);
    this.routes = opts.routes === undefined ? null : typeof opts.routes === "string" ? new RegExp(opts.routes) : opts.routes;
    this.methods = opts.methods ? new Set(opts.methods.map((m) => m.toUpperCase())) : null;
  }

  decide(method: string, path: string): FaultDecision | null {
    if (this.methods && !this.methods.has(method)) return null;
    if (this.routes && !this.routes.test(path)) return null;
    if (this.passed < (this.opts.after ?? 0)) {
      this.passed++;
      return null;
    }
    const [r1, r2, r3, r4, r5, r6] = [this.random(), this.random(), this.random(), this.random(), this.random(), this.random()];
    const o = this.opts;
    const isWrite = method !== "GET" && method !== "HEAD";
    const slow = o.slowAfterCommitRate === undefined ? false : this.random() < o.slowAfterCommitRate;
    const empty = o.emptyAfterCommitRate === undefined ? false : this.random() < o.emptyAfterCommitRate;
    const echo = o.echoBodyRate === undefined ? false : this.random() < o.echoBodyRate;
    return {
      reset: r1 < (o.resetRate ?? 0),
      error5xx: r2 < (o.error5xxRate ?? 0) ? STATUSES_5XX[Math.floor(r6 * STATUSES_5XX.length)]! : null,
      stallMs: r3 < (o.stallRate ?? 0) ? (o.stallMs ?? 30_000) : 0,
      error5xxAfterCommit: r4 < (o.error5xxAfterCommitRate ?? 0),
      dropAfterCommit: isWrite && r5 < (o.dropAfterCommitRate ?? 0),
      slowAfterCommitMs: isWrite && slow ? (o.slowAfterCommitMs ?? 30_000) : 0,
      emptyAfterCommit: isWrite && empty,
      echoBody: isWrite && echo,
    };
  }
}

/** Checks fault options, naming the first bad field. */
export function checkFaultOptions(o: FaultOptions): void {
  for (const k of ["error5xxRate", "error5xxAfterCommitRate", "dropAfterCommitRate", "resetRate", "stallRate", "slowAfterCommitRate", "emptyAfterCommitRate", "echoBodyRate"] as const) {
    const v = o[k];
    if (v !== undefined && (typeof v !== "number" || !(v >= 0 && v <= 1))) throw new Error(`faults.${k} must be a number from 0 to 1`);
  }
  for (const k of ["stallMs", "slowAfterCommitMs", "listLagMs"] as const) {
    const v = o[k];
    if (v !== undefined && (typeof v !== "number" || !(v >= 0))) throw new Error(`faults.${k} must be a non-negative number`);
  }
  if (o.after !== undefined && !(Number.isInteger(o.after) && o.after >= 0)) throw new Error("faults.after must be a non-negative integer");
  if (o.seed !== undefined && (typeof o.seed !== "number" || !Number.isInteger(o.seed))) throw new Error("faults.seed must be an integer");
  if (o.methods !== undefined && !(Array.isArray(o.methods) && o.methods.every((m) => typeof m === "string"))) throw new Error("faults.methods must be a list of HTTP methods");
  if (typeof o.routes === "string") new RegExp(o.routes);
}

/** Fixed-window rate limit across all tokens: the window opens at the first request after the previous one closed. */
export class RateLimiter {
  private windowStart = 0;
  private used = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Counts one request; returns the headers to send and whether it is over the limit. */
  take(nowMs: number): { allowed: boolean; remaining: number; resetEpochS: number; retryAfterS: number } {
    if (nowMs >= this.windowStart + this.windowMs) {
      this.windowStart = nowMs;
      this.used = 0;
    }
    const end = this.windowStart + this.windowMs;
    const allowed = this.used < this.limit;
    if (allowed) this.used++;
    return {
      allowed,
      remaining: this.limit - this.used,
      resetEpochS: Math.ceil(end / 1000),
      retryAfterS: Math.max(1, Math.ceil((end - nowMs) / 1000)),
    };
  }
}

/** Checks rate-limit options. */
export function checkRateLimit(o: { limit: number; windowMs: number }): void {
  if (!Number.isInteger(o.limit) || o.limit < 1) throw new Error("rateLimit.limit must be a positive integer");
  if (typeof o.windowMs !== "number" || !(o.windowMs > 0)) throw new Error("rateLimit.windowMs must be a positive number of milliseconds");
}

/** Options of the burst limiter: a second limiter in front of the API, as a gateway runs one. */
export interface BurstLimitOptions {
  /** Requests per window and key. */
  limit: number;
  windowMs: number;
  /** `route` (default): one window per method and route pattern; `all`: one window for everything. */
  scope?: "route" | "all";
  /** A key's first window starts spent: the first request of every route (or the first of all) is answered 429. */
  coldStart?: boolean;
}

/**
 * A burst limiter in front of the API's own limit: fixed windows per key; over the limit it answers
 * 429 with `Retry-After` (whole seconds, at least 1) and no `X-RateLimit-*` headers, and the API's
 * own limiter never sees the request.
 */
export class BurstLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();

  constructor(readonly opts: BurstLimitOptions) {}

  /** Counts one request of `key` (method and route); `retryAfterS` when it is over the limit. */
  take(key: string, nowMs: number): { allowed: true } | { allowed: false; retryAfterS: number } {
    const k = this.opts.scope === "all" ? "" : key;
    let w = this.windows.get(k);
    if (!w) {
      w = { start: nowMs, used: this.opts.coldStart ? this.opts.limit : 0 };
      this.windows.set(k, w);
    } else if (nowMs >= w.start + this.opts.windowMs) {
      w.start = nowMs;
      w.used = 0;
    }
    if (w.used < this.opts.limit) {
      w.used++;
      return { allowed: true };
    }
    return { allowed: false, retryAfterS: Math.max(1, Math.ceil((w.start + this.opts.windowMs - nowMs) / 1000)) };
  }
}

/** The rate limiter for `o`, after checking it; none for null. */
export function rateLimiter(o: { limit: number; windowMs: number } | null | undefined): RateLimiter | null {
  if (!o) return null;
  checkRateLimit(o);
  return new RateLimiter(o.limit, o.windowMs);
}

/** The burst limiter for `o`, after checking it; none for null. */
export function burstLimiter(o: BurstLimitOptions | null | undefined): BurstLimiter | null {
  if (!o) return null;
  checkBurstLimit(o);
  return new BurstLimiter(o);
}

/** The fault plan for `o`, after checking it; none for null. */
export function faultPlan(o: FaultOptions | null | undefined): FaultPlan | null {
  if (!o) return null;
  checkFaultOptions(o);
  return new FaultPlan(o);
}

/** Checks burst-limit options. */
export function checkBurstLimit(o: BurstLimitOptions): void {
  if (!Number.isInteger(o.limit) || o.limit < 1) throw new Error("burstLimit.limit must be a positive integer");
  if (typeof o.windowMs !== "number" || !(o.windowMs > 0)) throw new Error("burstLimit.windowMs must be a positive number of milliseconds");
  if (o.scope !== undefined && o.scope !== "route" && o.scope !== "all") throw new Error('burstLimit.scope must be "route" or "all"');
  if (o.coldStart !== undefined && typeof o.coldStart !== "boolean") throw new Error("burstLimit.coldStart must be a boolean");
}
