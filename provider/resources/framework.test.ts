import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { closeSharedClients } from "../client";
import { UNKNOWN, exactlyOne } from "./kind";
import { declaredChanges } from "./provider";
import { shareLinkProvider } from "./shareLink";
import { siteProvider } from "./site";
import { siteAdaptiveSchemaKind } from "./siteAdaptiveSchema";
import { siteSectionProvider } from "./siteSection";
import { siteSectionGroupKind } from "./siteSectionGroup";
import { siteSpaceProvider } from "./siteSpace";
import { applyMove, planMoves } from "./siteStructureOrder";
import { apiOf, type Api } from "../../test/support/api";
import { configureAgainst } from "../../test/support/emulator";
import { withProps } from "../../test/support/providerResults";

// Framework behaviour that the lifecycle table does not pin down on its own. These call the provider
// objects in-process (no serialisation involved); the lifecycle test covers the plugin path.

/** Length of a longest increasing subsequence, by the quadratic textbook method (independent of the code under test). */
function lisLength(seq: number[]): number {
  const best = seq.map(() => 1);
  for (let i = 0; i < seq.length; i++) for (let j = 0; j < i; j++) if (seq[j]! < seq[i]!) best[i] = Math.max(best[i]!, best[j]! + 1);
  return Math.max(0, ...best);
}

describe("planMoves (SiteStructureOrder)", () => {
  it("reaches the declared relative order with the fewest moves", () => {
    const ids = fc.uniqueArray(fc.integer({ min: 0, max: 40 }).map((n) => `id${n}`), { maxLength: 25 });
    fc.assert(
      fc.property(ids, fc.func(fc.integer()), fc.func(fc.boolean()), (live, rank, pick) => {
        const desired = live.filter((id) => pick(id)).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
        const moves = planMoves(live, desired);
        const order = [...live];
        for (const m of moves) applyMove(order, m);
        expect(order.filter((id) => desired.includes(id))).toEqual(desired);
        expect(order.length).toBe(live.length);
        const positions = live.filter((id) => desired.includes(id)).map((id) => desired.indexOf(id));
        expect(moves.length).toBe(desired.length - lisLength(positions));
      }),
    );
  });

  it("ignores declared IDs that are not live and live IDs that are not declared", () => {
    expect(planMoves(["a", "x", "b", "c"], ["c", "gone", "a", "b"])).toEqual([{ id: "c", position: { before: "a" } }]);
    expect(planMoves(["a", "b"], ["a", "b"])).toEqual([]);
  });
});

describe("exactlyOne (adopt by natural key)", () => {
  it("answers the one match or none, and names every match's ID (or the given remedy) when there are several", () => {
    expect(exactlyOne("Team", "teams are titled \"A\"", [])).toBeUndefined();
    expect(exactlyOne("Team", "teams are titled \"A\"", [{ id: "t1" }])).toEqual({ id: "t1" });
    expect(() => exactlyOne("Team", "teams of organization o1 are titled \"A\"", [{ id: "t1" }, { id: "t2" }])).toThrow(
      'Team: 2 teams of organization o1 are titled "A"; adopt needs exactly one (ids: t1, t2)',
    );
    expect(() => exactlyOne("SiteSection", "sections of site s1 match path \"p\"", [{ id: "a" }, { id: "b" }, { id: "c" }], "declare its path")).toThrow(
      'SiteSection: 3 sections of site s1 match path "p"; adopt needs exactly one (declare its path)',
    );
  });
});

describe("check", () => {
  it("reports every failure at once, naming the field and the limit", async () => {
    const result = await siteProvider.check({} as never, {
      organizationId: "demo-org",
      title: "x",
      hostname: "Not A Host",
      visibility: "secret" as never,
      colour: "blue",
    } as never);
    const byProperty = Object.fromEntries((result.failures ?? []).map((f) => [f.property, f.reason]));
    expect(Object.keys(byProperty).sort()).toEqual(["colour", "hostname", "title", "visibility"]);
    expect(byProperty.title).toBe("title: must be at least 2 characters (got 1)");
    expect(byProperty.visibility).toContain("public, unlisted, share-link, visitor-auth");
    expect(byProperty.colour).toMatch(/^colour: unknown field/);
  });

  it("passes preview unknowns through, whole values or nested ones", async () => {
    const result = await siteSpaceProvider.check({} as never, { organizationId: UNKNOWN, siteId: UNKNOWN, spaceId: UNKNOWN, path: UNKNOWN } as never);
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs).toMatchObject({ path: UNKNOWN });
  });

  it("reports a missing required input under its own name", async () => {
    const result = await shareLinkProvider.check({} as never, { organizationId: "demo-org" } as never);
    expect((result.failures ?? []).map((f) => f.property).sort()).toEqual(["name", "siteId"]);
  });
});

