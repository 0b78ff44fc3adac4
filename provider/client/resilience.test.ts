import { afterAll, afterEach, describe, expect, it } from "vitest";
import { Readable } from "node:stream";
import { Pool, request as rawRequest, type Dispatcher } from "undici";
import type { RunningEmulator } from "../../emulator/index";
import { ApiClient, ApiError, isOutcomeUnknown, isRateLimited, type ClientOptions } from "./index";
import { Started } from "../../test/support/emulator";
import { SecretRecorder } from "../../test/support/secrets";
import { clientTuningFromEnv } from "../env";

// Rate limits, retries, outcome-unknown writes, timeouts and the in-flight bound, on real HTTP.
// Each test starts its own emulator: a new port is a new base URL, so process-wide state starts fresh.
const TOKEN = "dpt_SCAN_e5a0c7d29b13f4a6";
const ORG = "demo-org";
const rec = new SecretRecorder();
const started = new Started(TOKEN, { logger: rec.logger, retry: { maxRetries: 6, baseDelayMs: 2, maxDelayMs: 20 } });
const emulator = started.emulator;
const client = (emu: RunningEmulator, over: Partial<ClientOptions> = {}): ApiClient => started.client(emu.url, over);

/** Per request id: the status of every attempt, from the client's debug lines. */
function attemptsById(lines: string[]): Map<string, string[]> {
  const byId = new Map<string, string[]>();
  for (const line of lines) {
    const m = /^docsplatform: #(\d+) [A-Z]+ \S+ (\S+) /.exec(line);
    if (!m) continue;
    const list = byId.get(m[1]!) ?? [];
    list.push(m[2]!);
    byId.set(m[1]!, list);
  }
  return byId;
}

afterEach(() => started.close());

afterAll(() => {
  expect(rec.lines.length).toBeGreaterThan(50);
  expect(rec.errors.length).toBeGreaterThan(5);
  expect(rec.occurrences(TOKEN)).toBe(0);
  expect(rec.occurrences("dev-token")).toBe(0);
});

