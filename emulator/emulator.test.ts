/** Transport rules of the emulator: auth, error bodies, 404/400/413/415, paging, request log, rate limit, latency, faults, control surface. */
import { describe, expect, it } from "vitest";
import { request } from "undici";
import { caller, listAll } from "../test/support/api";
import { shareEmulator } from "../test/support/emulatorSuite";

const emu = shareEmulator();
const admin = emu.caller();
const anon = emu.caller(null);
const control = emu.caller(null);

function expectError(r: { status: number; body: unknown }, status: number, message?: RegExp): void {
  expect(r.status).toBe(status);
  expect(r.body).toEqual({ error: { code: status, message: expect.any(String) } });
  if (message) expect((r.body as { error: { message: string } }).error.message).toMatch(message);
}

describe("authentication", () => {
  it("answers 401 without a token or with an unknown one, and never echoes the token", async () => {
    expectError(await anon("GET", "/v1/orgs"), 401);
    const r = await caller(emu.url, "not-a-token-secret")("GET", "/v1/orgs");
    expectError(r, 401);
    expect(JSON.stringify(r.body)).not.toContain("not-a-token-secret");
    expectError(await anon("GET", "/v1/orgs", undefined, { authorization: "Basic abc" }), 401);
  });

  it("maps tokens to members of the default fixture", async () => {
    const me = await admin("GET", "/v1/orgs");
    expect(me.status).toBe(200);
    expect(me.body.items.map((o: { id: string }) => o.id)).toEqual(["demo-org"]);
    expect(me.body.items[0].permissions.admin).toBe(true);
    const reader = await caller(emu.url, "reader-token")("GET", "/v1/orgs/demo-org");
    expect(reader.status).toBe(200);
    expect(reader.body.permissions.admin).toBe(false);
  });
});

describe("errors", () => {
  it("answers unknown routes and IDs with path characters with a 404 error body", async () => {
    expectError(await admin("GET", "/v1/nothing-here"), 404, /no route/);
    expectError(await admin("GET", "/v1/orgs/demo-org/sites/a%2Fb"), 404);
    expectError(await admin("GET", "/v1/orgs/nope"), 404, /organization 'nope'/);
    expectError(await admin("GET", `/v1/orgs/demo-org/sites/${"x".repeat(300)}`), 404);
  });

  it("answers bad JSON, wrong types and broken limits with a 400 naming the field and the limit", async () => {
    expectError(await admin("POST", "/v1/orgs/demo-org/sites", "{not json"), 400, /JSON/);
    expectError(await admin("POST", "/v1/orgs/demo-org/sites", { title: 5 }), 400, /body\/title must be string/);
    expectError(await admin("POST", "/v1/orgs/demo-org/sites", { title: "x".repeat(129) }), 400, /body\/title must NOT have more than 128 characters/);
    expectError(await admin("POST", "/v1/orgs/demo-org/sites", { visibility: "everyone" }), 400, /body\/visibility must be equal to one of the allowed values: "public"/);
    expectError(await admin("PUT", "/v1/orgs/demo-org/teams", {}), 400, /must have required property 'title'/);
    expectError(await admin("PUT", "/v1/orgs/demo-org/teams", [1, 2]), 400, /body must be object/);
  });

  it("says a broken pattern in the words its limit gives, never as a regular expression", async () => {
    const spec = { source: { url: "https://api.example.com/openapi.json" } };
    const bodySlug = await admin("POST", "/v1/orgs/demo-org/openapi", { slug: "My_API", ...spec });
    expectError(bodySlug, 400, /^body\/slug must be lowercase letters and digits in words joined by single hyphens, like my-api$/);
    const paramSlug = await admin("PUT", "/v1/orgs/demo-org/openapi/My_API", spec);
    expectError(paramSlug, 400, /^params\/specSlug must be lowercase letters and digits in words joined by single hyphens, like my-api, of 1 to 100 characters$/);
    const name = await admin("POST", "/v1/integrations/bad%20name", { script: "x", organization: "demo-org", title: "Bad", description: "A bad name" });
    expectError(name, 400, /^params\/integrationName must be letters, digits, '-', '_' and '\.' only, like my-integration, of at most 100 characters$/);
    for (const r of [bodySlug, paramSlug, name]) expect((r.body as { error: { message: string } }).error.message).not.toMatch(/pattern|\^|\$/);
  });

  it("answers a body over 1 MiB with 413 and a non-JSON body with 415", async () => {
    expectError(await admin("PUT", "/v1/orgs/demo-org/teams", JSON.stringify({ title: "x".repeat(1024 * 1024 + 10) })), 413, /1 MiB/);
    expectError(await admin("PUT", "/v1/orgs/demo-org/teams", "title=x", { "content-type": "application/x-www-form-urlencoded" }), 415, /application\/json/);
    expectError(await admin("PUT", "/v1/orgs/demo-org/teams", "x", { "content-type": "text/plain" }), 415);
  });

  it("accepts JSON with a charset parameter", async () => {
    const r = await admin("PUT", "/v1/orgs/demo-org/teams", JSON.stringify({ title: "Charset" }), { "content-type": "application/json; charset=utf-8" });
    expect(r.status).toBe(201);
  });
});

