import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ApiClient, type StructurePointer } from "../client";
import { ROOT_LEVEL, type SiteStructureOrderInputs, siteStructureOrderKind } from "./siteStructureOrder";

// SiteStructureOrder computes the order its moves produce instead of reading the lists again: the
// outputs must equal what a fresh read of the site shows, with each list read once per create.

const ORG = "demo-org";
const SPACES = ["space-guides", "space-api", "space-changelog"];

describe("SiteStructureOrder create", () => {
  let emu: RunningEmulator;
  let client: ApiClient;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    client = new ApiClient({ baseUrl: emu.url, token: emu.token });
  });
  afterAll(async () => {
    await client?.close();
    await emu?.close();
  });

  /** A site with `sections` sections (the first `grouped` of them in one group) and `extra` more site spaces in the first section. */
  async function makeSite(sections: number, grouped: number, extra: number) {
    const site = await client.sites.create(ORG, { title: `order-${Math.random().toString(36).slice(2)}` });
    const sectionIds: string[] = [];
    for (let i = 0; i < sections; i++) {
      sectionIds.push((await client.sections.create(ORG, site.id, { spaceId: SPACES[i % SPACES.length]!, title: `S${i}` })).id);
    }
    let groupId: string | undefined;
    if (grouped > 0) groupId = (await client.sectionGroups.create(ORG, site.id, { title: "G", sections: sectionIds.slice(0, grouped) })).id;
    for (let i = 0; i < extra; i++) await client.siteSpaces.create(ORG, site.id, { spaceId: SPACES[i % SPACES.length]!, sectionId: sectionIds[0] });
    const siteSpaceIds = (await client.siteSpaces.list(ORG, site.id)).filter((ss) => ss.section === sectionIds[0]).map((ss) => ss.id);
    return { siteId: site.id, sectionIds, groupId, siteSpaceIds };
  }

  /** The declared objects' order as a fresh read shows it. */
  async function liveOrder(siteId: string, inputs: SiteStructureOrderInputs) {
    const sections = (await client.sections.list(ORG, siteId)).map((s) => s.id);
    const groups = (await client.sectionGroups.list(ORG, siteId)).map((g) => g.id);
    const siteSpaces = await client.siteSpaces.list(ORG, siteId);
    const only = (order: string[], wanted: readonly string[]) => order.filter((id) => wanted.includes(id));
    return {
      organizationId: ORG,
      siteId,
      sections: inputs.sections ? only(sections, inputs.sections) : null,
      sectionGroups: inputs.sectionGroups ? only(groups, inputs.sectionGroups) : null,
      siteSpaces: inputs.siteSpaces
        ? Object.fromEntries(
            Object.entries(inputs.siteSpaces).map(([level, ids]) => [level, only(siteSpaces.filter((ss) => (ss.section ?? ROOT_LEVEL) === level).map((ss) => ss.id), ids)]),
          )
        : null,
      // Group membership is kept as declared: it only makes a membership change reorder the site.
      groups: inputs.groups ?? null,
      // No navigation order declared: none observed.
      navigation: null,
    };
  }

  it("reports the order a fresh read shows, reading each list once", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        fc.func(fc.integer()),
        fc.boolean(),
        async (sections, grouped, extra, rank, withGroups) => {
          const shape = await makeSite(sections, Math.min(grouped, sections), extra);
          const shuffle = (ids: string[]) => [...ids].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
          const inputs: SiteStructureOrderInputs = {
            organizationId: ORG,
            siteId: shape.siteId,
            sections: shuffle(shape.sectionIds),
            siteSpaces: { [shape.sectionIds[0]!]: shuffle(shape.siteSpaceIds) },
            ...(withGroups && shape.groupId ? { sectionGroups: [shape.groupId] } : {}),
          };
          emu.control.clearLog();
          const { outs } = await siteStructureOrderKind.create({ client }, inputs);
          const reads = emu.control.log().filter((c) => c.method === "GET").map((c) => c.route.slice(c.route.lastIndexOf("/") + 1));
          expect(reads.sort()).toEqual([...(inputs.sectionGroups ? ["section-groups"] : []), "sections", "site-spaces"].sort());
          const live = await liveOrder(shape.siteId, inputs);
          // A create does not look for objects made by hand (a refresh does): none recorded.
          expect(outs).toEqual({ ...live, undeclared: [] });
        },
      ),
      { numRuns: 25 },
    );
  });

  /** The declared items of each navigation level as a fresh structure read shows them. */
  async function liveNavigation(siteId: string, declared: Record<string, StructurePointer[]>) {
    const structure = await client.navigation.structure(ORG, siteId);
    const levels = new Map<string, StructurePointer[]>();
    const walk = (level: string, items: readonly { object: string; id: string; children?: unknown }[]) => {
      levels.set(level, items.map((i) => ({ type: i.object as StructurePointer["type"], id: i.id })));
      for (const i of items) if (i.object === "site-section-group") walk(i.id, i.children as typeof items);
    };
    if (structure.type === "sections") walk(ROOT_LEVEL, structure.structure);
    return Object.fromEntries(Object.entries(declared).map(([level, items]) => [level, (levels.get(level) ?? []).filter((x) => items.some((i) => i.id === x.id))]));
  }

  // A site with external links is ordered from one read of its structure (the only read that shows the
  // links, and it holds every section, group and site space), not from its lists as well.
  it("orders a site with external links from one structure read, and reports the order a fresh read shows", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 5 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 3 }), fc.func(fc.integer()), async (sections, grouped, extra, rank) => {
        const shape = await makeSite(sections, Math.min(grouped, sections), extra);
        const rootLink = await client.navigation.createLink(ORG, shape.siteId, { title: "Status", url: "https://status.example.test" });
        const groupLink = await client.navigation.createLink(ORG, shape.siteId, { title: "Docs", url: "https://docs.example.test", parent: shape.groupId! });
        const shuffle = <T extends { id: string } | string>(xs: T[]) => [...xs].sort((a, b) => rank(String(a)) - rank(String(b)) || JSON.stringify(a).localeCompare(JSON.stringify(b)));
        const n = Math.min(grouped, sections);
        const section = (id: string): StructurePointer => ({ type: "site-section", id });
        const navigation: Record<string, StructurePointer[]> = {
          [ROOT_LEVEL]: shuffle([...shape.sectionIds.slice(n).map(section), { type: "site-section-group", id: shape.groupId! }, { type: "site-external-link", id: rootLink.id }]),
          [shape.groupId!]: shuffle([...shape.sectionIds.slice(0, n).map(section), { type: "site-external-link", id: groupLink.id }]),
        };
        const inputs: SiteStructureOrderInputs = { organizationId: ORG, siteId: shape.siteId, navigation, siteSpaces: { [shape.sectionIds[0]!]: shuffle(shape.siteSpaceIds) } };
        emu.control.clearLog();
        const { outs } = await siteStructureOrderKind.create({ client }, inputs);
        const reads = emu.control.log().filter((c) => c.method === "GET").map((c) => c.route.slice(c.route.lastIndexOf("/") + 1));
        expect(reads).toEqual(["structure"]);
        expect(outs.siteSpaces).toEqual((await liveOrder(shape.siteId, inputs)).siteSpaces);
        expect(outs.navigation).toEqual(await liveNavigation(shape.siteId, navigation));
        expect(outs.navigation).toEqual(navigation);
      }),
      { numRuns: 15 },
    );
  });
});
