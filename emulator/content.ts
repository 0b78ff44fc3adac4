/**
 * Space content: revisions with their page trees and files, deterministic imports, the three-way merge
 * that `update` and `merge` of a change request use, link extraction, and the presenters of content,
 * change requests and comments.
 */
import { createHash, randomBytes } from "node:crypto";
import { served } from "./columns";
import { stableId } from "./ids";
import { compact } from "./objects";
import type { ChangeRequestRow, CommentReplyRow, CommentRow, FileNode, PageNode, Reaction, RevisionRow, SpaceRow } from "./model";
import { APP_URL, presentRef, presentUser, type View } from "./present";
import type { Store } from "./store";
import { dedupeSlugs } from "./slug";
import { CHANGE_REQUEST } from "./tables";

/** Where file downloads and PDFs point (never fetched). */
export const FILES_URL = "https://files.docsplatform.dev";

// ---- revisions ----

/**
 * The revision a space's `revision` names. A space made before content existed (an older data file, a
 * new space of a site) has no row: it reads as an empty revision, without writing anything.
 */
export function revisionOf(store: Store, space: SpaceRow, id = space.revision): RevisionRow {
  return store.get("revisions", id) ?? { id, space: space.id, parents: [], type: "edits", createdAt: space.createdAt, createdBy: null, pages: [], files: [] };
}

/** Stores a new revision of `space`. */
export function newRevision(
  store: Store,
  space: SpaceRow,
  init: { parents: string[]; type: RevisionRow["type"]; createdBy: string | null; pages: PageNode[]; files: FileNode[] },
): RevisionRow {
  const row: RevisionRow = { id: `rev_${randomBytes(9).toString("base64url").replace(/[-_]/g, "x")}`, space: space.id, createdAt: store.nowIso(), ...init };
  store.put("revisions", row);
  return row;
}

// ---- page trees ----

/** A page with its place in the tree. */
export interface PlacedPage {
  page: PageNode;
  parent: string | null;
  /** Slugs from the root, joined with `/`. */
  path: string;
  index: number;
}

/** Every page of a tree, depth first, with its parent and path. */
export function flatten(pages: PageNode[]): PlacedPage[] {
  const out: PlacedPage[] = [];
  const walk = (list: PageNode[], parent: PlacedPage | null) => {
    list.forEach((page, index) => {
      const placed = { page, parent: parent?.page.id ?? null, path: parent ? `${parent.path}/${page.slug}` : page.slug, index };
      out.push(placed);
      walk(page.pages, placed);
    });
  };
  walk(pages, null);
  return out;
}

/** A page of a revision by ID, with its place. */
export function findPage(rev: RevisionRow, pageId: string): PlacedPage | undefined {
  return flatten(rev.pages).find((p) => p.page.id === pageId);
}

function sameContent(a: PageNode, b: PageNode): boolean {
  return a.title === b.title && a.slug === b.slug && a.emoji === b.emoji && a.description === b.description && a.markdown === b.markdown;
}

function leaf(p: PageNode): PageNode {
  return { ...p, pages: [] };
}

/**
 * Three-way merge of page trees by page ID: starts from `theirs` (main) and applies what `ours` (the
 * change request) changed since `base` — added pages, edited pages (content or place), deleted pages.
 * When both sides changed a page, the change request wins.
 */
export function mergeTrees(base: PageNode[], ours: PageNode[], theirs: PageNode[]): PageNode[] {
  const b = new Map(flatten(base).map((p) => [p.page.id, p]));
  const o = new Map(flatten(ours).map((p) => [p.page.id, p]));
  type Slot = { page: PageNode; parent: string | null; order: number };
  const result = new Map<string, Slot>();
  for (const t of flatten(theirs)) result.set(t.page.id, { page: leaf(t.page), parent: t.parent, order: t.index });
  for (const [id, mine] of o) {
    const was = b.get(id);
    const there = result.get(id);
    if (!was) {
      // Added by the change request: after main's page at the same position.
      result.set(id, { page: leaf(mine.page), parent: mine.parent, order: mine.index + 0.5 });
      continue;
    }
    // A sibling's deletion shifts indexes without moving a page: only a new parent is a move.
    const edited = !sameContent(was.page, mine.page);
    const moved = was.parent !== mine.parent;
    if (!edited && !moved) continue;
    result.set(id, {
      page: edited || !there ? leaf(mine.page) : there.page,
      parent: moved || !there ? mine.parent : there.parent,
      order: moved || !there ? mine.index + 0.5 : there.order,
    });
  }
  for (const id of b.keys()) if (!o.has(id)) result.delete(id);
  // Rebuild: a page whose parent is gone moves to the root.
  const children = new Map<string | null, Slot[]>();
  for (const slot of result.values()) {
    const parent = slot.parent !== null && result.has(slot.parent) ? slot.parent : null;
    (children.get(parent) ?? children.set(parent, []).get(parent)!).push(slot);
  }
  const build = (parent: string | null, seen: Set<string>): PageNode[] =>
    (children.get(parent) ?? [])
      .sort((x, y) => x.order - y.order)
      .filter((s) => !seen.has(s.page.id))
      .map((s) => {
        seen.add(s.page.id);
        return { ...s.page, pages: build(s.page.id, seen) };
      });
  const seen = new Set<string>();
  const tree = build(null, seen);
  // A cycle (a page moved under its own descendant on one side) leaves pages unreached: put them at the root.
  for (const slot of result.values()) {
    if (seen.has(slot.page.id)) continue;
    seen.add(slot.page.id);
    tree.push({ ...slot.page, pages: build(slot.page.id, seen) });
  }
  return dedupeSlugs(tree);
}

