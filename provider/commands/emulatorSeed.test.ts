/**
 * The emulator seeded from a stack file (`docsplatform emulator --seed-from`): the organisation the file
 * refers to exists — its ID, every user it names, what it names by `{id}`, the integrations it installs,
 * the pages its redirects name — and the file then runs against it through the real language host and
 * dynamic-provider plugin: a hand-written file with every kind of reference, and an export's output.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ApiClient } from "../client";
import { exportMain } from "../export/cli";
import { prepareProgram, runnerAgainst, type PreparedProgram, type ProgramRunner } from "../../test/harness";
import { buildVariedOrganization } from "../../test/support/variedOrganization";
import type { WrittenProject } from "../../test/support/noCodeProject";
import { writeOwnProject } from "../../test/support/ownProject";
import { emulatorMain } from "./emulator";
import { describeSeed, SEED_TOKEN, seedFromStack, seedFromStackFile } from "./emulatorSeed";
import { parseStack } from "../stack/load";

/** A file naming users by ID and e-mail address, and spaces, teams, a collection, a site and an integration by what the platform calls them. */
const REFERENCES = `organization: acme-docs
caller: lead@acme.test
settings:
  defaultContent: { id: site-legacy }
members:
  - { user: editor-7, role: edit }
  - { user: lead@acme.test, role: admin }
teams:
  - key: writers
    title: Writers
    members:
      - { user: ana@acme.test, role: owner }
      - { user: editor-7 }
saml:
  - key: okta
    label: Okta
    defaultTeam: { id: team-sso }
collections:
  - key: guides
    title: Guides
    parent: { id: coll-root }
spaces:
  - key: handbook
    id: space-handbook
    title: Handbook
    permissions:
      - { team: { id: team-readers }, role: read }
      - { user: guest@partner.test, role: read }
      - { user: lead@acme.test, role: admin }
sites:
  - key: docs
    title: Docs
    sections:
      - { key: guide, title: Guide, space: handbook }
      - { key: api, title: API, space: { id: space-api } }
    redirects:
      - { source: /install, destination: { siteSpace: guide, page: getting-started/installation } }
installations:
  - key: badges
    integration: status-badges
    sites: [{ id: site-legacy }]
    spaces: [{ id: space-api }]
`;

function stackOf(text: string) {
  const loaded = parseStack(text, "docs.yaml");
  if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join("\n"));
  return loaded;
}

/** What a test started, closed after it. */
const started: { runner?: ProgramRunner; program?: PreparedProgram; project?: WrittenProject; emulators: RunningEmulator[] } = { emulators: [] };
afterEach(async () => {
  await started.runner?.close();
  started.program?.cleanup();
  started.project?.cleanup();
  for (const e of started.emulators.splice(0)) await e.close();
  started.runner = started.program = started.project = undefined;
});

describe("the seed a stack file makes", () => {
  it("has the file's organisation, every user it names, and what it names by {id}", () => {
    const seed = seedFromStack(stackOf(REFERENCES));
    expect(seed.tokens).toEqual({ [SEED_TOKEN]: "lead" });
    expect(seed.users).toEqual([
      { id: "lead", email: "lead@acme.test", displayName: "lead" },
      { id: "editor-7", email: "editor-7@acme.test", displayName: "editor-7" },
      { id: "ana", email: "ana@acme.test", displayName: "ana" },
      { id: "guest", email: "guest@partner.test", displayName: "guest" },
    ]);
    const [org] = seed.organizations;
    // The caller an admin; a user of `members:` with the role the file declares; the others the least role.
    expect(org!.members).toEqual([
      { user: "lead", role: "admin" },
      { user: "editor-7", role: "edit" },
      { user: "ana", role: "read" },
      { user: "guest", role: "read" },
    ]);
    expect(org).toMatchObject({ id: "acme-docs", emailDomains: ["acme.test"] });
    expect(org!.spaces).toEqual([
      // Titled as its `spaces:` entry titles it; with the page the redirect sends readers to.
      { id: "space-handbook", title: "Handbook", pages: [{ title: "Getting started", slug: "getting-started", pages: [{ title: "Installation", slug: "installation", pages: [] }] }] },
      { id: "space-api", title: "space-api" },
    ]);
    expect(org!.collections).toEqual([{ id: "coll-root", title: "coll-root" }]);
    expect(org!.teams).toEqual([
      { id: "team-readers", title: "team-readers" },
      { id: "team-sso", title: "team-sso" },
    ]);
    expect(org!.sites).toEqual([{ id: "site-legacy", title: "site-legacy" }]);
    expect(seed.integrations).toEqual([{ name: "status-badges", title: "status-badges", owner: "acme-docs", visibility: "public" }]);
    expect(describeSeed(seed)).toBe("organisation acme-docs: 4 members, 2 spaces, 1 collection, 2 teams, 1 site, 1 integration");
  });

  it("the style guides it takes over by {id} are guide spaces the platform lists as guides", async () => {
    const text = "organization: solo\nstyleGuides:\n  - { key: house, id: space-house-guide }\nsites:\n  - key: docs\n    title: Docs\n    styleGuide: { id: space-docs-guide }\n";
    const seed = seedFromStack(stackOf(text));
    expect(seed.organizations[0]!.spaces).toEqual([
      { id: "space-house-guide", title: "Style guide space-house-guide", type: "styleguide" },
      { id: "space-docs-guide", title: "Style guide space-docs-guide", type: "styleguide" },
    ]);
    const emu = await startEmulator({ port: 0, seed });
    started.emulators.push(emu);
    const listed = await fetch(`${emu.url}/v1/orgs/solo/styleguides`, { headers: { authorization: `Bearer ${SEED_TOKEN}` } });
    const body = (await listed.json()) as { styleguides: { space: { id: string } }[] };
    expect(body.styleguides.map((g) => g.space.id).sort()).toEqual(["space-docs-guide", "space-house-guide"]);
  });

  it("without a caller, an admin at the organisation's domain; a user ID and its address are one user", () => {
    const seed = seedFromStack(stackOf("organization: solo\nmembers:\n  - { user: w-1, role: edit }\n  - { user: w-1@solo.test, role: edit }\n"));
    expect(seed.users.map((u) => `${u.id} ${u.email}`)).toEqual(["admin admin@solo.test", "w-1 w-1@solo.test"]);
    expect(seed.organizations[0]!.members).toEqual([
      { user: "admin", role: "admin" },
      { user: "w-1", role: "edit" },
    ]);
  });

  it("the file runs against the emulator seeded with it: preview finds every reference, up makes it all, a second up makes no call", async () => {
    const seed = seedFromStack(stackOf(REFERENCES));
    const emu = await startEmulator({ port: 0, seed });
    started.emulators.push(emu);
    started.project = writeOwnProject(REFERENCES);
    started.program = await prepareProgram(started.project.dir, { installPackage: true });
    const runner = (started.runner = runnerAgainst(started.program.dir, { url: emu.url, token: SEED_TOKEN, control: emu.control }));
    const preview = await runner.preview();
    expect(preview.error).toBeUndefined();
    const up = await runner.up();
    expect(up.error).toBeUndefined();
    expect(up.summary.create).toBeGreaterThanOrEqual(12);
    const org = emu.store.org("acme-docs");
    expect(org.installations.map((i) => i.integration)).toEqual(["status-badges"]);
    expect(org.sites.map((s) => s.title).sort()).toEqual(["Docs", "site-legacy"]);
    expect(org.defaultContent).toEqual({ type: "site", site: "site-legacy" });
    const again = await runner.up();
    expect(again.apiCalls).toEqual([]);
  }, 300_000);
});

