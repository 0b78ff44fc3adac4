import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { closeSharedClients } from "../client";
import { shareLinkProvider } from "./shareLink";
import { siteSectionProvider } from "./siteSection";
import { siteSpaceProvider } from "./siteSpace";
import { siteContextConnectionProvider } from "./siteContextConnection";
import { apiOf, type Api } from "../../test/support/api";
import { configureAgainst } from "../../test/support/emulator";
import { withOuts } from "../../test/support/providerResults";

// Creates whose outcome is unknown (the POST committed, its answer was lost or was a 5xx) for kinds whose
// natural key is only set by the request after the POST: the object the POST made must be found by what
// the POST itself set, never left behind while a second one is created.

const org = "demo-org";
const sitesPath = `/v1/orgs/${org}/sites`;
let emulator: RunningEmulator;
let api: Api;

interface Listed {
  id: string;
  title: string;
  path: string;
  siteSpaces?: { id: string; path: string; space?: { id: string } }[];
}

const newSite = (title: string) => api<{ id: string }>("POST", sitesPath, { title });
const sectionsOf = async (siteId: string) => (await api<{ items: Listed[] }>("GET", `${sitesPath}/${siteId}/sections`)).items;
const rootSiteSpacesOf = async (siteId: string) =>
  (await api<{ items: (Listed & { section?: string | null })[] }>("GET", `${sitesPath}/${siteId}/site-spaces`)).items.filter((ss) => !ss.section);

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  api = apiOf(emulator);
  await configureAgainst(siteSectionProvider, emulator);
});
afterEach(() => emulator.control.setFaults(null));
afterAll(async () => {
  await closeSharedClients();
  await emulator?.close();
});

describe("SiteSection: a create whose outcome is unknown", () => {
  const faults = {
    "5xx after commit": { error5xxAfterCommitRate: 1 },
    "response dropped after commit": { dropAfterCommitRate: 1 },
    // Regression (#37): an empty 200 surfaced as a TypeError and left the section live and unmanaged;
    // every later `up` then failed with 409 path already used.
    "empty 200 after commit": { emptyAfterCommitRate: 1 },
  } as const;
  for (const [name, fault] of Object.entries(faults)) {
    it(`(${name}) takes over the section its POST made, at a path derived from its title, and sets the declared path`, async () => {
      const site = await newSite(`Uncertain section, ${name}`);
      emulator.control.setFaults({ ...fault, methods: ["POST"], routes: "/sections$" });
      const created = await withOuts(
        siteSectionProvider.create({
          organizationId: org,
          siteId: site.id,
          spaceId: "space-api",
          title: "API Reference",
          icon: "code",
          path: "api",
          description: "Every endpoint",
        }),
      );
      emulator.control.setFaults(null);
      const sections = await sectionsOf(site.id);
      expect(sections.map((s) => ({ id: s.id, path: s.path, title: s.title }))).toEqual([{ id: created.id, path: "api", title: "API Reference" }]);
      expect(created.outs).toMatchObject({ path: "api", description: "Every endpoint" });
      expect(created.outs).not.toHaveProperty("siteSpaceCount");
      expect(created.outs.siteSpaceId).toBe(sections[0]!.siteSpaces![0]!.id);
    });
  }

  it("takes over the one section as its POST left it, not one a declaration already set up", async () => {
    const site = await newSite("Uncertain section beside others");
    // Same title and space, but its path, description and second site space came after its POST.
    const other = await api<{ id: string }>("POST", `${sitesPath}/${site.id}/sections`, { spaceId: "space-guides", title: "Guides" });
    await api("PATCH", `${sitesPath}/${site.id}/sections/${other.id}`, { path: "handbook", description: "Held elsewhere" });
    emulator.control.setFaults({ dropAfterCommitRate: 1, methods: ["POST"], routes: "/sections$" });
    const created = await siteSectionProvider.create({ organizationId: org, siteId: site.id, spaceId: "space-guides", title: "Guides", path: "tutorials" });
    emulator.control.setFaults(null);
    const sections = await sectionsOf(site.id);
    expect(sections.map((s) => s.id).sort()).toEqual([other.id, created.id].sort());
    expect(sections.find((s) => s.id === created.id)?.path).toBe("tutorials");
    expect(sections.find((s) => s.id === other.id)?.path).toBe("handbook");
  });

  it("is an error naming both when two sections match what its POST set", async () => {
    const site = await newSite("Uncertain section, ambiguous");
    const first = await api<{ id: string }>("POST", `${sitesPath}/${site.id}/sections`, { spaceId: "space-guides", title: "Guides" });
    // Its path no longer the derived one: not what an interrupted create leaves, so not taken over before the POST.
    await api("PATCH", `${sitesPath}/${site.id}/sections/${first.id}`, { path: "by-hand" });
    emulator.control.setFaults({ error5xxAfterCommitRate: 1, methods: ["POST"], routes: "/sections$" });
    const err = await siteSectionProvider
      .create({ organizationId: org, siteId: site.id, spaceId: "space-guides", title: "Guides", path: "how-to" })
      .catch((e: unknown) => e);
    emulator.control.setFaults(null);
    const ids = (await sectionsOf(site.id)).map((s) => s.id);
    expect(ids).toHaveLength(2);
    expect(ids).toContain(first.id);
    expect(String(err)).toMatch(/outcome of creating a section .* is unknown, and 2 sections match what its POST set/);
    for (const id of ids) expect(String(err)).toContain(id);
  });

  it("creates nothing and fails when the POST did not commit", async () => {
    const site = await newSite("Uncertain section, not committed");
    emulator.control.setFaults({ resetRate: 1, methods: ["POST"], routes: "/sections$" });
    await expect(
      siteSectionProvider.create({ organizationId: org, siteId: site.id, spaceId: "space-guides", title: "Guides", path: "guides" }),
    ).rejects.toThrow(/outcome unknown/);
    emulator.control.setFaults(null);
    expect(await sectionsOf(site.id)).toEqual([]);
  });
});

