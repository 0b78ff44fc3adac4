/**
 * From "configured by hand" to "managed from the repository": an organisation built by direct API calls
 * is exported, the file validates, and the handbook program run on it through the real language host and
 * dynamic-provider plugin takes every object over — the first up writes nothing, the second makes no API
 * call, and destroy followed by a fresh up rebuilds the same organisation (IDs and timestamps aside).
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator, SnapshotOrg } from "../../emulator";
import type { ProgramRunner, PreparedProgram, RunResult } from "../../test/harness";
import { countObjects } from "../stack/summary";
import { loadStackFile } from "../stack/load";
import { exportMain } from "./cli";
import { stopProgram } from "../../test/support/program";
import { startHandbookOnVariedOrganization } from "../../test/support/variedOrganization";

const ORG = "demo-org";

/** Custom-resource steps as `op Kind name`, sorted. */
function steps(result: RunResult): string[] {
  return result.steps
    .filter((s) => s.custom)
    .map((s) => `${s.op} ${s.type.slice(s.type.lastIndexOf(":") + 1)} ${s.urn.slice(s.urn.lastIndexOf("::") + 2)}`)
    .sort();
}

/** API writes as `METHOD route status`. */
function writes(result: RunResult): string[] {
  return result.apiCalls.filter((c) => c.method !== "GET").map((c) => `${c.method} ${c.route} ${c.status}`);
}

/**
 * The organisation with every ID of an object the provider can recreate replaced by what names it
 * (titles, paths, labels), and every timestamp dropped: two organisations built the same way compare equal.
 */
function comparable(org: SnapshotOrg): unknown {
  const names = new Map<string, string>();
  for (const s of org.sites) {
    names.set(s.id, `site:${s.title}`);
    for (const sec of s.sections) {
      names.set(sec.id, `section:${s.title}/${sec.path}`);
      for (const ss of sec.siteSpaces) names.set(ss.id, `site-space:${s.title}/${sec.path}/${ss.path}`);
    }
    for (const ss of s.siteSpaces) names.set(ss.id, `site-space:${s.title}/${ss.path}`);
    for (const g of s.sectionGroups) names.set(g.id, `group:${s.title}/${g.title}`);
    for (const l of s.shareLinks) names.set(l.id, `share-link:${s.title}/${l.name ?? ""}`);
  }
  for (const t of org.teams) names.set(t.id, `team:${t.title}`);
  for (const c of org.collections) names.set(c.id, `collection:${c.title}`);
  for (const p of org.samlProviders) names.set(p.id, `saml:${p.label}`);
  for (const p of org.openapiSpecs) names.set(p.id, `openapi:${(p as { slug: string }).slug}`);
  for (const t of org.translations) names.set(t.id, `translation:${t.title}`);
  const strip = (v: unknown): unknown => {
    if (typeof v === "string") return names.get(v) ?? v;
    if (Array.isArray(v)) return v.map(strip);
    if (v === null || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (/At$/.test(k) || k === "versions" || k === "lastVersion" || k === "revision") continue;
      out[k] = strip(x);
    }
    return out;
  };
  const sortBy = <T>(list: T[], key: (t: T) => string): T[] => [...list].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const stripped = strip({
    ...org,
    sites: sortBy(org.sites, (s) => s.title),
    teams: sortBy(org.teams, (t) => t.title),
    collections: sortBy(org.collections, (c) => c.title),
    samlProviders: sortBy(org.samlProviders, (p) => p.label),
    openapiSpecs: sortBy(org.openapiSpecs, (p) => (p as { slug: string }).slug),
    translations: sortBy(org.translations, (t) => t.title),
    spaces: sortBy(org.spaces, (s) => s.id),
    members: sortBy(org.members, (m) => m.user),
  }) as Record<string, unknown>;
  for (const site of stripped["sites"] as Record<string, unknown>[]) {
    site["shareLinks"] = sortBy(site["shareLinks"] as { name: string }[], (l) => l.name);
  }
  for (const team of stripped["teams"] as Record<string, unknown>[]) {
    team["members"] = sortBy(team["members"] as { user: string }[], (m) => m.user);
  }
  return stripped;
}

