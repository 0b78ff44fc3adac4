/**
 * The no-code handbook (examples/handbook) through the real Pulumi CLI against the emulator's default
 * fixture: the plan; up creating every object of docs.yaml under one component, the live platform as the
 * file declares it; a second run with nothing to do and no API call; day-two edits shown by `preview
 * --diff`, each making exactly its writes (a renamed section, a site space moved to another section, a
 * dropped share link, a team member added, keys renamed with previousKeys); a hand edit found by refresh;
 * the stack's outputs; its exported state (secrets only as ciphertext); destroy leaving the emulator as
 * the fixture was but for the space the file created. Edits go to the prepared copy, never the example.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { apiOf, type Api } from "../support/api";
import type { RunningEmulator, Snapshot, SnapshotOrg, SnapshotSite } from "../../emulator";
import type { PreparedProgram } from "../harness/program";
import { HANDBOOK, startCliProject, type CliProject } from "./project";
import { HANDBOOK_SECRET_ENV } from "../harness/handbookSecrets";
import { kindsAndNames, resourceSummary as summary, type CliResult, type PulumiCli, type StackDeployment } from "./pulumi";
import { visit, type YAMLMap, type YAMLSeq } from "yaml";

/** Distinctive enough that any occurrence is a leak. */
const TOKEN = `dpt_cli_${randomBytes(16).toString("hex")}`;
const CONFIG_SECRET = `cfg_cli_${randomBytes(16).toString("hex")}`;

let emu: RunningEmulator;
let program: PreparedProgram;
let cli: PulumiCli;
let api: Api;
let fixture: Snapshot;

/** API calls since the last clear, as `METHOD route`, then cleared. */
function calls(): string[] {
  const log = emu.control.log().map((c) => `${c.method} ${c.route.replace(/^\/v1\/orgs\/:organizationId/, "")}`);
  emu.control.clearLog();
  return log;
}

/** `Kind name` of a state resource: the kind from its type, the name from its URN. */
function label(r: { type: string; urn: string }): string {
  return `${r.type.slice(r.type.lastIndexOf(":") + 1)} ${r.urn.slice(r.urn.lastIndexOf("::") + 2)}`;
}