describe("lists", () => {
  it("pages with opaque cursors, a default size of 20 and limit from 1 to 1000", async () => {
    for (let i = 0; i < 45; i++) expect((await admin("PUT", "/v1/orgs/demo-org/teams", { title: `Team ${i}` })).status).toBe(201);
    const first = await admin("GET", "/v1/orgs/demo-org/teams");
    expect(first.body.count).toBe(20);
    expect(first.body.items).toHaveLength(20);
    expect(typeof first.body.next.page).toBe("string");
    const all = await listAll(admin, "/v1/orgs/demo-org/teams", 7);
    expect(all.map((t: { title: string }) => t.title)).toEqual(Array.from({ length: 45 }, (_, i) => `Team ${i}`));
    const last = await admin("GET", "/v1/orgs/demo-org/teams?limit=1000");
    expect(last.body.count).toBe(45);
    expect(last.body.next).toBeUndefined();
    expectError(await admin("GET", "/v1/orgs/demo-org/teams?limit=0"), 400, /querystring\/limit must be >= 1/);
    expectError(await admin("GET", "/v1/orgs/demo-org/teams?limit=1001"), 400, /querystring\/limit must be <= 1000/);
    expectError(await admin("GET", "/v1/orgs/demo-org/teams?limit=abc"), 400, /querystring\/limit/);
  });

  it("rejects a cursor the client built or took from another list", async () => {
    for (let i = 0; i < 3; i++) await admin("PUT", "/v1/orgs/demo-org/teams", { title: `T${i}` });
    const p = await admin("GET", "/v1/orgs/demo-org/teams?limit=1");
    expectError(await admin("GET", `/v1/orgs/demo-org/teams?page=${Buffer.from("20").toString("base64url")}`), 400, /page/);
    expectError(await admin("GET", `/v1/orgs/demo-org/members?page=${p.body.next.page}`), 400, /page/);
    expect((await admin("GET", `/v1/orgs/demo-org/teams?limit=1&page=${p.body.next.page}`)).body.items[0].title).toBe("T1");
  });
});

