import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { defaultSeed, startEmulator, type RunningEmulator } from "../../emulator/index";
import { ApiClient, ApiError, isConflict, isNotFound, isOutcomeUnknown, type ChangeRequest, type Comment } from "./index";
import { SecretRecorder } from "../../test/support/secrets";

// The comments, changeRequests and changeRequestContent areas against the emulator: every operation's
// happy path, paging of every list, and an error for every operation.
const TOKEN = "dpt_SCAN_5be1c0a7d93f2e68";
const S = "space-guides";
const rec = new SecretRecorder();
let emu: RunningEmulator;
let api: ApiClient; // demo-admin (admin)
let writer: ApiClient; // writer-1 (edit)
let reader: ApiClient; // reader-1 (read)

function client(token: string): ApiClient {
  return new ApiClient({ baseUrl: emu.url, token, logger: rec.logger, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
}

beforeAll(async () => {
  const seed = defaultSeed();
  seed.tokens[TOKEN] = "demo-admin";
  emu = await startEmulator({ port: 0, seed });
  api = client(TOKEN);
  writer = client("writer-token");
  reader = client("reader-token");
});

beforeEach(() => {
  emu.control.reset();
  emu.control.setFaults(null);
});

afterAll(async () => {
  await Promise.all([api.close(), writer.close(), reader.close()]);
  await emu.close();
  expect(rec.lines.length).toBeGreaterThan(20);
  expect(rec.occurrences(TOKEN)).toBe(0);
});

/** The GET requests the emulator saw since the last clear. */
function gets(): number {
  return emu.control.log().filter((e) => e.method === "GET").length;
}

async function status(p: Promise<unknown>): Promise<number> {
  const e = await rec.failure(p);
  expect(e).toBeInstanceOf(ApiError);
  return (e as ApiError).status;
}

describe("changeRequests", () => {
  it("create, get by ID and by number, list by status and contributor, update, pdf", async () => {
    const cr = await writer.changeRequests.create(S, { subject: "Fix typos" });
    expect(cr).toMatchObject({ object: "change-request", number: 1, status: "draft", subject: "Fix typos", outdated: false, comments: 0 });
    const space = await api.spaces.get(S);
    expect(cr.revisionInitial).toBe(space.revision);
    expect(cr.revision).not.toBe(space.revision);
    expect(await api.changeRequests.get(S, cr.id)).toMatchObject({ id: cr.id, number: 1 });
    expect(await api.changeRequests.get(S, 1)).toMatchObject({ id: cr.id });
    expect(await api.changeRequests.get(S, "1")).toMatchObject({ id: cr.id });

    expect(await api.changeRequests.list(S)).toEqual([]); // default filter: open
    expect((await api.changeRequests.list(S, { status: "draft" })).map((c) => c.id)).toEqual([cr.id]);
    const opened = await writer.changeRequests.update(S, 1, { status: "open", subject: "Fix all typos" });
    expect(opened).toMatchObject({ status: "open", subject: "Fix all typos" });
    expect((await api.changeRequests.list(S)).map((c) => c.id)).toEqual([cr.id]);
    expect((await api.changeRequests.list(S, { contributor: "writer-1" })).map((c) => c.id)).toEqual([cr.id]);
    expect(await api.changeRequests.list(S, { contributor: "demo-admin" })).toEqual([]);

    expect((await api.changeRequests.pdf(S, cr.id)).url).toMatch(/^https:\/\/.+\.pdf$/);
    const page = (await api.changeRequestContent.pages(S, cr.id))[0]!;
    expect((await api.changeRequests.pdf(S, cr.number, { page: page.id, only: true })).url).toContain(`page=${page.id}`);
  });

  it("pages through change requests with next.page", async () => {
    const made: ChangeRequest[] = [];
    for (let i = 0; i < 5; i++) made.push(await api.changeRequests.create(S, { subject: `CR ${i}` }));
    expect(made.map((c) => c.number)).toEqual([1, 2, 3, 4, 5]);
    emu.control.clearLog();
    const seen: number[] = [];
    for await (const c of api.changeRequests.iterate(S, { status: "draft", limit: 2 })) seen.push(c.number);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(gets()).toBe(3);
    expect(await api.changeRequests.list(S, { status: "draft", limit: 2 })).toHaveLength(5);
  });

  it("merge: fast-forward when up to date, a merge revision when main moved on", async () => {
    const a = await api.changeRequests.create(S, { subject: "A" });
    const b = await api.changeRequests.create(S, { subject: "B" });
    await api.changeRequestContent.import(S, a.id, { url: "https://example.com/a", source: "website" });
    const fresh = await api.changeRequests.get(S, a.id);
    const ma = await api.changeRequests.merge(S, a.id);
    expect(ma).toEqual({ revision: fresh.revision, result: "merge" });
    expect((await api.spaces.get(S)).revision).toBe(ma.revision);
    expect(await api.changeRequests.get(S, a.id)).toMatchObject({ status: "merged", revisionMerged: ma.revision, outdated: false });

    expect((await api.changeRequests.get(S, b.id)).outdated).toBe(true);
    await api.changeRequestContent.import(S, b.id, { url: "https://example.com/b", source: "website" });
    const bBefore = await api.changeRequests.get(S, b.id);
    const mb = await api.changeRequests.merge(S, b.number);
    expect(mb.result).toBe("merge");
    expect(mb.revision).not.toBe(bBefore.revision);
    expect((await api.spaces.get(S)).revision).toBe(mb.revision);
    // Main now holds both imports.
    const c = await api.changeRequests.create(S, {});
    const titles = (await api.changeRequestContent.pages(S, c.id)).map((p) => p.title);
    expect(titles).toEqual(expect.arrayContaining(["Getting started", "FAQ", "A", "B"]));
  });

  it("updateFromMain pulls main into an outdated change request and is a no-op when up to date", async () => {
    const a = await writer.changeRequests.create(S, { subject: "A" });
    const b = await api.changeRequests.create(S, { subject: "B" });
    const noop = await writer.changeRequests.updateFromMain(S, a.id);
    expect(noop).toEqual({ revision: a.revision, result: "update" });
    await api.changeRequestContent.import(S, b.id, { url: "https://example.com/b", source: "website" });
    await api.changeRequests.merge(S, b.id);
    const main = (await api.spaces.get(S)).revision;
    expect((await api.changeRequests.get(S, a.id)).outdated).toBe(true);
    const u = await writer.changeRequests.updateFromMain(S, a.number);
    expect(u.result).toBe("update");
    expect(await api.changeRequests.get(S, a.id)).toMatchObject({ revision: u.revision, revisionMergedAncestor: main, outdated: false });
    expect((await api.changeRequestContent.pages(S, a.id)).map((p) => p.title)).toContain("B");
  });

  it("errors: unknown change request, rights, refused transitions, limits", async () => {
    const cr = await writer.changeRequests.create(S, { subject: "x" });
    expect(isNotFound(await rec.failure(api.changeRequests.get(S, "cr_missing")))).toBe(true);
    expect(isNotFound(await rec.failure(api.changeRequests.list("space-missing")))).toBe(true);
    expect(await status(reader.changeRequests.create(S, { subject: "no" }))).toBe(403);
    expect(await status(api.changeRequests.create(S, { subject: "x".repeat(101) }))).toBe(400);
    expect(await status(api.changeRequests.update(S, cr.id, { status: "merged" }))).toBe(400);
    expect(await status(reader.changeRequests.update(S, cr.id, { subject: "no" }))).toBe(403);
    expect(await status(writer.changeRequests.merge(S, cr.id))).toBe(403); // merging needs review or above
    await api.changeRequests.merge(S, cr.id);
    expect(isConflict(await rec.failure(api.changeRequests.merge(S, cr.id)))).toBe(true);
    expect(isConflict(await rec.failure(api.changeRequests.updateFromMain(S, cr.id)))).toBe(true);
    expect(isConflict(await rec.failure(api.changeRequests.update(S, cr.id, { status: "open" })))).toBe(true);
    expect(isNotFound(await rec.failure(api.changeRequests.pdf(S, 99)))).toBe(true);
    expect(await status(api.changeRequests.pdf(S, cr.id, { only: true }))).toBe(400);
    expect(() => api.changeRequests.get(S, 0)).toThrow(/positive integer/);
    // An archived change request merges only once reopened; nothing merges into a locked space.
    const other = await writer.changeRequests.create(S, {});
    await writer.changeRequests.update(S, other.id, { status: "archived" });
    expect(isConflict(await rec.failure(api.changeRequests.merge(S, other.id)))).toBe(true);
    await writer.changeRequests.update(S, other.id, { status: "open" });
    await api.spaces.update(S, { editMode: "locked" });
    expect(isConflict(await rec.failure(api.changeRequests.merge(S, other.id)))).toBe(true);
    await api.spaces.update(S, { editMode: "live" });
    expect((await api.changeRequests.merge(S, other.id)).result).toBe("merge");
  });

  it("a create whose answer is lost is outcome-unknown (not retried); updateFromMain is retried", async () => {
    emu.control.setFaults({ seed: 1, dropAfterCommitRate: 1, methods: ["POST"], routes: "/change-requests$" });
    const err = await rec.failure(api.changeRequests.create(S, { subject: "Lost answer" }));
    expect(isOutcomeUnknown(err)).toBe(true);
    emu.control.setFaults(null);
    // It was created once: look it up instead of creating another.
    expect((await api.changeRequests.list(S, { status: "draft" })).map((c) => c.subject)).toEqual(["Lost answer"]);

    emu.control.setFaults({ seed: 1, error5xxRate: 1, routes: "/update$" });
    const before = api.stats.retries;
    const e2 = (await rec.failure(api.changeRequests.updateFromMain(S, 1))) as ApiError;
    expect(e2).toMatchObject({ status: expect.any(Number), outcomeUnknown: false });
    expect(e2.status).toBeGreaterThanOrEqual(500);
    expect(api.stats.retries - before).toBe(4);
  });
});

describe("changeRequestContent", () => {
  it("revision, import, pages, page in both formats, page links with stats, files, backlinks", async () => {
    const cr = await writer.changeRequests.create(S, { subject: "Import" });
    const before = await api.changeRequestContent.get(S, cr.id, { metadata: false, computed: false });
    expect(before).toMatchObject({ object: "revision", id: cr.revision, parents: [cr.revisionInitial] });
    expect(before.pages.map((p) => p.path)).toEqual(["getting-started", "faq"]);

    const url = "https://docs.example.com/handbook/team-onboarding";
    const imp = await writer.changeRequestContent.import(S, cr.number, { url, source: "website" });
    expect(imp.importedResources).toBe(imp.totalResources);
    expect(imp.totalResources).toBeGreaterThanOrEqual(3);
    const after = await api.changeRequestContent.get(S, cr.id);
    expect(after.id).toBe(imp.revision);
    expect(after.parents).toEqual([cr.revision]);
    expect((await api.changeRequests.get(S, cr.id)).revision).toBe(imp.revision);

    // The same URL imports the same content (titles, counts) into another change request: derived from the URL alone.
    const other = await writer.changeRequests.create(S, {});
    const again = await writer.changeRequestContent.import(S, other.id, { url, source: "website" });
    expect(again.totalResources).toBe(imp.totalResources);
    const tree = await api.changeRequestContent.pages(S, cr.id);
    const otherTree = await api.changeRequestContent.pages(S, other.id);
    const shape = (ps: typeof tree) => ps.map((p) => [p.path, (p.pages ?? []).map((c) => c.title)]);
    expect(shape(otherTree)).toEqual(shape(tree));

    const imported = tree.find((p) => p.title === "Team onboarding")!;
    expect(imported).toMatchObject({ path: "team-onboarding", type: "document" });
    expect(imported.markdown).toBeUndefined();
    const md = await api.changeRequestContent.page(S, cr.id, imported.id, { format: "markdown" });
    expect(md.markdown).toContain(url);
    const doc = await api.changeRequestContent.page(S, cr.id, imported.id);
    expect(doc.document).toMatchObject({ object: "document" });

    const links = await api.changeRequestContent.pageLinks(S, cr.id, imported.id);
    expect(links.stats).toEqual({ total: links.count, broken: { total: 0, changeRequest: 0 } });
    expect(links.items.every((l) => l.status === "ok")).toBe(true);
    const configuration = tree.find((p) => p.title === "Getting started")!.pages!.find((p) => p.title === "Configuration")!;
    const old = await api.changeRequestContent.pageLinks(S, cr.id, configuration.id);
    // The fixture's page has one broken link; the change request did not touch the page.
    expect(old.stats).toEqual({ total: 2, broken: { total: 1, changeRequest: 0 } });

    const files = await api.changeRequestContent.listFiles(S, cr.id);
    expect(files.map((f) => f.name)).toEqual(["architecture.png", "team-onboarding.png"]);
    const file = await api.changeRequestContent.file(S, cr.id, files[1]!.id);
    expect(file).toMatchObject({ contentType: "image/png", downloadURL: expect.stringMatching(/^https:\/\//) });
    const backlinks = await api.changeRequestContent.listBacklinks(S, cr.id, files[1]!.id);
    expect(backlinks.length).toBe(imp.totalResources - 2); // every imported sub-page shows the image
    expect(backlinks.every((b) => b.kind === "page")).toBe(true);
  });

  it("pages through files, backlinks and page links", async () => {
    const cr = await writer.changeRequests.create(S, {});
    for (const u of ["https://x.example/a", "https://x.example/b", "https://x.example/c"]) {
      await writer.changeRequestContent.import(S, cr.id, { url: u, source: "website" });
    }
    emu.control.clearLog();
    const files = [];
    for await (const f of api.changeRequestContent.iterateFiles(S, cr.id, { limit: 1 })) files.push(f);
    expect(files).toHaveLength(4);
    expect(gets()).toBe(4);
    expect(await api.changeRequestContent.listFiles(S, cr.id, { limit: 3 })).toHaveLength(4);

    const start = (await api.changeRequestContent.pages(S, cr.id)).find((p) => p.title === "Getting started")!;
    emu.control.clearLog();
    const links = [];
    for await (const l of api.changeRequestContent.iteratePageLinks(S, cr.id, start.id, { limit: 1 })) links.push(l);
    expect(links.map((l) => l.status)).toEqual(["ok", "ok", "ok"]);
    expect(gets()).toBe(3);
    const first = await api.changeRequestContent.pageLinks(S, cr.id, start.id, { limit: 1 });
    expect(first).toMatchObject({ count: 1, next: { page: expect.any(String) }, stats: { total: 3 } });

    const backlinks = [];
    for await (const b of api.changeRequestContent.iterateBacklinks(S, cr.id, "file-guides-architecture", { limit: 1 })) backlinks.push(b);
    expect(backlinks).toHaveLength(1);
    expect(await api.changeRequestContent.listBacklinks(S, cr.id, "file-guides-architecture", { limit: 1 })).toHaveLength(1);
  });

  it("errors: unknown pages and files, a bad import, imports into a merged change request", async () => {
    const cr = await writer.changeRequests.create(S, {});
    expect(isNotFound(await rec.failure(api.changeRequestContent.get(S, 42)))).toBe(true);
    expect(isNotFound(await rec.failure(api.changeRequestContent.pages(S, 42)))).toBe(true);
    expect(isNotFound(await rec.failure(api.changeRequestContent.page(S, cr.id, "page-missing")))).toBe(true);
    expect(isNotFound(await rec.failure(api.changeRequestContent.pageLinks(S, cr.id, "page-missing")))).toBe(true);
    expect(isNotFound(await rec.failure(api.changeRequestContent.iteratePageLinks(S, cr.id, "page-missing").next()))).toBe(true);
    expect(isNotFound(await rec.failure(api.changeRequestContent.listFiles(S, 42)))).toBe(true);
    expect(isNotFound(await rec.failure(api.changeRequestContent.file(S, cr.id, "file-missing")))).toBe(true);
    expect(isNotFound(await rec.failure(api.changeRequestContent.listBacklinks(S, cr.id, "file-missing")))).toBe(true);
    expect(await status(api.changeRequestContent.page(S, cr.id, "x", { format: "pdf" }))).toBe(400);
    expect(await status(writer.changeRequestContent.import(S, cr.id, { url: "not a url", source: "website" }))).toBe(400);
    expect(await status(writer.changeRequestContent.import(S, cr.id, { url: "ftp://x.example/a", source: "website" }))).toBe(400);
    expect(await status(reader.changeRequestContent.import(S, cr.id, { url: "https://x.example/a", source: "website" }))).toBe(403);
    await api.changeRequests.merge(S, cr.id);
    expect(isConflict(await rec.failure(writer.changeRequestContent.import(S, cr.id, { url: "https://x.example/a", source: "website" })))).toBe(true);
  });
});

describe("comments", () => {
  it("on the space: post on a page, get (both formats), edit, react per user, resolve, filters and order, delete with 205", async () => {
    const pages = await api.changeRequestContent.pages(S, (await api.changeRequests.create(S, {})).id);
    const faq = pages.find((p) => p.title === "FAQ")!;
    const c1 = await writer.comments.post(S, { page: faq.id, body: { markdown: "Is this **current**?" } });
    expect(c1).toMatchObject({
      object: "comment",
      status: "open",
      replies: 0,
      body: { markdown: "Is this **current**?" },
      postedBy: { id: "writer-1" },
      target: { space: S, page: { id: faq.id, title: "FAQ", path: "faq", outdated: false } },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    const c2 = await api.comments.post(S, { body: { markdown: "General remark" } });
    expect((await api.spaces.get(S)).comments).toBe(2);

    expect((await writer.comments.get(S, c2.id)).permissions).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect((await api.comments.get(S, c1.id, { format: "document" })).body.document).toMatchObject({ object: "document" });
    expect((await writer.comments.update(S, c1.id, { body: { markdown: "Is this current?" } })).editedAt).toBeTruthy();

    await writer.comments.update(S, c1.id, { addedReactions: ["👍", "🎉"] });
    const both = await api.comments.update(S, c1.id, { addedReactions: ["👍"] });
    expect(both.reactions.map((r) => [r.emoji, r.count])).toEqual([["👍", 2], ["🎉", 1]]);
    const again = await api.comments.update(S, c1.id, { addedReactions: ["👍"] }); // once per user
    expect(again.reactions[0]!.count).toBe(2);
    const less = await writer.comments.update(S, c1.id, { removedReactions: ["👍", "🎉"] });
    expect(less.reactions.map((r) => [r.emoji, r.count, r.users.map((u) => u.user.id)])).toEqual([["👍", 1, ["demo-admin"]]]);

    const resolved = await api.comments.update(S, c1.id, { resolved: true });
    expect(resolved).toMatchObject({ status: "resolved", resolvedBy: { id: "demo-admin" }, resolvedAt: expect.any(String) });
    expect((await api.spaces.get(S)).comments).toBe(1);

    expect((await api.comments.list(S)).map((c) => c.id)).toEqual([c2.id, c1.id]);
    expect((await api.comments.list(S, { order: "asc" })).map((c) => c.id)).toEqual([c1.id, c2.id]);
    expect((await api.comments.list(S, { status: "open" })).map((c) => c.id)).toEqual([c2.id]);
    expect((await api.comments.list(S, { status: "resolved" })).map((c) => c.id)).toEqual([c1.id]);
    expect((await api.comments.list(S, { authors: ["writer-1"] })).map((c) => c.id)).toEqual([c1.id]);
    expect((await api.comments.list(S, { authors: ["writer-1", "demo-admin"] }))).toHaveLength(2);
    expect((await api.comments.list(S, { targetPage: faq.id })).map((c) => c.id)).toEqual([c1.id]);

    const reopened = await writer.comments.update(S, c1.id, { resolved: false });
    expect(reopened.status).toBe("open");
    expect(reopened.resolvedBy).toBeUndefined();
    await writer.comments.delete(S, c1.id);
    expect(emu.control.log().at(-1)).toMatchObject({ method: "DELETE", status: 205 });
    await api.comments.delete(S, c2.id);
    expect(await api.comments.list(S)).toEqual([]);
    expect((await api.spaces.get(S)).comments).toBe(0);
  });

  it("replies on the space: post, get, edit, react, delete; commenters", async () => {
    const c = await api.comments.post(S, { body: { markdown: "Question" } });
    const r = await writer.comments.postReply(S, c.id, { body: { markdown: "Answer" } });
    expect(r).toMatchObject({ object: "comment-reply", body: { markdown: "Answer" }, postedBy: { id: "writer-1" } });
    expect((await api.comments.get(S, c.id)).replies).toBe(1);
    expect(await api.comments.getReply(S, c.id, r.id)).toMatchObject({ id: r.id, permissions: { edit: false, delete: true } });
    expect((await api.comments.getReply(S, c.id, r.id, { format: "document" })).body.document).toBeDefined();
    expect((await writer.comments.updateReply(S, c.id, r.id, { body: { markdown: "Better answer" } })).body.markdown).toBe("Better answer");
    expect((await api.comments.updateReply(S, c.id, r.id, { addedReactions: ["❤️"] })).reactions[0]).toMatchObject({ emoji: "❤️", count: 1 });
    expect((await api.comments.listCommenters(S)).map((u) => u.id)).toEqual(["demo-admin", "writer-1"]);
    emu.control.clearLog();
    const seen = [];
    for await (const u of api.comments.iterateCommenters(S, { limit: 1 })) seen.push(u.id);
    expect(seen).toEqual(["demo-admin", "writer-1"]);
    expect(gets()).toBe(2);
    await writer.comments.deleteReply(S, c.id, r.id);
    expect((await api.comments.get(S, c.id)).replies).toBe(0);
  });

  it("pages through space comments", async () => {
    for (let i = 0; i < 5; i++) await api.comments.post(S, { body: { markdown: `c${i}` } });
    emu.control.clearLog();
    const seen: string[] = [];
    for await (const c of api.comments.iterate(S, { order: "asc", limit: 2 })) seen.push(c.body.markdown!);
    expect(seen).toEqual(["c0", "c1", "c2", "c3", "c4"]);
    expect(gets()).toBe(3);
    expect(await api.comments.list(S, { limit: 2 })).toHaveLength(5);
  });

  it("on a change request: post, list with paging, get, update, replies with paging, delete; counts on the change request", async () => {
    const cr = await writer.changeRequests.create(S, { subject: "Discuss" });
    const page = (await api.changeRequestContent.pages(S, cr.id))[0]!;
    const made: Comment[] = [];
    for (let i = 0; i < 3; i++) made.push(await api.comments.postInChangeRequest(S, cr.number, { page: page.id, node: `block-${i}`, body: { markdown: `n${i}` } }));
    expect(made[0]!.target).toMatchObject({ changeRequest: cr.id, page: { id: page.id }, node: { id: "block-0" } });
    expect((await api.changeRequests.get(S, cr.id)).comments).toBe(3);
    expect((await api.spaces.get(S)).comments).toBe(0); // the space counts its main content's comments only
    expect(await api.comments.list(S)).toEqual([]);

    emu.control.clearLog();
    const listed: string[] = [];
    for await (const c of api.comments.iterateInChangeRequest(S, cr.id, { limit: 2 })) listed.push(c.body.markdown!);
    expect(listed).toEqual(["n2", "n1", "n0"]);
    expect(gets()).toBe(2);
    expect(await api.comments.listInChangeRequest(S, cr.id, { limit: 1, authors: ["demo-admin"] })).toHaveLength(3);
    expect(await api.comments.listInChangeRequest(S, cr.id, { authors: ["writer-1"] })).toEqual([]);

    const c = made[0]!;
    expect((await api.comments.getInChangeRequest(S, cr.id, c.id, { format: "markdown" })).body).toEqual({ markdown: "n0" });
    expect((await api.comments.updateInChangeRequest(S, cr.number, c.id, { resolved: true })).status).toBe("resolved");
    expect((await api.changeRequests.get(S, cr.id)).comments).toBe(2);

    for (let i = 0; i < 3; i++) await writer.comments.postReplyInChangeRequest(S, cr.id, c.id, { body: { markdown: `r${i}` } }, { format: "markdown" });
    emu.control.clearLog();
    const replies: string[] = [];
    for await (const r of api.comments.iterateRepliesInChangeRequest(S, cr.id, c.id, { limit: 2 })) replies.push(r.body.markdown!);
    expect(replies).toEqual(["r0", "r1", "r2"]);
    expect(gets()).toBe(2);
    const all = await api.comments.listRepliesInChangeRequest(S, cr.id, c.id);
    expect(await api.comments.getReplyInChangeRequest(S, cr.id, c.id, all[0]!.id)).toMatchObject({ id: all[0]!.id, body: { markdown: "r0" } });

    await api.comments.deleteInChangeRequest(S, cr.id, c.id);
    expect(isNotFound(await rec.failure(api.comments.getReplyInChangeRequest(S, cr.id, c.id, all[0]!.id)))).toBe(true);
    expect((await api.changeRequests.get(S, cr.id)).comments).toBe(2);
  });

  it("errors: rights per caller, unknown comments and replies, bad bodies", async () => {
    const cr = await writer.changeRequests.create(S, {});
    const c = await writer.comments.post(S, { body: { markdown: "mine" } });
    const cc = await writer.comments.postInChangeRequest(S, cr.id, { body: { markdown: "mine too" } });
    const r = await writer.comments.postReply(S, c.id, { body: { markdown: "reply" } });
    const cases: [string, Promise<unknown>, number][] = [
      ["list: unknown space", api.comments.list("space-missing"), 404],
      ["post: a reader may not comment", reader.comments.post(S, { body: { markdown: "no" } }), 403],
      ["post: empty markdown", api.comments.post(S, { body: { markdown: "" } }), 400],
      ["post: unknown page", api.comments.post(S, { page: "page-missing", body: { markdown: "x" } }), 400],
      ["get: unknown comment", api.comments.get(S, "comment-missing"), 404],
      ["update: only the author edits the body", api.comments.update(S, c.id, { body: { markdown: "hijack" } }), 403],
      ["update: a reader may not resolve", reader.comments.update(S, c.id, { resolved: true }), 403],
      ["delete: a non-author non-admin", reader.comments.delete(S, c.id), 403],
      ["postReply: a reader may not reply", reader.comments.postReply(S, c.id, { body: { markdown: "no" } }), 403],
      ["getReply: unknown reply", api.comments.getReply(S, c.id, "reply-missing"), 404],
      ["updateReply: only the author edits the body", api.comments.updateReply(S, c.id, r.id, { body: { markdown: "x" } }), 403],
      ["deleteReply: unknown reply", api.comments.deleteReply(S, c.id, "reply-missing"), 404],
      ["listCommenters: unknown space", api.comments.listCommenters("space-missing"), 404],
      ["listInChangeRequest: unknown change request", api.comments.listInChangeRequest(S, 77), 404],
      ["postInChangeRequest: a reader", reader.comments.postInChangeRequest(S, cr.id, { body: { markdown: "no" } }), 403],
      ["getInChangeRequest: a space comment is not the change request's", api.comments.getInChangeRequest(S, cr.id, c.id), 404],
      ["updateInChangeRequest: too many reactions", api.comments.updateInChangeRequest(S, cr.id, cc.id, { addedReactions: Array(21).fill("x") }), 400],
      ["deleteInChangeRequest: a reader", reader.comments.deleteInChangeRequest(S, cr.id, cc.id), 403],
      ["listRepliesInChangeRequest: unknown comment", api.comments.listRepliesInChangeRequest(S, cr.id, "comment-missing"), 404],
      ["postReplyInChangeRequest: unknown comment", api.comments.postReplyInChangeRequest(S, cr.id, "comment-missing", { body: { markdown: "x" } }), 404],
      ["getReplyInChangeRequest: unknown reply", api.comments.getReplyInChangeRequest(S, cr.id, cc.id, "reply-missing"), 404],
    ];
    const got = await Promise.all(cases.map(async ([name, p, want]) => [name, await status(p), want] as const));
    expect(got.map(([name, s]) => [name, s])).toEqual(got.map(([name, , want]) => [name, want]));

    // An admin may delete anyone's comment; a repeated delete answers 404 (treated as done).
    await api.comments.delete(S, c.id);
    expect(isNotFound(await rec.failure(api.comments.delete(S, c.id)))).toBe(true);
  });

  it("a comment post whose answer is lost is outcome-unknown", async () => {
    emu.control.setFaults({ seed: 1, dropAfterCommitRate: 1, methods: ["POST"], routes: "/comments$" });
    expect(isOutcomeUnknown(await rec.failure(api.comments.post(S, { body: { markdown: "once" } })))).toBe(true);
    emu.control.setFaults(null);
    expect((await api.comments.list(S)).map((c) => c.body.markdown)).toEqual(["once"]);
  });
});