describe("diff", () => {
  it("does not count undeclared fields, server defaults or derived paths as drift", async () => {
    const olds = { organizationId: "o", siteId: "s", spaceId: "sp", title: "Guides", path: "guides", default: true, siteSpaceId: "ss", url: "u" };
    expect(await siteSectionProvider.diff("id", olds as never, { organizationId: "o", siteId: "s", spaceId: "sp", title: "Guides" } as never)).toMatchObject({
      changes: false,
      replaces: [],
    });
  });

  it("replaces on create-only fields, deleting first where the API keeps paths unique", async () => {
    const olds = { organizationId: "o", siteId: "s", spaceId: "sp", title: "Guides", path: "guides" };
    expect(await siteSectionProvider.diff("id", olds as never, { ...olds, spaceId: "other" } as never)).toEqual({
      changes: true,
      replaces: ["spaceId"],
      deleteBeforeReplace: true,
    });
  });

  it("compares group membership as a set and adaptive schemas regardless of key order", () => {
    const group = { organizationId: "o", siteId: "s", title: "T", icon: null, sections: ["a", "b"] };
    expect(declaredChanges(siteSectionGroupKind.fields, group, { ...group, sections: ["b", "a"] }).changed).toEqual([]);
    expect(declaredChanges(siteSectionGroupKind.fields, group, { ...group, sections: ["a"] }).changed).toEqual(["sections"]);
    const live = { organizationId: "o", siteId: "s", jsonSchema: { type: "object", properties: { b: { type: "boolean", description: "B" } } } };
    const declared = { ...live, jsonSchema: { properties: { b: { description: "B", type: "boolean" } }, type: "object" } };
    expect(declaredChanges(siteAdaptiveSchemaKind.fields, live, declared).changed).toEqual([]);
  });

  it("counts an unknown inside a value as a change", () => {
    const group = { organizationId: "o", siteId: "s", title: "T", icon: null, sections: ["a"] };
    expect(declaredChanges(siteSectionGroupKind.fields, group, { ...group, sections: ["a", UNKNOWN] }).changed).toEqual(["sections"]);
  });
});