describe("export, then pulumi up on the exported file", () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  let before: unknown;
  const docsFile = (): string => path.join(program.dir, "docs.yaml");

  beforeAll(async () => {
    ({ emu, program, runner } = await startHandbookOnVariedOrganization(ORG));
    before = comparable(emu.store.org(ORG));
  });
  afterAll(() => stopProgram({ emu, program, runner }));

  it("exports a file that validates and adopts every object", async () => {
    let err = "";
    const code = await exportMain(["--org", ORG, "--out", docsFile()], {
      env: { DOCSPLATFORM_API_URL: emu.url, DOCSPLATFORM_API_TOKEN: emu.token },
      stderr: { write: (t: string) => (err += t) },
    });
    expect(err).not.toContain("left out");
    expect(code).toBe(0);
    const loaded = loadStackFile(docsFile());
    if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join("\n"));
    expect(countObjects(loaded)).toEqual({
      OrganizationSettings: 1,
      MemberRole: 3,
      Team: 2,
      TeamMembers: 3,
      SamlProvider: 1,
      OpenAPISpec: 2,
      Collection: 2,
      Space: 3,
      TranslationSettings: 1,
      // The fixture publishes no integration (an exported one needs its script supplied before up).
      Integration: 0,
      Site: 3,
      SiteSection: 5,
      SiteSectionGroup: 1,
      SiteSpace: 8,
      SiteStructureOrder: 0,
      ShareLink: 2,
      SiteAdaptiveSchema: 1,
      // The fixture has no redirect, customization, external link, direct grant, visitor sign-in, installation or Git Sync.
      SiteRedirects: 0,
      SiteCustomization: 0,
      SiteSpaceCustomization: 0,
      SiteExternalLink: 0,
      Permissions: 0,
      VisitorAuth: 0,
      IntegrationInstallation: 0,
      SiteGitSync: 0,
      // Nor a site assistant (agent settings never set are not written).
      SiteMcpServer: 0,
      SiteAgentSettings: 0,
      SiteAgentChannel: 0,
      SiteContextConnection: 0,
      // Nor style guides or agent instructions (provider/export/guides.test.ts exports those).
      StyleGuide: 0,
      SiteStyleGuide: 0,
      AgentInstructions: 0,
    });
  });

  // Regression (#33): the preview showed plain "create" lines, nothing saying live objects would be taken over.
  it("the preview says, for each adopted object it can look up, which live object the up will take over; it writes nothing", async () => {
    const preview = await runner.preview();
    expect(preview.error).toBeUndefined();
    expect(writes(preview)).toEqual([]);
    const said = preview.logs.filter((l) => l.severity === "info").map((l) => l.message);
    const org = emu.store.org(ORG);
    for (const site of org.sites) expect(said).toContain(`adopt: will take over the live site ${JSON.stringify(site.title)} (id ${site.id}) instead of creating one`);
    for (const team of org.teams) expect(said).toContain(`adopt: will take over the live team ${JSON.stringify(team.title)} (id ${team.id}) instead of creating one`);
    for (const collection of org.collections) expect(said).toContain(`adopt: will take over the live collection ${JSON.stringify(collection.title)} (id ${collection.id}) instead of creating one`);
    // No lookup failed (the file's own warnings, such as look-alike paths, are another matter).
    expect(preview.logs.filter((l) => l.severity !== "info" && l.message.startsWith("adopt:")).map((l) => l.message)).toEqual([]);
  });

  it("the first up adopts everything: no API write, the organisation unchanged", async () => {
    const up = await runner.up();
    expect(up.error).toBeUndefined();
    const custom = up.steps.filter((s) => s.custom);
    expect(custom.length).toBeGreaterThan(30);
    expect(custom.filter((s) => s.op !== "create").map((s) => s.urn)).toEqual([]);
    expect(writes(up)).toEqual([]);
    expect(comparable(emu.store.org(ORG))).toEqual(before);
  });

  it("the second up changes nothing and makes no API call", async () => {
    const up = await runner.up();
    expect(up.error).toBeUndefined();
    expect(steps(up).filter((s) => !s.startsWith("same "))).toEqual([]);
    expect(up.apiCalls).toEqual([]);
  });

  it("destroy, then a fresh up, rebuilds the same organisation", async () => {
    const destroyed = await runner.destroy();
    expect(destroyed.error).toBeUndefined();
    expect(emu.store.org(ORG).sites).toEqual([]);
    const up = await runner.up();
    expect(up.error).toBeUndefined();
    expect(comparable(emu.store.org(ORG))).toEqual(before);
    const again = await runner.up();
    expect(again.apiCalls).toEqual([]);
  });
});
