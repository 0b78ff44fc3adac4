import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError, isOutcomeUnknown, isRateLimited } from "./index";
import { askedWait, learnsWindow, RateLimitBudget, retryAfterMs } from "./rateLimitState";
import { Started } from "../../test/support/emulator";
import { SecretRecorder } from "../../test/support/secrets";

// The rate-limit state alone (pure), then the client against limiters as servers send them:
// an hourly window learnt from ordinary answers plus a burst limiter or gateway answering 429 with
// Retry-After and no reset header, and a 503 with Retry-After. Waits are asserted from the client's
// own record (`stats`), never from wall-clock timing.
const TOKEN = "dpt_SCAN_7c41e09ab2d35f68";
const ORG = "demo-org";
const HOUR = 3_600_000;
const rec = new SecretRecorder();
const started = new Started(TOKEN, { logger: rec.logger, retry: { maxRetries: 4, baseDelayMs: 2, maxDelayMs: 20 } });
const { emulator, client } = started;

afterEach(async () => {
  await started.close();
  expect(rec.occurrences(TOKEN)).toBe(0);
});

describe("RateLimitBudget and the answer policy", () => {
  const hourWindow = (now: number, remaining: number) => ({
    "x-ratelimit-limit": "5000",
    "x-ratelimit-remaining": String(remaining),
    "x-ratelimit-reset": String(Math.ceil((now + HOUR) / 1000)),
  });

  it("a Retry-After pause neither zeroes the learnt window's budget nor lasts until its reset", () => {
    const b = new RateLimitBudget();
    const now = Date.now();
    b.observe(hourWindow(now, 4000), 1);
    b.pause(now + 1_000);
    expect(b.blockedFor(now, 0)).toBe(1_000);
    expect(b.blockedFor(now + 1_000, 0)).toBe(0);
  });

  it("a spent window holds until its own reset", () => {
    const b = new RateLimitBudget();
    const now = Date.now();
    b.observe(hourWindow(now, 0), 1);
    const wait = b.blockedFor(now, 0);
    expect(wait).toBeGreaterThan(HOUR - 2_000);
    expect(wait).toBeLessThanOrEqual(HOUR + 1_000);
  });

  it("Retry-After is the authority for its answer: seconds or an HTTP date; else the answer's own reset", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(askedWait({ "retry-after": "1", "x-ratelimit-reset": String(now / 1000 + 3600) }, now)).toEqual({ ms: 1_000, from: "retry-after" });
    expect(askedWait({ "retry-after": "Thu, 01 Jan 2026 00:00:02 GMT" }, now)).toEqual({ ms: 2_000, from: "retry-after" });
    expect(askedWait({ "x-ratelimit-reset": String(now / 1000 + 30) }, now)).toEqual({ ms: 30_000, from: "reset" });
    expect(askedWait({}, now)).toBeUndefined();
    expect(retryAfterMs("0.5")).toBe(500);
    expect(retryAfterMs("soon")).toBeUndefined();
  });

  it("learns X-RateLimit headers from every answer but a 429 or 503 that carries Retry-After (it may be another limiter's)", () => {
    expect(learnsWindow(200, { "x-ratelimit-remaining": "3" })).toBe(true);
    expect(learnsWindow(429, { "x-ratelimit-remaining": "0" })).toBe(true);
    expect(learnsWindow(429, { "retry-after": "1", "x-ratelimit-remaining": "0" })).toBe(false);
    expect(learnsWindow(503, { "retry-after": "1" })).toBe(false);
  });
});

