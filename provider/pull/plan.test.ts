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

  it("a top-level object the file does not name stays out (named) unless --include-new, then adopted as export writes it", () => {
    const live = structuredClone(LIVE) as typeof LIVE & { teams: Record<string, unknown>[] };
    live.teams = [{ key: "writers", title: "Writers", adopt: true }, { key: "support", title: "Support", adopt: true }];
    const out = planPull(parseDocument(FILE) as never, FILE, live, { includeNew: false, emails: new Map() });
    expect(applyEdits(FILE, out.edits)).not.toContain("Support");
    expect(out.notes).toContain('teams: support is on the platform but not in the file; left out (--include-new adds it)');
    const added = planPull(parseDocument(FILE) as never, FILE, live, { includeNew: true, emails: new Map() });
    expect(applyEdits(FILE, added.edits)).toContain("    title: 'Writers'\n  - key: support\n    title: Support\n    adopt: true\nsites:\n");
  });

  it("at the top level, objects missing on each side (two or more) are left as they are: no removal the next up would turn into a delete", () => {
    const live = structuredClone(LIVE) as typeof LIVE & { teams: Record<string, unknown>[] };
    live.teams.push({ key: "support", title: "Support", adopt: true });
    const plan = planPull(parseDocument(FILE) as never, FILE, live, { includeNew: true, emails: new Map() });
    const after = applyEdits(FILE, plan.edits);
    expect(after).toContain("teams:\n  - key: writers\n    title: 'Writers'\nsites:\n");
    expect(plan.notes).toContain("teams: writers was not found on the platform by its title, and other objects were; renamed there? left as it is, and nothing added to this list");
  });
});