describe("an export's output", () => {
  it("seeds an emulator its file runs against: the members with the roles they have, the spaces it takes over by ID", async () => {
    const source = await startEmulator({ port: 0 });
    started.emulators.push(source);
    const api = new ApiClient({ baseUrl: source.url, token: source.token });
    try {
      await buildVariedOrganization(api, "demo-org");
    } finally {
      await api.close();
    }
    started.project = writeOwnProject("organization: demo-org\n");
    const file = path.join(started.project.dir, "docs.yaml");
    fs.rmSync(file);
    const code = await exportMain(["--org", "demo-org", "--out", file], {
      env: { DOCSPLATFORM_API_URL: source.url, DOCSPLATFORM_API_TOKEN: source.token },
      stderr: { write: () => true },
    });
    expect(code).toBe(0);

    const made = seedFromStackFile(file);
    if (!made.ok) throw new Error(made.problems.join("\n"));
    const seeded = await startEmulator({ port: 0, seed: made.seed });
    started.emulators.push(seeded);
    const roles = (emu: RunningEmulator) => emu.store.org("demo-org").members.map((m) => `${m.user} ${m.role}`).sort();
    // Every member the export lists (by user ID), with its role; besides them, the seed's admin the token acts as.
    expect(roles(seeded)).toEqual(["admin admin", ...roles(source)].sort());
    const spaces = (emu: RunningEmulator) => emu.store.org("demo-org").spaces.filter((s) => s.deletedAt === null).map((s) => `${s.id} ${s.title}`);
    expect(spaces(seeded).every((s) => spaces(source).includes(s))).toBe(true);

    started.program = await prepareProgram(started.project.dir, { installPackage: true });
    const runner = (started.runner = runnerAgainst(started.program.dir, { url: seeded.url, token: SEED_TOKEN, control: seeded.control }));
    // Nothing to adopt in a fresh organisation: every `adopt: true` entry is created.
    const up = await runner.up();
    expect(up.error).toBeUndefined();
    expect(up.summary.create).toBeGreaterThan(30);
    expect((await runner.up()).apiCalls).toEqual([]);
  }, 300_000);
});

describe("docsplatform emulator --seed-from", () => {
  afterAll(() => vi.restoreAllMocks());

  it("refuses a file that does not validate with its problems at file:line:col, before listening", async () => {
    const project = (started.project = writeOwnProject("organization: acme\nsites:\n  - key: Bad Key\n    title: x\n"));
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const code = await emulatorMain(["--port", "0", "--seed-from", path.join(project.dir, "docs.yaml")]);
    const err = stderr.mock.calls.map((c) => String(c[0])).join("");
    stderr.mockRestore();
    stdout.mockRestore();
    expect(code).toBe(1);
    expect(err).toMatch(/docs\.yaml:3:\d+: sites\[0\]\.key/);
    expect(err).toContain("no seed from");
    expect(stdout.mock.calls.map((c) => String(c[0])).join("")).not.toContain("listening on");
  });

  it("and --seed together are refused", async () => {
    const project = (started.project = writeOwnProject());
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const code = await emulatorMain(["--port", "0", "--seed", "seed.yaml", "--seed-from", path.join(project.dir, "docs.yaml")]);
    const err = stderr.mock.calls.map((c) => String(c[0])).join("");
    stderr.mockRestore();
    expect(code).toBe(1);
    expect(err).toContain("--seed and --seed-from exclude each other");
  });
});
