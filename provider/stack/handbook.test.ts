/**
 * The handbook example (examples/handbook) run the way `pulumi up` runs it: the real language host and
 * dynamic-provider plugin (test/harness) against the emulator's default fixture. Up creates every object
 * of docs.yaml; a second up makes no API call; each edit of docs.yaml produces exactly the expected steps;
 * destroy leaves the emulator as the fixture was. Edits go to the prepared copy, never the example.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument, type YAMLMap, type YAMLSeq } from "yaml";
import type { RunningEmulator, Snapshot, SnapshotOrg, SnapshotSite } from "../../emulator";
import type { ProgramRunner, PreparedProgram, RunResult, StateResource } from "../../test/harness";
import { startProgram, stopProgram } from "../../test/support/program";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");
const COMPONENT = "docsplatform:index:DocsPlatform";

/** `Kind name` of a step or state resource: the kind from its type, the name from its URN. */
function label(r: { type: string; urn: string }): string {
  return `${r.type.slice(r.type.lastIndexOf(":") + 1)} ${r.urn.slice(r.urn.lastIndexOf("::") + 2)}`;
}

/** Custom-resource steps that are not `same`, as `op Kind name`, sorted. */
function changes(result: RunResult): string[] {
  return result.steps.filter((s) => s.custom && s.op !== "same").map((s) => `${s.op} ${label(s)}`).sort();
}

/** API writes as `METHOD route status`, in order. */
function writes(result: RunResult): string[] {
  return result.apiCalls.filter((c) => c.method !== "GET").map((c) => `${c.method} ${c.route.replace(/^\/v1\/orgs\/:organizationId/, "")} ${c.status}`);
}

/** A site of the snapshot by title (sites are listed in creation order). */
function site(o: SnapshotOrg, title: string): SnapshotSite {
  const found = o.sites.find((s) => s.title === title);
  if (!found) throw new Error(`no site titled ${title}`);
  return found;
}

function org(snapshot: Snapshot): SnapshotOrg {
  const found = snapshot.organizations.find((o) => o.id === "demo-org");
  if (!found) throw new Error("the fixture has no demo-org");
  return found;
}

