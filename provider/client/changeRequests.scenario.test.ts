import { afterAll, beforeAll, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { ApiClient, type Space } from "./index";

// A docs-as-code day on one space, through the client against the emulator: a bot opens a change request
// from an import, a reviewer comments on a page, a writer replies and reacts, the comment is resolved,
// another change request lands first, the first one pulls main and is merged. The space's revision and
// counters are checked after every step.
const S = "space-guides";
let emu: RunningEmulator;
let admin: ApiClient; // reviews and merges
let writer: ApiClient; // opens and imports

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  admin = new ApiClient({ baseUrl: emu.url, token: emu.token });
  writer = new ApiClient({ baseUrl: emu.url, token: "writer-token" });
});

afterAll(async () => {
  await Promise.all([admin.close(), writer.close()]);
  await emu.close();
});

type Counts = Pick<Space, "revision" | "comments" | "changeRequests" | "changeRequestsOpen" | "changeRequestsDraft">;

async function counts(): Promise<Counts> {
  const s = await admin.spaces.get(S);
  return { revision: s.revision, comments: s.comments, changeRequests: s.changeRequests, changeRequestsOpen: s.changeRequestsOpen, changeRequestsDraft: s.changeRequestsDraft };
}

it("open, import, comment, reply, react, resolve, go outdated, update from main, merge", async () => {
  const start = await counts();
  expect(start).toEqual({ revision: start.revision, comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 });
  const main0 = start.revision;

  // 1. Open a change request: created as a draft from the space's revision, then opened.
  const draft = await writer.changeRequests.create(S, { subject: "Import the onboarding guide" });
  expect(draft).toMatchObject({ number: 1, status: "draft", revisionInitial: main0, outdated: false });
  expect(await counts()).toEqual({ revision: main0, comments: 0, changeRequests: 1, changeRequestsOpen: 0, changeRequestsDraft: 1 });
  const cr = await writer.changeRequests.update(S, draft.id, { status: "open" });
  expect(cr.status).toBe("open");
  expect(await counts()).toEqual({ revision: main0, comments: 0, changeRequests: 1, changeRequestsOpen: 1, changeRequestsDraft: 0 });

  // 2. Import content into it: a new revision of the change request; main is untouched.
  const imp = await writer.changeRequestContent.import(S, cr.number, { url: "https://wiki.example.com/people/onboarding", source: "website" });
  expect(imp.importedResources).toBe(imp.totalResources);
  expect(await writer.changeRequests.get(S, cr.id)).toMatchObject({ revision: imp.revision, outdated: false });
  expect((await counts()).revision).toBe(main0);
  const onboarding = (await writer.changeRequestContent.pages(S, cr.id)).find((p) => p.title === "Onboarding")!;
  expect(onboarding.pages!.length).toBeGreaterThan(0);

  // 3. Comment on the imported page; also one remark on the main content.
  const comment = await admin.comments.postInChangeRequest(S, cr.id, { page: onboarding.id, body: { markdown: "Please add a **checklist**." } });
  expect(comment.target).toMatchObject({ changeRequest: cr.id, revision: imp.revision, page: { id: onboarding.id, path: "onboarding", outdated: false } });
  expect((await admin.changeRequests.get(S, cr.id)).comments).toBe(1);
  const remark = await admin.comments.post(S, { body: { markdown: "Main needs a glossary." } });
  expect(await counts()).toEqual({ revision: main0, comments: 1, changeRequests: 1, changeRequestsOpen: 1, changeRequestsDraft: 0 });

  // 4. Reply.
  const reply = await writer.comments.postReplyInChangeRequest(S, cr.number, comment.id, { body: { markdown: "Added one." } });
  expect((await admin.comments.getInChangeRequest(S, cr.id, comment.id)).replies).toBe(1);
  expect((await admin.comments.listRepliesInChangeRequest(S, cr.id, comment.id)).map((r) => r.id)).toEqual([reply.id]);

  // 5. React: one reaction per user and emoji.
  await writer.comments.updateInChangeRequest(S, cr.id, comment.id, { addedReactions: ["👍"] });
  const reacted = await admin.comments.updateInChangeRequest(S, cr.id, comment.id, { addedReactions: ["👍", "🚀"] });
  expect(reacted.reactions.map((r) => [r.emoji, r.count])).toEqual([["👍", 2], ["🚀", 1]]);

  // 6. Resolve: the change request's open comments drop to 0; the space's own count is unchanged.
  const resolved = await admin.comments.updateInChangeRequest(S, cr.id, comment.id, { resolved: true });
  expect(resolved).toMatchObject({ status: "resolved", resolvedBy: { id: "demo-admin" } });
  expect((await admin.changeRequests.get(S, cr.id)).comments).toBe(0);
  expect((await admin.comments.listInChangeRequest(S, cr.id, { status: "open" }))).toEqual([]);
  expect(await counts()).toEqual({ revision: main0, comments: 1, changeRequests: 1, changeRequestsOpen: 1, changeRequestsDraft: 0 });

  // 7. Another change request is merged first: main moves, the first one is outdated.
  const other = await admin.changeRequests.create(S, { subject: "Release notes" });
  expect(other.number).toBe(2);
  expect(await counts()).toEqual({ revision: main0, comments: 1, changeRequests: 2, changeRequestsOpen: 1, changeRequestsDraft: 1 });
  await admin.changeRequestContent.import(S, other.id, { url: "https://example.com/releases/2026-11", source: "website" });
  const otherMerge = await admin.changeRequests.merge(S, other.number);
  const main1 = otherMerge.revision;
  expect(main1).not.toBe(main0);
  expect(await admin.changeRequests.get(S, other.id)).toMatchObject({ status: "merged", revisionMerged: main1, outdated: false });
  expect(await counts()).toEqual({ revision: main1, comments: 1, changeRequests: 2, changeRequestsOpen: 1, changeRequestsDraft: 0 });
  expect((await admin.changeRequests.get(S, cr.id)).outdated).toBe(true);

  // 8. Update it from main: its revision has both imports, it records the main revision it pulled.
  const updated = await writer.changeRequests.updateFromMain(S, cr.id);
  expect(updated.result).toBe("update");
  expect(await admin.changeRequests.get(S, cr.id)).toMatchObject({ revision: updated.revision, revisionMergedAncestor: main1, outdated: false });
  const titles = (await admin.changeRequestContent.pages(S, cr.id)).map((p) => p.title);
  expect(titles).toEqual(expect.arrayContaining(["Getting started", "FAQ", "Onboarding", "2026 11"]));
  expect(await counts()).toEqual({ revision: main1, comments: 1, changeRequests: 2, changeRequestsOpen: 1, changeRequestsDraft: 0 });

  // 9. Merge it: up to date, so its revision becomes the space's.
  const merged = await admin.changeRequests.merge(S, cr.number);
  expect(merged).toEqual({ revision: updated.revision, result: "merge" });
  expect(await admin.changeRequests.get(S, cr.id)).toMatchObject({ status: "merged", revisionMerged: merged.revision, outdated: false });
  expect(await counts()).toEqual({ revision: merged.revision, comments: 1, changeRequests: 2, changeRequestsOpen: 0, changeRequestsDraft: 0 });
  expect(await admin.changeRequests.list(S)).toEqual([]);
  expect((await admin.changeRequests.list(S, { status: "merged" })).map((c) => c.number)).toEqual([1, 2]);

  // The resolved discussion stays on the merged change request; the space's remark is still open.
  expect((await admin.comments.listInChangeRequest(S, cr.id)).map((c) => c.id)).toEqual([comment.id]);
  expect((await admin.comments.list(S, { status: "open" })).map((c) => c.id)).toEqual([remark.id]);
  // The merged content carries its links: the imported pages link to each other; only the fixture's broken link remains.
  expect((await admin.spaces.links(S)).stats).toMatchObject({ broken: { total: 1 } });
});
