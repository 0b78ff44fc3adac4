/** Export writes a site's redirects with their destinations turned back into the file's keys; the file validates and tree lists them. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../client";
import { Started } from "../../test/support/emulator";
import { exportOrganization } from "../export/export";
import { renderStackFile } from "../export/render";
import { parseStack } from "../stack/load";
import { siteRedirectsKind, siteRedirectsProvider } from "../resources/siteRedirects";
import { destinationInput } from "./forms";

const ORG = "demo-org";
const started = new Started("dpt_REDIRECTS_EXPORT_41c7");
let client: ApiClient;

beforeAll(async () => {
  client = await started.clientOfNewEmulator();
});
afterAll(() => started.close());

describe("export of redirects", () => {
  it("writes every redirect of a site with keys for sections and site spaces, a path for a URL on the site", async () => {
    const site = await client.sites.create(ORG, { title: "Redirected handbook", spaces: [] });
    const section = await client.sections.create(ORG, site.id, { spaceId: "space-guides", title: "Guides" });
    const api = await client.sections.create(ORG, site.id, { spaceId: "space-api", title: "API" });
    const [guidesSpace] = await client.siteSpaces.list(ORG, site.id);
    const published = (await client.sites.get(ORG, site.id)).urls?.published;
    if (!published) throw new Error("the new site has no published URL");
    await client.redirects.bulk(ORG, site.id, [
      { source: "/old/*", captureWildcard: true, permanent: true, destination: { kind: "site-section", siteSectionId: api.id } },
      { source: "/home", destination: { kind: "site-space", siteSpaceId: guidesSpace!.id } },
      { source: "/faq-old", destination: { kind: "path", spaceId: "space-guides", path: "faq" } },
      { source: "/inside", destination: { kind: "external", url: `${published}/api/overview` } },
      { source: "/blog", intent: "draft", destination: { kind: "external", url: "https://blog.example.com" } },
    ]);
    void section;
    const result = await exportOrganization(client, { organizationId: ORG });
    const exported = result.stack.sites!.find((s) => s.title === "Redirected handbook")!;
    const keyOf = (title: string) => exported.sections!.find((s) => s.title === title)!.key;
    expect(exported.redirects).toEqual([
      { source: "/faq-old", destination: { siteSpace: keyOf("Guides"), pageId: expect.any(String) } },
      { source: "/home", destination: { siteSpace: keyOf("Guides") } },
      { source: "/inside", destination: { path: "/api/overview" } },
      { source: "/old/*", destination: { section: keyOf("API") }, permanent: true, captureWildcard: true },
      { source: "/blog", destination: { url: "https://blog.example.com" }, draft: true },
    ]);
    // The written file loads back as it was exported, one redirect a line.
    const text = renderStackFile(result.stack, { organizationTitle: "Demo Org", date: new Date(0), command: "docsplatform export --org demo-org", schemaPath: "stack.schema.json", notes: result.notes, supply: [], emails: result.emails });
    expect(text).toContain("      - {source: /old/*, destination: {section: api}, permanent: true, captureWildcard: true}");
    const loaded = parseStack(text, "exported.yaml");
    expect(loaded.ok ? loaded.stack.sites!.find((s) => s.key === exported.key)!.redirects : loaded.problems).toEqual(exported.redirects);

    // Adopting the exported set writes nothing: each destination, declared as the file has it, is the live one.
    const ids = { sectionId: api.id, siteSpaceId: guidesSpace!.id, spaceId: "space-guides", siteUrl: published };
    const declared = exported.redirects!.map((r) => ({ ...r, destination: destinationInput(r.destination, ids) }));
    const inputs = { organizationId: ORG, siteId: site.id, redirects: declared };
    const adopted = await siteRedirectsKind.adopt({ client }, inputs);
    expect((await siteRedirectsProvider.diff(site.id, adopted!.outs, inputs)).changes).toBe(false);
  });
});
