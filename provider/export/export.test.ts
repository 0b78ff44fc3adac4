/**
 * The export command against the emulator: the file it writes (header, key order, stable keys, what is
 * left out and why, no secrets), progress on stderr, and one clear sentence per failure with exit codes
 * 0 (written), 1 (error) and 2 (usage).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ApiClient } from "../client";
import { parseStack } from "../stack/load";
import { isExternalLink, sectionsOf, type StackFile, type StackSection, type StackSite } from "../file/model";
import { exportMain, type ExportIo } from "./cli";
import { buildVariedOrganization, FIXTURE_CERTIFICATE } from "../../test/support/variedOrganization";
import { KeyAllocator, slugKey } from "../keys";

const ORG = "demo-org";
const KEY = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const NOW = new Date("2025-03-04T05:06:07.000Z");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], env: NodeJS.ProcessEnv, extra: Partial<ExportIo> = {}): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await exportMain(argv, {
    env,
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    now: () => NOW,
    ...extra,
  });
  return { code, stdout, stderr };
}

/** A site's `sections` entries, each a section: the organisation exported here has no external links, so one fails the test. */
function sectionsOnly(site: StackSite | undefined): StackSection[] | undefined {
  expect(site?.sections?.filter(isExternalLink) ?? []).toEqual([]);
  return site && sectionsOf(site);
}

describe("keys", () => {
  it("slugKey: lowercase, accents dropped, other runs to '-', at most 63 characters, fallback when empty", () => {
    expect(slugKey("API Reference", "x")).toBe("api-reference");
    expect(slugKey("  Café — Übersicht!  ", "x")).toBe("cafe-ubersicht");
    expect(slugKey("snake_case stays", "x")).toBe("snake_case-stays");
    expect(slugKey("📘", "space")).toBe("space");
    expect(slugKey("a".repeat(70), "x")).toBe("a".repeat(63));
    expect(slugKey(`${"b".repeat(62)} c`, "x")).toBe("b".repeat(62));
    for (const t of ["API Reference", "--x--", "Ünïcödé", "x".repeat(200), "_lead"]) expect(slugKey(t, "k")).toMatch(KEY);
  });

  it("KeyAllocator: first come keeps the key, later ones get -2, -3 within 63 characters", () => {
    const keys = new KeyAllocator();
    expect([keys.from("Guides", "s"), keys.from("guides", "s"), keys.from("GUIDES!", "s")]).toEqual(["guides", "guides-2", "guides-3"]);
    const long = "z".repeat(63);
    expect(keys.next(long)).toBe(long);
    expect(keys.next(long)).toBe(`${"z".repeat(61)}-2`);
    expect(keys.claim("guides")).toBe(false);
    expect(keys.claim("fresh")).toBe(true);
  });
});

