/** The content rules alone: the three-way merge of page trees, deterministic imports, link statuses. */
import { describe, expect, it } from "vitest";
import { flatten, importFromUrl, linkStats, mergeTrees, pageLinks } from "./content";
import type { PageNode, RevisionRow } from "./model";

const T = "2026-01-01T00:00:00.000Z";

function page(id: string, markdown = `# ${id}`, pages: PageNode[] = []): PageNode {
  return { id, title: id.toUpperCase(), slug: id, emoji: null, description: null, markdown, createdAt: T, updatedAt: T, pages };
}

/** `id:markdown` of every page, with its path. */
function shape(pages: PageNode[]): string[] {
  return flatten(pages).map((p) => `${p.path}=${p.page.markdown}`);
}

describe("mergeTrees (main plus what the change request changed since its base)", () => {
  const base = [page("a"), page("b", "# b", [page("c")])];

  it("keeps additions of both sides", () => {
    const ours = [...structuredClone(base), page("x")];
    const theirs = [...structuredClone(base), page("y")];
    expect(shape(mergeTrees(base, ours, theirs))).toEqual(["a=# a", "b=# b", "b/c=# c", "y=# y", "x=# x"]);
  });

  it("a deletion in the change request does not undo main's edit of a sibling (regression: index shifts counted as moves)", () => {
    const ours = structuredClone(base).slice(1); // deletes a: b moves from index 1 to 0
    const theirs = structuredClone(base);
    theirs[1]!.markdown = "# b, edited on main";
    expect(shape(mergeTrees(base, ours, theirs))).toEqual(["b=# b, edited on main", "b/c=# c"]);
  });

  it("where both sides edited a page, the change request wins; a page it deleted is gone even if main edited it", () => {
    const ours = structuredClone(base);
    ours[0]!.markdown = "# a, ours";
    ours[1]!.pages = [];
    const theirs = structuredClone(base);
    theirs[0]!.markdown = "# a, theirs";
    theirs[1]!.pages[0]!.markdown = "# c, theirs";
    expect(shape(mergeTrees(base, ours, theirs))).toEqual(["a=# a, ours", "b=# b"]);
  });

  it("moves a page the change request moved, and keeps main's edit of it", () => {
    const ours = [page("a", "# a", [page("c")]), page("b")];
    const theirs = structuredClone(base);
    theirs[1]!.pages[0]!.markdown = "# c, theirs";
    expect(shape(mergeTrees(base, ours, theirs))).toEqual(["a=# a", "a/c=# c, theirs", "b=# b"]);
  });

  it("keeps every page once when the two sides move pages under each other", () => {
    const start = [page("p"), page("q")];
    const ours = [page("p", "# p", [page("q")])]; // q under p
    const theirs = [page("q", "# q", [page("p")])]; // p under q
    const merged = flatten(mergeTrees(start, ours, theirs)).map((x) => x.page.id).sort();
    expect(merged).toEqual(["p", "q"]);
  });

  it("makes slugs unique among siblings", () => {
    const ours = [...structuredClone(base), page("n")];
    const theirs = [...structuredClone(base), { ...page("m"), slug: "n" }];
    expect(flatten(mergeTrees(base, ours, theirs)).map((p) => p.path)).toEqual(["a", "b", "b/c", "n", "n-2"]);
  });
});

describe("importFromUrl", () => {
  it("derives the same pages and file from the same URL, with IDs unique per revision imported into", () => {
    const url = "https://docs.example.com/team/getting-started";
    const one = importFromUrl(url, "rev-1", T);
    const two = importFromUrl(url, "rev-2", T);
    const titles = (i: typeof one) => flatten(i.pages).map((p) => p.page.title);
    expect(titles(two)).toEqual(titles(one));
    expect(titles(one)[0]).toBe("Getting started");
    expect(flatten(one.pages).length).toBeGreaterThanOrEqual(2);
    expect(flatten(one.pages).length).toBeLessThanOrEqual(4);
    expect(two.files[0]!.size).toBe(one.files[0]!.size);
    expect(two.pages[0]!.id).not.toBe(one.pages[0]!.id);
    expect(importFromUrl(url, "rev-1", T, new Set(["getting-started"])).pages[0]!.slug).toBe("getting-started-2");
  });

  it("links its pages and image so that none is broken", () => {
    const imported = importFromUrl("https://x.example/a/b", "rev", T, new Set(["b"]));
    const rev: RevisionRow = { id: "rev", space: "s", parents: [], type: "edits", createdAt: T, createdBy: null, pages: imported.pages, files: imported.files };
    const links = flatten(rev.pages).flatMap((p) => pageLinks("o", rev, p.page));
    expect(links.length).toBeGreaterThan(2);
    expect(links.filter((l) => l.status !== "ok")).toEqual([]);
  });
});

describe("pageLinks and linkStats", () => {
  it("classifies links: pages and files of the revision, external, in-app, .invalid, missing", () => {
    const md = "[p](/a) [gone](/nope) ![f](file:f1) ![g](file:f2) [w](https://nodejs.org/) [app](https://app.docsplatform.dev/s/x) [bad](https://x.invalid/) [rel](docs/x)";
    const rev: RevisionRow = {
      id: "rev", space: "s", parents: [], type: "edits", createdAt: T, createdBy: null,
      pages: [page("a", md)],
      files: [{ id: "f1", name: "f.png", contentType: "image/png", size: 1, width: null, height: null }],
    };
    const links = pageLinks("o", rev, rev.pages[0]!);
    expect(links.map((l) => l.status)).toEqual(["ok", "broken", "ok", "broken", "ok", "in-app", "broken"]);
    expect(links[0]!.targetReference).toMatchObject({ kind: "page", page: "a", space: "s", versionContext: { type: "revision", revision: "rev" } });
    expect(links[2]!.targetReference).toMatchObject({ kind: "file", file: "f1" });
    expect(linkStats(links, new Set(["a"]))).toEqual({ total: 7, broken: { total: 3, changeRequest: 3 } });
    expect(linkStats(links)).toEqual({ total: 7, broken: { total: 3, changeRequest: 0 } });
  });
});