describe("request log and control surface", () => {
  it("logs /v1 requests with route patterns and counts them, but not control requests", async () => {
    await admin("GET", "/v1/orgs/demo-org");
    await admin("GET", "/v1/orgs/demo-org");
    await admin("GET", "/v1/nope");
    await control("GET", "/_emulator/counts");
    const log = emu.control.log();
    expect(log.map((e) => [e.method, e.route, e.path, e.status])).toEqual([
      ["GET", "/v1/orgs/:organizationId", "/v1/orgs/demo-org", 200],
      ["GET", "/v1/orgs/:organizationId", "/v1/orgs/demo-org", 200],
      ["GET", "(unmatched)", "/v1/nope", 404],
    ]);
    expect(emu.control.counts()).toEqual({ "GET /v1/orgs/:organizationId": 2, "GET (unmatched)": 1 });
    expect((await control("GET", "/_emulator/counts")).body).toEqual(emu.control.counts());
    expect((await control("GET", "/_emulator/log")).body.count).toBe(3);
    expect((await control("DELETE", "/_emulator/log")).status).toBe(204);
    expect(emu.control.log()).toEqual([]);
  });

  it("resets to the seed, serves snapshots and advances the clock over HTTP", async () => {
    await admin("PUT", "/v1/orgs/demo-org/teams", { title: "Gone after reset" });
    expect((await control("GET", "/_emulator/snapshot")).body.organizations[0].teams).toHaveLength(1);
    expect((await control("POST", "/_emulator/reset")).status).toBe(204);
    expect(emu.store.org("demo-org").teams).toHaveLength(0);
    const before = emu.store.now().getTime();
    const r = await control("POST", "/_emulator/clock", { advanceMs: 3_600_000 });
    expect(Date.parse(r.body.now) - before).toBeGreaterThanOrEqual(3_600_000);
    expectError(await control("PUT", "/_emulator/faults", { resetRate: 2 }), 400, /resetRate/);
  });

  it("resets to another seed given in the body", async () => {
    const seed = { users: [{ id: "u1", email: "u1@x.test" }], tokens: { t1: "u1" }, organizations: [{ id: "o1", title: "Org One", members: [{ user: "u1", role: "admin" }] }] };
    expect((await control("POST", "/_emulator/reset", { seed })).status).toBe(204);
    expect((await caller(emu.url, "t1")("GET", "/v1/orgs")).body.items[0].id).toBe("o1");
    expectError(await admin("GET", "/v1/orgs"), 401);
    emu.control.reset((await import("./seed")).defaultSeed());
  });
});

