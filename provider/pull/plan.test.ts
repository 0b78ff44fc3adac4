/**
 * planPull on a file and a live organisation as export spells it, without the API: the edits keep every
 * byte outside the changed values (comments, an anchor and its alias, quoting), a section whose file
 * leaves its path to its default is matched by key, a team renamed in the UI by the one left on each
 * side, references are written with the file's keys, and a cleared field managed when absent is removed.
 */
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { planPull } from "./plan";
import { applyEdits } from "./edit";

const FILE = `teams:
  - key: writers
    title: 'Writers'
sites:
  - key: docs
    title: Pull Docs   # the public one
    defaultSiteSection: guides
    adaptiveContent: {enabled: false}
    sections:
      # Guides first.
      - key: guides
        title: Guides
        description: &shared Written by the docs team
        space: guides
      - key: api
        title: "API"
        description: Reference
        space: api
      - key: more
        title: More
        description: *shared
        space: api
        path: more
`;

const LIVE = {
  teams: [{ key: "writers-editors", title: "Writers & editors", adopt: true }],
  sites: [
    {
      key: "pull-docs",
      title: "Pull Docs",
      defaultSiteSection: "api",
      adaptiveContent: { enabled: true },
      sections: [
        { key: "guides", title: "How-to guides", path: "guides", description: "Written by the docs team", space: "guides", adopt: true },
        { key: "api", title: "API", path: "api", space: "api", adopt: true },
        { key: "more", title: "More", path: "more", description: "Written by the docs team", space: "api", adopt: true },
      ],
    },
  ],
};

describe("planPull", () => {
  it("edits only the changed values, keeping comments, quoting, the anchor and its alias", () => {
    const plan = planPull(parseDocument(FILE) as never, FILE, LIVE, { includeNew: false, emails: new Map() });
    const after = applyEdits(FILE, plan.edits);
    expect(after).toBe(
      FILE.replace("title: 'Writers'", "title: 'Writers & editors'")
        .replace("title: Guides\n", "title: How-to guides\n")
        .replace("defaultSiteSection: guides", "defaultSiteSection: api")
        .replace("{enabled: false}", "{enabled: true}")
        .replace("        description: Reference\n", ""),
    );
    expect(plan.changes).toContain('sites[docs].sections[api].description: "Reference" → left out (cleared on the platform)');
    // Pulled again, nothing changes.
    const again = planPull(parseDocument(after) as never, after, LIVE, { includeNew: false, emails: new Map() });
    expect(again.edits).toEqual([]);
  });

  it("a changed value behind an alias is named, not written", () => {
    const live = structuredClone(LIVE);
    live.sites[0]!.sections[2]!.description = "Changed here only";
    const plan = planPull(parseDocument(FILE) as never, FILE, live, { includeNew: false, emails: new Map() });
    expect(plan.notes).toEqual([expect.stringContaining("sites[docs].sections[more].description: changed on the platform, but the file takes it from an anchor")]);
  });
});
