import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { PROVIDER_KEY, pluginAgainst, type PluginDriver, type PluginError, type PreparedProgram, type PropertyMap } from "../../test/harness";
import { apiOf, type Api } from "../../test/support/api";
import { prepareProviderProgram, serializeProviders } from "./testdata/helpers";

// Regression (#37): a 400 that repeated the request body showed an installation's secret configuration
// value in the error, although the token was redacted. The kinds' secret values are now known to the
// client and redacted from every error the user sees, wherever its text came from.

let program: PreparedProgram;
let emulator: RunningEmulator;
let plugin: PluginDriver;
let texts: Record<string, string>;
let api: Api;
const ORG = "demo-org";
const SECRET = "sek-echo-7f3a9c51";
// A value with a quote and a backslash comes back JSON-escaped in an echo.
const QUOTED = 'pa"ss\\word-2b8e';

beforeAll(async () => {
  [program, emulator] = await Promise.all([prepareProviderProgram(), startEmulator({ port: 0 })]);
  texts = await serializeProviders(program.dir);
  plugin = await pluginAgainst(program.dir, emulator);
  api = apiOf(emulator);
  // An integration is installed once per organisation: one per test.
  for (const name of ["echo-tool", "echo-tool-2"]) await api("POST", `/v1/integrations/${name}`, { title: "Echo tool", description: "d", script: "export default {}", organization: ORG });
});

afterAll(async () => {
  emulator?.control.setFaults(null);
  await plugin?.close();
  await emulator?.close();
  program?.cleanup();
});

const urn = (name: string) => `urn:pulumi:dev::secrets::pulumi-nodejs:dynamic/docsplatform:IntegrationInstallation::${name}`;
const installation = (secretConfiguration: Record<string, string>, integration = "echo-tool"): PropertyMap => ({
  organizationId: ORG,
  integration,
  configuration: { region: "eu" },
  secretConfiguration,
  [PROVIDER_KEY]: texts["IntegrationInstallation"]!,
});

describe("a server error that echoes the request body", () => {
  it("shows no secret configuration value on create (the configuration's PATCH after the install)", async () => {
    emulator.control.setFaults({ echoBodyRate: 1, methods: ["PATCH"], routes: "/installations/" });
    const err = await plugin.create(urn("create"), installation({ apiKey: SECRET, password: QUOTED })).catch((e: unknown) => e);
    emulator.control.setFaults(null);
    // The installation exists: a partial create, its reasons shown by the engine beside the message.
    const shown = [String((err as PluginError).message), ...((err as PluginError).initFailure?.reasons ?? [])].join("\n");
    expect(shown).toMatch(/PATCH \/v1\/integrations\/echo-tool\/installations\/[^:]+: 400 Bad Request: invalid request: .*"region":"eu"/);
    expect(shown).toContain("[redacted]");
    expect(shown).not.toContain(SECRET);
    expect(shown).not.toContain("2b8e");
  });

  it("shows no secret configuration value on update", async () => {
    const created = await plugin.create(urn("update"), installation({ apiKey: "sek-first-0c1d2e" }, "echo-tool-2"));
    emulator.control.setFaults({ echoBodyRate: 1, methods: ["PATCH"], routes: "/installations/" });
    const err = await plugin
      .update(urn("update"), created.id, { ...created.outputs, [PROVIDER_KEY]: texts["IntegrationInstallation"]! }, installation({ apiKey: SECRET }, "echo-tool-2"))
      .catch((e: unknown) => e);
    emulator.control.setFaults(null);
    const shown = String((err as Error).message);
    expect(shown).toMatch(/PATCH .*: 400 Bad Request: invalid request:/);
    expect(shown).toContain("[redacted]");
    expect(shown).not.toContain(SECRET);
  });
});
