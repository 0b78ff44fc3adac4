import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { closeSharedClients } from "../client";
import { shareLinkProvider } from "./shareLink";
import { siteProvider } from "./site";
import { siteSectionProvider } from "./siteSection";
import { teamProvider } from "./team";
import { apiOf, type Api } from "../../test/support/api";
import { configureAgainst } from "../../test/support/emulator";

// Lists that lag behind writes (the emulator's `listLagMs`: list answers leave out objects created in the
// last N ms) meeting the two lookups that read lists to decide "not there, create it": the recovery of a
// create whose answer was lost, and adopt. Neither may create a duplicate while the list catches up.

const org = "demo-org";
const sitesPath = `/v1/orgs/${org}/sites`;
const LAG_MS = 1_200;
let emulator: RunningEmulator;
let api: Api;

/** Configures the provider as a new plugin process would, with these tuning variables. */
const configure = (env: Record<string, string>): Promise<void> => configureAgainst(siteProvider, emulator, env);

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  api = apiOf(emulator);
  // The lag the provider tolerates is above the emulator's.
  await configure({ DOCSPLATFORM_LIST_LAG_MS: "3000" });
});
afterAll(async () => {
  await closeSharedClients();
  await emulator?.close();
});

const titled = async (title: string) => emulator.store.org(org).sites.filter((s) => s.title === title);

describe("a create whose answer was lost, behind a lagging list", () => {
  it.each([
    ["Site", "/sites$", "POST"],
    ["ShareLink", "/share-links$", "POST"],
    ["SiteSection", "/sections$", "POST"],
    ["Team", "/teams$", "PUT"],
  ] as const)("%s: the recovery lookup keeps looking while the list catches up, and takes the object over", async (kind, routes, method) => {
    const site = await api<{ id: string }>("POST", sitesPath, { title: `Lag ${kind}`, visibility: "share-link" });
    emulator.control.setFaults({ listLagMs: LAG_MS, dropAfterCommitRate: 1, methods: [method], routes });
    try {
      if (kind === "Site") {
        const created = await siteProvider.create({ organizationId: org, title: "Lagging site" });
        expect((await titled("Lagging site")).map((s) => s.id)).toEqual([created.id]);
      } else if (kind === "ShareLink") {
        const created = await shareLinkProvider.create({ organizationId: org, siteId: site.id, name: "Lagging link" });
        const links = emulator.store.org(org).sites.find((s) => s.id === site.id)!.shareLinks.filter((l) => l.name === "Lagging link");
        expect(links.map((l) => l.id)).toEqual([created.id]);
      } else if (kind === "SiteSection") {
        const created = await siteSectionProvider.create({ organizationId: org, siteId: site.id, spaceId: "space-api", title: "API", path: "api" });
        const sections = emulator.store.org(org).sites.find((s) => s.id === site.id)!.sections;
        expect(sections.map((s) => ({ id: s.id, path: s.path }))).toEqual([{ id: created.id, path: "api" }]);
      } else {
        const created = await teamProvider.create({ organizationId: org, title: "Lagging team" });
        expect(emulator.store.org(org).teams.filter((t) => t.title === "Lagging team").map((t) => t.id)).toEqual([created.id]);
      }
    } finally {
      emulator.control.setFaults(null);
    }
  });

  it("an answer held past the client's timeout after the write committed: found, not created twice", async () => {
    await configure({ DOCSPLATFORM_LIST_LAG_MS: "3000", DOCSPLATFORM_TIMEOUT_MS: "300" });
    emulator.control.setFaults({ listLagMs: LAG_MS, slowAfterCommitRate: 1, slowAfterCommitMs: 800, methods: ["POST"], routes: "/sites$" });
    try {
      const created = await siteProvider.create({ organizationId: org, title: "Slow answer site" });
      expect((await titled("Slow answer site")).map((s) => s.id)).toEqual([created.id]);
    } finally {
      emulator.control.setFaults(null);
      await configure({ DOCSPLATFORM_LIST_LAG_MS: "3000" });
    }
  });

  it("a create that did not commit still fails (resumably) once the bounded wait is over, having created nothing", async () => {
    await configure({ DOCSPLATFORM_LIST_LAG_MS: "600" });
    emulator.control.setFaults({ listLagMs: LAG_MS, resetRate: 1, methods: ["POST"], routes: "/sites$" });
    try {
      await expect(siteProvider.create({ organizationId: org, title: "Never made" })).rejects.toThrow(/outcome unknown/);
    } finally {
      emulator.control.setFaults(null);
      await configure({ DOCSPLATFORM_LIST_LAG_MS: "3000" });
    }
    expect(await titled("Never made")).toEqual([]);
  });

  it("without the tolerance (DOCSPLATFORM_LIST_LAG_MS=0) the lookup believes the lagging list: the case this guards", async () => {
    await configure({ DOCSPLATFORM_LIST_LAG_MS: "0" });
    emulator.control.setFaults({ listLagMs: LAG_MS, dropAfterCommitRate: 1, methods: ["POST"], routes: "/sites$" });
    try {
      await expect(siteProvider.create({ organizationId: org, title: "Believed gone" })).rejects.toThrow(/outcome unknown/);
    } finally {
      emulator.control.setFaults(null);
      await configure({ DOCSPLATFORM_LIST_LAG_MS: "3000" });
    }
    // It was made: a re-run's create would now be a duplicate.
    expect(await titled("Believed gone")).toHaveLength(1);
  });
});

