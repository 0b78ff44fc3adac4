import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isNotFound, linksOf, type ApiClient, type SiteCustomizationSettings, type SiteSectionGroup } from "./index";
import { Started } from "../../test/support/emulator";

// Customization, the navigation tree (structure, sort, external links), drafts, publish and space creation, typed, against the emulator over HTTP.
const ORG = "demo-org";
const started = new Started("dpt_LOOK_7a2c91e4");
let api: ApiClient;

beforeAll(async () => {
  api = await started.clientOfNewEmulator();
});
afterAll(async () => {
  await started.close();
});

describe("customization", () => {
  it("reads a new site's defaults, puts the whole object, overrides one site space and clears it", async () => {
    const site = await api.sites.create(ORG, { title: "Branded", spaces: ["space-guides"] });
    const [ss] = await api.siteSpaces.list(ORG, site.id);
    const settings: SiteCustomizationSettings = await api.customization.get(ORG, site.id);
    expect(settings.updatedAt).toBeUndefined();
    settings.styling.primaryColor = { light: "#112233", dark: "#445566" };
    settings.header.links.push({ title: "Status", to: { kind: "url", url: "https://status.example.com" }, links: [] });
    const put = await api.customization.put(ORG, site.id, settings);
    expect(put.styling.primaryColor).toEqual({ light: "#112233", dark: "#445566" });
    expect(put.updatedAt).toEqual(expect.any(String));
    const eff = await api.customization.override(ORG, site.id, ss!.id, { styling: { theme: "bold" }, title: "V2" });
    expect(eff).toMatchObject({ hasOverrides: true, title: "V2", styling: { theme: "bold", primaryColor: { light: "#112233" } } });
    expect((await api.customization.override(ORG, site.id, ss!.id, { title: null })).title).toBeUndefined();
    await api.customization.clearOverrides(ORG, site.id, ss!.id);
    await api.customization.clearOverrides(ORG, site.id, ss!.id);
    expect((await api.customization.getSiteSpace(ORG, site.id, ss!.id)).hasOverrides).toBe(false);
  });
});

describe("navigation", () => {
  it("creates links at the root and in a group, sorts them, reads the structure, updates, deletes", async () => {
    const site = await api.sites.create(ORG, { title: "Navigated" });
    const guides = await api.sections.create(ORG, site.id, { spaceId: "space-guides", title: "Guides" });
    const group = await api.sectionGroups.create(ORG, site.id, { title: "More", draft: true });
    const next = await api.sections.create(ORG, site.id, { spaceId: "space-api", title: "Next", siteSectionGroupId: group.id, draft: true });
    expect(next).toMatchObject({ draft: true, sectionGroup: group.id });
    const status = await api.navigation.createLink(ORG, site.id, { title: "Status", url: "https://status.example.com", icon: "signal" });
    const forum = await api.navigation.createLink(ORG, site.id, { title: "Forum", url: "https://forum.example.com", parent: group.id, draft: true });
    expect(forum).toMatchObject({ object: "site-external-link", sectionGroup: group.id, draft: true });
    await api.navigation.sort(ORG, site.id, { type: "site-external-link", id: status.id }, { before: { type: "site-section", id: guides.id } });
    const structure = await api.navigation.structure(ORG, site.id);
    expect(structure.type).toBe("sections");
    expect(structure.structure.map((i) => i.id)).toEqual([status.id, guides.id, group.id]);
    const g = structure.structure[2] as SiteSectionGroup;
    expect(g.draft).toBe(true);
    expect(g.children!.map((c) => c.id)).toEqual([next.id, forum.id]);
    expect(linksOf(structure).map((l) => l.title)).toEqual(["Status", "Forum"]);
    expect(await api.navigation.updateLink(ORG, site.id, forum.id, { parent: null, draft: false, icon: null })).toMatchObject({ draft: false });
    expect((await api.navigation.links(ORG, site.id)).map((l) => [l.title, l.sectionGroup])).toEqual([["Status", undefined], ["Forum", undefined]]);
    await api.navigation.deleteLink(ORG, site.id, forum.id);
    await expect(api.navigation.deleteLink(ORG, site.id, forum.id)).rejects.toSatisfy(isNotFound);
    expect(await api.sectionGroups.update(ORG, site.id, group.id, { draft: false })).toMatchObject({ draft: false });
    expect(await api.sections.update(ORG, site.id, next.id, { draft: false, siteSectionGroupId: null })).toMatchObject({ draft: false });
  });

  it("publishes and unpublishes; duplicates a site space as a draft; creates and lists spaces", async () => {
    const site = await api.sites.create(ORG, { title: "Published", spaces: ["space-guides"] });
    expect((await api.sites.publish(ORG, site.id)).published).toBe(true);
    expect((await api.sites.unpublish(ORG, site.id)).published).toBe(false);
    const [ss] = await api.siteSpaces.list(ORG, site.id);
    const copy = await api.siteSpaces.duplicate(ORG, site.id, ss!.id, { draft: true });
    expect(copy).toMatchObject({ object: "site-space", draft: true });
    expect(await api.siteSpaces.update(ORG, site.id, copy.id, { draft: false })).toMatchObject({ draft: false });
    const space = await api.spaces.create(ORG, { title: "New guide", emoji: "📘", language: "de", editMode: "live" });
    expect(space).toMatchObject({ object: "space", title: "New guide", language: "de" });
    expect((await api.spaces.list(ORG)).map((s) => s.id)).toContain(space.id);
  });
});