describe("rate limit", () => {
  it("reports X-RateLimit-* on every response and answers 429 with Retry-After past the limit", async () => {
    const plain = await admin("GET", "/v1/orgs/demo-org");
    expect(plain.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    expect(plain.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
    expect(plain.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
    expect((await control("PUT", "/_emulator/rate-limit", { limit: 3, windowMs: 60_000 })).status).toBe(204);
    const rs = [];
    for (let i = 0; i < 4; i++) rs.push(await admin("GET", "/v1/orgs/demo-org"));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(rs.map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual(["2", "1", "0", "0"]);
    expect(rs[3]!.headers.get("x-ratelimit-limit")).toBe("3");
    expect(Number(rs[3]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(rs[3]!.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
    expectError(rs[3]!, 429, /API rate limit exceeded/);
    // Control requests are never limited.
    expect((await control("GET", "/_emulator/counts")).status).toBe(200);
    expect((await control("PUT", "/_emulator/rate-limit", null)).status).toBe(204);
    expect((await admin("GET", "/v1/orgs/demo-org")).status).toBe(200);
  });

  it("opens a new window once the previous one closed", async () => {
    emu.control.setRateLimit({ limit: 1, windowMs: 150 });
    expect((await admin("GET", "/v1/orgs/demo-org")).status).toBe(200);
    expect((await admin("GET", "/v1/orgs/demo-org")).status).toBe(429);
    await new Promise((r) => setTimeout(r, 200));
    expect((await admin("GET", "/v1/orgs/demo-org")).status).toBe(200);
  });
});

describe("latency", () => {
  it("delays requests without blocking other work", async () => {
    emu.control.setLatency(150);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const r = await admin("GET", "/v1/orgs/demo-org");
    clearInterval(timer);
    expect(r.status).toBe(200);
    expect(ticks).toBeGreaterThan(3);
    expect(emu.control.log()[0]!.ms).toBeGreaterThanOrEqual(140);
  });
});

describe("faults", () => {
  it("answers 5xx before acting: nothing is written", async () => {
    emu.control.setFaults({ seed: 7, error5xxRate: 1, methods: ["PUT"] });
    const r = await admin("PUT", "/v1/orgs/demo-org/teams", { title: "Never" });
    expect([500, 502, 503]).toContain(r.status);
    expectError(r, r.status, /injected/);
    expect(emu.store.org("demo-org").teams).toHaveLength(0);
    expect((await admin("GET", "/v1/orgs/demo-org")).status).toBe(200);
    expect(emu.control.log()[0]!.fault).toBe("5xx");
  });

  it("commits, then answers 500 (5xx after commit)", async () => {
    emu.control.setFaults({ error5xxAfterCommitRate: 1, routes: "/teams$" });
    const r = await admin("PUT", "/v1/orgs/demo-org/teams", { title: "Written" });
    expectError(r, 500, /after commit/);
    expect(emu.store.org("demo-org").teams.map((t) => t.title)).toEqual(["Written"]);
  });

  it("commits, then drops the connection (drop after commit, writes only)", async () => {
    emu.control.setFaults({ dropAfterCommitRate: 1 });
    await expect(admin("PUT", "/v1/orgs/demo-org/teams", { title: "Dropped" })).rejects.toThrow();
    expect(emu.store.org("demo-org").teams.map((t) => t.title)).toEqual(["Dropped"]);
    expect((await admin("GET", "/v1/orgs/demo-org")).status).toBe(200);
    expect(emu.control.log()[0]).toMatchObject({ status: 0, fault: "drop-after-commit" });
  });

  it("resets connections before acting", async () => {
    emu.control.setFaults({ resetRate: 1, methods: ["PUT"] });
    await expect(request(`${emu.url}/v1/orgs/demo-org/teams`, { method: "PUT", headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" }, body: JSON.stringify({ title: "Reset" }) })).rejects.toThrow();
    expect(emu.store.org("demo-org").teams).toHaveLength(0);
    expect(emu.control.log()[0]).toMatchObject({ status: 0, fault: "reset" });
  });

  it("stalls responses beyond a client timeout", async () => {
    emu.control.setFaults({ stallRate: 1, stallMs: 400 });
    await expect(request(`${emu.url}/v1/orgs/demo-org`, { headers: { authorization: `Bearer ${emu.token}` }, signal: AbortSignal.timeout(100) })).rejects.toThrow(/abort|timeout/i);
    emu.control.setFaults(null);
    expect((await admin("GET", "/v1/orgs/demo-org")).status).toBe(200);
  });

  it("logs a request in the window it arrived in: one stalled across clearLog is not in the next window", async () => {
    emu.control.setFaults({ stallRate: 1, stallMs: 300 });
    await expect(request(`${emu.url}/v1/orgs/demo-org`, { method: "PATCH", headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" }, body: "{}", signal: AbortSignal.timeout(50) })).rejects.toThrow(/abort|timeout/i);
    emu.control.setFaults(null);
    emu.control.clearLog();
    // Let the server finish the stalled request (it finds the client gone and drops it), then send one more.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await admin("GET", "/v1/orgs/demo-org")).status).toBe(200);
    expect(emu.control.log().map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(["GET /v1/orgs/demo-org 200"]);
  });

  it("replays the same faults for the same seed and request sequence", async () => {
    const run = async () => {
      emu.control.setFaults({ seed: 42, error5xxRate: 0.4 });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await admin("GET", "/v1/orgs/demo-org")).status);
      return statuses;
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    expect(a.some((s) => s >= 500)).toBe(true);
    expect(a.some((s) => s === 200)).toBe(true);
  });

  it("sets faults over HTTP with a route filter", async () => {
    expect((await control("PUT", "/_emulator/faults", { error5xxRate: 1, routes: "/sites" })).status).toBe(204);
    expect((await admin("GET", "/v1/orgs/demo-org/sites")).status).toBeGreaterThanOrEqual(500);
    expect((await admin("GET", "/v1/orgs/demo-org")).status).toBe(200);
    expect((await control("PUT", "/_emulator/faults", null)).status).toBe(204);
    expect((await admin("GET", "/v1/orgs/demo-org/sites")).status).toBe(200);
  });
});
