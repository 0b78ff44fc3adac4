/** Content, change requests and comments in the emulator: persistence with --data, older data files, limits, rate limits and faults like every route. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RouteSpec } from "./context";
import { startEmulator, type RunningEmulator } from "./index";
import { registerAll } from "./routes";
import { caller, listAll, type Call } from "../test/support/api";

const S = "/v1/spaces/space-guides";
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "emulator-changes-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("persistence of content, change requests and comments", () => {
  it("keeps revisions, change requests, comments, replies and reactions across a restart", async () => {
    const data = join(dir, "changes.jsonl");
    const a = await startEmulator({ port: 0, dataFile: data });
    const call = caller(a.url, a.token);
    const cr = (await call("POST", `${S}/change-requests`, { subject: "Durable" })).body;
    await call("POST", `${S}/change-requests/${cr.id}/content/import`, { url: "https://example.com/durable", source: "website" });
    const comment = (await call("POST", `${S}/change-requests/${cr.number}/comments`, { body: { markdown: "Keep me" } })).body;
    await call("POST", `${S}/change-requests/${cr.id}/comments/${comment.id}/replies`, { body: { markdown: "Kept" } });
    await call("PUT", `${S}/change-requests/${cr.id}/comments/${comment.id}`, { addedReactions: ["🎯"] });
    const remark = (await call("POST", `${S}/comments`, { body: { markdown: "On main" } })).body;
    const merged = (await call("POST", `${S}/change-requests/${cr.id}/merge`)).body;
    /** Everything written above, as a caller reads it back. */
    const readBack = async (c: Call) => ({
      space: (await c("GET", S)).body,
      cr: (await c("GET", `${S}/change-requests/${cr.id}`)).body,
      pages: (await c("GET", `${S}/change-requests/${cr.id}/content/pages`)).body,
      comment: (await c("GET", `${S}/change-requests/${cr.id}/comments/${comment.id}`)).body,
      replies: await listAll(c, `${S}/change-requests/${cr.id}/comments/${comment.id}/replies`),
      remark: (await c("GET", `${S}/comments/${remark.id}`)).body,
    });
    const before = await readBack(call);
    expect(before.space).toMatchObject({ revision: merged.revision, comments: 1, changeRequests: 1 });
    await a.close();

    const b = await startEmulator({ port: 0, dataFile: data });
    try {
      const again = caller(b.url, b.token);
      const strip = (o: unknown) => JSON.parse(JSON.stringify(o).split(a.url).join("<base>").split(b.url).join("<base>"));
      const after = await readBack(again);
      expect(strip(after)).toEqual(strip(before));
      // Numbers go on from where they were.
      expect((await again("POST", `${S}/change-requests`, {})).body.number).toBe(2);
    } finally {
      await b.close();
    }
  });

  it("opens a data file written before content existed: spaces read as empty, everything else works", async () => {
    const data = join(dir, "old.jsonl");
    const a = await startEmulator({ port: 0, dataFile: data });
    await a.close();
    // Drop the tables an older emulator did not have.
    const line = JSON.parse(readFileSync(data, "utf8").split("\n")[0]!) as { v: 1; snapshot: Record<string, unknown> };
    for (const t of ["revisions", "changeRequests", "comments", "commentReplies"]) delete line.snapshot[t];
    writeFileSync(data, JSON.stringify(line) + "\n");

    const b = await startEmulator({ port: 0, dataFile: data });
    try {
      const call = caller(b.url, b.token);
      expect((await call("GET", `${S}/links`)).body).toMatchObject({ count: 0, stats: { total: 0 } });
      const cr = (await call("POST", `${S}/change-requests`, {})).body;
      expect(cr.number).toBe(1);
      expect((await call("GET", `${S}/change-requests/${cr.id}/content/pages`)).body).toEqual({ pages: [] });
      expect((await call("POST", `${S}/change-requests/${cr.id}/content/import`, { url: "https://example.com/x", source: "website" })).status).toBe(201);
      expect((await call("POST", `${S}/change-requests/${cr.id}/merge`)).status).toBe(200);
      expect((await listAll(call, `${S}/change-requests?status=merged`)).length).toBe(1);
    } finally {
      await b.close();
    }
  });
});

