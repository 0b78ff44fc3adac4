import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index";
import { ApiClient, ApiError, closeSharedClients, isConflict, isNotFound, isOutcomeUnknown, isRateLimited, sharedClient } from "./index";
import { Started } from "../../test/support/emulator";
import { SecretRecorder } from "../../test/support/secrets";
import { clientTuningFromEnv } from "../env";

// A distinctive token, so that the scan at the end cannot be fooled by a common word.
const TOKEN = "dpt_SCAN_4b9e1f07c3a2d5e8";
const WRONG_TOKEN = "dpt_WRONG_81c4a9e2f70b";
const ORG = "demo-org";
const rec = new SecretRecorder();
const started = new Started(TOKEN, { logger: rec.logger });
let emu: RunningEmulator;
let api: ApiClient;

beforeAll(async () => {
  emu = await started.emulator();
  api = started.client(emu.url);
  started.onClose(closeSharedClients);
});

afterAll(async () => {
  await started.close();
  // The token scan: every error and log line this file produced.
  expect(rec.lines.length).toBeGreaterThan(20);
  expect(rec.errors.length).toBeGreaterThan(5);
  expect(rec.occurrences(TOKEN)).toBe(0);
  expect(rec.occurrences(WRONG_TOKEN)).toBe(0);
  expect(rec.occurrences("reader-token")).toBe(0);
});