/** API writes since the last clear, as `METHOD route status`, in order, then cleared. */
function writes(): string[] {
  const log = emu.control
    .log()
    .filter((c) => c.method !== "GET")
    .map((c) => `${c.method} ${c.route.replace(/^\/v1\/orgs\/:organizationId/, "")} ${c.status}`);
  emu.control.clearLog();
  return log;
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

const OPS: Record<string, string> = { created: "create", updated: "update", replaced: "replace", deleted: "delete" };

/** What a run did to each resource of ours, as the CLI prints it when a step ends: `op Kind name`, sorted. */
function changes(r: CliResult): string[] {
  const done = r.stdout.matchAll(/^ \S+\s+pulumi-nodejs:dynamic\/docsplatform:(\w+) (\S+) (created|updated|replaced|deleted)\b/gm);
  const ops = new Map<string, Set<string>>();
  for (const [, kind, name, op] of done) ops.set(`${kind} ${name}`, (ops.get(`${kind} ${name}`) ?? new Set()).add(OPS[op!]!));
  // A replacement is printed as its create, the replace and the delete of the old object: one replace.
  return [...ops].map(([resource, o]) => `${o.has("replace") ? "replace" : [...o][0]} ${resource}`).sort();
}

/** The properties the CLI says changed for one resource (`[diff: ~title]`). */
function diffsOf(r: CliResult, resource: string): string[] {
  const [kind, name] = resource.split(" ");
  const line = r.stdout.split("\n").find((l) => l.includes(`docsplatform:${kind} ${name} `) && l.includes("[diff: "));
  return line ? line.slice(line.indexOf("[diff: ") + 7, line.indexOf("]", line.indexOf("[diff: "))).split(/[ ,]+/).map((d) => d.replace(/^[-+~]+/, "")).filter(Boolean) : [];
}

/** The custom resources of the exported state, by `Kind name`. */
async function stateByLabel(): Promise<Map<string, NonNullable<StackDeployment["resources"]>[number]>> {
  const { deployment } = await cli.exportState();
  return new Map((deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/docsplatform:")).map((r) => [label(r), r]));
}

function editDocs(edit: (doc: ReturnType<typeof parseDocument>) => void, dir = program.dir): void {
  const file = path.join(dir, "docs.yaml");
  const doc = parseDocument(fs.readFileSync(file, "utf8"));
  edit(doc);
  fs.writeFileSync(file, doc.toString());
}

/** Sets `field` on the one entry of docs.yaml (or of a site file) whose `key` is `key`, wherever it is. */
function setOnKey(doc: ReturnType<typeof parseDocument>, key: string, field: string, value: unknown): void {
  let found = false;
  visit(doc, {
    Map(_, node) {
      if (node.get("key") !== key) return undefined;
      node.set(field, value);
      found = true;
      return visit.BREAK;
    },
  });
  if (!found) throw new Error(`no entry with key ${key}`);
}

let project: CliProject;

beforeAll(async () => {
  project = await startCliProject(HANDBOOK, {
    token: TOKEN,
    // The installation takes a secret configuration value from the environment.
    prepare: (dir) => editDocs((doc) => doc.setIn(["installations", 0, "secretConfiguration"], doc.createNode({ apiKey: { env: "STATUS_BADGES_API_KEY" } })), dir),
  });
  ({ emu, program, cli } = project);
  fixture = emu.store.snapshot();
  api = apiOf({ url: emu.url, token: TOKEN });
  Object.assign(cli.env, { STATUS_BADGES_API_KEY: CONFIG_SECRET });
  emu.control.clearLog();
}, 120_000);

afterAll(() => project?.stop());

describe("the no-code handbook through the Pulumi CLI", { timeout: 300_000 }, () => {
  it("preview plans every object as a create and writes nothing", async () => {
    const preview = await cli.run(["preview"]);
    expect(summary(preview)).toEqual({ "to create": 69 });
    expect(preview.stdout).not.toMatch(/^\s+[~-]\s/m);
    expect(calls().filter((c) => !c.startsWith("GET"))).toEqual([]);
  });

  it("up creates every object of docs.yaml under one component", async () => {
    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(summary(up)).toEqual({ created: 69 });
    const upWrites = writes();
    const created = [...(await stateByLabel()).values()];
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
        "OpenAPISpec handbook/changelog-api",
        "StyleGuide handbook/house-style",
        "SiteStyleGuide handbook/handbook/styleguide",
        "AgentInstructions handbook/agent-instructions",
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
        "SiteMcpServer handbook/handbook/status-tools",
        "SiteAgentSettings handbook/handbook",
        "SiteAgentChannel handbook/handbook/slack",
        "SiteAgentChannel handbook/handbook/github",
        "SiteContextConnection handbook/handbook/product-issues",
        "SiteContextConnection handbook/handbook/website",
        "Site handbook/partner-preview",
        "SiteSpace handbook/partner-preview/preview-guides",
        "SiteSpace handbook/partner-preview/preview-changelog",
        "ShareLink handbook/partner-preview/acme",
        "ShareLink handbook/partner-preview/globex",
        "SiteStructureOrder handbook/partner-preview",
        "Site handbook/partner-portal",
        "SiteSpace handbook/partner-portal/partner-guides",
        "SiteStructureOrder handbook/partner-portal",
        "Site handbook/developer-portal",
        "SiteSection handbook/developer-portal/portal-start",
        "SiteSection handbook/developer-portal/portal-api",
        "SiteSectionGroup handbook/developer-portal/portal-reference",
        "SiteSpace handbook/developer-portal/guides",
        "SiteSpace handbook/developer-portal/portal-api-v1",
        "SiteSpace handbook/developer-portal/portal-changes",
        "SiteExternalLink handbook/developer-portal/portal-status",
        "SiteStructureOrder handbook/developer-portal",
        "SiteGitSync handbook/developer-portal",
        "Permissions handbook/site/partner-portal",
        "VisitorAuth handbook/partner-portal",
        "Permissions handbook/space/guides",
        "Permissions handbook/collection/product-docs",
        "Integration handbook/status-badges",
        "IntegrationInstallation handbook/status-badges",
      ].sort(),
    );
    // A section is created with its first site space, which is taken over rather than created twice:
    // six sections (the developer portal's two from its site file), but only the other four site spaces
    // (and the partner portal's one) are POSTed.
    expect(upWrites.filter((w) => w.startsWith("POST /sites/:siteId/site-spaces ")).length).toBe(5);
    expect(upWrites.filter((w) => w.startsWith("POST /sites/:siteId/sections ")).length).toBe(6);

    // Stack outputs: the sites' published URLs and IDs by key.
    const outputs = JSON.parse((await cli.run(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    const live = org(emu.store.snapshot());
    const handbook = live.sites.find((s) => s.title === "Handbook")!;
    const preview = live.sites.find((s) => s.title === "Partner preview")!;
    const portal = live.sites.find((s) => s.title === "Partner portal")!;
    const developers = live.sites.find((s) => s.title === "Developer portal")!;
    expect(outputs["siteIds"]).toEqual({ handbook: handbook.id, "partner-preview": preview.id, "partner-portal": portal.id, "developer-portal": developers.id });
    expect(outputs["siteUrls"]).toEqual({
      handbook: expect.stringMatching(/^https:\/\//),
      "developer-portal": expect.stringMatching(/^https:\/\//),
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
    // Created side by side, so listed in the order their creates completed.
    expect(live.openapiSpecs.map((s) => [s.slug, s.visibility, s.sourceURL]).sort()).toEqual([
      ["changelog-api", "public", null],
      ["public-api", "private", "https://api.demo.test/openapi.json"],
    ]);
    const guide = live.spaces.find((s) => s.type === "styleguide")!;
    expect(live.translations.map((t) => t.title)).toEqual(["French handbook"]);

    expect(handbook).toMatchObject({ visibility: "public", published: true, agentsContext: "included", adaptiveContent: { enabled: true }, defaultLevel: "read", styleguide: guide.id });
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
    expect(preview.siteSpaces.map((ss) => [ss.space, ss.path, ss.default, ss.hidden])).toEqual([
      ["space-guides", "guides", true, false],
      ["space-changelog", "changelog", false, true],
    ]);
    // Created side by side, so listed in the order their creates completed.
    expect(preview.shareLinks.map((l) => [l.name, l.active]).sort()).toEqual([
      ["Acme Corp", true],
      ["Globex (expired)", false],
    ]);
  });

  it("declares every resource as a child of the component, ordered by its data", async () => {
    const { deployment } = await cli.exportState();
    const component = deployment.resources!.find((r) => r.type === "docsplatform:index:DocsPlatform")!;
    expect(component.urn).toBe("urn:pulumi:dev::handbook::docsplatform:index:DocsPlatform::handbook");
    const byLabel = await stateByLabel();
    expect(byLabel.size).toBe(67);
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

  it("preview --expect-no-changes passes, and makes no API call", async () => {
    const preview = await cli.run(["preview", "--expect-no-changes"]);
    expect(summary(preview)).toEqual({ unchanged: 69 });
    expect(calls()).toEqual([]);
  });

  it("a second up changes nothing and makes no API call", async () => {
    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(summary(up)).toEqual({ unchanged: 69 });
    expect(calls()).toEqual([]);
  });

  it("a renamed section title: preview --diff shows the changed property, up makes one PATCH", async () => {
    editDocs((doc) => doc.setIn(["sites", 0, "sections", 0, "title"], "User guides"));
    const preview = await cli.run(["preview", "--diff"]);
    expect(summary(preview)).toEqual({ "to update": 1, unchanged: 68 });
    expect(preview.stdout).toMatch(/~ pulumi-nodejs:dynamic\/docsplatform:SiteSection: \(update\)/);
    expect(preview.stdout).toMatch(/~ title\s*: "Guides" => "User guides"/);
    // Internal inputs never show as changed properties.
    expect(preview.stdout).not.toMatch(/~ (location|allowLockout)\b/);
    calls();
    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(summary(up)).toEqual({ updated: 1, unchanged: 68 });
    expect(calls().filter((c) => !c.startsWith("GET"))).toEqual(["PATCH /sites/:siteId/sections/:siteSectionId"]);
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
    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    const w = writes();
    expect(changes(up)).toEqual([
      "replace SiteSpace handbook/handbook/api-changes",
      "update SiteStructureOrder handbook/handbook",
    ]);
    expect(diffsOf(up, "SiteSpace handbook/handbook/api-changes")).toEqual(["sectionId"]);
    // The old site space goes first (paths are unique at a level), then the new one is created and given its path and condition.
    expect(w.slice(0, 3)).toEqual([
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

  it("a dropped share link: preview --diff shows the delete, up deletes it", async () => {
    editDocs((doc) => (doc.getIn(["sites", 1, "shareLinks"]) as { delete(i: number): void }).delete(1));
    const preview = await cli.run(["preview", "--diff"]);
    expect(summary(preview)).toEqual({ "to delete": 1, unchanged: 68 });
    expect(preview.stdout).toMatch(/- pulumi-nodejs:dynamic\/docsplatform:ShareLink: \(delete\)/);
    calls();
    await cli.run(["up", "--yes", "--skip-preview"]);
    expect(calls().filter((c) => !c.startsWith("GET"))).toEqual(["DELETE /sites/:siteId/share-links/:shareLinkId"]);
  });

  it("adding a team member updates the team's memberships", async () => {
    editDocs((doc) => (doc.getIn(["teams", 1, "members"]) as YAMLSeq).add(doc.createNode({ user: "writer-1", role: "owner" })));
    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(changes(up)).toEqual(["update TeamMembers handbook/reviewers/members"]);
    expect(writes()).toEqual(["PUT /teams/:teamId/members 204"]);
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
    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(changes(up)).toEqual([]);
    expect(calls()).toEqual([]);
    const names = [...(await stateByLabel()).keys()];
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
    const outputs = JSON.parse((await cli.run(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    expect(outputs["siteUrls"]).toEqual({ handbook: expect.any(String), partners: expect.any(String), "partner-portal": expect.any(String), "developer-portal": expect.any(String) });
  });

  it("a hand edit on the platform: preview --refresh --expect-no-changes fails, refresh finds it, up puts it back", async () => {
    const sites = await api<{ items: { id: string; title: string }[] }>("GET", "/v1/orgs/demo-org/sites");
    const handbook = sites.items.find((s) => s.title === "Handbook")!;
    const sections = await api<{ items: { id: string; title: string }[] }>("GET", `/v1/orgs/demo-org/sites/${handbook.id}/sections`);
    const guides = sections.items.find((s) => s.title === "User guides")!;
    await api("PATCH", `/v1/orgs/demo-org/sites/${handbook.id}/sections/${guides.id}`, { title: "Edited by hand" });

    const drift = await cli.run(["preview", "--refresh", "--expect-no-changes"], { allowFailure: true });
    expect(drift.code).not.toBe(0);
    expect(`${drift.stdout}\n${drift.stderr}`).toMatch(/no changes were expected for preview but changes were proposed/i);

    const refresh = await cli.run(["refresh", "--yes", "--skip-preview"]);
    expect(summary(refresh)).toMatchObject({ updated: 1 });
    const { deployment } = await cli.exportState();
    const state = deployment.resources!.find((r) => r.urn.endsWith("::handbook/handbook/guides"))!;
    expect(state.outputs!["title"]).toBe("Edited by hand");

    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(summary(up)).toMatchObject({ updated: 1 });
    const after = await api<{ items: { id: string; title: string }[] }>("GET", `/v1/orgs/demo-org/sites/${handbook.id}/sections`);
    expect(after.items.find((s) => s.id === guides.id)?.title).toBe("User guides");
    calls();
  });

  it("day-two edits of the newer blocks each make exactly their writes: a server added, a header value changed, a connection removed, a space hidden, the spec file edited, a section moved in the site file", async () => {
    calls();
    // An MCP server added: one POST; its header comes from the environment.
    cli.env["HANDBOOK_MCP_TOKEN_2"] = `Bearer ${randomBytes(12).toString("hex")}`;
    editDocs((doc) =>
      (doc.getIn(["sites", 0, "mcpServers"]) as YAMLSeq).add(
        doc.createNode({ key: "search-tools", name: "Search tools", url: "https://mcp.search.demo.test/mcp", transport: "http", headers: { Authorization: { env: "HANDBOOK_MCP_TOKEN_2" } } }),
      ),
    );
    let up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(changes(up)).toEqual(["create SiteMcpServer handbook/handbook/search-tools"]);
    expect(writes()).toEqual(["POST /sites/:siteId/mcp-servers 201"]);

    // A header value changed where it lives (the environment): one PATCH of the one server that uses it.
    const rotated = `Bearer ${randomBytes(12).toString("hex")}`;
    cli.env["HANDBOOK_MCP_TOKEN_2"] = rotated;
    up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(changes(up)).toEqual(["update SiteMcpServer handbook/handbook/search-tools"]);
    expect(writes()).toEqual(["PATCH /sites/:siteId/mcp-servers/:siteMcpServerId 200"]);
    const handbook = org(emu.store.snapshot()).sites.find((x) => x.title === "Handbook")!;
    const servers = await api<{ items: { id: string; name: string; headers: Record<string, string> }[] }>("GET", `/v1/orgs/demo-org/sites/${handbook.id}/mcp-servers`);
    expect(servers.items.find((x) => x.name === "Search tools")?.headers).toEqual({ Authorization: rotated });

    // A context connection removed: one DELETE.
    editDocs((doc) => {
      const list = doc.getIn(["sites", 0, "contextConnections"]) as YAMLSeq<YAMLMap>;
      list.delete(list.items.findIndex((c) => c.get("key") === "website"));
    });
    up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(changes(up)).toEqual(["delete SiteContextConnection handbook/handbook/website"]);
    expect(writes()).toEqual([expect.stringMatching(/^DELETE \/sites\/:siteId\/context-connections\/:siteContextConnectionId 20[45]$/)]);

    // A site space hidden: one PATCH (the platform's create has no hidden, so it is never a replace).
    editDocs((doc) => setOnKey(doc, "api-changes", "hidden", true));
    up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(changes(up)).toEqual(["update SiteSpace handbook/handbook/api-changes"]);
    expect(writes()).toEqual([expect.stringMatching(/^PATCH \/sites\/:siteId\/site-spaces\/:siteSpaceId 20[04]$/)]);

    // The spec file edited: one PUT of its text; rewritten unchanged, no call.
    const specFile = path.join(program.dir, "openapi", "changelog-api.yaml");
    const spec = fs.readFileSync(specFile, "utf8");
    fs.writeFileSync(specFile, spec.replace("List releases, newest first", "List every release, newest first"));
    up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(changes(up)).toEqual(["update OpenAPISpec handbook/changelog-api"]);
    expect(writes()).toEqual([expect.stringMatching(/^PUT \/openapi\/:specSlug 20[01]$/)]);
    fs.writeFileSync(specFile, fs.readFileSync(specFile, "utf8"));
    up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(changes(up)).toEqual([]);
    expect(calls()).toEqual([]);

    // A section (here the group holding the API section) moved in the site file: the site's order, one sort.
    const siteFile = path.join(program.dir, "developer-portal", "gitbook-docs.yaml");
    const siteDoc = parseDocument(fs.readFileSync(siteFile, "utf8"));
    const structure = siteDoc.getIn(["site", "structure"]) as YAMLSeq;
    structure.items.unshift(structure.items.pop()!);
    fs.writeFileSync(siteFile, siteDoc.toString());
    const preview = await cli.run(["preview", "--diff"]);
    expect(summary(preview)).toMatchObject({ "to update": 1 });
    expect(preview.stdout).toMatch(/~ pulumi-nodejs:dynamic\/docsplatform:SiteStructureOrder: \(update\)/);
    calls();
    up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(changes(up)).toEqual(["update SiteStructureOrder handbook/developer-portal"]);
    expect(writes()).toEqual([expect.stringMatching(/^PATCH \/sites\/:siteId\/structure\/sort 20[04]$/)]);
    const portal = org(emu.store.snapshot()).sites.find((x) => x.title === "Developer portal")!;
    expect(portal.navigation.root?.[0]).toBe("Reference");

    // Nothing left to do, and the new header value only as ciphertext in the state.
    up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(changes(up)).toEqual([]);
    expect(calls()).toEqual([]);
    expect((await cli.exportState()).text.includes(rotated)).toBe(false);
  });

  it("an MCP server renamed by hand: refresh finds it, up puts the file's name back with one PATCH", async () => {
    const handbook = org(emu.store.snapshot()).sites.find((x) => x.title === "Handbook")!;
    const servers = await api<{ items: { id: string; name: string }[] }>("GET", `/v1/orgs/demo-org/sites/${handbook.id}/mcp-servers`);
    const status = servers.items.find((x) => x.name === "Status tools")!;
    await api("PATCH", `/v1/orgs/demo-org/sites/${handbook.id}/mcp-servers/${status.id}`, { name: "Renamed by hand" });
    calls();
    const refresh = await cli.run(["refresh", "--yes", "--skip-preview"]);
    expect(summary(refresh)).toMatchObject({ updated: 1 });
    expect(writes()).toEqual([]);
    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(changes(up)).toEqual(["update SiteMcpServer handbook/handbook/status-tools"]);
    expect(writes()).toEqual(["PATCH /sites/:siteId/mcp-servers/:siteMcpServerId 200"]);
    const after = await api<{ items: { id: string; name: string }[] }>("GET", `/v1/orgs/demo-org/sites/${handbook.id}/mcp-servers`);
    expect(after.items.find((x) => x.id === status.id)?.name).toBe("Status tools");
  });

  it("pulumi stack output: the sites' URLs and IDs by key", async () => {
    const { stdout } = await cli.run(["stack", "output", "--json"]);
    const outputs = JSON.parse(stdout) as { siteUrls: Record<string, string>; siteIds: Record<string, string> };
    expect(Object.keys(outputs.siteUrls).sort()).toEqual(["developer-portal", "handbook", "partner-portal", "partners"]);
    expect(Object.keys(outputs.siteIds).sort()).toEqual(["developer-portal", "handbook", "partner-portal", "partners"]);
  });

  it("pulumi stack export: the token, the visitor-auth private key, the integration secret and the assistant's header and token appear only as ciphertext", async () => {
    const { text, deployment } = await cli.exportState();
    const portal = (await api<{ items: { id: string; title: string }[] }>("GET", "/v1/orgs/demo-org/sites")).items.find((s) => s.title === "Partner portal")!;
    const { privateKey } = await api<{ privateKey: string }>("GET", `/v1/orgs/demo-org/sites/${portal.id}/publishing/auth`);
    expect(privateKey.length).toBeGreaterThan(16);
    for (const secret of [TOKEN, privateKey, CONFIG_SECRET, ...Object.values(HANDBOOK_SECRET_ENV)]) expect(text.includes(secret), secret).toBe(false);
    // The MCP server's headers and the connection's token are kept as digests, in secret outputs.
    const server = deployment.resources!.find((r) => r.type.endsWith(":SiteMcpServer"))!;
    expect(server.additionalSecretOutputs).toContain("headers");
    // The key is in the state, as a secret the passphrase provider encrypted.
    const auth = deployment.resources!.find((r) => r.type.endsWith(":VisitorAuth"))!;
    expect(JSON.stringify(auth.outputs)).toMatch(/"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","ciphertext"/);
    const config = fs.readFileSync(path.join(program.dir, "Pulumi.dev.yaml"), "utf8");
    expect(config.includes(TOKEN)).toBe(false);
    expect(config).toMatch(/docsplatform:apiToken:\s+secure: /);
  });

  it("destroy removes every object but the space the file created and the style guide", async () => {
    const down = await cli.run(["destroy", "--yes", "--skip-preview"]);
    expect(summary(down)).toMatchObject({ deleted: expect.any(Number) });
    expect(down.stdout).toMatch(/delete\[retain\]|retain/i);
    const { deployment } = await cli.exportState();
    expect(kindsAndNames(deployment)).toEqual([]);
    const spaces = await api<{ items: { title: string }[] }>("GET", "/v1/orgs/demo-org/spaces");
    expect(spaces.items.map((s) => s.title)).toContain("What's new");
    const sites = await api<{ items: unknown[] }>("GET", "/v1/orgs/demo-org/sites");
    expect(sites.items).toEqual([]);
    // Restoring a space's settings is a write, so its updatedAt moves; everything else is as it was.
    const now = emu.store.snapshot();
    const created = org(now).spaces.find((s) => s.title === "What's new");
    expect(created).toMatchObject({ deletedAt: null });
    // A style guide is content too: it stays.
    const guide = org(now).spaces.find((s) => s.type === "styleguide");
    expect(guide).toMatchObject({ deletedAt: null });
    org(now).spaces = org(now).spaces.filter((s) => s !== created && s !== guide);
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
