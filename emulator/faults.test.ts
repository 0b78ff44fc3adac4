/** The faults of a stricter API: a burst limiter in front of the rate limit, lists that lag behind writes, answers held past a client's timeout after the write committed; and their command-line flags. */
import { describe, expect, it } from "vitest";
import { emulatorMain } from "./cli";
import { shareEmulator } from "../test/support/emulatorSuite";

const emu = shareEmulator();
const admin = emu.caller();
const control = emu.caller(null);
const sites = "/v1/orgs/demo-org/sites";

describe("burst limiter", () => {
  it("answers the first request of every route 429 with Retry-After and no X-RateLimit-* headers when cold-started; the API's own limiter never counts it", async () => {
    emu.control.setRateLimit({ limit: 5, windowMs: 60_000 });
    expect((await control("PUT", "/_emulator/burst-limit", { limit: 10, windowMs: 150, coldStart: true })).status).toBe(204);
    const first = await admin("GET", sites);
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("1");
    expect(first.headers.get("x-ratelimit-reset")).toBeNull();
    expect(first.headers.get("x-ratelimit-remaining")).toBeNull();
    expect(first.body).toEqual({ error: { code: 429, message: expect.stringMatching(/retry after 1 s/) } });
    // Another route is cold too; the same route is let through once its window has passed.
    expect((await admin("GET", "/v1/orgs/demo-org")).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const later = await admin("GET", sites);
    expect(later.status).toBe(200);
    expect(later.headers.get("x-ratelimit-remaining")).toBe("4");
    expect(emu.control.log().map((e) => e.fault ?? e.status)).toEqual(["burst-limited", "burst-limited", 200]);
  });

  it("limits all routes together with scope 'all', and is switched off with null", async () => {
    emu.control.setBurstLimit({ limit: 2, windowMs: 60_000, scope: "all" });
    const statuses = [];
    for (const p of [sites, "/v1/orgs/demo-org", sites]) statuses.push((await admin("GET", p)).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect((await control("PUT", "/_emulator/burst-limit", null)).status).toBe(204);
    expect((await admin("GET", sites)).status).toBe(200);
    expect((await control("PUT", "/_emulator/burst-limit", { limit: 0, windowMs: 1 })).status).toBe(400);
  });
});

describe("lists that lag behind writes", () => {
  it("leave out objects created within listLagMs; a GET by ID finds them at once", async () => {
    expect((await control("PUT", "/_emulator/faults", { listLagMs: 300 })).status).toBe(204);
    const created = await admin<{ id: string }>("POST", sites, { title: "Lagging" });
    expect(created.status).toBe(201);
    const list = await admin<{ items: { id: string }[]; count: number }>("GET", sites);
    expect(list.body.items.map((s) => s.id)).not.toContain(created.body.id);
    expect(list.body.count).toBe(list.body.items.length);
    expect((await admin("GET", `${sites}/${created.body.id}`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 350));
    const caughtUp = await admin<{ items: { id: string }[] }>("GET", sites);
    expect(caughtUp.body.items.map((s) => s.id)).toContain(created.body.id);
  });
});

describe("answers that lose or echo the body", () => {
  it("emptyAfterCommitRate: commits the write, then answers 200 with no body; reads are not touched", async () => {
    emu.control.setFaults({ emptyAfterCommitRate: 1 });
    const res = await fetch(emu.url + sites, {
      method: "POST",
      headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Empty answer" }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    expect((await admin("GET", sites)).status).toBe(200);
    emu.control.setFaults(null);
    expect(emu.store.org("demo-org").sites.map((s) => s.title)).toContain("Empty answer");
    expect(emu.control.log().find((e) => e.method === "POST")).toMatchObject({ fault: "empty-after-commit", status: 200 });
  });

  it("echoBodyRate: answers 400 repeating the request body, and writes nothing", async () => {
    emu.control.setFaults({ echoBodyRate: 1 });
    const res = await admin("POST", sites, { title: "Echoed s3cr3t-value" });
    emu.control.setFaults(null);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("Echoed s3cr3t-value");
    expect(emu.store.org("demo-org").sites.map((s) => s.title)).not.toContain("Echoed s3cr3t-value");
  });
});

describe("answers held after the write committed", () => {
  it("commits the write, then answers slowAfterCommitMs later: a client that gave up finds the object", async () => {
    emu.control.setFaults({ seed: 3, slowAfterCommitRate: 1, slowAfterCommitMs: 400 });
    await expect(
      fetch(emu.url + sites, {
        method: "POST",
        headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
        body: JSON.stringify({ title: "Slow answer" }),
        signal: AbortSignal.timeout(100),
      }),
    ).rejects.toThrow(/abort|timeout/i);
    expect(emu.store.org("demo-org").sites.map((s) => s.title)).toContain("Slow answer");
    // Reads are not held.
    expect((await admin("GET", sites)).status).toBe(200);
    emu.control.setFaults(null);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(emu.control.log().find((e) => e.method === "POST")).toMatchObject({ fault: "slow-after-commit" });
  });

  it("draws its value only when set, so the seeds of other faults replay as before", async () => {
    const run = async (extra: object) => {
      emu.control.setFaults({ seed: 42, error5xxRate: 0.4, ...extra });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await admin("GET", "/v1/orgs/demo-org")).status);
      return statuses;
    };
    expect(await run({ listLagMs: 10 })).toEqual(await run({}));
  });
});

describe("faults after a number of requests", () => {
  it("lets the first `after` selected requests through, then faults: the API cut off after exactly that many writes", async () => {
    emu.control.setFaults({ after: 2, resetRate: 1, methods: ["POST"], routes: "/sites$" });
    const posted: number[] = [];
    for (const title of ["Cut 1", "Cut 2", "Cut 3"]) {
      // Reads are not counted: they are not selected.
      expect((await admin("GET", sites)).status).toBe(200);
      posted.push(await admin("POST", sites, { title }).then((r) => r.status, () => 0));
    }
    emu.control.setFaults(null);
    expect(posted).toEqual([201, 201, 0]);
    expect(emu.store.org("demo-org").sites.map((s) => s.title).filter((t) => t.startsWith("Cut "))).toEqual(["Cut 1", "Cut 2"]);
    expect(() => emu.control.setFaults({ after: -1 })).toThrow(/faults.after must be a non-negative integer/);
  });
});

describe("command line", () => {
  it("refuses malformed fault flags with exit 1", async () => {
    const original = process.stderr.write.bind(process.stderr);
    const written: string[] = [];
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      expect(await emulatorMain(["--port", "0", "--burst-limit", "fast"])).toBe(1);
      expect(await emulatorMain(["--port", "0", "--slow-after-commit", "2/100"])).toBe(1);
      expect(await emulatorMain(["--port", "0", "--burst-cold-start"])).toBe(1);
    } finally {
      process.stderr.write = original;
    }
    expect(written.join("")).toMatch(/--burst-limit must be LIMIT\/WINDOW_MS/);
    expect(written.join("")).toMatch(/--slow-after-commit must be RATE\/MS/);
    expect(written.join("")).toMatch(/--burst-cold-start needs --burst-limit/);
  });
});
