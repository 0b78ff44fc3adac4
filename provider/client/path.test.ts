/**
 * Every value the client puts in a request path is one segment: encoded, and refused before any request
 * when it would address another route. Regression: a space ID `..` was sent as `GET /v1/spaces/..`,
 * which the server resolves to `GET /v1/`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index";
import { Started } from "../../test/support/emulator";
import { closeSharedClients, type ApiClient } from "./index";
import { path, route, routeProblem, segment } from "./path";

const started = new Started("dpt_PATH_5e1c7a90b2d4");
let emu: RunningEmulator;
let api: ApiClient;

beforeAll(async () => {
  emu = await started.emulator();
  api = started.client(emu.url);
  started.onClose(closeSharedClients);
});
afterAll(() => started.close());

/** The call's outcome as a promise (a path is built, and may be refused, before the call returns one). */
const attempt = <T>(call: () => Promise<T>): Promise<T> => Promise.resolve().then(call);

describe("IDs in request paths", () => {
  it("a space ID of '..' or '.' or '' is refused before any request", async () => {
    emu.control.clearLog();
    for (const id of ["..", ".", ""]) {
      await expect(attempt(() => api.spaces.get(id))).rejects.toThrow(/path parameter/);
      await expect(attempt(() => api.spaces.delete(id))).rejects.toThrow(/path parameter/);
    }
    await expect(attempt(() => api.permissions.space("space-guides").removeTeam(".."))).rejects.toThrow(/team ID is "\.\."/);
    // An owned list's row builds its paths the same way.
    await expect(attempt(() => api.mcpServers.get("demo-org", "..", "x"))).rejects.toThrow('path parameter 2 of /v1/orgs/{}/sites/{}/mcp-servers/{} is "..", which would address another route');
    await expect(attempt(() => api.shareLinks.delete("demo-org", "site", "."))).rejects.toThrow(/path parameter 3/);
    expect(emu.control.log()).toEqual([]);
  });

  it("a path built without the template is held to the same rule by the core", async () => {
    emu.control.clearLog();
    await expect(api.request("GET", "/v1/spaces/../orgs")).rejects.toThrow(/not sent: the path has a "\.\." segment/);
    await expect(api.request("GET", "/v1/spaces/%2E%2e")).rejects.toThrow(/not sent/);
    await expect(api.request("DELETE", "/v1//orgs")).rejects.toThrow(/empty segment/);
    expect(emu.control.log()).toEqual([]);
  });

  it("any other value is one encoded segment, so it cannot reach another route", async () => {
    emu.control.clearLog();
    const err = await api.spaces.get("../orgs").catch((e: unknown) => e as { status: number; path: string });
    expect(err).toMatchObject({ status: 404, path: "/v1/spaces/..%2Forgs" });
    expect(emu.control.log().map((e) => e.path)).toEqual(["/v1/spaces/..%2Forgs"]);
  });

  it("segment, path and routeProblem", () => {
    expect(segment("a b/c?d#e%")).toBe("a%20b%2Fc%3Fd%23e%25");
    expect(path`/v1/spaces/${"..."}`).toBe("/v1/spaces/...");
    expect(() => path`/v1/spaces/${".."}`).toThrow('path parameter 1 of /v1/spaces/{} is "..", which would address another route');
    expect(route("/v1/orgs/{}/saml/{}", "o", "a b")).toBe("/v1/orgs/o/saml/a%20b");
    expect(() => route("/v1/orgs/{}/saml/{}", "o")).toThrow("/v1/orgs/{}/saml/{} takes 2 path parameters, not 1");
    expect(routeProblem("/v1/orgs/demo-org/sites")).toBeUndefined();
    expect(routeProblem("/v1/orgs/./sites")).toMatch(/"\." segment/);
    expect(routeProblem("/v1/orgs/.%2E/sites")).toMatch(/segment/);
  });
});
