import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ApiClient, isFirstRefusal, isTokenRefused, TOKEN_REFUSED } from ".";

// The refused-token policy (tokenRefusal.ts) against the emulator over real HTTP: one request with a
// refused token, whatever the number of callers; nothing held back once the token is accepted.

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(() => emu?.close());

describe("a refused token", () => {
  it("twenty concurrent calls send one request; the first fails with the 401, the others unsent", async () => {
    const client = new ApiClient({ baseUrl: emu.url, token: "expired-token" });
    emu.control.clearLog();
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => client.sites.list("demo-org")));
    await client.close();
    expect(emu.control.log().map((c) => c.status)).toEqual([401]);
    const errors = outcomes.map((o) => (o.status === "rejected" ? o.reason : undefined));
    expect(errors.every(isTokenRefused)).toBe(true);
    expect(errors.filter(isFirstRefusal)).toHaveLength(1);
    expect(errors.filter((e) => (e as { code?: string }).code === TOKEN_REFUSED)).toHaveLength(19);
    expect(String(errors.find((e) => !isFirstRefusal(e)))).toMatch(/not sent: the API refused this client's token \(GET \/v1\/orgs\/demo-org\/sites answered 401\)/);
    expect(client.tokenRefused?.status).toBe(401);
  });

  it("a 403 below the organisation is a role too low, not a refused token: later requests are sent", async () => {
    const client = new ApiClient({ baseUrl: emu.url, token: "reader-token" });
    emu.control.clearLog();
    const denied = await client.sites.create("demo-org", { title: "Not allowed" }).catch((e: unknown) => e);
    expect((denied as { status?: number }).status).toBe(403);
    expect(isTokenRefused(denied)).toBe(false);
    expect((await client.sites.list("demo-org")).length).toBeGreaterThanOrEqual(0);
    expect(emu.control.log().map((c) => c.status)).toEqual([403, 200]);
    await client.close();
  });

  it("an accepted token: concurrent first calls all succeed, one request each", async () => {
    const client = new ApiClient({ baseUrl: emu.url, token: emu.token });
    emu.control.clearLog();
    const results = await Promise.all(Array.from({ length: 5 }, () => client.orgs.get("demo-org")));
    await client.close();
    expect(results.map((o) => o.id)).toEqual(Array(5).fill("demo-org"));
    expect(emu.control.log()).toHaveLength(5);
  });
});
