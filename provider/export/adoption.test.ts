/**
 * Taking over what an export declares writes nothing when it already matches. Regressions found by the
 * export round trip: OrganizationSettings patched `defaultContent` because the engine delivers objects
 * with sorted keys (`{site, type}`) and the comparison was order-sensitive; SiteAdaptiveSchema put the
 * schema on create even when the site already had exactly that schema.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ApiClient, type AdaptiveJsonSchema } from "../client";
import { organizationSettingsKind } from "../resources/organizationSettings";
import { siteAdaptiveSchemaKind } from "../resources/siteAdaptiveSchema";

const ORG = "demo-org";

describe("adopting matching objects writes nothing", () => {
  let emu: RunningEmulator;
  let api: ApiClient;
  let siteId: string;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    api = new ApiClient({ baseUrl: emu.url, token: emu.token });
    siteId = (await api.sites.create(ORG, { title: "Handbook" })).id;
    await api.orgs.update(ORG, { defaultContent: { type: "site", site: siteId } });
  });
  afterAll(async () => {
    await api?.close();
    await emu?.close();
  });

  const writes = (): string[] => emu.control.log().filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.route}`);

  it("OrganizationSettings: defaultContent with its keys in the engine's order is the same setting", async () => {
    emu.control.clearLog();
    // Keys in the order the plugin receives them: sorted.
    const defaultContent = JSON.parse(`{"site":${JSON.stringify(siteId)},"type":"site"}`) as { type: "site"; site: string };
    const { outs } = await organizationSettingsKind.create({ client: api }, { organizationId: ORG, defaultContent, title: "Demo Org" });
    expect(writes()).toEqual([]);
    expect(outs.defaultContent).toEqual({ type: "site", site: siteId });
  });

  it("SiteAdaptiveSchema: create with the live schema (any key order) makes no PUT; a different one makes one", async () => {
    const schema: AdaptiveJsonSchema = {
      type: "object",
      properties: { beta: { type: "boolean", description: "Beta programme" } },
      additionalProperties: false,
    };
    await api.sites.putAdaptiveSchema(ORG, siteId, { jsonSchema: schema });
    emu.control.clearLog();
    const reordered = JSON.parse(JSON.stringify({ additionalProperties: false, properties: schema.properties, type: "object" })) as AdaptiveJsonSchema;
    const same = await siteAdaptiveSchemaKind.create({ client: api }, { organizationId: ORG, siteId, jsonSchema: reordered });
    expect(writes()).toEqual([]);
    expect(same.outs.jsonSchema).toEqual(schema);

    const other: AdaptiveJsonSchema = { ...schema, properties: { staff: { type: "boolean" } } };
    const changed = await siteAdaptiveSchemaKind.create({ client: api }, { organizationId: ORG, siteId, jsonSchema: other });
    expect(writes()).toEqual(["PUT /v1/orgs/:organizationId/sites/:siteId/adaptive-schema"]);
    expect(changed.outs.jsonSchema).toEqual(other);
  });
});