describe("docsplatform export", () => {
  let emu: RunningEmulator;
  let env: NodeJS.ProcessEnv;
  let dir: string;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    const api = new ApiClient({ baseUrl: emu.url, token: emu.token });
    try {
      await buildVariedOrganization(api, ORG);
      // Objects an export cannot adopt unambiguously.
      const partner = (await api.sites.list(ORG, { title: "Partner preview" }))[0];
      if (!partner) throw new Error("fixture: no partner site");
      await api.shareLinks.create(ORG, partner.id, { name: "" });
      await api.shareLinks.create(ORG, partner.id, { name: "Twice" });
      await api.shareLinks.create(ORG, partner.id, { name: "Twice" });
      await api.sites.create(ORG, { title: "Same title" });
      await api.sites.create(ORG, { title: "Same title" });
      await api.saml.create(ORG, { label: "Azure" });
      // A space inside a nested collection: its parent is declared by the collection's key.
      const internal = (await api.collections.list(ORG)).find((c) => c.title === "Internal");
      if (!internal) throw new Error("fixture: no Internal collection");
      await api.spaces.move("space-changelog", { parent: internal.id });
    } finally {
      await api.close();
    }
    env = { DOCSPLATFORM_API_URL: emu.url, DOCSPLATFORM_API_TOKEN: emu.token };
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "export-test-"));
  });
  afterAll(async () => {
    await emu?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("writes a file with a header, schema key order and every object adopted; it validates", async () => {
    const out = path.join(dir, "docs.yaml");
    const res = await run(["--org", ORG, "--out", out], env);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe("");
    const text = fs.readFileSync(out, "utf8");
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^# yaml-language-server: \$schema=\S+stack\.schema\.json$/);
    const schemaRef = /\$schema=(\S+)/.exec(lines[0] ?? "")?.[1] ?? "";
    expect(fs.existsSync(path.resolve(dir, schemaRef))).toBe(true);
    expect(text).toContain(`# The live objects of organization demo-org ("Demo Org"), exported on 2025-03-04T05:06:07.000Z by:`);
    expect(text).toContain(`#   docsplatform export --org demo-org --out ${out}`);

    const loaded = parseStack(text, "docs.yaml");
    if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join("\n"));
    const stack = loaded.stack;
    // Top-level sections in the order of the schema.
    expect(Object.keys(stack)).toEqual(["organization", "settings", "members", "teams", "saml", "openapi", "collections", "spaces", "translations", "sites"]);
    const handbook = stack.sites?.find((s) => s.key === "handbook");
    expect(Object.keys(handbook ?? {})).toEqual([
      "key", "title", "visibility", "published", "agentsContext", "adaptiveContent", "defaultSiteSection", "adaptiveSchema", "sections", "sectionGroups", "adopt",
    ]);
    // Every keyed object is adopted, every key has the schema's shape.
    const keyed: { key?: string; adopt?: boolean }[] = [
      ...(stack.teams ?? []), ...(stack.saml ?? []), ...(stack.openapi ?? []), ...(stack.collections ?? []), ...(stack.spaces ?? []),
      ...(stack.translations ?? []), ...(stack.sites ?? []),
      ...(stack.sites ?? []).flatMap((s) => [...(s.sections ?? []), ...(s.sectionGroups ?? []), ...(s.siteSpaces ?? []), ...(s.shareLinks ?? [])]),
      ...(stack.sites ?? []).flatMap((s) => sectionsOf(s).flatMap((sec) => sec.siteSpaces ?? [])),
      ...(stack.members ?? []),
    ];
    expect(keyed.length).toBe(30);
    for (const o of keyed) {
      expect(o.adopt).toBe(true);
      if (o.key !== undefined) expect(o.key).toMatch(KEY);
    }
  });

  it("derives readable keys, keeps display order, paths explicit, references by key", async () => {
    const { stdout, code } = await run(["--org", ORG], env);
    expect(code).toBe(0);
    const stack = parseYaml(stdout) as StackFile;
    const handbook = stack.sites?.find((s) => s.title === "Handbook");
    const handbookSections = sectionsOnly(handbook);
    expect(handbookSections?.map((s) => [s.key, s.path])).toEqual([["guides", "guides"], ["api", "api"], ["changes", "changes"]]);
    expect(handbook?.defaultSiteSection).toBe("api");
    expect(handbookSections?.[0]).toMatchObject({ space: "guides", icon: "book-open", description: "Step-by-step guides" });
    expect(handbookSections?.[1]?.siteSpaces).toEqual([
      { key: "api-v1", space: "api-reference", path: "v1", adopt: true },
      { key: "api-changes", space: "changelog", path: "changes", condition: "visitor.claims.beta == true", adopt: true },
    ]);
    expect(handbookSections?.[1]?.defaultSiteSpace).toBe("api-v1");
    expect(handbook?.sectionGroups).toEqual([{ key: "reference", title: "Reference", icon: "books", sections: ["api", "changes"], adopt: true }]);
    // Claims keep their order; the schema is the site's own.
    expect(Object.keys(handbook?.adaptiveSchema?.properties ?? {})).toEqual(["beta", "staff", "unsigned"]);

    // Root-level site spaces in display order (changelog was moved first), the default named.
    const partner = stack.sites?.find((s) => s.title === "Partner preview");
    expect(partner?.siteSpaces?.map((s) => s.key)).toEqual(["changelog", "guides"]);
    expect(partner?.defaultSiteSpace).toBe("guides");
    expect(partner?.basename).toBe("partners");
    expect(partner?.shareLinks).toEqual([
      { key: "acme-corp", name: "Acme Corp", adopt: true },
      { key: "globex-expired", name: "Globex (expired)", active: false, adopt: true },
    ]);

    // Two section paths that make the same key: the one shown first keeps it.
    const archive = stack.sites?.find((s) => s.title === "Archive 2023");
    expect(sectionsOnly(archive)?.map((s) => [s.key, s.path])).toEqual([["old-guides", "old-guides"], ["old-guides-2", "Old-Guides"]]);

    expect(stack.settings).toMatchObject({ title: "Demo Org", defaultRole: "read", defaultContent: "handbook", inviteLinks: false, ai: true });
    expect(stack.members).toEqual([
      { user: "demo-admin", role: "admin", adopt: true },
      { user: "reader-1", role: "comment", adopt: true },
      { user: "writer-1", role: "edit", adopt: true },
    ]);
    expect(stack.teams?.find((t) => t.key === "docs-team")?.members).toEqual([{ user: "demo-admin", role: "owner" }, { user: "writer-1" }]);
    expect(stack.saml?.find((p) => p.key === "okta")).toMatchObject({ defaultTeam: "docs-team", defaultRole: "read", certificate: FIXTURE_CERTIFICATE });
    expect(stack.collections?.map((c) => [c.key, c.parent])).toEqual([["product-docs", undefined], ["internal", "product-docs"]]);
    expect(stack.spaces?.map((s) => [s.key, s.id, s.parent])).toEqual([
      ["api-reference", "space-api", undefined],
      ["changelog", "space-changelog", "internal"],
      ["guides", "space-guides", undefined],
    ]);
    expect(stack.spaces?.find((s) => s.key === "changelog")).toMatchObject({ title: "Changelog", emoji: "📰", editMode: "locked" });
    expect(stack.openapi?.map((s) => s.key)).toEqual(["admin-api", "public-api"]);
  });

  it("is deterministic: a second export is the same text", async () => {
    const a = await run(["--org", ORG], env);
    const b = await run(["--org", ORG], env);
    expect(a.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
  });

  it("reads like a hand-written file: flow references, literal certificate, e-mail comments", async () => {
    const { stdout } = await run(["--org", ORG], env);
    expect(stdout).toContain("  - user: writer-1 # writer@demo.test\n");
    expect(stdout).toContain("    certificate: |-\n      -----BEGIN CERTIFICATE-----\n");
    expect(stdout).toContain("        sections: [api, changes]\n");
    expect(stdout).toContain("    adaptiveContent: {enabled: true}\n");
    expect(stdout).toContain("  emailDomains: [demo.test]\n");
    expect(stdout).toMatch(/\n\nsites:\n/);
  });

  it("leaves out what cannot be adopted unambiguously, and says so in the file and on stderr", async () => {
    const { stdout, stderr, code } = await run(["--org", ORG], env);
    expect(code).toBe(0);
    const stack = parseYaml(stdout) as StackFile;
    expect(stack.sites?.map((s) => s.title)).toEqual(["Archive 2023", "Handbook", "Partner preview"]);
    expect(stack.sites?.find((s) => s.title === "Partner preview")?.shareLinks?.map((l) => l.name)).toEqual(["Acme Corp", "Globex (expired)"]);
    expect(stack.saml?.map((p) => p.label)).toEqual(["Azure", "Okta"]);
    for (const text of [stdout, stderr]) {
      expect(text).toMatch(/2 sites share "Same title" \(site_\w+, site_\w+\); adopt needs a unique one/);
      expect(text).toContain(`site "Partner preview": 1 share link(s) without a name cannot be adopted`);
      expect(text).toContain(`site "Partner preview": several share links are named "Twice"`);
    }
  });

  it("never writes a secret: no share-link token, no API token", async () => {
    const { stdout, stderr } = await run(["--org", ORG], env);
    expect(stdout).not.toContain("token=");
    expect(stdout).not.toContain(emu.token);
    expect(stderr).not.toContain(emu.token);
    expect(stdout).not.toMatch(/urls|published: http/);
  });

  it("reports progress on stderr: objects read and requests sent, growing, then a summary", async () => {
    const { stderr, code } = await run(["--org", ORG], env, { progressIntervalMs: 0 });
    expect(code).toBe(0);
    const progress = [...stderr.matchAll(/^export: (\d+) objects read, (\d+) requests$/gm)].map((m) => [Number(m[1]), Number(m[2])] as const);
    expect(progress.length).toBeGreaterThan(5);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]?.[0]).toBeGreaterThanOrEqual(progress[i - 1]?.[0] ?? 0);
    }
    expect(stderr).toMatch(/^export: \d+ objects read in \d+ requests; wrote standard output: 3 sites, 5 sections, .*, organisation settings, 3 member roles, /m);
  });

  it("a wrong token: exit 1 with a sentence naming the variable, never the token", async () => {
    emu.control.clearLog();
    const res = await run(["--org", ORG], { ...env, DOCSPLATFORM_API_TOKEN: "not-a-real-token-123" });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(
      `docsplatform export: the API refused the token (401 Unauthorized) for organization ${ORG}: supply a valid token in DOCSPLATFORM_API_TOKEN; nothing else was attempted\n`,
    );
    expect(res.stdout).toBe("");
    // The export reads many lists at once: one request is sent, the rest are not attempted.
    expect(emu.control.log()).toHaveLength(1);
  });

  it("an unknown organization: exit 1, named", async () => {
    const res = await run(["--org", "no-such-org"], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe("docsplatform export: organization 'no-such-org' not found\n");
  });

  // Regression (#33): `caller:` was never exported, so the lock-out guard was off after adopting.
  it("writes --caller as the file's caller: (a member by e-mail or ID); without it, says to add it; a non-member is refused", async () => {
    const withCaller = await run(["--org", ORG, "--caller", "admin@demo.test"], env);
    expect(withCaller.code).toBe(0);
    expect((parseYaml(withCaller.stdout) as StackFile).caller).toBe("admin@demo.test");
    expect(withCaller.stdout).toMatch(/^organization: demo-org\n\ncaller: admin@demo\.test\n/m);
    expect(withCaller.stdout).toContain("#   docsplatform export --org demo-org --caller admin@demo.test");
    expect(withCaller.stderr).not.toContain("caller");
    const without = await run(["--org", ORG], env);
    expect((parseYaml(without.stdout) as StackFile).caller).toBeUndefined();
    expect(without.stdout).toContain("`caller: <your e-mail address>` (the user the API token acts as)");
    expect(without.stderr).toContain("export: to add: `caller: <your e-mail address>`");
    const stranger = await run(["--org", ORG, "--caller", "nobody@example.com"], env);
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toBe("docsplatform export: --caller nobody@example.com: no member of organization demo-org has this e-mail address; give the user the API token acts as\n");
    expect(stranger.stdout).toBe("");
  });

  // Regression (#33): with standard output redirected to a file elsewhere, `$schema` was relative to the
  // folder the command ran in, so editors found no schema.
  it("makes $schema relative to the written file's folder: --out, or standard output redirected to a file", async () => {
    const elsewhere = path.join(dir, "project", "docs");
    fs.mkdirSync(elsewhere, { recursive: true });
    const schemaOf = (text: string, folder: string) => path.resolve(folder, /\$schema=(\S+)/.exec(text)?.[1] ?? "");
    const real = path.resolve(__dirname, "../../schemas/stack.schema.json");
    const viaOut = await run(["--org", ORG, "--out", "project/docs/out.yaml"], env, { cwd: dir });
    expect(schemaOf(fs.readFileSync(path.join(elsewhere, "out.yaml"), "utf8"), elsewhere)).toBe(real);
    const redirected = await run(["--org", ORG], env, { cwd: dir, stdoutFile: () => path.join(elsewhere, "docs.yaml") });
    expect(viaOut.code + redirected.code).toBe(0);
    expect(schemaOf(redirected.stdout, elsewhere)).toBe(real);
    // As a shell redirects it: the built command, its standard output a file in another folder.
    const file = path.join(elsewhere, "shell.yaml");
    const fd = fs.openSync(file, "w");
    try {
      // Not spawnSync: the emulator answering it runs in this process.
      const { spawn } = await import("node:child_process");
      const child = spawn(process.execPath, [path.resolve(__dirname, "../../dist/provider/cli.js"), "export", "--org", ORG], { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", fd, "ignore"] });
      expect(await new Promise((resolve) => child.on("close", resolve))).toBe(0);
    } finally {
      fs.closeSync(fd);
    }
    expect(schemaOf(fs.readFileSync(file, "utf8"), elsewhere)).toBe(real);
  });

  it("refuses to overwrite a file without --force, and overwrites with it", async () => {
    const out = path.join(dir, "existing.yaml");
    fs.writeFileSync(out, "hand-written\n");
    const refused = await run(["--org", ORG, "--out", out], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("existing.yaml exists; pass --force to overwrite it");
    expect(fs.readFileSync(out, "utf8")).toBe("hand-written\n");
    const forced = await run(["--org", ORG, "--out", out, "--force"], env);
    expect(forced.code).toBe(0);
    expect(fs.readFileSync(out, "utf8")).toContain("organization: demo-org");
  });

  it("usage errors exit 2: no --org, unknown argument, missing environment, a bad URL", async () => {
    expect((await run([], env)).code).toBe(2);
    expect((await run([], env)).stderr).toContain("--org is required");
    expect((await run(["--org", ORG, "--bogus"], env)).stderr).toContain("unknown argument '--bogus'");
    const noToken = await run(["--org", ORG], { DOCSPLATFORM_API_URL: emu.url });
    expect(noToken).toMatchObject({ code: 2 });
    expect(noToken.stderr).toContain("DOCSPLATFORM_API_TOKEN is not set");
    const noUrl = await run(["--org", ORG], { DOCSPLATFORM_API_TOKEN: emu.token });
    expect(noUrl).toMatchObject({ code: 2 });
    expect(noUrl.stderr).toContain("DOCSPLATFORM_API_URL is not set");
    const plain = await run(["--org", ORG], { ...env, DOCSPLATFORM_API_URL: "http://docs.example.com" });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain("DOCSPLATFORM_API_URL");
    expect((await run(["--help"], env)).code).toBe(0);
  });

  it("a rate limit that does not clear: exit 1 with a clear sentence, nothing written", async () => {
    // An emulator of its own: the client shares rate-limit state per base URL across the process.
    const limited = await startEmulator({ port: 0, rateLimit: { limit: 3, windowMs: 600_000 } });
    try {
      const out = path.join(dir, "limited.yaml");
      // Three requests per ten minutes: the window will not reopen within the client's patience.
      const res = await run(["--org", ORG, "--out", out], { DOCSPLATFORM_API_URL: limited.url, DOCSPLATFORM_API_TOKEN: limited.token });
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/^docsplatform export: the API kept rate-limiting the export \(429\) and the limit did not clear/m);
      expect(fs.existsSync(out)).toBe(false);
    } finally {
      await limited.close();
    }
  });
});