describe("the client behind several limiters", () => {
  it("after learning a one-hour window, one 429 with Retry-After: 1 and no reset header costs about one second, not the window", async () => {
    const emu = await emulator({ rateLimit: { limit: 100_000, windowMs: HOUR } });
    const c = client(emu.url);
    for (let i = 0; i < 3; i++) await c.sites.list(ORG);
    // A burst limiter in front of the API now answers the first request of every route: 429, Retry-After: 1, no X-RateLimit-*.
    emu.control.setBurstLimit({ limit: 100, windowMs: 1_000, coldStart: true });
    const site = await c.sites.create(ORG, { title: "Behind a burst limiter" });
    expect(site.title).toBe("Behind a burst limiter");

    const limited = emu.control.log().filter((e) => e.status === 429);
    expect(limited.map((e) => e.fault)).toEqual(["burst-limited"]);
    expect(c.stats).toMatchObject({ rateLimited: 1, rateLimitWaits: 1 });
    // The client's own record of its wait: Retry-After's second (plus at most 250 ms of jitter), far below the learnt hour.
    expect(c.stats.longestWaitMs).toBeGreaterThanOrEqual(950);
    expect(c.stats.longestWaitMs).toBeLessThan(5_000);
    expect(c.stats.longestWaitMs).toBeLessThan(HOUR / 100);
  });

  it("with a learnt window longer than the single-wait limit, a short Retry-After still succeeds", async () => {
    const emu = await emulator({ rateLimit: { limit: 100_000, windowMs: HOUR } });
    const c = client(emu.url, { retry: { maxRateLimitWaitMs: 30_000 } });
    await c.sites.list(ORG);
    emu.control.setBurstLimit({ limit: 100, windowMs: 1_000, coldStart: true });
    await expect(c.sites.list(ORG)).resolves.toBeInstanceOf(Array);
    expect(c.stats.rateLimited).toBe(1);
  });

  it("a burst limit and a per-window quota at once: every request completes, slowed by whichever answered", async () => {
    const emu = await emulator({ rateLimit: { limit: 6, windowMs: 500 }, burstLimit: { limit: 4, windowMs: 200, scope: "all" } });
    const c = client(emu.url);
    const results = await Promise.all(Array.from({ length: 10 }, () => c.sites.list(ORG)));
    expect(results).toHaveLength(10);
    const log = emu.control.log();
    expect(log.filter((e) => e.status === 200)).toHaveLength(10);
    expect(log.some((e) => e.fault === "burst-limited")).toBe(true);
    expect(log.filter((e) => e.status === 429)).toHaveLength(c.stats.rateLimited);
    expect(c.stats.longestWaitMs).toBeLessThan(5_000);
  });

  it("bounds the total waiting of a run: past it, a request fails with a 429 naming the limit", async () => {
    const emu = await emulator({ burstLimit: { limit: 1, windowMs: 1_000, scope: "all", coldStart: true } });
    const c = client(emu.url, { retry: { maxTotalRateLimitWaitMs: 1_500 } });
    await c.sites.list(ORG); // 429, one second's wait, then 200
    const err = (await rec.failure(c.sites.list(ORG))) as ApiError;
    expect(isRateLimited(err)).toBe(true);
    expect(err.message).toMatch(/past its limit of 1\.5 s on total rate-limit waiting/);
    expect(err.message).not.toMatch(/docsplatform:/);
    expect(c.rateLimitHeldMs).toBeGreaterThanOrEqual(950);
  });
});

describe("503 with Retry-After", () => {
  /** A server answering the first request of each method 503 with `Retry-After: 1`, then 200. Used because the emulator's 5xx carry no Retry-After. */
  async function overloaded(): Promise<{ url: string; hits: string[] }> {
    const hits: string[] = [];
    const seen = new Set<string>();
    const server = http.createServer((req, res) => {
      hits.push(req.method!);
      req.resume();
      req.on("end", () => {
        if (!seen.has(req.method!)) {
          seen.add(req.method!);
          res.writeHead(503, { "content-type": "application/json", "retry-after": "1" });
          res.end(JSON.stringify({ error: { code: 503, message: "maintenance" } }));
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ items: [], count: 0 }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    started.onClose(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
  }

  it("an idempotent request waits Retry-After, then retries", async () => {
    const s = await overloaded();
    const c = client(s.url);
    await expect(c.sites.list(ORG)).resolves.toEqual([]);
    expect(s.hits).toEqual(["GET", "GET"]);
    expect(c.stats).toMatchObject({ requests: 2, retries: 1, rateLimitWaits: 1 });
    expect(c.stats.longestWaitMs).toBeGreaterThanOrEqual(950);
  });

  it("a create answered 503 stays outcome-unknown (not repeated), and its Retry-After holds the next request", async () => {
    const s = await overloaded();
    const c = client(s.url);
    const err = (await rec.failure(c.sites.create(ORG, { title: "x" }))) as ApiError;
    expect(isOutcomeUnknown(err)).toBe(true);
    expect(err.retryAfterMs).toBe(1_000);
    await c.sites.list(ORG).catch(() => undefined);
    expect(s.hits.slice(0, 1)).toEqual(["POST"]);
    expect(c.stats.rateLimitWaits).toBeGreaterThanOrEqual(1);
  });
});
