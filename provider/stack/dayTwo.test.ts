/**
 * Day two: the edits teams make to docs.yaml a week after the first `pulumi up`, each through the
 * real language host and plugin (test/harness) against the emulator. Every row edits a copy of the
 * handbook, runs `up`, compares the live objects with the file (absence meaning what each field's
 * rule says), then runs `up` again: no API call and every step `same`.
 *
 * The rows edit and check the sites' structure, the spaces and their collection: the copy keeps the handbook's
 * first two sites with their structure, its collection and spaces (and the schema the sites' conditions name),
 * and leaves out the blocks no row edits or checks (the organisation's settings, members, teams, SSO, specs,
 * guides, translations, integrations, the other two sites, the first site's look and assistant): 27 objects
 * instead of 67 in each of the file's 28 program runs (test/support/smallerHandbook.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument, type YAMLMap, type YAMLSeq } from "yaml";
import type { RunningEmulator, SnapshotOrg, SnapshotSite } from "../../emulator";
import type { ProgramRunner, PreparedProgram, RunResult } from "../../test/harness";
import { startProgram, stopProgram } from "../../test/support/program";
import { formatProblem, loadStackFile } from "./load";
import { cutHandbook } from "../../test/support/smallerHandbook";
import { changes, upAndSettle, writes } from "../../test/support/steps";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");

type Doc = ReturnType<typeof parseDocument>;
type Entry = Record<string, unknown>;

/** A declared value, or what its absence means for a field that is cleared when absent. */
const cleared = (v: unknown): unknown => (v === undefined ? null : v);