describe("the handbook example through the engine", () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  let fixture: Snapshot;
  const docsFile = () => path.join(program.dir, "docs.yaml");

  /** Edits the prepared copy of docs.yaml through the YAML document (comments and layout stay). */
  function editDocs(edit: (doc: ReturnType<typeof parseDocument>) => void): void {
    const doc = parseDocument(fs.readFileSync(docsFile(), "utf8"));
    edit(doc);
    fs.writeFileSync(docsFile(), doc.toString());
  }

  /** The custom resources of the state, by `Kind name`. */
  function stateByLabel(): Map<string, StateResource> {
    return new Map(runner.resources().filter((r) => r.custom && !r.type.startsWith("pulumi:providers")).map((r) => [label(r), r]));
  }

  beforeAll(async () => {
    ({ emu, program, runner } = await startProgram(HANDBOOK));
    fixture = emu.store.snapshot();
  });
  afterAll(() => stopProgram({ emu, program, runner }));

  it("up creates every object of docs.yaml under one component", async () => {
    const up = await runner.up();
    const created = up.steps.filter((s) => s.custom);
    expect(created.every((s) => s.op === "create")).toBe(true);
    expect(created.map(label).sort()).toEqual(
      [
        "OrganizationSettings handbook/settings",
        "MemberRole handbook/member/writer@demo.test",
        "MemberRole handbook/member/reader-1",
        "Team handbook/docs-team",
        "Team handbook/reviewers",
        "TeamMembers handbook/docs-team/members",
        "TeamMembers handbook/reviewers/members",
        "SamlProvider handbook/okta",
        "OpenAPISpec handbook/public-api",
        "Collection handbook/product-docs",
        "Space handbook/guides",
        "Space handbook/api",
        "Space handbook/changelog",
        "Space handbook/whats-new",
        "TranslationSettings handbook/french",
        "Site handbook/handbook",
        "SiteSection handbook/handbook/guides",
        "SiteSection handbook/handbook/api",
        "SiteSection handbook/handbook/changelog",
        "SiteSection handbook/handbook/whats-new",
        "SiteSpace handbook/handbook/whats-new",
        "SiteExternalLink handbook/handbook/status",
        "SiteExternalLink handbook/handbook/community",
        "SiteCustomization handbook/handbook",
        "SiteSpaceCustomization handbook/handbook/api-v1",
        "SiteSpace handbook/handbook/guides",
        "SiteSpace handbook/handbook/api-v1",
        "SiteSpace handbook/handbook/api-changes",
        "SiteSpace handbook/handbook/changelog",
        "SiteSectionGroup handbook/handbook/reference",
        "SiteAdaptiveSchema handbook/handbook",
        "SiteStructureOrder handbook/handbook",
        "Site handbook/partner-preview",
        "SiteSpace handbook/partner-preview/preview-guides",
        "SiteSpace handbook/partner-preview/preview-changelog",
        "ShareLink handbook/partner-preview/acme",
        "ShareLink handbook/partner-preview/globex",
        "SiteStructureOrder handbook/partner-preview",
        "Site handbook/partner-portal",
        "SiteSpace handbook/partner-portal/partner-guides",
        "SiteStructureOrder handbook/partner-portal",
        "Permissions handbook/site/partner-portal",
        "VisitorAuth handbook/partner-portal",
        "Permissions handbook/space/guides",
        "Permissions handbook/collection/product-docs",
        "Integration handbook/status-badges",
        "IntegrationInstallation handbook/status-badges",
      ].sort(),
    );
    // A section is created with its first site space, which is taken over rather than created twice:
    // four sections, but only the other three site spaces (and the partner portal's one) are POSTed.
    expect(writes(up).filter((w) => w.startsWith("POST /sites/:siteId/site-spaces ")).length).toBe(4);
    expect(writes(up).filter((w) => w.startsWith("POST /sites/:siteId/sections ")).length).toBe(4);

    // Stack outputs: the sites' published URLs and IDs by key.
    const live = org(emu.store.snapshot());
    const handbook = live.sites.find((s) => s.title === "Handbook")!;
    const preview = live.sites.find((s) => s.title === "Partner preview")!;
    const portal = live.sites.find((s) => s.title === "Partner portal")!;
    expect(up.outputs["siteIds"]).toEqual({ handbook: handbook.id, "partner-preview": preview.id, "partner-portal": portal.id });
    expect(up.outputs["siteUrls"]).toEqual({
      handbook: expect.stringMatching(/^https:\/\//),
      "partner-preview": expect.stringMatching(/^https:\/\//),
      "partner-portal": expect.stringMatching(/^https:\/\//),
    });

    // The live platform is what docs.yaml declares.
    expect(live.title).toBe("Demo Org");
    expect(live.emailDomains).toEqual(["demo.test"]);
    expect(live.defaultRole).toBe("read");
    expect(live.defaultContent).toEqual({ type: "site", site: handbook.id });
    expect(live.inviteLinks).toBe(false);
    expect(live.members.find((m) => m.user === "writer-1")?.role).toBe("edit");
    expect(live.members.find((m) => m.user === "reader-1")?.role).toBe(null);
    const teams = Object.fromEntries(live.teams.map((t) => [t.title, t.members]));
    expect(teams["Docs Team"]).toEqual(expect.arrayContaining([{ user: "demo-admin", role: "owner" }, { user: "writer-1", role: "member" }]));
    expect(teams["Docs Team"]).toHaveLength(2);
    expect(teams["Reviewers"]).toEqual([{ user: "reader-1", role: "member" }]);
    const collection = live.collections.find((c) => c.title === "Product docs")!;
    expect(collection).toBeDefined();
    expect(live.spaces.filter((s) => s.id.startsWith("space-")).map((s) => [s.id, s.title, s.parent])).toEqual([
      ["space-guides", "Guides", collection.id],
      ["space-api", "API Reference", collection.id],
      ["space-changelog", "Changelog", collection.id],
    ]);
    expect(live.samlProviders.map((p) => p.label)).toEqual(["Okta"]);
    expect(live.openapiSpecs.map((s) => s.slug)).toEqual(["public-api"]);
    expect(live.translations.map((t) => t.title)).toEqual(["French handbook"]);

    expect(handbook).toMatchObject({ visibility: "public", published: true, agentsContext: "included", adaptiveContent: { enabled: true } });
    expect(handbook.sections.map((s) => [s.title, s.path, s.default])).toEqual([
      ["Guides", "guides", true],
      ["API Reference", "api", false],
      ["Changelog", "changes", false],
      ["What's new", "what-s-new", false],
    ]);
    expect(handbook.sections[3]!.draft).toBe(true);
    expect(handbook.navigation).toEqual({ root: ["Guides", "Reference", "What's new", "Status"], Reference: ["API Reference", "Changelog", "Community"] });
    expect(handbook.customization).toMatchObject({ styling: { theme: "bold", primaryColor: { light: "#0B5FFF" } } });
    expect(Object.values(handbook.overrides)).toEqual([{ styling: { primaryColor: { light: "#6D28D9", dark: "#A78BFA" } } }]);
    expect(live.spaces.find((s) => s.title === "What's new")).toMatchObject({ emoji: "✨", parent: collection.id });
    expect(handbook.sections[0]!.siteSpaces.map((ss) => [ss.space, ss.path, ss.default])).toEqual([["space-guides", "guides", true]]);
    expect(handbook.sections[1]!.siteSpaces.map((ss) => [ss.space, ss.path, ss.condition, ss.default])).toEqual([
      ["space-api", "v1", null, true],
      ["space-changelog", "changes", "visitor.claims.beta == true", false],
    ]);
    expect(handbook.sections[2]!).toMatchObject({ condition: "visitor.claims.staff == true" });
    expect(handbook.sectionGroups.map((g) => [g.title, g.icon, g.sections])).toEqual([["Reference", "books", ["api", "changes"]]]);
    expect(Object.keys(handbook.adaptiveSchema?.["properties"] as object).sort()).toEqual(["beta", "staff", "unsigned"]);
    expect(preview).toMatchObject({ visibility: "share-link", published: true, agentsContext: "excluded", sections: [] });
    expect(preview.siteSpaces.map((ss) => [ss.space, ss.path, ss.default])).toEqual([
      ["space-guides", "guides", true],
      ["space-changelog", "changelog", false],
    ]);
    expect(preview.shareLinks.map((l) => [l.name, l.active])).toEqual([
      ["Acme Corp", true],
      ["Globex (expired)", false],
    ]);
  });

  it("declares every resource as a child of the component, ordered by its data", () => {
    const state = runner.resources();
    const component = state.find((r) => r.type === COMPONENT)!;
    expect(component.urn).toBe("urn:pulumi:dev::handbook::docsplatform:index:DocsPlatform::handbook");
    const byLabel = stateByLabel();
    expect(byLabel.size).toBe(47);
    for (const r of byLabel.values()) expect(r.parent, label(r)).toBe(component.urn);
    const urn = (l: string) => {
      const r = byLabel.get(l);
      if (!r) throw new Error(`no ${l} in the state`);
      return r.urn;
    };
    const deps = (l: string) => byLabel.get(l)!.dependencies ?? [];

    // Children depend on their parents through the IDs they take.
    expect(deps("SiteSection handbook/handbook/api")).toEqual(
      expect.arrayContaining([urn("Site handbook/handbook"), urn("Space handbook/api")]),
    );
    expect(deps("SiteSpace handbook/handbook/api-changes")).toEqual(
      expect.arrayContaining([urn("Site handbook/handbook"), urn("SiteSection handbook/handbook/api")]),
    );
    expect(deps("SiteSectionGroup handbook/handbook/reference")).toEqual(
      expect.arrayContaining([urn("SiteSection handbook/handbook/api"), urn("SiteSection handbook/handbook/changelog")]),
    );
    expect(deps("SamlProvider handbook/okta")).toEqual([urn("Team handbook/docs-team")]);
    expect(deps("TeamMembers handbook/reviewers/members")).toEqual([urn("Team handbook/reviewers")]);
    expect(deps("Space handbook/guides")).toEqual([urn("Collection handbook/product-docs")]);
    expect(deps("OrganizationSettings handbook/settings")).toEqual([urn("Site handbook/handbook")]);
    expect(deps("ShareLink handbook/partner-preview/acme")).toEqual([urn("Site handbook/partner-preview")]);
    // Siblings are never chained: sections do not depend on each other.
    expect(deps("SiteSection handbook/handbook/changelog")).not.toContain(urn("SiteSection handbook/handbook/api"));
    // The structure order comes after every section, group and site space of its site.
    const orderDeps = deps("SiteStructureOrder handbook/handbook");
    for (const child of [...byLabel.keys()].filter((l) => /^(SiteSection|SiteSectionGroup|SiteSpace) handbook\/handbook\//.test(l))) {
      expect(orderDeps, child).toContain(urn(child));
    }
    // Share-link URLs carry a token: stored as secrets.
    expect(byLabel.get("ShareLink handbook/partner-preview/acme")!.additionalSecretOutputs).toContain("url");
  });

  it("a second up changes nothing and makes no API call", async () => {
    const noop = await runner.up();
    expect(changes(noop)).toEqual([]);
    expect(noop.steps.filter((s) => s.custom)).toHaveLength(47);
    expect(noop.apiCalls).toEqual([]);
  });

  it("renaming a section title updates that section in place", async () => {
    editDocs((doc) => doc.setIn(["sites", 0, "sections", 0, "title"], "User guides"));
    const up = await runner.up();
    expect(changes(up)).toEqual(["update SiteSection handbook/handbook/guides"]);
    expect(up.steps.find((s) => s.op === "update")?.diffs).toEqual(["title"]);
    expect(writes(up)).toEqual(["PATCH /sites/:siteId/sections/:siteSectionId 200"]);
    expect(site(org(emu.store.snapshot()), "Handbook").sections[0]!.title).toBe("User guides");
  });

  it("moving a site space to another section replaces it and reorders the site", async () => {
    const before = site(org(emu.store.snapshot()), "Handbook");
    const oldId = before.sections[1]!.siteSpaces[1]!.id;
    editDocs((doc) => {
      // Out of the API section…
      const moved = doc.getIn(["sites", 0, "sections", 1, "siteSpaces", 1]) as YAMLMap;
      (doc.getIn(["sites", 0, "sections", 1, "siteSpaces"]) as YAMLSeq).delete(1);
      // …into the guides section, whose `space` shorthand becomes a list with the same first site space.
      const guides = doc.getIn(["sites", 0, "sections", 0]) as YAMLMap;
      guides.delete("space");
      guides.set("siteSpaces", doc.createNode([{ key: "guides", space: "guides" }]));
      (guides.get("siteSpaces") as YAMLSeq).add(moved);
    });
    const up = await runner.up();
    expect(changes(up)).toEqual([
      "replace SiteSpace handbook/handbook/api-changes",
      "update SiteStructureOrder handbook/handbook",
    ]);
    expect(up.steps.find((s) => s.op === "replace")?.diffs).toEqual(["sectionId"]);
    // The old site space goes first (paths are unique at a level), then the new one is created and given its path and condition.
    expect(writes(up).slice(0, 3)).toEqual([
      "DELETE /sites/:siteId/site-spaces/:siteSpaceId 205",
      "POST /sites/:siteId/site-spaces 201",
      "PATCH /sites/:siteId/site-spaces/:siteSpaceId 200",
    ]);
    const after = site(org(emu.store.snapshot()), "Handbook");
    expect(after.sections[0]!.siteSpaces.map((ss) => [ss.space, ss.path, ss.condition])).toEqual([
      ["space-guides", "guides", null],
      ["space-changelog", "changes", "visitor.claims.beta == true"],
    ]);
    expect(after.sections[1]!.siteSpaces.map((ss) => ss.path)).toEqual(["v1"]);
    expect(after.sections[0]!.siteSpaces[1]!.id).not.toBe(oldId);
  });

  it("dropping a share link deletes it", async () => {
    editDocs((doc) => (doc.getIn(["sites", 1, "shareLinks"]) as YAMLSeq).delete(1));
    const up = await runner.up();
    expect(changes(up)).toEqual(["delete ShareLink handbook/partner-preview/globex"]);
    expect(writes(up)).toEqual(["DELETE /sites/:siteId/share-links/:shareLinkId 205"]);
    expect(site(org(emu.store.snapshot()), "Partner preview").shareLinks.map((l) => l.name)).toEqual(["Acme Corp"]);
  });

  it("adding a team member updates the team's memberships", async () => {
    editDocs((doc) => (doc.getIn(["teams", 1, "members"]) as YAMLSeq).add(doc.createNode({ user: "writer-1", role: "owner" })));
    const up = await runner.up();
    expect(changes(up)).toEqual(["update TeamMembers handbook/reviewers/members"]);
    expect(writes(up)).toEqual(["PUT /teams/:teamId/members 204"]);
    const reviewers = org(emu.store.snapshot()).teams.find((t) => t.title === "Reviewers")!;
    expect(reviewers.members).toEqual(
      expect.arrayContaining([
        { user: "reader-1", role: "member" },
        { user: "writer-1", role: "owner" },
      ]),
    );
    expect(reviewers.members).toHaveLength(2);
  });

  it("renaming keys with previousKeys keeps every resource (aliases), with no API call", async () => {
    editDocs((doc) => {
      doc.setIn(["teams", 1, "key"], "review-board");
      doc.setIn(["teams", 1, "previousKeys"], doc.createNode(["reviewers"]));
      doc.setIn(["collections", 0, "permissions", 0, "team"], "review-board");
      doc.setIn(["sites", 1, "key"], "partners");
      doc.setIn(["sites", 1, "previousKeys"], doc.createNode(["partner-preview"]));
    });
    const up = await runner.up();
    expect(changes(up)).toEqual([]);
    expect(up.apiCalls).toEqual([]);
    const names = [...stateByLabel().keys()];
    expect(names).toEqual(
      expect.arrayContaining([
        "Team handbook/review-board",
        "TeamMembers handbook/review-board/members",
        "Site handbook/partners",
        "ShareLink handbook/partners/acme",
        "SiteSpace handbook/partners/preview-guides",
        "SiteStructureOrder handbook/partners",
      ]),
    );
    expect(names.filter((n) => n.includes("reviewers") || n.includes("partner-preview"))).toEqual([]);
    expect(up.outputs["siteUrls"]).toEqual({ handbook: expect.any(String), partners: expect.any(String), "partner-portal": expect.any(String) });
  });

  it("destroy leaves the emulator as the fixture was, but for the space the file created (its content stays)", async () => {
    const down = await runner.destroy();
    expect(down.steps.filter((s) => s.custom).every((s) => s.op === "delete")).toBe(true);
    expect(runner.resources().filter((r) => r.custom && !r.type.startsWith("pulumi:providers"))).toEqual([]);
    // Restoring a space's settings is a write, so its updatedAt moves; everything else is as it was.
    const now = emu.store.snapshot();
    const created = org(now).spaces.find((s) => s.title === "What's new");
    expect(created).toMatchObject({ deletedAt: null });
    org(now).spaces = org(now).spaces.filter((s) => s !== created);
    const fixtureSpaces = new Map(org(fixture).spaces.map((s) => [s.id, s.updatedAt]));
    for (const space of org(now).spaces) {
      const was = fixtureSpaces.get(space.id);
      if (was !== undefined && space.updatedAt !== was) {
        expect(space.updatedAt > was, space.id).toBe(true);
        space.updatedAt = was;
      }
    }
    expect(now).toEqual(fixture);
  });
});