/** IDs of pages added or changed in `ours` compared to `base`. */
export function changedPages(base: PageNode[], ours: PageNode[]): Set<string> {
  const b = new Map(flatten(base).map((p) => [p.page.id, p]));
  const out = new Set<string>();
  for (const mine of flatten(ours)) {
    const was = b.get(mine.page.id);
    if (!was || !sameContent(was.page, mine.page) || was.parent !== mine.parent) out.add(mine.page.id);
  }
  return out;
}

// ---- import ----

const IMPORTED_TITLES = ["Overview", "Installation", "Usage", "Configuration", "Reference", "Troubleshooting", "FAQ"];

function titleFromUrl(url: URL): string {
  const segs = url.pathname.split("/").filter((s) => s !== "");
  let raw = segs.length > 0 ? segs[segs.length - 1]! : url.hostname;
  try {
    raw = decodeURIComponent(raw);
  } catch {
    // keep it as written
  }
  const words = raw.replace(/\.[a-z0-9]{1,5}$/i, "").replace(/[-_.+]+/g, " ").trim().slice(0, 80) || url.hostname;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function slugOf(title: string, fallback: string): string {
  const s = title.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return s.slice(0, 90).replace(/-+$/, "") || fallback;
}

/** What an import adds: pages and files derived from the URL alone (no network), plus their count. */
export interface Imported {
  pages: PageNode[];
  files: FileNode[];
}

/**
 * The content "found" at a URL: one page titled after the URL's last path segment with one to three
 * sub-pages and one image, all derived from a hash of the URL. `salt` (the revision imported into) keeps
 * page IDs unique when the same URL is imported twice; the root page's slug avoids `takenSlugs` (the
 * root level it joins), so the links between the imported pages hold.
 */
export function importFromUrl(rawUrl: string, salt: string, now: string, takenSlugs: ReadonlySet<string> = new Set()): Imported {
  const url = new URL(rawUrl);
  const h = createHash("sha256").update(rawUrl).digest();
  const title = titleFromUrl(url);
  const wanted = slugOf(title, "imported");
  let slug = wanted;
  for (let n = 2; takenSlugs.has(slug); n++) slug = `${wanted}-${n}`;
  const file: FileNode = {
    id: stableId("file_", salt, rawUrl),
    name: `${slug}.png`,
    contentType: "image/png",
    size: 1024 + h.readUInt16BE(2),
    width: 320 + (h[4]! % 8) * 80,
    height: 200 + (h[5]! % 6) * 50,
  };
  const n = 1 + (h[0]! % 3);
  const titles: string[] = [];
  for (let i = 0; titles.length < n; i++) {
    const t = IMPORTED_TITLES[(h[6 + i]! + i) % IMPORTED_TITLES.length]!;
    if (!titles.includes(t)) titles.push(t);
  }
  const children: PageNode[] = titles.map((t, i) => ({
    id: stableId("page_", salt, rawUrl, String(i + 1)),
    title: t,
    slug: slugOf(t, `page-${i + 1}`),
    emoji: null,
    description: null,
    markdown: `# ${t}\n\n${t} of ${title}, imported from [the source](${url.href}).\n\n![${title}](file:${file.id})\n`,
    createdAt: now,
    updatedAt: now,
    pages: [],
  }));
  const root: PageNode = {
    id: stableId("page_", salt, rawUrl, "0"),
    title,
    slug,
    emoji: null,
    description: `Imported from ${url.host}`,
    markdown: `# ${title}\n\nImported from ${url.href}.\n\n${children.map((c) => `- [${c.title}](/${slug}/${c.slug})`).join("\n")}\n`,
    createdAt: now,
    updatedAt: now,
    pages: children,
  };
  return { pages: [root], files: [file] };
}

// ---- links ----

/** Status of a link item. */
export type LinkStatus = "ok" | "broken" | "in-app";

/** An item of a link list: where a link points, from where, and whether it resolves. */
export interface LinkItem {
  status: LinkStatus;
  relation: "reference";
  targetReference: Record<string, unknown>;
  locationReferences: Record<string, unknown>[];
}

const LINK = /!?\[[^\]\n]*\]\(([^()\s]+)\)/g;