describe("rate limits", () => {
  it("holds requests once X-RateLimit-Remaining is 0 until X-RateLimit-Reset, so the server never answers 429", async () => {
    const emu = await emulator({ rateLimit: { limit: 3, windowMs: 300 } });
    const c = client(emu);
    for (let i = 0; i < 7; i++) await c.sites.list(ORG);
    expect(emu.control.log().map((e) => e.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(c.stats).toMatchObject({ requests: 7, retries: 0, rateLimited: 0 });
  });

  it("on a 429 waits for Retry-After and X-RateLimit-Reset, then retries", async () => {
    const emu = await emulator({ rateLimit: { limit: 2, windowMs: 300 } });
    // Another process spends the window.
    for (let i = 0; i < 2; i++) {
      const res = await rawRequest(`${emu.url}/v1/orgs/${ORG}/sites`, { headers: { authorization: `Bearer ${TOKEN}` } });
      await res.body.dump();
    }
    const c = client(emu);
    const sites = await c.sites.list(ORG);
    expect(Array.isArray(sites)).toBe(true);
    expect(emu.control.log().map((e) => e.status)).toEqual([200, 200, 429, 200]);
    expect(c.stats).toMatchObject({ requests: 2, retries: 1, rateLimited: 1 });
    // The emulator answers Retry-After: 1 (whole seconds); the wait honours it.
    const waited = rec.lines.map((l) => /rate limited, waiting (\d+) ms/.exec(l)).filter((m) => m !== null);
    expect(Number(waited.at(-1)![1])).toBeGreaterThanOrEqual(1000);
  });

  it("fails at once with a 429 ApiError when the wait would exceed maxRateLimitWaitMs", async () => {
    const emu = await emulator({ rateLimit: { limit: 1, windowMs: 5_000 } });
    const burn = await rawRequest(`${emu.url}/v1/orgs/${ORG}/sites`, { headers: { authorization: `Bearer ${TOKEN}` } });
    await burn.body.dump();
    const c = client(emu, { retry: { maxRateLimitWaitMs: 200 } });
    const err = (await rec.failure(c.sites.list(ORG))) as ApiError;
    expect(isRateLimited(err)).toBe(true);
    expect(err.retryAfterMs).toBeGreaterThan(200);
    expect(err.message).toMatch(/^GET \/v1\/orgs\/demo-org\/sites: 429 Too Many Requests: API rate limit exceeded/);
    // Everyone else of the base URL now knows: a second call fails without asking the server.
    const second = (await rec.failure(c.sites.get(ORG, "any"))) as ApiError;
    expect(isRateLimited(second)).toBe(true);
    expect(emu.control.log().filter((e) => e.status === 429)).toHaveLength(1);
  });

  it("concurrent callers of one base URL slow down together: no request is answered 429 twice in a row", async () => {
    const emu = await emulator({ rateLimit: { limit: 10, windowMs: 250 } });
    const a = client(emu);
    const b = client(emu, { token: "dev-token" });
    const before = rec.lines.length;
    const calls = Array.from({ length: 36 }, (_, i) => (i % 2 === 0 ? a : b).sites.list(ORG));
    const results = await Promise.all(calls);
    expect(results).toHaveLength(36);

    const byId = attemptsById(rec.lines.slice(before));
    expect(byId.size).toBe(36);
    for (const statuses of byId.values()) {
      expect(statuses.at(-1)).toBe("200");
      for (let i = 1; i < statuses.length; i++) expect([statuses[i - 1], statuses[i]]).not.toEqual(["429", "429"]);
    }
    const served429 = emu.control.log().filter((e) => e.status === 429).length;
    expect(served429).toBe(a.stats.rateLimited + b.stats.rateLimited);
    // Only the first burst, sent before any limit was known, can meet a 429.
    expect(served429).toBeLessThanOrEqual(16 - 10);
  });
});

describe("in-flight bound", () => {
  /** A real pool that records how many requests it carries at once. */
  class CountingPool extends Pool {
    active = 0;
    max = 0;
    override request(...args: Parameters<Dispatcher["request"]>): never {
      this.active++;
      this.max = Math.max(this.max, this.active);
      const p = (super.request as (o: Dispatcher.RequestOptions<unknown>) => Promise<Dispatcher.ResponseData<unknown>>)(args[0]);
      const done = () => {
        this.active--;
      };
      return p.then(
        async (res) => {
          const text = await res.body.text();
          done();
          // Hand the caller a body it can still read (the client reads it as a stream).
          return { ...res, body: Readable.from([Buffer.from(text)]) };
        },
        (e: unknown) => {
          done();
          throw e;
        },
      ) as never;
    }
  }

  it("bounds in-flight requests per base URL across clients (maxConcurrency)", async () => {
    const emu = await emulator({ latencyMs: 15 });
    const pool = new CountingPool(emu.url);
    const a = client(emu, { dispatcher: pool, maxConcurrency: 3 });
    const b = client(emu, { dispatcher: pool, token: "dev-token" });
    await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).sites.list(ORG)));
    expect(pool.max).toBe(3);
    await pool.close();
  });

  it("takes the default bound from DOCSPLATFORM_MAX_CONCURRENCY (read by the provider layer, passed as an option)", async () => {
    const emu = await emulator({ latencyMs: 15 });
    const pool = new CountingPool(emu.url);
    process.env.DOCSPLATFORM_MAX_CONCURRENCY = "2";
    try {
      const c = client(emu, { dispatcher: pool, ...clientTuningFromEnv() });
      await Promise.all(Array.from({ length: 12 }, () => c.sites.list(ORG)));
    } finally {
      delete process.env.DOCSPLATFORM_MAX_CONCURRENCY;
    }
    expect(pool.max).toBe(2);
    await pool.close();
  });
});

