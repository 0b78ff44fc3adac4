/** The resolved site model of a stack file: display order, defaults, paths and their source, URLs, pointers. */
import { describe, expect, it } from "vitest";
import { parseStack } from "../stack/load";
import type { StackFile } from "../file/model";
import { longestIncreasing, reordered, sectionByKey, siteModels, siteSpaceByKey } from ".";

function parse(text: string): StackFile {
  const r = parseStack(text, "test.yaml");
  if (!r.ok) throw new Error(r.problems.map((p) => p.message).join("\n"));
  return r.stack;
}

const FILE = `organization: demo-org
spaces:
  - { key: guides, id: space-guides, title: Guides }
  - { key: api-v1, id: space-api-v1, title: API v1 }
  - { key: api-v2, id: space-api-v2, title: API v2 }
sites:
  - key: docs
    title: Docs
    defaultSiteSection: api
    sections:
      - { key: intro, title: Introduction, space: guides }
      - key: api
        title: API
        defaultSiteSpace: v2
        siteSpaces:
          - { key: v1, space: api-v1 }
          - { key: v2, space: api-v2, path: latest }
      - { key: faq, title: Guides, space: { id: space-elsewhere } }
      - { key: more, title: Guides, space: guides }
    sectionGroups:
      - { key: reference, title: Reference, sections: [faq, api] }
      - { key: empty, title: Empty, sections: [] }
`;

describe("site model", () => {
  const [site] = siteModels(parse(FILE));

  it("orders a site's levels for display: a group takes its first section's place, empty groups last", () => {
    expect(site!.entries.map((e) => (e.kind === "section" ? e.section.key : e.kind === "group" ? `group ${e.group.key}` : `link ${e.link.key}`))).toEqual(["intro", "group reference", "more", "group empty"]);
    expect(site!.sections.map((s) => s.key)).toEqual(["intro", "api", "faq", "more"]);
    expect(site!.sectionList.map((s) => s.key)).toEqual(["intro", "api", "faq", "more"]);
    expect(site!.groups.find((g) => g.key === "reference")!.sections.map((s) => s.key)).toEqual(["api", "faq"]);
    expect(sectionByKey(site!, "faq")!.group).toBe("reference");
  });

  it("resolves defaults, paths with their source and the URLs readers see", () => {
    const api = sectionByKey(site!, "api")!;
    expect(api).toMatchObject({ default: true, url: "/", path: { value: "api", source: "derived" } });
    expect(api.siteSpaces.map((ss) => [ss.key, ss.default, ss.url, ss.path.source])).toEqual([
      ["v1", false, "/api-v1", "derived"],
      ["v2", true, "/", "declared"],
    ]);
    // Two sections derive "guides" from their titles: the platform adds a suffix, so neither path is known.
    expect(sectionByKey(site!, "faq")!.path).toEqual({ value: undefined, source: "api", derived: "guides", takenBy: undefined });
    expect(sectionByKey(site!, "more")!.path).toMatchObject({ source: "api", takenBy: "/sites/0/sections/2" });
    expect(sectionByKey(site!, "more")!.url).toBe("/<path from the API>");
    // A space by ID only: its title, and so its site space's path, are the platform's.
    expect(siteSpaceByKey(site!, "faq")!.path.source).toBe("api");
  });

  it("gives every entry its pointer and container; the space shorthand is the section's own", () => {
    const intro = siteSpaceByKey(site!, "intro")!;
    expect(intro).toMatchObject({ pointer: "/sites/0/sections/0", container: "/sites/0/sections/0", shorthand: true, section: "intro", spaceId: "space-guides" });
    expect(siteSpaceByKey(site!, "v2")).toMatchObject({ pointer: "/sites/0/sections/1/siteSpaces/1", container: "/sites/0/sections/1", shorthand: false });
    expect(site!.groups[0]!.members.map((m) => m.pointer)).toEqual(["/sites/0/sectionGroups/0/sections/0", "/sites/0/sectionGroups/0/sections/1"]);
  });
});

describe("ordering", () => {
  it("keeps a longest run already in order and moves the rest, for the order plan and for diff alike", () => {
    expect([...longestIncreasing([2, 0, 1, 3])].sort()).toEqual([1, 2, 3]);
    expect(reordered(["a", "b", "c", "d"], ["c", "a", "b", "d"], (k) => k)).toEqual([{ item: "c", after: undefined }]);
  });
});
