/** The client's extensions §12, §13 and §15 methods, against the emulator over HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isNotFound, type ApiClient } from "./index";
import { Started } from "../../test/support/emulator";

const ORG = "demo-org";
const started = new Started("dev-token");
let api: ApiClient;

beforeAll(async () => {
  api = await started.clientOfNewEmulator();
});

afterAll(async () => {
  await started.close();
});

describe("OpenAPI text specs", () => {
  it("create from text, read the raw content back, set the visibility", async () => {
    const text = "openapi: 3.1.0\ninfo: {title: Text, version: '1'}\n";
    const spec = await api.openapi.create(ORG, { slug: "client-text", source: { text } });
    expect(spec.visibility).toBe("private");
    expect(await api.openapi.rawContent(ORG, "client-text")).toEqual({ text, format: "yaml" });
    expect((await api.openapi.setVisibility(ORG, "client-text", { visibility: "public" })).visibility).toBe("public");
    await api.openapi.create(ORG, { slug: "client-url", source: { url: "https://example.com/a.yaml" } });
    await expect(api.openapi.rawContent(ORG, "client-url")).rejects.toSatisfy(isNotFound);
  });
});

describe("hidden site spaces, style guides, site defaultLevel, agent instructions", () => {
  it("hide a site space, make and attach a guide, set a default level", async () => {
    const site = await api.sites.create(ORG, { title: "Client guides", spaces: ["space-guides"] });
    const [ss] = await api.siteSpaces.list(ORG, site.id);
    expect((await api.siteSpaces.update(ORG, site.id, ss!.id, { hidden: true })).hidden).toBe(true);
    const templates = await api.styleGuides.templates(ORG);
    const guide = await api.styleGuides.ensure(ORG, site.id, { template: templates[0]!.id });
    expect(guide.type).toBe("styleguide");
    expect((await api.styleGuides.ensure(ORG, site.id)).id).toBe(guide.id);
    const attached = await api.sites.update(ORG, site.id, { styleguide: guide.id, defaultLevel: "read" });
    expect(attached).toMatchObject({ styleguide: { kind: "space", space: guide.id }, defaultLevel: "read" });
    expect((await api.styleGuides.list(ORG)).find((g) => g.space.id === guide.id)!.sites.map((s) => s.id)).toEqual([site.id]);
    const { run, changeRequests } = await api.styleGuides.run(ORG, site.id, ["space-api"]);
    expect(changeRequests).toHaveLength(1);
    expect((await api.styleGuides.runs(ORG, site.id)).map((r) => r.id)).toEqual([run.id]);
  });

  it("replace the organisation's agent instructions", async () => {
    expect((await api.styleGuides.agentInstructions(ORG)).instructions.nodes).toEqual([]);
    const instructions = { object: "document" as const, data: {}, nodes: [{ object: "block", type: "paragraph", nodes: [] }] };
    expect((await api.styleGuides.setAgentInstructions(ORG, instructions)).instructions).toEqual(instructions);
  });
});
