import { describe, expect, it } from "vitest";
import { checkRedirects, type RedirectSite } from "./checks";
import { anyBroken, guardLines, guardSite, proposalSnippet, type ReaderLevel } from "./guard";
import { guardTable } from "../view/diffRender";
import { answeringRedirect, SOURCE_PATTERN, type StackRedirect } from "./rules";
import { destinationInput, exportRedirects, redirectCount, redirectLines } from "./forms";

const site: RedirectSite = {
  sections: new Map([["guides", "/"], ["api", "/api"]]),
  siteSpaces: new Map([["guides-main", "/"], ["api-v2", "/api"], ["api-v1", "/api/v1"]]),
};

describe("which redirect answers a path", () => {
  const rules: StackRedirect[] = [
    { source: "/docs/*", destination: { section: "guides" } },
    { source: "/docs*", destination: { section: "api" } },
    { source: "/docs/api/*", destination: { url: "https://x.test" } },
    { source: "/docs/exact", destination: { siteSpace: "api-v1" } },
    { source: "/drafted", draft: true, destination: { section: "api" } },
  ];
  const answer = (p: string) => answeringRedirect(rules, p);
  it("exact first, then the longest literal prefix; a level wildcard answers the level; drafts answer nothing", () => {
    expect(answer("/docs/exact")?.redirect.source).toBe("/docs/exact");
    expect(answer("/docs/api/x")?.redirect.source).toBe("/docs/api/*");
    expect(answer("/docs")).toMatchObject({ redirect: { source: "/docs/*" }, captured: "" });
    expect(answer("/docs/a/b")).toMatchObject({ redirect: { source: "/docs/*" }, captured: "/a/b" });
    expect(answer("/docs-old")).toMatchObject({ redirect: { source: "/docs*" }, captured: "-old" });
    expect(answer("/Docs/a")).toBeUndefined();
    expect(answer("/drafted")).toBeUndefined();
    expect(SOURCE_PATTERN.test("/api/v1/*")).toBe(true);
    expect(SOURCE_PATTERN.test("/api/")).toBe(false);
  });
});

describe("offline checks", () => {
  it("name each mistake at its place: repeated source, unknown or removed key, a live URL, a chain, a loop", () => {
    const redirects = [
      { source: "/old", destination: { section: "guides" } },
      { source: "/old", destination: { section: "api" } },
      { source: "/old", draft: true, destination: { section: "api" } },
      { source: "/x", destination: { section: "nope" } },
      { source: "/y", destination: { siteSpace: "api-v0" } },
      { source: "/api/v1", destination: { section: "guides" } },
      { source: "/api/*", destination: { section: "guides" } },
      { source: "/a", destination: { path: "/b" } },
      { source: "/b", destination: { path: "/c" } },
      { source: "/c", destination: { section: "guides" } },
      { source: "/l1", destination: { path: "/l2" } },
      { source: "/l2", destination: { path: "/l1" } },
    ];
    const issues = checkRedirects("/sites/0/redirects", redirects, site);
    expect(issues.map((i) => [i.pointer, i.reason.split(":")[0]])).toEqual([
      ["/sites/0/redirects/1/source", '"/old" repeats the source of redirects[0]'],
      ["/sites/0/redirects/3/destination/section", "names no section of this site"],
      ["/sites/0/redirects/4/destination/siteSpace", 'names no site space of this site'],
      ["/sites/0/redirects/5/source", '"/api/v1" is /api/v1, the live URL of site space "api-v1"'],
      ["/sites/0/redirects/6/source", '"/api/*" covers /api, the live URL of section "api"'],
      ["/sites/0/redirects/7/destination/path", "chains"],
      ["/sites/0/redirects/8/destination/path", "chains"],
      ["/sites/0/redirects/10/destination/path", "loops"],
      ["/sites/0/redirects/11/destination/path", "loops"],
    ]);
    expect(issues[5]!.reason).toContain("/a → /b → /c → section \"guides\"");
    expect(issues[7]!.reason).toContain("/l1 → /l2 → /l1");
  });
});

