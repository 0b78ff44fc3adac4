/**
 * What an earlier, killed run made under an existing site is taken over even when this process has
 * already configured that site (its look): a kind that configures an object answers with that object's
 * ID, and the site is not one this process created, so its sections and site spaces are still looked for.
 * (The crash tests' killed runs met this by timing: a site's customization created a moment before its
 * sections made the next `up` skip the lookup and create a second section or site space.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { closeSharedClients } from "../client";
import { siteCustomizationProvider } from "./siteCustomization";
import { siteSectionProvider } from "./siteSection";
import { siteSpaceProvider } from "./siteSpace";
import { apiOf, type Api } from "../../test/support/api";
import { configureAgainst } from "../../test/support/emulator";

const org = "demo-org";
const sitesPath = `/v1/orgs/${org}/sites`;
let emulator: RunningEmulator;
let api: Api;

const itemsOf = async <T>(path: string) => (await api<{ items: T[] }>("GET", path)).items;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  api = apiOf(emulator);
  await configureAgainst(siteSectionProvider, emulator);
});
afterAll(async () => {
  await closeSharedClients();
  await emulator?.close();
});

describe("an earlier run's objects under a site this process configured", () => {
  /** A site made elsewhere, whose look this process then configures (the look's ID is the site's). */
  async function configuredSite(title: string): Promise<string> {
    const site = await api<{ id: string }>("POST", sitesPath, { title });
    const look = await siteCustomizationProvider.create({ organizationId: org, siteId: site.id });
    expect(look.id).toBe(site.id);
    return site.id;
  }

  it("a section as its POST left it is taken over and finished, not made twice", async () => {
    const siteId = await configuredSite("Configured, with a section");
    // What the killed run left: the section's POST (its path derived from the title), never the PATCH.
    const earlier = await api<{ id: string }>("POST", `${sitesPath}/${siteId}/sections`, { spaceId: "space-guides", title: "Guides" });
    const created = await siteSectionProvider.create({ organizationId: org, siteId, spaceId: "space-guides", title: "Guides", description: "Step-by-step guides" });
    expect(created.id).toBe(earlier.id);
    const sections = await itemsOf<{ id: string; description?: string }>(`${sitesPath}/${siteId}/sections`);
    expect(sections.map((s) => [s.id, s.description])).toEqual([[earlier.id, "Step-by-step guides"]]);
  });

  it("a root site space as its POST left it is taken over and given its path, not made twice", async () => {
    const siteId = await configuredSite("Configured, with a site space");
    const earlier = await api<{ id: string }>("POST", `${sitesPath}/${siteId}/site-spaces`, { spaceId: "space-changelog" });
    const created = await siteSpaceProvider.create({ organizationId: org, siteId, spaceId: "space-changelog", path: "releases" });
    expect(created.id).toBe(earlier.id);
    const siteSpaces = await itemsOf<{ id: string; path: string }>(`${sitesPath}/${siteId}/site-spaces`);
    expect(siteSpaces.map((ss) => [ss.id, ss.path])).toEqual([[earlier.id, "releases"]]);
  });
});