describe("against the emulator", () => {
  let emulator: RunningEmulator;
  let api: Api;
  const org = "demo-org";
  const sitesPath = `/v1/orgs/${org}/sites`;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    api = apiOf(emulator);
    await configureAgainst(siteProvider, emulator);
  });
  afterAll(async () => {
    await closeSharedClients();
    await emulator?.close();
  });

  it("serves every read of one site's sections from one list walk per process view, dropped by this process's writes and by DOCSPLATFORM_LIST_CACHE_MS=0", async () => {
    const site = await api<{ id: string }>("POST", sitesPath, { title: "Coalesced" });
    const ids: string[] = [];
    for (const spaceId of ["space-guides", "space-api", "space-changelog"]) {
      ids.push((await api<{ id: string }>("POST", `${sitesPath}/${site.id}/sections`, { spaceId })).id);
    }
    const state = (id: string) => ({ organizationId: org, siteId: site.id, spaceId: "space-guides", title: "", path: "", id }) as never;
    const route = "GET /v1/orgs/:organizationId/sites/:siteId/sections";
    emulator.control.clearLog();
    const reads = await Promise.all(ids.map((id) => siteSectionProvider.read(id, state(id))));
    expect(reads.map((r) => r.id)).toEqual(ids);
    expect(emulator.control.counts()[route]).toBe(1);

    // Later reads in the same process (one command) share the view: still one walk.
    const later = await withProps(siteSectionProvider.read(ids[1]!, state(ids[1]!)));
    expect(later.id).toBe(ids[1]);
    expect(emulator.control.counts()[route]).toBe(1);

    // A write this process makes to the site drops the view: the next read walks again and sees it.
    await siteSectionProvider.update(ids[1]!, later.props, { organizationId: org, siteId: site.id, spaceId: "space-guides", title: "Written here" });
    const afterWrite = await siteSectionProvider.read(ids[1]!, state(ids[1]!));
    expect(afterWrite.props).toMatchObject({ title: "Written here" });
    expect(emulator.control.counts()[route]).toBe(2);

    // With the list cache off, an out-of-band change after the walk is seen by the next read. The
    // variable is read once, by configure (as a new plugin process does).
    await configureAgainst(siteProvider, emulator, { DOCSPLATFORM_LIST_CACHE_MS: "0" });
    try {
      const settled = await siteSectionProvider.read(ids[0]!, state(ids[0]!));
      expect(settled.id).toBe(ids[0]);
      await api("PATCH", `${sitesPath}/${site.id}/sections/${ids[0]}`, { title: "Changed elsewhere" });
      const again = await siteSectionProvider.read(ids[0]!, state(ids[0]!));
      expect(again.props).toMatchObject({ title: "Changed elsewhere" });
      expect(emulator.control.counts()[route]).toBe(4);
    } finally {
      await configureAgainst(siteProvider, emulator);
    }
  });

  it("acts with DOCSPLATFORM_API_TOKEN over the config's token, and names the variable when the API refuses it", async () => {
    const site = await api<{ id: string }>("POST", sitesPath, { title: "Token from the environment" });
    try {
      // The config's token is refused by the API; the environment's is valid and wins.
      await configureAgainst(siteProvider, { url: emulator.url, token: "refused-config-token" }, { DOCSPLATFORM_API_TOKEN: emulator.token });
      expect((await siteProvider.read(site.id, { organizationId: org } as never)).id).toBe(site.id);
      // The other way round: the environment's token is the one refused, and the message names it.
      await configureAgainst(siteProvider, emulator, { DOCSPLATFORM_API_TOKEN: "refused-env-token" });
      await expect(siteProvider.read(site.id, { organizationId: org } as never)).rejects.toThrow(
        "the API refused the token (401 Unauthorized) for organization demo-org: supply a valid token in DOCSPLATFORM_API_TOKEN (set, it wins over `docsplatform:apiToken`)",
      );
    } finally {
      await configureAgainst(siteProvider, emulator);
    }
  });

  it("resolves a create whose outcome is unknown by its natural key, without a duplicate", async () => {
    const site = await api<{ id: string }>("POST", sitesPath, { title: "Uncertain", visibility: "share-link" });
    emulator.control.setFaults({ dropAfterCommitRate: 1, methods: ["POST"], routes: "/share-links$" });
    try {
      const created = await shareLinkProvider.create({ organizationId: org, siteId: site.id, name: "Dropped answer" });
      const links = await api<{ items: { id: string; name: string }[] }>("GET", `${sitesPath}/${site.id}/share-links`);
      expect(links.items.filter((l) => l.name === "Dropped answer").map((l) => l.id)).toEqual([created.id]);
    } finally {
      emulator.control.setFaults(null);
    }
  });

  it("reports two objects with the adopt key as an error naming both", async () => {
    const site = await api<{ id: string }>("POST", sitesPath, { title: "Twice", visibility: "share-link" });
    const a = await api<{ id: string }>("POST", `${sitesPath}/${site.id}/share-links`, { name: "Same" });
    const b = await api<{ id: string }>("POST", `${sitesPath}/${site.id}/share-links`, { name: "Same" });
    const err = await shareLinkProvider.create({ organizationId: org, siteId: site.id, name: "Same", adopt: true }).catch((e: unknown) => e);
    expect(String(err)).toContain(a.id);
    expect(String(err)).toContain(b.id);
  });

  it("treats a 404 on read as gone and on delete as done; other failures are errors", async () => {
    expect((await siteProvider.read("no-such-site", { organizationId: org } as never)).id).toBe("");
    await expect(siteProvider.delete("no-such-site", { organizationId: org } as never)).resolves.toBeUndefined();
    emulator.control.setFaults({ error5xxRate: 1, methods: ["GET"], routes: "/sites/" });
    try {
      await expect(siteProvider.read("no-such-site", { organizationId: org } as never)).rejects.toThrow(/50[023]/);
    } finally {
      emulator.control.setFaults(null);
    }
  });
});