function versionContext(rev: RevisionRow): Record<string, unknown> {
  return { type: "revision", revision: rev.id };
}

function pageRef(org: string, rev: RevisionRow, pageId: string): Record<string, unknown> {
  return { kind: "page", organization: org, space: rev.space, page: pageId, versionContext: versionContext(rev) };
}

/**
 * The links of one page. Targets: `http(s)://` (`in-app` for the app's own host, `broken` for a host
 * under `.invalid`, else `ok`; nothing is fetched), `/a/b` (a page path of the revision), `file:<id>`
 * (a file of the revision). Other targets are not links.
 */
export function pageLinks(org: string, rev: RevisionRow, page: PageNode): LinkItem[] {
  const paths = new Map(flatten(rev.pages).map((p) => [`/${p.path}`, p.page.id]));
  const files = new Set(rev.files.map((f) => f.id));
  const location = [pageRef(org, rev, page.id)];
  const out: LinkItem[] = [];
  for (const m of page.markdown.matchAll(LINK)) {
    const target = m[1]!;
    let status: LinkStatus;
    let ref: Record<string, unknown>;
    if (/^https?:\/\//i.test(target)) {
      let host = "";
      try {
        host = new URL(target).hostname;
      } catch {
        host = "";
      }
      status = host === new URL(APP_URL).hostname ? "in-app" : host === "" || host.endsWith(".invalid") ? "broken" : "ok";
      ref = { kind: "url", url: target };
    } else if (target.startsWith("file:")) {
      const file = target.slice(5);
      status = files.has(file) ? "ok" : "broken";
      ref = { kind: "file", organization: org, space: rev.space, file, versionContext: versionContext(rev) };
    } else if (target.startsWith("/")) {
      const id = paths.get(target.replace(/\/+$/, ""));
      status = id ? "ok" : "broken";
      ref = id ? pageRef(org, rev, id) : { kind: "page", organization: org, space: rev.space, path: target, versionContext: versionContext(rev) };
    } else continue;
    out.push({ status, relation: "reference", targetReference: ref, locationReferences: location });
  }
  return out;
}

/** Every link of a revision, page by page in tree order. */
export function revisionLinks(org: string, rev: RevisionRow): LinkItem[] {
  return flatten(rev.pages).flatMap((p) => pageLinks(org, rev, p.page));
}

/** `stats` of a link list: totals over the whole list; `changeRequest` counts broken links in pages the change request added or changed. */
export function linkStats(items: LinkItem[], changed: Set<string> = new Set()): { total: number; broken: { total: number; changeRequest: number } } {
  const broken = items.filter((l) => l.status === "broken");
  const inChange = broken.filter((l) => changed.has(String(l.locationReferences[0]?.page ?? "")));
  return { total: items.length, broken: { total: broken.length, changeRequest: inChange.length } };
}

// ---- presenters ----

/** The app URL of a space's current content. */
export function spaceApp(spaceId: string): string {
  return `${APP_URL}/s/${spaceId}`;
}

/** A page in a tree listing (no content). */
export function presentPageSummary(rev: RevisionRow, placed: PlacedPage, appBase: string): Record<string, unknown> {
  const p = placed.page;
  return compact({
    id: p.id,
    title: p.title,
    emoji: p.emoji ?? undefined,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    type: "document",
    urls: { app: `${appBase}/${placed.path}` },
    slug: p.slug,
    path: placed.path,
    description: p.description ?? undefined,
    documentId: stableId("doc_", rev.id, p.id),
    hidden: false,
    pages: p.pages.map((c, index) => presentPageSummary(rev, { page: c, parent: p.id, path: `${placed.path}/${c.slug}`, index }, appBase)),
  });
}

/** The page tree of a revision. */
export function presentPages(rev: RevisionRow, appBase: string): Record<string, unknown>[] {
  return flatten(rev.pages)
    .filter((p) => p.parent === null)
    .map((p) => presentPageSummary(rev, p, appBase));
}