describe("ShareLink: a create answered with an empty 200", () => {
  // Regression (#37): the link was made, the answer was empty, the create failed with a TypeError and
  // left a live link nothing managed.
  it("takes over the link its POST made: one link, as declared", async () => {
    const site = await api<{ id: string }>("POST", sitesPath, { title: "Uncertain share link", visibility: "share-link" });
    const linksOf = async () => (await api<{ items: { id: string; name: string; active: boolean }[] }>("GET", `${sitesPath}/${site.id}/share-links`)).items;
    emulator.control.setFaults({ emptyAfterCommitRate: 1, methods: ["POST"], routes: "/share-links$" });
    const created = await withOuts(shareLinkProvider.create({ organizationId: org, siteId: site.id, name: "Partners", active: true }));
    emulator.control.setFaults(null);
    expect(emulator.control.log().some((e) => e.fault === "empty-after-commit")).toBe(true);
    const links = await linksOf();
    expect(links.map((l) => ({ id: l.id, name: l.name }))).toEqual([{ id: created.id, name: "Partners" }]);
    // The next `up` has nothing to do: the state's outputs are the live link.
    const diff = await shareLinkProvider.diff!(created.id, created.outs, { organizationId: org, siteId: site.id, name: "Partners", active: true });
    expect(diff.changes).toBe(false);
    expect(await linksOf()).toHaveLength(1);
  });
});

describe("SiteSpace: a create whose outcome is unknown", () => {
  it("takes over the site space its POST made, at a path derived from the space title, and sets the declared path", async () => {
    const site = await newSite("Uncertain site space");
    emulator.control.setFaults({ error5xxAfterCommitRate: 1, methods: ["POST"], routes: "/site-spaces$" });
    const created = await siteSpaceProvider.create({ organizationId: org, siteId: site.id, spaceId: "space-changelog", path: "news" });
    emulator.control.setFaults(null);
    expect((await rootSiteSpacesOf(site.id)).map((ss) => ({ id: ss.id, path: ss.path }))).toEqual([{ id: created.id, path: "news" }]);
  });
});