describe("like every route", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emu.close();
  });

  it("error bodies, 404s, 401, cursors bound to their list, Location on creates, 205 on deletes", async () => {
    const call = caller(emu.url, emu.token);
    const cr = await call("POST", `${S}/change-requests`, {});
    expect(cr.status).toBe(201);
    expect(cr.headers.get("location")).toBe(cr.body.urls.location);
    const missing = await call("GET", `${S}/change-requests/999`);
    expect(missing).toMatchObject({ status: 404, body: { error: { code: 404, message: "change request '999' not found" } } });
    expect((await caller(emu.url, null)("GET", `${S}/comments`)).status).toBe(401);
    expect((await call("POST", `${S}/comments`, { body: {} })).body.error.message).toMatch(/markdown/);
    for (let i = 0; i < 3; i++) await call("POST", `${S}/comments`, { body: { markdown: `c${i}` } });
    const first = await call("GET", `${S}/comments?limit=1`);
    const cursor = first.body.next.page as string;
    expect((await call("GET", `${S}/comments?limit=1&status=open&page=${cursor}`)).status).toBe(400);
    expect((await call("GET", `${S}/comments?authors=demo-admin&authors=writer-1`)).body.count).toBe(3);
    expect((await call("GET", `${S}/comments?authors=writer-1,nobody`)).body.count).toBe(0);
    expect((await call("DELETE", `${S}/comments/${first.body.items[0].id}`)).status).toBe(205);
    // A duplicated space starts with a copy of the content, in a revision of its own.
    const copy = (await call("POST", `${S}/duplicate`)).body;
    expect(copy.revision).not.toBe((await call("GET", S)).body.revision);
    const copyCr = (await call("POST", `/v1/spaces/${copy.id}/change-requests`, {})).body;
    expect(copyCr.number).toBe(1);
    const titles = (await call("GET", `/v1/spaces/${copy.id}/change-requests/1/content/pages`)).body.pages.map((p: { title: string }) => p.title);
    expect(titles).toEqual(["Getting started", "FAQ"]);
    // A member outside the organisation sees no space: 404, as for spaces.
    expect((await call("GET", "/v1/spaces/space-unknown/change-requests")).status).toBe(404);
  });

  it("rate limits and faults apply to the new routes", async () => {
    const call = caller(emu.url, emu.token);
    emu.control.setRateLimit({ limit: 2, windowMs: 60_000 });
    try {
      const replies = [];
      for (let i = 0; i < 3; i++) replies.push(await call("GET", `${S}/change-requests`));
      expect(replies.map((r) => r.status)).toEqual([200, 200, 429]);
      expect(replies[2]!.headers.get("retry-after")).toBeTruthy();
    } finally {
      emu.control.setRateLimit(null);
    }
    emu.control.setFaults({ seed: 3, error5xxAfterCommitRate: 1, routes: "/comments$" });
    try {
      const r = await call("POST", `${S}/comments`, { body: { markdown: "committed anyway" } });
      expect(r.status).toBe(500);
    } finally {
      emu.control.setFaults(null);
    }
    expect((await listAll(call, `${S}/comments`)).map((c) => c.body.markdown)).toContain("committed anyway");
  });
});

describe("seeds", () => {
  it("take pages and files per space (the README's example), and refuse a page without a title", async () => {
    const yaml = join(dir, "seed.yaml");
    writeFileSync(
      yaml,
      [
        "users: [{ id: u1, email: u1@x.test, displayName: U One }]",
        "tokens: { my-token: u1 }",
        "organizations:",
        "  - id: acme",
        "    title: Acme",
        "    members: [{ user: u1, role: admin }]",
        "    spaces:",
        "      - id: s1",
        "        title: Docs",
        '        pages: [{ title: Intro, markdown: "See [Setup](/intro/setup)", pages: [{ title: Setup }] }]',
        "        files: [{ id: f1, name: logo.png, contentType: image/png, size: 1024 }]",
      ].join("\n"),
    );
    const emu = await startEmulator({ port: 0, seed: yaml });
    try {
      const call = caller(emu.url, "my-token");
      expect((await call("GET", "/v1/spaces/s1/links")).body.items.map((l: { status: string }) => l.status)).toEqual(["ok"]);
      const cr = (await call("POST", "/v1/spaces/s1/change-requests", {})).body;
      const pages = (await call("GET", `/v1/spaces/s1/change-requests/${cr.id}/content/pages`)).body.pages;
      expect(pages.map((p: { path: string; pages: { path: string }[] }) => [p.path, p.pages.map((c) => c.path)])).toEqual([["intro", ["intro/setup"]]]);
      expect((await call("GET", `/v1/spaces/s1/change-requests/${cr.id}/content/files/f1`)).body).toMatchObject({ name: "logo.png", size: 1024 });
    } finally {
      await emu.close();
    }
    const bad = { users: [{ id: "u1", email: "u1@x.test" }], tokens: {}, organizations: [{ id: "o", title: "O", members: [], spaces: [{ id: "s", title: "S", pages: [{ markdown: "no title" }] }] }] };
    await expect(startEmulator({ port: 0, seed: bad as never })).rejects.toThrow(/title/);
  });

  it("take empty sites by ID (the README's example): listed, readable, with no structure", async () => {
    const seed = { users: [{ id: "u1", email: "u1@x.test" }], tokens: { t: "u1" }, organizations: [{ id: "acme", title: "Acme", members: [{ user: "u1", role: "admin" as const }], sites: [{ id: "site-legacy", title: "Legacy" }] }] };
    const emu = await startEmulator({ port: 0, seed });
    try {
      const call = caller(emu.url, "t");
      expect((await call("GET", "/v1/orgs/acme/sites")).body.items.map((s: { id: string; title: string }) => `${s.id} ${s.title}`)).toEqual(["site-legacy Legacy"]);
      expect((await call("GET", "/v1/orgs/acme/sites/site-legacy")).body).toMatchObject({ published: false, visibility: "public" });
      expect((await call("GET", "/v1/orgs/acme/sites/site-legacy/structure")).body.structure).toEqual([]);
    } finally {
      await emu.close();
    }
  });
});

describe("the README's route table", () => {
  it("lists exactly the routes the emulator serves: every operation of the API description", () => {
    const served: string[] = [];
    registerAll(<P, Q, B>(spec: RouteSpec<P, Q, B>) => {
      served.push(`${spec.method} ${spec.url}`);
    });
    const readme = readFileSync(join(__dirname, "README.md"), "utf8");
    const listed = [...readme.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect([...listed].sort()).toEqual([...served].sort());
    expect(served).toHaveLength(227);
    const table = readme.slice(readme.indexOf("## Routes"), readme.indexOf("## Control surface"));
    expect(table).not.toMatch(/missing|not emulated|todo/i);
  });
});