/** A document for the `document` format: one block per markdown paragraph. */
export function markdownDocument(markdown: string): Record<string, unknown> {
  const blocks = markdown
    .split(/\n{2,}/)
    .map((b) => b.trim())
    .filter((b) => b !== "")
    .map((b) => {
      const heading = /^(#{1,3})\s+(.*)$/s.exec(b);
      const type = heading ? `heading-${heading[1]!.length}` : "paragraph";
      return { object: "block", type, nodes: [{ object: "text", leaves: [{ object: "leaf", text: heading ? heading[2]! : b, marks: [] }] }] };
    });
  return { object: "document", data: {}, nodes: blocks };
}

/** One page with its content in the requested format (`document` by default, or `markdown`). */
export function presentPage(rev: RevisionRow, placed: PlacedPage, appBase: string, format: string | undefined): Record<string, unknown> {
  const summary = presentPageSummary(rev, placed, appBase);
  return format === "markdown" ? { ...summary, markdown: placed.page.markdown } : { ...summary, document: markdownDocument(placed.page.markdown) };
}

/** A file of a revision, with its (never served) download URL. */
export function presentFile(spaceId: string, f: FileNode): Record<string, unknown> {
  return compact({
    id: f.id,
    name: f.name,
    contentType: f.contentType,
    downloadURL: `${FILES_URL}/${spaceId}/${f.id}/${encodeURIComponent(f.name)}`,
    size: f.size,
    dimensions: f.width !== null && f.height !== null ? { width: f.width, height: f.height } : undefined,
  });
}

/** A revision; `metadata: false` leaves out the mutable git metadata (the emulator has none to give). */
export function presentRevision(rev: RevisionRow, appBase: string): Record<string, unknown> {
  return {
    object: "revision",
    id: rev.id,
    parents: [...rev.parents],
    pages: presentPages(rev, appBase),
    files: rev.files.map((f) => presentFile(rev.space, f)),
    reusableContents: [],
    variables: {},
    createdAt: rev.createdAt,
    type: rev.type,
    urls: { app: appBase },
  };
}

/** Open comments on a change request. */
export function openComments(store: Store, cr: ChangeRequestRow): number {
  let n = 0;
  for (const c of store.all("comments")) if (c.changeRequest === cr.id && c.status === "open") n++;
  return n;
}

/** True when main moved on since the change request was created or last updated. */
export function isOutdated(space: SpaceRow, cr: ChangeRequestRow): boolean {
  return cr.status !== "merged" && cr.base !== space.revision;
}

/** The app URL of a change request. */
export function changeRequestApp(cr: ChangeRequestRow): string {
  return `${spaceApp(cr.space)}/~/changes/${cr.number}`;
}

/** A change request for the caller, with its open comments and `outdated` computed now. */
export function presentChangeRequest(v: View, space: SpaceRow, cr: ChangeRequestRow): Record<string, unknown> {
  return compact({
    object: "change-request",
    id: cr.id,
    ...served(CHANGE_REQUEST, cr),
    createdBy: presentRef(v, "users", cr.createdBy, presentUser),
    comments: openComments(v.store, cr),
    outdated: isOutdated(space, cr),
    urls: { app: changeRequestApp(cr), location: `${v.base}/v1/spaces/${cr.space}/change-requests/${cr.id}` },
  });
}

/** A user by ID; one no longer stored shows as its ID. */
function presentUserId(v: View, id: string): Record<string, unknown> {
  return presentRef(v, "users", id, presentUser) ?? { object: "user", id, displayName: id };
}

function presentReactions(v: View, reactions: Reaction[]): Record<string, unknown>[] {
  return reactions.map((r) => ({
    emoji: r.emoji,
    count: r.users.length,
    users: r.users.map((u) => ({ user: presentUserId(v, u.user), reactedAt: u.reactedAt })),
  }));
}

function commentBody(markdown: string, format: string | undefined): Record<string, unknown> {
  return format === "document" ? { document: markdownDocument(markdown) } : { markdown };
}

/** What the caller may do with a comment or reply: the author edits and deletes; admins delete too; `comment` and above reply. */
export function commentPermissions(v: View, user: string, authorId: string): Record<string, boolean> {
  const admin = v.role === "admin";
  const commenter = v.role !== null && ["admin", "create", "review", "edit", "comment"].includes(v.role);
  return { view: true, edit: user === authorId && commenter, reply: commenter, delete: user === authorId || admin };
}

/** Where a comment points, with the page as it is now (`outdated` when its content changed since). */
export function commentTarget(space: SpaceRow, c: CommentRow, current: RevisionRow): Record<string, unknown> {
  let page: Record<string, unknown> | undefined;
  let preview = "";
  if (c.page !== null) {
    const placed = findPage(current, c.page);
    if (placed) {
      const p = placed.page;
      page = compact({ id: p.id, title: p.title, emoji: p.emoji ?? undefined, icon: undefined, createdAt: p.createdAt, updatedAt: p.updatedAt, path: placed.path, outdated: p.markdown !== c.pageMarkdown });
      preview = p.markdown.replace(/^#+\s*/gm, "").trim().split("\n")[0]!.slice(0, 120);
    } else {
      page = { id: c.page, title: "", path: "", outdated: true };
    }
  }
  return compact({
    space: space.id,
    revision: c.revision,
    changeRequest: c.changeRequest ?? undefined,
    page,
    node: c.node !== null ? { id: c.node, preview } : undefined,
  });
}

/** A comment for the caller: reply count, reactions, target and permissions computed now. */
export function presentComment(
  v: View,
  user: string,
  space: SpaceRow,
  c: CommentRow,
  current: RevisionRow,
  location: string,
  format?: string,
  replyCounts: ReadonlyMap<string, number> = countReplies(v.store, new Set([c.id])),
): Record<string, unknown> {
  return compact({
    object: "comment",
    ...presentPost(v, user, c, location, format),
    replies: replyCounts.get(c.id) ?? 0,
    target: commentTarget(space, c, current),
    status: c.status,
    resolvedAt: c.resolvedAt ?? undefined,
    resolvedBy: presentRef(v, "users", c.resolvedBy, presentUser),
  });
}

/** Reply counts of the given comments, in one pass over the replies (a list presents many comments). */
export function countReplies(store: Store, comments: ReadonlySet<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of store.all("commentReplies")) if (comments.has(r.comment)) counts.set(r.comment, (counts.get(r.comment) ?? 0) + 1);
  return counts;
}

/** A comment reply for the caller. */
export function presentReply(v: View, user: string, r: CommentReplyRow, location: string, format?: string): Record<string, unknown> {
  return compact({ object: "comment-reply", ...presentPost(v, user, r, location, format) });
}

/** What a comment and a reply both show: author, times, reactions, body in `format`, location and the caller's rights. */
function presentPost(v: View, user: string, post: CommentRow | CommentReplyRow, location: string, format: string | undefined): Record<string, unknown> {
  return {
    id: post.id,
    postedBy: presentUserId(v, post.postedBy),
    postedAt: post.postedAt,
    editedAt: post.editedAt ?? undefined,
    reactions: presentReactions(v, post.reactions),
    body: commentBody(post.markdown, format),
    urls: { location },
    permissions: commentPermissions(v, user, post.postedBy),
  };
}

/** Applies a caller's reaction changes: one reaction per user and emoji; empty groups disappear. */
export function react(reactions: Reaction[], user: string, added: string[] = [], removed: string[] = [], now: string): Reaction[] {
  const out = reactions.map((r) => ({ emoji: r.emoji, users: [...r.users] }));
  for (const emoji of added) {
    let group = out.find((r) => r.emoji === emoji);
    if (!group) out.push((group = { emoji, users: [] }));
    if (!group.users.some((u) => u.user === user)) group.users.push({ user, reactedAt: now });
  }
  for (const emoji of removed) {
    const group = out.find((r) => r.emoji === emoji);
    if (group) group.users = group.users.filter((u) => u.user !== user);
  }
  return out.filter((r) => r.users.length > 0);
}

/**
 * Recomputes a space's counters from the rows: open comments on its main content, change requests in
 * total, open and draft. Touches the space only when a counter changed.
 */
export function recount(store: Store, space: SpaceRow): void {
  let comments = 0;
  for (const c of store.all("comments")) if (c.space === space.id && c.changeRequest === null && c.status === "open") comments++;
  let total = 0;
  let open = 0;
  let draft = 0;
  for (const cr of store.all("changeRequests")) {
    if (cr.space !== space.id) continue;
    total++;
    if (cr.status === "open") open++;
    if (cr.status === "draft") draft++;
  }
  if (space.comments !== comments || space.changeRequests !== total || space.changeRequestsOpen !== open || space.changeRequestsDraft !== draft) {
    space.comments = comments;
    space.changeRequests = total;
    space.changeRequestsOpen = open;
    space.changeRequestsDraft = draft;
    store.touch("spaces", space);
  }
}
