import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../client";
import { Started } from "../../test/support/emulator";
import { SecretRecorder } from "../../test/support/secrets";
import { configurationVariable, readAccess } from "./export";

const ORG = "demo-org";
const rec = new SecretRecorder();
const started = new Started("dpt_SCAN_export_access_31f0", { logger: rec.logger });
let api: ApiClient;

beforeAll(async () => {
  api = await started.clientOfNewEmulator();
});
afterAll(() => started.close());

describe("export of access", () => {
  it("writes every grant, visitor-auth settings without the key, and installations with configuration as sources to fill in", async () => {
    const team = await api.teams.create(ORG, { title: "Exported team" });
    const site = await api.sites.create(ORG, { title: "Partner portal", visibility: "visitor-auth" });
    await api.permissions.site(ORG, site.id).invite({ role: "read", users: ["reader-1"] });
    await api.permissions.space("space-api").invite({ role: "edit", teams: [team.id] });
    await api.permissions.space("space-api").invite({ role: null, users: ["writer-1"] });
    const auth = await api.publishingAuth.update(ORG, site.id, { backend: "custom", fallbackURL: "https://p.example.com/login" });
    await api.integrations.publish("exported-tool", { title: "Exported tool", description: "d", script: "export default {}", organization: ORG });
    const inst = await api.installations.install("exported-tool", ORG);
    await api.installations.update("exported-tool", inst.id, { configuration: { apiKey: "cfg-value-9e1b77" } });
    await api.installations.enableOnSite("exported-tool", inst.id, site.id);

    let objects = 0;
    const out = await readAccess(
      api,
      ORG,
      { sites: [{ id: site.id, visibility: "visitor-auth" }], spaces: ["space-api"], collections: [] },
      { team: (id) => (id === team.id ? "exported-team" : undefined), site: (id) => (id === site.id ? "partners" : undefined), space: () => undefined },
      (n) => (objects += n),
    );
    expect(out.permissions.get(`site:${site.id}`)).toEqual([{ user: "reader@demo.test", role: "read" }]);
    expect(out.permissions.get("space:space-api")).toEqual([{ team: "exported-team", role: "edit" }, { user: "writer@demo.test", role: null }]);
    expect(out.visitorAuth.get(site.id)).toEqual({ fallbackURL: "https://p.example.com/login" });
    expect(out.installations).toEqual([
      { key: "exported-tool", adopt: true, integration: "exported-tool", secretConfiguration: { apiKey: { env: configurationVariable("exported-tool", "apiKey") } }, sites: ["partners"] },
    ]);
    expect(out.supply).toEqual(["INSTALLATION_EXPORTED_TOOL_APIKEY (configuration value \"apiKey\" of installation exported-tool)"]);
    expect(objects).toBeGreaterThan(4);
    const text = JSON.stringify({ ...out, permissions: [...out.permissions], visitorAuth: [...out.visitorAuth] });
    expect(text).not.toContain(auth.privateKey);
    expect(text).not.toContain("cfg-value-9e1b77");
  });

  // Regression (#33): every configuration value was exported as a secret source, a theme name as much as an API key.
  it("writes a configuration value as it is only where the integration's schema publishes it; anything that may be a credential stays a source", async () => {
    await api.integrations.publish("configured-tool", {
      title: "Configured tool",
      description: "d",
      script: "export default {}",
      organization: ORG,
      configurations: {
        account: {
          properties: {
            theme: { type: "string", enum: ["light", "dark"] },
            compact: { type: "boolean" },
            retries: { type: "number" },
            region: { type: "string", default: "eu" },
            apiKey: { type: "string", title: "API key" },
            password: { type: "string", format: "password", enum: ["hunter2"] } as never,
          },
        },
      },
    });
    const inst = await api.installations.install("configured-tool", ORG);
    const values = { theme: "dark", compact: true, retries: 3, region: "eu", apiKey: "cfg-key-71a0", password: "hunter2", undeclared: "cfg-undeclared-5c" };
    await api.installations.update("configured-tool", inst.id, { configuration: values });
    const out = await readAccess(api, ORG, { sites: [], spaces: [], collections: [] }, { team: () => undefined, site: () => undefined, space: () => undefined });
    const installation = out.installations.find((i) => i.integration === "configured-tool");
    expect(installation?.configuration).toEqual({ compact: true, region: "eu", retries: 3, theme: "dark" });
    expect(Object.keys(installation?.secretConfiguration ?? {})).toEqual(["apiKey", "password", "undeclared"]);
    const text = JSON.stringify(out);
    for (const secret of ["cfg-key-71a0", "hunter2", "cfg-undeclared-5c"]) expect(text).not.toContain(secret);
  });
});