describe("retries", () => {
  it.each([
    ["GET", 11],
    ["PATCH", 12],
    ["PUT", 13],
    ["DELETE", 14],
  ] as const)("retries 5xx for %s until it succeeds", async (method, seed) => {
    const emu = await emulator();
    const c = client(emu);
    const site = await c.sites.create(ORG, { title: `Retry ${method}` });
    const links = await Promise.all(Array.from({ length: 10 }, (_, i) => c.shareLinks.create(ORG, site.id, { name: `l${i}` })));
    emu.control.clearLog();
    const retriesBefore = c.stats.retries;
    emu.control.setFaults({ seed, error5xxRate: 0.4, methods: [method] });
    for (let i = 0; i < 10; i++) {
      if (method === "GET") await c.sites.get(ORG, site.id);
      if (method === "PATCH") await c.sites.update(ORG, site.id, { title: `Retry ${method} ${i}` });
      if (method === "PUT") {
        await c.sites.putAdaptiveSchema(ORG, site.id, {
          jsonSchema: { type: "object", properties: { [`p${i}`]: { type: "boolean", description: "x" } }, additionalProperties: false },
        });
      }
      if (method === "DELETE") await c.shareLinks.delete(ORG, site.id, links[i]!.id);
    }
    emu.control.setFaults(null);
    const injected = emu.control.log().filter((e) => e.fault === "5xx").length;
    expect(injected).toBeGreaterThan(0);
    expect(c.stats.retries - retriesBefore).toBe(injected);
    if (method === "DELETE") expect(await c.shareLinks.list(ORG, site.id)).toEqual([]);
  });

  it("retries connection resets for idempotent methods", async () => {
    const emu = await emulator();
    const c = client(emu);
    emu.control.setFaults({ seed: 5, resetRate: 0.4, methods: ["GET"] });
    for (let i = 0; i < 10; i++) await c.sites.list(ORG);
    const resets = emu.control.log().filter((e) => e.fault === "reset").length;
    expect(resets).toBeGreaterThan(0);
    expect(c.stats.retries).toBe(resets);
  });

  it("never retries a POST after a 5xx: outcome unknown", async () => {
    const emu = await emulator();
    const c = client(emu);
    emu.control.setFaults({ seed: 1, error5xxRate: 1, methods: ["POST"] });
    const err = (await rec.failure(c.sites.create(ORG, { title: "Five Hundred" }))) as ApiError;
    expect(err.status).toBeGreaterThanOrEqual(500);
    expect(isOutcomeUnknown(err)).toBe(true);
    expect(err.message).toMatch(/outcome unknown: the server may have acted, look the object up before retrying/);
    expect(emu.control.log().filter((e) => e.method === "POST")).toHaveLength(1);
    expect(c.stats.retries).toBe(0);
  });

  it("never retries a POST after a reset: outcome unknown", async () => {
    const emu = await emulator();
    const c = client(emu);
    emu.control.setFaults({ seed: 1, resetRate: 1, methods: ["POST"] });
    const err = (await rec.failure(c.sites.create(ORG, { title: "Reset Site" }))) as ApiError;
    expect(err).toMatchObject({ status: 0, outcomeUnknown: true });
    expect(emu.control.log().filter((e) => e.method === "POST")).toHaveLength(1);
  });

  it("a create whose response is dropped raises outcome-unknown; the object is found by its natural key", async () => {
    const emu = await emulator();
    const c = client(emu);
    emu.control.setFaults({ seed: 1, dropAfterCommitRate: 1, methods: ["POST"] });
    const err = (await rec.failure(c.sites.create(ORG, { title: "Dropped Site" }))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 0, method: "POST", path: `/v1/orgs/${ORG}/sites`, outcomeUnknown: true });
    expect(err.message).toMatch(/^POST \/v1\/orgs\/demo-org\/sites: outcome unknown \(connection reset/);
    emu.control.setFaults(null);
    expect(await c.sites.list(ORG, { title: "Dropped Site" })).toHaveLength(1);
    expect(emu.control.log().filter((e) => e.method === "POST")).toHaveLength(1);
  });

  it("a 5xx after the create committed raises outcome-unknown, never a duplicate", async () => {
    const emu = await emulator();
    const c = client(emu);
    emu.control.setFaults({ seed: 1, error5xxAfterCommitRate: 1, methods: ["POST"] });
    const err = (await rec.failure(c.sites.create(ORG, { title: "Committed Site" }))) as ApiError;
    expect(err).toMatchObject({ status: 500, outcomeUnknown: true });
    emu.control.setFaults(null);
    expect(await c.sites.list(ORG, { title: "Committed Site" })).toHaveLength(1);
  });

  it("PUT /teams creates, so a dropped answer is outcome-unknown and not retried", async () => {
    const emu = await emulator();
    const c = client(emu);
    emu.control.setFaults({ seed: 1, dropAfterCommitRate: 1, methods: ["PUT"] });
    const err = (await rec.failure(c.teams.create(ORG, { title: "Dropped Team" }))) as ApiError;
    expect(err).toMatchObject({ status: 0, method: "PUT", outcomeUnknown: true });
    emu.control.setFaults(null);
    expect((await c.teams.list(ORG, { title: "Dropped Team" })).map((t) => t.title)).toEqual(["Dropped Team"]);
    expect(emu.control.log().filter((e) => e.method === "PUT")).toHaveLength(1);
  });
});

describe("timeouts", () => {
  it("a GET without response headers times out, is retried, then fails with status 0", async () => {
    const emu = await emulator();
    const c = client(emu, { timeouts: { headersMs: 300 }, retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 } });
    emu.control.setFaults({ seed: 1, stallRate: 1, stallMs: 1_500, methods: ["GET"] });
    const err = (await rec.failure(c.sites.list(ORG))) as ApiError;
    expect(err).toMatchObject({ status: 0, code: "UND_ERR_HEADERS_TIMEOUT", outcomeUnknown: false });
    expect(err.message).toBe(`GET /v1/orgs/${ORG}/sites: no response within 300 ms (UND_ERR_HEADERS_TIMEOUT)`);
    expect(c.stats).toMatchObject({ requests: 2, retries: 1 });
  });

  it("a POST that times out is outcome-unknown and sent once", async () => {
    const emu = await emulator();
    const c = client(emu, { timeouts: { headersMs: 300 } });
    emu.control.setFaults({ seed: 1, stallRate: 1, stallMs: 1_500, methods: ["POST"] });
    const err = (await rec.failure(c.sites.create(ORG, { title: "Slow Site" }))) as ApiError;
    expect(err).toMatchObject({ status: 0, code: "UND_ERR_HEADERS_TIMEOUT", outcomeUnknown: true });
    expect(c.stats.requests).toBe(1);
  });
});