describe("typed areas against the emulator", () => {
  it("sites: create, get, list by title, update, adaptive schema, published view, delete", async () => {
    const site = await api.sites.create(ORG, { title: "Client Handbook", spaces: ["space-guides"] });
    expect(site).toMatchObject({ object: "site", title: "Client Handbook", published: false, siteSpaces: 1 });
    expect(await api.sites.get(ORG, site.id)).toMatchObject({ id: site.id });
    expect((await api.sites.list(ORG, { title: "Client Handbook" })).map((s) => s.id)).toEqual([site.id]);
    const updated = await api.sites.update(ORG, site.id, { published: true, visibility: "unlisted" });
    expect(updated).toMatchObject({ published: true, visibility: "unlisted" });

    const empty = await api.sites.getAdaptiveSchema(ORG, site.id);
    expect(empty.jsonSchema).toMatchObject({ type: "object", additionalProperties: false });
    const jsonSchema = {
      type: "object" as const,
      properties: { isBeta: { type: "boolean", description: "in the beta programme" } },
      additionalProperties: false as const,
    };
    const put = await api.sites.putAdaptiveSchema(ORG, site.id, { jsonSchema });
    expect(put.jsonSchema.properties).toHaveProperty("isBeta");
    expect(Array.isArray(await api.sites.templateConditions(ORG, site.id))).toBe(true);

    const pub = await api.sites.published(ORG, site.id);
    expect(pub.object).toBe("published-content-site");
    expect(pub.site.id).toBe(site.id);

    await api.sites.delete(ORG, site.id);
    const gone = await rec.failure(api.sites.get(ORG, site.id));
    expect(isNotFound(gone)).toBe(true);
  });

  it("sections, section groups, site spaces and share links", async () => {
    const site = await api.sites.create(ORG, { title: "Structure Site" });
    const guides = await api.sections.create(ORG, site.id, { spaceId: "space-guides", title: "Guides" });
    const apiRef = await api.sections.create(ORG, site.id, { spaceId: "space-api", title: "API" });
    expect(guides.default).toBe(true);
    expect((await api.sections.list(ORG, site.id)).map((s) => s.id)).toEqual([guides.id, apiRef.id]);

    await api.sections.move(ORG, site.id, apiRef.id, { before: guides.id });
    expect((await api.sections.list(ORG, site.id)).map((s) => s.id)).toEqual([apiRef.id, guides.id]);
    const renamed = await api.sections.update(ORG, site.id, guides.id, { title: "User Guides", condition: "visitor.claims.isBeta" });
    expect(renamed).toMatchObject({ title: "User Guides", condition: "visitor.claims.isBeta" });

    const group = await api.sectionGroups.create(ORG, site.id, { title: "Products", sections: [guides.id] });
    expect(group.sections?.map((s) => s.id)).toEqual([guides.id]);
    await api.sectionGroups.addSection(ORG, site.id, group.id, apiRef.id);
    expect((await api.sectionGroups.list(ORG, site.id))[0]!.sections?.map((s) => s.id).sort()).toEqual([apiRef.id, guides.id].sort());
    await api.sectionGroups.removeSection(ORG, site.id, group.id, apiRef.id);
    expect(await api.sectionGroups.update(ORG, site.id, group.id, { title: "Product docs" })).toMatchObject({ title: "Product docs" });
    await api.sectionGroups.delete(ORG, site.id, group.id);
    expect(await api.sectionGroups.list(ORG, site.id)).toEqual([]);

    const ss = await api.siteSpaces.create(ORG, site.id, { spaceId: "space-changelog", sectionId: apiRef.id });
    expect(ss).toMatchObject({ object: "site-space", section: apiRef.id });
    const inApi = (await api.siteSpaces.list(ORG, site.id)).filter((x) => x.section === apiRef.id);
    expect(inApi.map((x) => x.id)).toContain(ss.id);
    await api.siteSpaces.move(ORG, site.id, ss.id, { before: inApi[0]!.id });
    expect(await api.siteSpaces.update(ORG, site.id, ss.id, { path: "changes" })).toMatchObject({ path: "changes" });
    expect((await api.siteSpaces.list(ORG, site.id, { default: true })).every((x) => x.default === true)).toBe(true);
    await api.siteSpaces.delete(ORG, site.id, ss.id);

    const link = await api.shareLinks.create(ORG, site.id, { name: "partners" });
    expect(link).toMatchObject({ object: "share-link", name: "partners" });
    expect(await api.shareLinks.update(ORG, site.id, link.id, { active: false })).toMatchObject({ active: false });
    expect((await api.shareLinks.list(ORG, site.id)).map((l) => l.id)).toEqual([link.id]);
    await api.shareLinks.delete(ORG, site.id, link.id);
    // A delete of something gone answers 404: callers treat it as done.
    expect(isNotFound(await rec.failure(api.shareLinks.delete(ORG, site.id, link.id)))).toBe(true);

    await api.sections.delete(ORG, site.id, apiRef.id);
    expect((await api.sections.list(ORG, site.id)).map((s) => s.id)).toEqual([guides.id]);
    await api.sites.delete(ORG, site.id);
  });

  it("teams and team members", async () => {
    const team = await api.teams.create(ORG, { title: "Client Writers", members: ["writer@demo.test"] });
    expect(team).toMatchObject({ object: "team", title: "Client Writers" });
    expect((await api.teams.listMembers(ORG, team.id)).map((m) => m.organization.id)).toEqual(["writer-1"]);
    await api.teams.putMember(ORG, team.id, "reader-1", { role: "owner" });
    await api.teams.updateMembers(ORG, team.id, { remove: ["writer-1"] });
    const members = await api.teams.listMembers(ORG, team.id);
    expect(members.map((m) => [m.organization.id, m.team.role])).toEqual([["reader-1", "owner"]]);
    await api.teams.removeMember(ORG, team.id, "reader-1");
    expect(await api.teams.update(ORG, team.id, { title: "Client Editors" })).toMatchObject({ title: "Client Editors" });
    expect((await api.teams.list(ORG, { title: "client edit" })).map((t) => t.id)).toEqual([team.id]);
    await api.teams.delete(ORG, team.id);
    expect(isNotFound(await rec.failure(api.teams.get(ORG, team.id)))).toBe(true);
  });

  it("encodes path parameters", async () => {
    const err = (await rec.failure(api.sites.get(ORG, "a/b?c"))) as ApiError;
    expect(err.status).toBe(404);
    expect(err.path).toBe("/v1/orgs/demo-org/sites/a%2Fb%3Fc");
  });
});