describe("the URL guard", () => {
  const base: ReaderLevel[] = [
    { kind: "section", key: "guides", url: "/", label: 'section "Guides"' },
    { kind: "section", key: "api", url: "/api", label: 'section "API"' },
    { kind: "siteSpace", key: "api-v2", url: "/api", label: "site space /api" },
    { kind: "siteSpace", key: "api-v1", url: "/api/v1", label: "site space /api/v1" },
  ];
  const moved: ReaderLevel[] = [
    { kind: "section", key: "guides", url: "/", label: 'section "Guides"' },
    { kind: "section", key: "api", url: "/reference", label: 'section "API"' },
    { kind: "siteSpace", key: "api-v2", url: "/reference", label: "site space /reference" },
    { kind: "siteSpace", key: "api-v1", url: "/reference/v1", label: "site space /reference/v1" },
  ];

  it("a moved section without a redirect: its URLs broken, one level redirect proposed", () => {
    const g = guardSite(base, moved, []);
    expect(g.rows.map((r) => [r.url, r.movedTo, r.level, r.pages])).toEqual([
      ["/api", "/reference", "broken", "broken"],
      ["/api/v1", "/reference/v1", "broken", "broken"],
    ]);
    expect(g.proposed).toEqual([{ source: "/api/*", destination: { section: "api" }, captureWildcard: true, permanent: true }]);
    expect(anyBroken([g])).toBe(true);
    expect(proposalSnippet(g.proposed)).toEqual(["    redirects:", "      - { source: /api/*, destination: { section: api }, captureWildcard: true, permanent: true }"]);
    expect(guardLines(g)[0]).toBe('/api (section "API", moved to /reference): broken (with its pages)');
  });

  it("the same with the proposed redirect: every URL redirected, nothing proposed", () => {
    const g = guardSite(base, moved, [{ source: "/api/*", destination: { section: "api" }, captureWildcard: true }]);
    expect(g.rows.every((r) => r.level !== "broken" && r.pages !== "broken")).toBe(true);
    expect(g.proposed).toEqual([]);
    expect(guardTable(g)[2]).toBe('| `/api` | `section "API"` | moved to `/reference` | redirected by `/api/*` → `section "api"` | redirected by `/api/*` → `section "api"` |');
  });

  it("an exact redirect covers the URL but not its pages; a removed object gets no proposal", () => {
    const head = moved.filter((l) => l.key !== "api-v1");
    const g = guardSite(base, head, [{ source: "/api", destination: { section: "api" } }]);
    expect(g.rows.map((r) => [r.url, r.movedTo, r.level === "broken", r.pages === "broken"])).toEqual([
      ["/api", "/reference", false, true],
      ["/api/v1", undefined, true, true],
    ]);
    expect(g.proposed.map((p) => p.source)).toEqual(["/api/*"]);
  });
});

describe("the two forms of a redirect", () => {
  const ids = { sectionId: "sec_1", siteSpaceId: "ss_1", spaceId: "space-guides", siteUrl: "https://demo.docsplatform.site/handbook" };
  const keys = {
    section: (id: string) => ({ sec_1: "guides" })[id],
    siteSpace: (id: string) => ({ ss_1: "guides-main" })[id],
    siteUrl: "https://demo.docsplatform.site/handbook",
  };
  it("declares each destination kind by ID, and export turns each back into keys", () => {
    expect(destinationInput({ section: "guides" }, ids)).toEqual({ kind: "site-section", siteSectionId: "sec_1" });
    expect(destinationInput({ siteSpace: "guides-main" }, ids)).toEqual({ kind: "site-space", siteSpaceId: "ss_1" });
    expect(destinationInput({ siteSpace: "guides-main", page: "/faq/" }, ids)).toEqual({ kind: "path", spaceId: "space-guides", path: "faq" });
    expect(destinationInput({ siteSpace: "guides-main", pageId: "p1" }, ids)).toEqual({ kind: "site-page", siteSpaceId: "ss_1", pageId: "p1" });
    expect(destinationInput({ path: "/new" }, ids)).toEqual({ kind: "external", url: "https://demo.docsplatform.site/handbook/new" });
    expect(destinationInput({ url: "https://x.test" }, ids)).toEqual({ kind: "external", url: "https://x.test" });
    expect(() => destinationInput({ section: "guides" }, {})).toThrow(/section ID/);
    const live = [
      { object: "site-redirect", id: "r1", source: "/b", draft: false, permanent: true, captureWildcard: false, destination: { kind: "site-section", siteSectionId: "sec_1" }, createdAt: "" },
      { object: "site-redirect", id: "r2", source: "/a", draft: true, permanent: false, captureWildcard: true, destination: { kind: "external", url: "https://demo.docsplatform.site/handbook/new" }, createdAt: "" },
      { object: "site-redirect", id: "r3", source: "/c", draft: false, permanent: false, captureWildcard: false, destination: { kind: "site-page", siteSpaceId: "ss_1", pageId: "p1" }, createdAt: "" },
      { object: "site-redirect", id: "r4", source: "/d", draft: false, permanent: false, captureWildcard: false, destination: { kind: "site-space", siteSpaceId: "elsewhere" }, createdAt: "" },
    ] as const;
    const out = exportRedirects(live as never, keys);
    expect(out.redirects).toEqual([
      { source: "/b", destination: { section: "guides" }, permanent: true },
      { source: "/c", destination: { siteSpace: "guides-main", pageId: "p1" } },
      { source: "/a", destination: { path: "/new" }, captureWildcard: true, draft: true },
    ]);
    expect(out.skipped).toEqual(["/d: its destination (site-space) is not an object of the site"]);
    expect(redirectLines(out.redirects)).toEqual([
      "/a → /new (temporary, keeps the rest of the path, draft)",
      '/b → section "guides" (permanent)',
      '/c → site space "guides-main" page id p1 (temporary)',
    ]);
    expect(redirectCount(out.redirects)).toBe("3 redirects (1 draft)");
    expect(redirectCount(undefined)).toBeUndefined();
  });
});
