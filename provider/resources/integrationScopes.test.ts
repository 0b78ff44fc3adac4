/**
 * An integration's publish always carries `scopes` (the platform's description requires it): `[]` when
 * the declaration has none, the declared list otherwise, on create and on every update. Checked on the
 * request body the emulator recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { closeSharedClients } from "../client";
import { integrationProvider } from "./integration";
import { configureAgainst } from "../../test/support/emulator";
import { withOuts } from "../../test/support/providerResults";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  await configureAgainst(integrationProvider, emulator);
});
afterAll(async () => {
  await closeSharedClients();
  await emulator?.close();
});

/** The bodies of the publishes the emulator recorded since the log was last cleared. */
function publishBodies(): Record<string, unknown>[] {
  return emulator.control
    .log()
    .filter((e) => e.method === "POST" && e.route === "/v1/integrations/:integrationName")
    .map((e) => e.body as Record<string, unknown>);
}

describe("Integration publish", () => {
  it("sends scopes: [] when none is declared, and the declared scopes otherwise", async () => {
    const inputs = { organizationId: "demo-org", name: "scopes-check", title: "Scopes", description: "Checks scopes", script: "export default {}" };
    emulator.control.clearLog();
    const created = await withOuts(integrationProvider.create(inputs as never));
    const [first] = publishBodies();
    expect(first).toHaveProperty("scopes", []);
    emulator.control.clearLog();
    await integrationProvider.update!(created.id, created.outs, { ...inputs, title: "Scopes two" } as never);
    expect(publishBodies().map((b) => b.scopes)).toEqual([[]]);
    emulator.control.clearLog();
    await integrationProvider.update!(created.id, created.outs, { ...inputs, scopes: ["space:content:read"] } as never);
    expect(publishBodies().map((b) => b.scopes)).toEqual([["space:content:read"]]);
  });
});
