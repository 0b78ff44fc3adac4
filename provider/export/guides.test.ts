/**
 * Export writes back what extensions §12, §13 and §15 add: a hidden site space, a spec's visibility (and a
 * placeholder file for a spec sent as text, whose file cannot be named), the organisation's style guides
 * with the sites they are attached to, the agent instructions and a site's default level. The file loads.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ApiClient } from "../client";
import { parseStack, formatProblem } from "../stack/load";
import { renderStackFile } from "./render";
import { exportOrganization } from "./export";

const ORG = "demo-org";

describe("export of hidden site spaces, spec files, style guides and agent instructions", () => {
  let emu: RunningEmulator;
  let api: ApiClient;
  let guideId: string;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    api = new ApiClient({ baseUrl: emu.url, token: emu.token });
    const site = await api.sites.create(ORG, { title: "Guided", spaces: ["space-guides", "space-api"] });
    const [, second] = await api.siteSpaces.list(ORG, site.id);
    await api.siteSpaces.update(ORG, site.id, second!.id, { hidden: true });
    guideId = (await api.styleGuides.ensure(ORG, site.id, { template: "technical-writing" })).id;
    await api.sites.update(ORG, site.id, { styleguide: guideId, defaultLevel: "comment" });
    await api.openapi.create(ORG, { slug: "from-text", source: { text: "openapi: 3.1.0\n" } });
    await api.openapi.setVisibility(ORG, "from-text", { visibility: "public" });
    await api.openapi.create(ORG, { slug: "from-url", source: { url: "https://api.demo.test/openapi.json" } });
    await api.styleGuides.setAgentInstructions(ORG, { object: "document", data: {}, nodes: [{ object: "block", type: "heading-1", nodes: [{ object: "text", leaves: [{ text: "Tone" }] }] }, { object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ text: "Be brief." }] }] }] });
  });
  afterAll(async () => {
    await api?.close();
    await emu?.close();
  });

  it("writes each back, and the file loads", async () => {
    const result = await exportOrganization(api, { organizationId: ORG });
    const { stack } = result;
    const site = stack.sites!.find((s) => s.title === "Guided")!;
    expect(site.siteSpaces!.map((ss) => ss.hidden ?? false)).toEqual([false, true]);
    expect(site.defaultLevel).toBe("comment");
    const guides = (stack as unknown as { styleGuides: { key: string; id: string; adopt: boolean }[] }).styleGuides;
    // Keyed by the guide space's title, not its ID.
    expect(guides).toEqual([{ key: "guided-style-guide", id: guideId, adopt: true }]);
    expect(site.styleGuide).toBe(guides[0]!.key);
    expect(stack.agentInstructions).toEqual({ markdown: "# Tone\n\nBe brief." });
    const specs = Object.fromEntries((stack.openapi ?? []).map((s) => [s.slug, s]));
    expect(specs["from-url"]).toMatchObject({ sourceURL: "https://api.demo.test/openapi.json" });
    expect(specs["from-url"]).not.toHaveProperty("visibility");
    expect(specs["from-text"]).toMatchObject({ visibility: "public", file: expect.stringMatching(/^supply\//) });
    expect(specs["from-text"]).not.toHaveProperty("sourceURL");
    expect(result.placeholders).toContain(specs["from-text"]!.file);
    const text = renderStackFile(stack, { organizationTitle: "Demo Org", date: new Date(0), command: "docsplatform export", schemaPath: "stack.schema.json", notes: result.notes, emails: result.emails, placeholders: result.placeholders, supply: result.supply });
    const loaded = parseStack(text, "exported.yaml");
    expect(loaded.ok ? [] : loaded.problems.map(formatProblem)).toEqual([]);
  });
});