describe("adopt behind a lagging list", () => {
  it("takes over an object created a moment ago that the list does not show yet", async () => {
    emulator.control.setFaults({ listLagMs: LAG_MS });
    try {
      const existing = await api<{ id: string }>("POST", sitesPath, { title: "Just made elsewhere" });
      const adopted = await siteProvider.create({ organizationId: org, title: "Just made elsewhere", adopt: true });
      expect(adopted.id).toBe(existing.id);
      expect(await titled("Just made elsewhere")).toHaveLength(1);
    } finally {
      emulator.control.setFaults(null);
    }
  });
});

describe("a read behind a lagging list", () => {
  const linksOf = (siteId: string) => `${sitesPath}/${siteId}/share-links`;

  it("finds an object made a moment ago (not gone); without the tolerance it would answer gone", async () => {
    const site = await api<{ id: string }>("POST", sitesPath, { title: "Read behind lag", visibility: "share-link" });
    emulator.control.setFaults({ listLagMs: LAG_MS });
    try {
      const link = await api<{ id: string }>("POST", linksOf(site.id), { name: "Fresh" });
      const state = { organizationId: org, siteId: site.id, name: "Fresh", active: null, url: null, createdAt: null };
      const read = await shareLinkProvider.read(link.id, state);
      expect(read.id).toBe(link.id);
      const other = await api<{ id: string }>("POST", linksOf(site.id), { name: "Fresh too" });
      await configure({ DOCSPLATFORM_LIST_LAG_MS: "0" });
      expect((await shareLinkProvider.read(other.id, { ...state, name: "Fresh too" })).id).toBe("");
    } finally {
      emulator.control.setFaults(null);
      await configure({ DOCSPLATFORM_LIST_LAG_MS: "3000" });
    }
  });

  it("a deleted object is gone once the bounded look is over; a deleted site is gone at once", async () => {
    await configure({ DOCSPLATFORM_LIST_LAG_MS: "600" });
    try {
      const site = await api<{ id: string }>("POST", sitesPath, { title: "Read gone", visibility: "share-link" });
      const link = await api<{ id: string }>("POST", linksOf(site.id), { name: "Going" });
      const state = { organizationId: org, siteId: site.id, name: "Going", active: null, url: null, createdAt: null };
      await api("DELETE", `${linksOf(site.id)}/${link.id}`);
      let started = performance.now();
      expect((await shareLinkProvider.read(link.id, state)).id).toBe("");
      expect(performance.now() - started).toBeGreaterThanOrEqual(500);
      await api("DELETE", `${sitesPath}/${site.id}`);
      started = performance.now();
      expect((await shareLinkProvider.read(link.id, state)).id).toBe("");
      expect(performance.now() - started).toBeLessThan(400);
    } finally {
      await configure({ DOCSPLATFORM_LIST_LAG_MS: "3000" });
    }
  });
});