describe("paging", () => {
  it("follows next.page across many pages and collects every item once", async () => {
    const site = await api.sites.create(ORG, { title: "Paged Site" });
    const names = Array.from({ length: 57 }, (_, i) => `link-${String(i).padStart(2, "0")}`);
    await Promise.all(names.map((name) => api.shareLinks.create(ORG, site.id, { name })));
    emu.control.clearLog();

    const seen: string[] = [];
    for await (const link of api.paginate<{ name: string }>(`/v1/orgs/${ORG}/sites/${site.id}/share-links`, { limit: 5 })) {
      seen.push(link.name);
    }
    expect(seen.sort()).toEqual(names);
    expect(emu.control.log().filter((e) => e.method === "GET")).toHaveLength(12);

    emu.control.clearLog();
    const all = await api.shareLinks.list(ORG, site.id);
    expect(all).toHaveLength(57);
    // limit=1000 by default: one page.
    expect(emu.control.log()).toHaveLength(1);
    await api.sites.delete(ORG, site.id);
  });

  it("an async iterator can stop early without fetching further pages", async () => {
    const site = await api.sites.create(ORG, { title: "Early Stop" });
    for (const name of ["a", "b", "c", "d"]) await api.shareLinks.create(ORG, site.id, { name });
    emu.control.clearLog();
    for await (const link of api.paginate<{ name: string }>(`/v1/orgs/${ORG}/sites/${site.id}/share-links`, { limit: 2 })) {
      expect(link.name).toBeTruthy();
      break;
    }
    expect(emu.control.log()).toHaveLength(1);
    await api.sites.delete(ORG, site.id);
  });
});

describe("error mapping", () => {
  it("400: names the field and limit from the server message", async () => {
    const err = (await rec.failure(api.sites.create(ORG, { title: "x" }))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: "HTTP_400", method: "POST", path: `/v1/orgs/${ORG}/sites`, outcomeUnknown: false });
    expect(err.message).toMatch(/^POST \/v1\/orgs\/demo-org\/sites: 400 Bad Request: .*title/);
  });

  it("401: an unknown token", async () => {
    const bad = new ApiClient({ baseUrl: emu.url, token: WRONG_TOKEN, logger: rec.logger });
    const err = (await rec.failure(bad.sites.list(ORG))) as ApiError;
    expect(err).toMatchObject({ status: 401, code: "HTTP_401" });
    expect(err.message).toBe(`GET /v1/orgs/${ORG}/sites: 401 Unauthorized: unknown API token`);
    await bad.close();
  });

  it("403: a reader managing sites", async () => {
    const reader = new ApiClient({ baseUrl: emu.url, token: "reader-token", logger: rec.logger });
    const err = (await rec.failure(reader.sites.create(ORG, { title: "Not allowed" }))) as ApiError;
    expect(err).toMatchObject({ status: 403, code: "HTTP_403", outcomeUnknown: false });
    expect(err.message).toMatch(/^POST \/v1\/orgs\/demo-org\/sites: 403 Forbidden: /);
    await reader.close();
  });

  it("404: unknown IDs, with isNotFound", async () => {
    const err = (await rec.failure(api.sites.get(ORG, "site_missing"))) as ApiError;
    expect(isNotFound(err)).toBe(true);
    expect(isRateLimited(err) || isOutcomeUnknown(err) || isConflict(err)).toBe(false);
    expect(err.message).toMatch(/^GET \/v1\/orgs\/demo-org\/sites\/site_missing: 404 Not Found: /);
  });

  it("409: a uniqueness conflict", async () => {
    const team = await api.teams.create(ORG, { title: "Unique Team" });
    const err = (await rec.failure(api.teams.create(ORG, { title: "Unique Team" }))) as ApiError;
    expect(isConflict(err)).toBe(true);
    expect(err.outcomeUnknown).toBe(false);
    expect(err.message).toMatch(/409 Conflict: a team titled 'Unique Team' already exists/);
    await api.teams.delete(ORG, team.id);
  });

  it("413: a body over 1 MiB", async () => {
    const err = (await rec.failure(api.sites.create(ORG, { title: "x".repeat(1_100_000) }))) as ApiError;
    expect(err).toMatchObject({ status: 413, code: "HTTP_413" });
  });

  it("500/502/503 on a GET after every retry", async () => {
    emu.control.setFaults({ seed: 3, error5xxRate: 1, methods: ["GET"] });
    try {
      const c = new ApiClient({ baseUrl: emu.url, token: TOKEN, logger: rec.logger, retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 } });
      const err = (await rec.failure(c.sites.list(ORG))) as ApiError;
      expect([500, 502, 503]).toContain(err.status);
      expect(err.code).toBe(`HTTP_${err.status}`);
      expect(err.outcomeUnknown).toBe(false);
      expect(err.message).toMatch(/: 50[023] [A-Za-z ]+: injected server error/);
      expect(c.stats).toMatchObject({ requests: 3, retries: 2 });
      await c.close();
    } finally {
      emu.control.setFaults(null);
    }
  });

  it("an ApiError serialises without headers, token or cause", async () => {
    const err = (await rec.failure(api.sites.get(ORG, "nope"))) as ApiError;
    expect(JSON.parse(JSON.stringify(err))).toEqual({
      name: "ApiError",
      message: err.message,
      status: 404,
      code: "HTTP_404",
      method: "GET",
      path: `/v1/orgs/${ORG}/sites/nope`,
      outcomeUnknown: false,
    });
  });
});