// Each row runs two or more engine runs (seconds each): a longer limit than the suite's default.
describe("day-two edits of the handbook reach the platform", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  const docsFile = () => path.join(program.dir, "docs.yaml");

  function editDocs(edit: (doc: Doc) => void): void {
    const doc = parseDocument(fs.readFileSync(docsFile(), "utf8"));
    edit(doc);
    fs.writeFileSync(docsFile(), doc.toString());
  }

  /** The file as loaded: a site whose structure comes from its site file has that structure's entries. */
  function declared(): { sites: Entry[]; spaces: Entry[]; collections: Entry[] } {
    const loaded = loadStackFile(docsFile());
    if (!loaded.ok) throw new Error(loaded.problems.map(formatProblem).join("\n"));
    const data = loaded.stack as unknown as Entry;
    return { sites: (data.sites ?? []) as Entry[], spaces: (data.spaces ?? []) as Entry[], collections: (data.collections ?? []) as Entry[] };
  }

  function live(): SnapshotOrg {
    return emu.store.snapshot().organizations.find((o) => o.id === "demo-org")!;
  }

  /** The live sites, spaces and collections are what the file declares, in the file's order. */
  function expectLiveMatchesFile(): void {
    const file = declared();
    const org = live();
    // A space the file creates is known by its title once created.
    const spaceIds = new Map(file.spaces.map((s) => [s.key as string, (s.id as string | undefined) ?? org.spaces.find((l) => l.title === s.title)?.id]));
    const spaceOf = (ref: unknown) => (typeof ref === "string" ? spaceIds.get(ref) : (ref as { id: string }).id);
    for (const site of file.sites) {
      const l = org.sites.find((s) => s.title === site.title) as SnapshotSite;
      expect(l, `site ${String(site.title)}`).toBeDefined();
      // External links (entries with `url`) stand among the sections in the file; the platform lists sections apart.
      const sections = ((site.sections ?? []) as Entry[]).filter((s) => s.url === undefined);
      expect(l.sections.map((s) => s.title)).toEqual(sections.map((s) => s.title));
      const defaultSection = site.defaultSiteSection ?? sections[0]?.key;
      sections.forEach((section, i) => {
        const ls = l.sections[i]!;
        const at = `${String(site.key)}/${String(section.key)}`;
        if (section.path !== undefined) expect(ls.path, at).toBe(section.path);
        expect([ls.description, ls.icon, ls.condition], at).toEqual([cleared(section.description), cleared(section.icon), cleared(section.condition)]);
        expect(ls.default, `${at} default`).toBe(section.key === defaultSection);
        const siteSpaces = (section.siteSpaces ?? [{ key: section.key, space: section.space }]) as Entry[];
        expect(ls.siteSpaces.map((ss) => ss.space), at).toEqual(siteSpaces.map((ss) => spaceOf(ss.space)));
        const defaultSpace = section.defaultSiteSpace ?? siteSpaces[0]?.key;
        siteSpaces.forEach((ss, j) => {
          const lss = ls.siteSpaces[j]!;
          if (ss.path !== undefined) expect(lss.path, `${at}/${String(ss.key)}`).toBe(ss.path);
          expect(lss.condition, `${at}/${String(ss.key)}`).toBe(cleared(ss.condition));
          expect(lss.default, `${at}/${String(ss.key)} default`).toBe(ss.key === defaultSpace);
        });
      });
      const groups = (site.sectionGroups ?? []) as Entry[];
      const pathOf = new Map(sections.map((s, i) => [s.key as string, l.sections[i]!.path]));
      expect(l.sectionGroups.map((g) => [g.title, g.icon, [...g.sections].sort()])).toEqual(
        groups.map((g) => [g.title, cleared(g.icon), (g.sections as string[]).filter((k) => pathOf.has(k)).map((k) => pathOf.get(k)).sort()]),
      );
      const roots = (site.siteSpaces ?? []) as Entry[];
      expect(l.siteSpaces.map((ss) => [ss.space, ss.condition, ss.default])).toEqual(
        roots.map((ss, i) => [spaceOf(ss.space), cleared(ss.condition), ss.key === (site.defaultSiteSpace ?? roots[0]?.key) || (i === 0 && roots.length === 1)]),
      );
      expect(l.shareLinks.map((s) => s.name).sort()).toEqual(((site.shareLinks ?? []) as Entry[]).map((s) => s.name).sort());
    }
    const collectionIds = new Map(org.collections.map((c) => [c.title, c.id]));
    const collectionKeys = new Map(file.collections.map((c) => [c.key as string, collectionIds.get(c.title as string)]));
    for (const space of file.spaces.filter((s) => s.id !== undefined)) {
      const l = org.spaces.find((s) => s.id === space.id)!;
      expect(l.parent ?? null, `space ${String(space.key)} parent`).toBe(space.parent === undefined || space.parent === null ? null : collectionKeys.get(space.parent as string));
    }
  }


  beforeAll(async () => {
    ({ emu, program, runner } = await startProgram(HANDBOOK));
    cutHandbook(docsFile(), {
      blocks: ["settings", "agentInstructions", "members", "teams", "saml", "openapi", "styleGuides", "translations", "integrations", "installations"],
      sitesFrom: 2,
      siteBlocks: ["styleGuide", "customization", "mcpServers", "agent", "agentChannels", "contextConnections"],
      grants: true,
    });
    await runner.up();
    expectLiveMatchesFile();
  }, 300_000);
  afterAll(() => stopProgram({ emu, program, runner }));

  it("a removed description and icon are removed from the section", async () => {
    editDocs((doc) => {
      (doc.getIn(["sites", 0, "sections", 0]) as YAMLMap).delete("description");
      (doc.getIn(["sites", 0, "sections", 0]) as YAMLMap).delete("icon");
    });
    const up = await upAndSettle(runner, expectLiveMatchesFile);
    expect(changes(up)).toEqual(["update SiteSection handbook/handbook/guides"]);
    expect(writes(up)).toEqual(["PATCH /sites/:siteId/sections/:siteSectionId 200"]);
  });

  it("a condition set to null, and one removed, are removed", async () => {
    editDocs((doc) => {
      doc.setIn(["sites", 0, "sections", 2, "condition"], null);
      (doc.getIn(["sites", 0, "sections", 1, "siteSpaces", 1]) as YAMLMap).delete("condition");
    });
    const up = await upAndSettle(runner, expectLiveMatchesFile);
    expect(changes(up)).toEqual(["update SiteSection handbook/handbook/changelog", "update SiteSpace handbook/handbook/api-changes"]);
    expect(writes(up).sort()).toEqual(["PATCH /sites/:siteId/sections/:siteSectionId 200", "PATCH /sites/:siteId/site-spaces/:siteSpaceId 200"]);
  });

  it("a removed group icon is removed", async () => {
    editDocs((doc) => (doc.getIn(["sites", 0, "sectionGroups", 0]) as YAMLMap).delete("icon"));
    const up = await upAndSettle(runner, expectLiveMatchesFile);
    expect(changes(up)).toEqual(["update SiteSectionGroup handbook/handbook/reference"]);
    expect(writes(up)).toEqual(["PATCH /sites/:siteId/section-groups/:siteSectionGroupId 200"]);
  });

  it("a value set by hand on a field the file leaves out is drift: refresh finds it, up removes it", async () => {
    const site = live().sites.find((s) => s.title === "Handbook")!;
    const api = site.sections[1]!;
    const res = await fetch(`${emu.url}/v1/orgs/demo-org/sites/${site.id}/sections/${api.id}`, {
      method: "PATCH",
      headers: { authorization: "Bearer dev-token", "content-type": "application/json" },
      body: JSON.stringify({ description: "Set by hand", icon: "hand" }),
    });
    expect(res.status).toBe(200);
    const refresh = await runner.refresh();
    expect(refresh.apiCalls.every((c) => c.method === "GET")).toBe(true);
    const preview = await runner.preview();
    const detail = JSON.stringify(preview.steps.filter((s) => s.custom && s.op !== "same").map((s) => [s.urn, s.diffs]));
    expect(changes(preview), detail).toEqual(["update SiteSection handbook/handbook/api"]);
    const up = await upAndSettle(runner, expectLiveMatchesFile);
    expect(changes(up)).toEqual(["update SiteSection handbook/handbook/api"]);
    expect(writes(up)).toEqual(["PATCH /sites/:siteId/sections/:siteSectionId 200"]);
  });

  it("a section moved into a group, and one moved out of it", async () => {
    editDocs((doc) => doc.setIn(["sites", 0, "sectionGroups", 0, "sections"], doc.createNode(["guides", "api"])));
    const up = await upAndSettle(runner, expectLiveMatchesFile);
    expect(changes(up)).toContain("update SiteSectionGroup handbook/handbook/reference");
    expect(writes(up).filter((w) => w.includes("section-groups"))).toEqual([
      "POST /sites/:siteId/section-groups/:siteSectionGroupId/sections 201",
      "DELETE /sites/:siteId/section-groups/:siteSectionGroupId/sections/:siteSectionId 205",
    ]);
  });

  it("a space moved back to the root of the organisation", async () => {
    editDocs((doc) => (doc.getIn(["spaces", 0]) as YAMLMap).delete("parent"));
    const up = await upAndSettle(runner, expectLiveMatchesFile);
    expect(changes(up)).toEqual(["update Space handbook/guides"]);
    expect(writes(up)).toEqual(["POST /v1/spaces/:spaceId/move 200"]);
  });

  it("a renamed section title and reversed section order", async () => {
    editDocs((doc) => {
      doc.setIn(["sites", 0, "sections", 1, "title"], "API");
      const sections = doc.getIn(["sites", 0, "sections"]) as YAMLSeq;
      sections.items.reverse();
    });
    const up = await upAndSettle(runner, expectLiveMatchesFile);
    expect(changes(up)).toEqual(["update SiteSection handbook/handbook/api", "update SiteStructureOrder handbook/handbook"]);
  });

  it("a removed share link is deleted", async () => {
    editDocs((doc) => (doc.getIn(["sites", 1, "shareLinks"]) as YAMLSeq).delete(1));
    const up = await upAndSettle(runner, expectLiveMatchesFile);
    expect(writes(up)).toEqual(["DELETE /sites/:siteId/share-links/:shareLinkId 205"]);
  });

  it("an omitted default is the first section of each of four new sites, although each site's sections are created in parallel", async () => {
    const spaces = ["space-guides", "space-api", "space-changelog"];
    const rounds = [0, 1, 2, 3];
    // Four sites of six sections in one run: four races of siblings created in parallel, each on its own site.
    editDocs((doc) => {
      for (const round of rounds) {
        const sections = Array.from({ length: 6 }, (_, i) => ({ key: `s${round}-${i}`, title: `Section ${i}`, path: `p${i}`, space: { id: spaces[i % 3] } }));
        (doc.get("sites") as YAMLSeq).add(doc.createNode({ key: `six-${round}`, title: `Six ${round}`, sections }));
      }
    });
    await upAndSettle(runner, expectLiveMatchesFile);
    for (const round of rounds) {
      const site = live().sites.find((s) => s.title === `Six ${round}`)!;
      expect(site.sections.map((s) => s.default)).toEqual([true, false, false, false, false, false]);
    }
    editDocs((doc) => {
      const list = doc.get("sites") as YAMLSeq;
      list.items.splice(list.items.length - rounds.length);
    });
    await upAndSettle(runner, expectLiveMatchesFile);
  });

  it("the default follows the first entry when the first entry changes", async () => {
    editDocs((doc) => (doc.getIn(["sites", 0]) as YAMLMap).delete("defaultSiteSection"));
    // The reversed order of an earlier row put `whats-new` first among the sections (the external links before it are not sections).
    const up = await upAndSettle(runner, expectLiveMatchesFile);
    expect(changes(up)).toContain("update SiteSection handbook/handbook/whats-new");
    expect(live().sites.find((s) => s.title === "Handbook")!.sections[0]!.default).toBe(true);
  });

  it("a default switched to another section and back follows the file both ways", async () => {
    const defaults = () => live().sites.find((s) => s.title === "Handbook")!.sections.map((s) => [s.title, s.default]);
    editDocs((doc) => doc.setIn(["sites", 0, "defaultSiteSection"], "guides"));
    await upAndSettle(runner, expectLiveMatchesFile);
    expect(defaults().filter(([, d]) => d)).toEqual([["Guides", true]]);
    editDocs((doc) => (doc.getIn(["sites", 0]) as YAMLMap).delete("defaultSiteSection"));
    const back = await upAndSettle(runner, expectLiveMatchesFile);
    expect(writes(back)).toEqual(["PATCH /sites/:siteId 200"]);
    expect(defaults()[0]![1]).toBe(true);
  });
});