describe("SiteContextConnection: found again by its connector and source", () => {
  const connectionsOf = async (siteId: string) =>
    (await api<{ items: { id: string; connector: string; label?: string; setupSettings?: Record<string, unknown> }[] }>("GET", `${sitesPath}/${siteId}/context-connections`)).items;
  const issues = (siteId: string, repository: string, label?: string) => ({
    organizationId: org,
    siteId,
    connector: "builtin:github-issues",
    setupSettings: { repository },
    secretSettings: { token: "ghp-test-token" },
    ...(label ? { label } : {}),
  });

  for (const [name, fault] of Object.entries({ "response dropped after commit": { dropAfterCommitRate: 1 }, "5xx after commit": { error5xxAfterCommitRate: 1 } })) {
    it(`(${name}) takes over the connection its POST made, and sets the label the POST cannot`, async () => {
      const site = await newSite(`Uncertain connection, ${name}`);
      // Another repository's connection of the same connector is not this one.
      await api("POST", `${sitesPath}/${site.id}/context-connections`, { connector: "builtin:github-issues", setupSettings: { repository: "demo-org/other", token: "t" } });
      emulator.control.setFaults({ ...fault, methods: ["POST"], routes: "/context-connections$" });
      const created = await siteContextConnectionProvider.create(issues(site.id, "demo-org/product", "Product issues"));
      emulator.control.setFaults(null);
      const live = await connectionsOf(site.id);
      expect(live.map((c) => c.setupSettings?.repository).sort()).toEqual(["demo-org/other", "demo-org/product"]);
      const mine = live.find((c) => c.setupSettings?.repository === "demo-org/product")!;
      expect({ id: mine.id, label: mine.label }).toEqual({ id: created.id, label: "Product issues" });
    });
  }

  it("a connection an earlier run made and never recorded is taken over on an existing site, not made twice", async () => {
    const site = await newSite("Connection of an earlier run");
    const earlier = await api<{ id: string }>("POST", `${sitesPath}/${site.id}/context-connections`, { connector: "builtin:website", setupSettings: { url: "https://www.demo.test" } });
    const created = await siteContextConnectionProvider.create({ organizationId: org, siteId: site.id, connector: "builtin:website", setupSettings: { url: "https://www.demo.test" } });
    expect(created.id).toBe(earlier.id);
    expect(await connectionsOf(site.id)).toHaveLength(1);
  });

  it("two connections of one token-only connector are two: the second create does not take over the first", async () => {
    const site = await newSite("Two help desks");
    const desk = { organizationId: org, siteId: site.id, connector: "builtin:intercom", secretSettings: { token: "intercom-token" } };
    const first = await siteContextConnectionProvider.create({ ...desk, label: "Support" });
    const second = await siteContextConnectionProvider.create({ ...desk, label: "Sales" });
    expect(second.id).not.toBe(first.id);
    expect((await connectionsOf(site.id)).map((c) => c.label).sort()).toEqual(["Sales", "Support"]);
  });

  it("adopt: true takes over the live connection with the declared source; two with it are an error naming both", async () => {
    const site = await newSite("Adopted connection");
    const live = await api<{ id: string }>("POST", `${sitesPath}/${site.id}/context-connections`, { connector: "builtin:youtube", setupSettings: { channelId: "@demo-channel" } });
    const adopted = await siteContextConnectionProvider.create({ organizationId: org, siteId: site.id, connector: "builtin:youtube", setupSettings: { channelId: "@demo-channel" }, label: "Videos", adopt: true });
    expect(adopted.id).toBe(live.id);
    const twin = await api<{ id: string }>("POST", `${sitesPath}/${site.id}/context-connections`, { connector: "builtin:youtube", setupSettings: { channelId: "@demo-channel" } });
    const err = await siteContextConnectionProvider
      .create({ organizationId: org, siteId: site.id, connector: "builtin:youtube", setupSettings: { channelId: "@demo-channel" }, adopt: true })
      .catch((e: unknown) => e);
    expect(String(err)).toContain('2 context connections of site');
    expect(String(err)).toContain("builtin:youtube channelId=@demo-channel");
    for (const id of [live.id, twin.id]) expect(String(err)).toContain(id);
  });
});