describe("clients and logging", () => {
  it("sharedClient returns one client per base URL and token, keyed without the token", () => {
    const a = sharedClient({ baseUrl: emu.url, token: TOKEN });
    expect(sharedClient({ baseUrl: emu.url, token: TOKEN })).toBe(a);
    expect(sharedClient({ baseUrl: emu.url, token: "reader-token" })).not.toBe(a);
    expect(inspect(a, { depth: 4, showHidden: true })).not.toContain(TOKEN);
  });

  /** What a client tuned from the environment (as the provider's is) writes to stderr while `use` runs; stderr itself gets none of it. */
  async function stderrOfClient(use: (c: ApiClient) => Promise<void>): Promise<string[]> {
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const c = new ApiClient({ baseUrl: emu.url, token: TOKEN, ...clientTuningFromEnv() });
      await use(c);
      await c.close();
    } finally {
      process.stderr.write = original;
    }
    return written;
  }

  it("DOCSPLATFORM_DEBUG=1 logs each request to stderr with method, path, status, duration and retries", async () => {
    process.env.DOCSPLATFORM_DEBUG = "1";
    const written = await stderrOfClient(async (c) => {
      await c.sites.list(ORG);
      await rec.failure(c.sites.get(ORG, "missing"));
    }).finally(() => delete process.env.DOCSPLATFORM_DEBUG);
    rec.lines.push(...written);
    const mine = written.filter((l) => l.startsWith("docsplatform: "));
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatch(/^docsplatform: #\d+ GET \/v1\/orgs\/demo-org\/sites 200 \d+ms retries=0\n$/);
    expect(mine[1]).toMatch(/^docsplatform: #\d+ GET \/v1\/orgs\/demo-org\/sites\/missing 404 \d+ms retries=0\n$/);
  });

  it("is silent without the switch or a logger", async () => {
    const written = await stderrOfClient(async (c) => {
      await c.sites.list(ORG);
    });
    expect(written.filter((l) => l.startsWith("docsplatform: "))).toEqual([]);
  });

  it("a closed client refuses new requests", async () => {
    const c = new ApiClient({ baseUrl: emu.url, token: TOKEN });
    await c.close();
    await expect(c.sites.list(ORG)).rejects.toThrow(/the client is closed/);
  });
});
