/** Site redirects in the emulator: limits, create, bulk upsert per item, list paging and order, update, delete, lookup with wildcards. */
import { describe, expect, it } from "vitest";
import { listAll } from "../test/support/api";
import { shareEmulator } from "../test/support/emulatorSuite";

const emu = shareEmulator();
const admin = emu.caller();
const reader = emu.caller("reader-token");
const S = "/v1/orgs/demo-org/sites";

/** A site with the guides at the root and a section for the API reference; its IDs. */
async function site(): Promise<{ base: string; url: string; guides: string; section: string; apiSiteSpace: string; install: string }> {
  const s = (await admin("POST", S, { title: "Handbook", spaces: ["space-guides"] })).body;
  const base = `${S}/${s.id}`;
  const section = (await admin("POST", `${base}/sections`, { spaceId: "space-api", title: "API" })).body;
  const [guides] = await listAll(admin, `${base}/site-spaces`);
  const rev = emu.store.get("revisions", emu.store.get("spaces", "space-guides")!.revision)!;
  const install = rev.pages[0]!.pages.find((p) => p.slug === "installation")!.id;
  return { base, url: s.urls.published, guides: guides.id, section: section.id, apiSiteSpace: section.siteSpaces[0].id, install };
}

describe("redirects", () => {
  it("create: every destination kind, defaults, a path resolved to a page, 409 on a taken source, 400 on bad input", async () => {
    const t = await site();
    const r = await admin("POST", `${t.base}/redirects`, { source: "/old", destination: { kind: "site-section", siteSectionId: t.section } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ object: "site-redirect", source: "/old", draft: false, captureWildcard: false, permanent: false, destination: { kind: "site-section", siteSectionId: t.section } });
    expect(r.body.updatedAt).toBeUndefined();
    const viaPath = await admin("POST", `${t.base}/redirects`, { source: "/install", permanent: true, destination: { kind: "path", spaceId: "space-guides", path: "getting-started/installation" } });
    expect(viaPath.body.destination).toEqual({ kind: "site-page", siteSpaceId: t.guides, pageId: t.install });
    expect((await admin("POST", `${t.base}/redirects`, { source: "/old", destination: { kind: "external", url: "https://example.com" } })).status).toBe(409);
    // The same source as a draft is another redirect.
    expect((await admin("POST", `${t.base}/redirects`, { source: "/old", draft: true, destination: { kind: "external", url: "https://example.com" } })).status).toBe(201);
    for (const [body, field] of [
      [{ source: "/a/", destination: { kind: "external", url: "https://x.test" } }, /source/],
      [{ source: "/*", destination: { kind: "external", url: "https://x.test" } }, /source/],
      [{ source: `/${"a".repeat(512)}`, destination: { kind: "external", url: "https://x.test" } }, /source/],
      [{ source: "/b", destination: { kind: "site-space", siteSpaceId: "nope" } }, /destination\/siteSpaceId/],
      [{ source: "/b", destination: { kind: "path", spaceId: "space-guides", path: "no/such/page" } }, /destination\/path/],
      [{ source: "/b", destination: { kind: "path", spaceId: "space-changelog", path: "releases" } }, /destination\/spaceId/],
      [{ source: "/b", destination: { kind: "site-page", siteSpaceId: t.guides } }, /pageId|destination/],
    ] as const) {
      const bad = await admin("POST", `${t.base}/redirects`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.message).toMatch(field);
    }
    expect((await reader("POST", `${t.base}/redirects`, { source: "/c", destination: { kind: "external", url: "https://x.test" } })).status).toBe(403);
  });

  it("bulk upsert: up to 500 items, keyed by source and intent, answered per item, publish and delete", async () => {
    const t = await site();
    const ext = (n: number) => ({ kind: "external", url: `https://example.com/${n}` });
    const put = (redirects: unknown[]) => admin("PUT", `${t.base}/redirects`, { redirects });
    expect((await put([])).status).toBe(400);
    const tooMany = await put(Array.from({ length: 501 }, (_, i) => ({ source: `/p${i}`, destination: ext(i) })));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toMatch(/500/);
    const first = await put(Array.from({ length: 500 }, (_, i) => ({ source: `/p${i}`, destination: ext(i) })));
    expect(first.status).toBe(200);
    expect(first.body.results).toHaveLength(500);
    expect(first.body.results.every((x: { status: string }) => x.status === "created")).toBe(true);
    const mixed = await put([
      { source: "/p0", permanent: true, destination: ext(1000) },
      { source: "/p1", destination: null },
      { source: "/p2", destination: { kind: "site-section", siteSectionId: "nope" } },
      { source: "/p3", intent: "draft", destination: ext(3000) },
      { source: "/p4", intent: "publish" },
      { source: "/p5", destination: null, intent: "draft" },
    ]);
    expect(mixed.status).toBe(200);
    const results = mixed.body.results;
    expect(results.map((x: { status: string }) => x.status)).toEqual(["updated", "deleted", "error", "created", "error", "error"]);
    expect(results[0]).toEqual({ status: "updated", source: "/p0", draft: false, id: first.body.results[0].id });
    expect(results[1]).toEqual({ status: "deleted", source: "/p1", draft: false });
    expect(results[2].error).toMatch(/siteSectionId/);
    expect(results[3]).toMatchObject({ status: "created", source: "/p3", draft: true });
    const published = (await put([{ source: "/p3", intent: "publish" }])).body.results[0];
    expect(published).toEqual({ status: "published", source: "/p3", draft: false, id: results[3].id });
    const live = await listAll(admin, `${t.base}/redirects`, 1000);
    expect(live).toHaveLength(499);
    expect(live.find((x) => x.source === "/p3").destination).toEqual(ext(3000));
    expect(live.find((x) => x.source === "/p0")).toMatchObject({ permanent: true, destination: ext(1000) });
    expect(await listAll(admin, `${t.base}/redirects?draft=true`)).toEqual([]);
    // A bad source refuses the whole request (nothing applied).
    expect((await put([{ source: "/ok", destination: ext(1) }, { source: "bad", destination: ext(2) }])).status).toBe(400);
    expect((await admin("GET", `${t.base}/redirects?search=/ok`)).body.count).toBe(0);
  });

  it("list: pages of a large list, drafts apart, search, the three orders", async () => {
    const t = await site();
    const items = Array.from({ length: 1200 }, (_, i) => ({ source: `/r/${String(i).padStart(4, "0")}`, destination: { kind: "site-space", siteSpaceId: t.guides } }));
    for (let i = 0; i < items.length; i += 500) expect((await admin("PUT", `${t.base}/redirects`, { redirects: items.slice(i, i + 500) })).status).toBe(200);
    await admin("PUT", `${t.base}/redirects`, { redirects: [{ source: "/draft-only", intent: "draft", destination: { kind: "site-space", siteSpaceId: t.guides } }] });
    const page1 = await admin("GET", `${t.base}/redirects?limit=1000`);
    expect(page1.body.count).toBe(1000);
    expect(page1.body.next.page).toBeTruthy();
    const all = await listAll(admin, `${t.base}/redirects`, 1000);
    expect(all).toHaveLength(1200);
    expect(new Set(all.map((x) => x.id)).size).toBe(1200);
    // Newest first by default (one instant: reverse creation order).
    expect(all[0].source).toBe("/r/1199");
    const bySource = await listAll(admin, `${t.base}/redirects?orderBy=source`, 1000);
    expect(bySource.map((x) => x.source)).toEqual(items.map((x) => x.source));
    emu.control.advanceClock(1000);
    await admin("PATCH", `${t.base}/redirects/${bySource[5].id}`, { permanent: true });
    expect((await admin("GET", `${t.base}/redirects?orderBy=updatedAt&limit=1`)).body.items[0].source).toBe("/r/0005");
    expect((await admin("GET", `${t.base}/redirects?search=R/001`)).body.count).toBe(10);
    expect((await listAll(admin, `${t.base}/redirects?draft=true`)).map((x) => x.source)).toEqual(["/draft-only"]);
    expect((await admin("GET", `${t.base}/redirects?orderBy=title`)).status).toBe(400);
    expect((await reader("GET", `${t.base}/redirects?limit=1`)).status).toBe(200);
  });

  it("update and delete: only given fields change; a taken source is 409; delete 205, then 404", async () => {
    const t = await site();
    const a = (await admin("POST", `${t.base}/redirects`, { source: "/a", captureWildcard: true, destination: { kind: "site-space", siteSpaceId: t.guides } })).body;
    await admin("POST", `${t.base}/redirects`, { source: "/b", destination: { kind: "site-space", siteSpaceId: t.guides } });
    const patched = await admin("PATCH", `${t.base}/redirects/${a.id}`, { destination: { kind: "site-page", siteSpaceId: t.guides, pageId: t.install } });
    expect(patched.body).toMatchObject({ source: "/a", captureWildcard: true, destination: { kind: "site-page", pageId: t.install } });
    expect(patched.body.updatedAt).toBeTruthy();
    expect((await admin("PATCH", `${t.base}/redirects/${a.id}`, { source: "/b" })).status).toBe(409);
    expect((await admin("PATCH", `${t.base}/redirects/${a.id}`, { destination: { kind: "path", spaceId: "space-guides", path: "faq" } })).status).toBe(400);
    expect((await admin("DELETE", `${t.base}/redirects/${a.id}`)).status).toBe(205);
    expect((await admin("DELETE", `${t.base}/redirects/${a.id}`)).status).toBe(404);
    expect((await admin("PATCH", `${t.base}/redirects/${a.id}`, { permanent: true })).status).toBe(404);
  });

  it("lookup: the exact source first, then the longest wildcard prefix; the captured suffix is appended when asked", async () => {
    const t = await site();
    const section = (await admin("GET", `${t.base}/sections`)).body.items[0];
    const guidesUrl = (await listAll(admin, `${t.base}/site-spaces`))[0].urls.published;
    await admin("PUT", `${t.base}/redirects`, {
      redirects: [
        { source: "/docs/*", captureWildcard: true, destination: { kind: "site-section", siteSectionId: t.section } },
        { source: "/docs/api/*", destination: { kind: "external", url: "https://api.example.com" } },
        { source: "/docs/exact", destination: { kind: "site-page", siteSpaceId: t.guides, pageId: t.install } },
        { source: "/old*", captureWildcard: true, destination: { kind: "site-space", siteSpaceId: t.guides } },
        { source: "/drafted", intent: "draft", destination: { kind: "external", url: "https://x.test" } },
      ],
    });
    const look = async (source: string) => {
      const r = await admin("GET", `${t.base}/redirect?source=${encodeURIComponent(source)}`);
      return r.status === 200 ? [r.body.redirect.source, r.body.target] : r.status;
    };
    expect(await look("/docs/exact")).toEqual(["/docs/exact", `${guidesUrl}/getting-started/installation`]);
    expect(await look("/docs/a/b")).toEqual(["/docs/*", `${section.urls.published}/a/b`]);
    expect(await look("/docs/api/v1")).toEqual(["/docs/api/*", "https://api.example.com"]);
    // A level wildcard also answers the level itself.
    expect(await look("/docs")).toEqual(["/docs/*", section.urls.published]);
    expect(await look("/docs-old")).toBe(404);
    expect(await look("/old")).toEqual(["/old*", guidesUrl]);
    expect(await look("/old-stuff/x")).toEqual(["/old*", `${guidesUrl}-stuff/x`]);
    expect(await look("/DOCS/a")).toBe(404);
    expect(await look("/drafted")).toBe(404);
    expect(await look("/")).toBe(400);
    // A destination deleted since: the lookup says so.
    await admin("DELETE", `${t.base}/sections/${t.section}`);
    expect(await look("/docs/a")).toBe(404);
  });

  it("go with their site", async () => {
    const t = await site();
    await admin("POST", `${t.base}/redirects`, { source: "/x", destination: { kind: "external", url: "https://x.test" } });
    expect(emu.store.counts().redirects).toBe(1);
    await admin("DELETE", t.base);
    expect(emu.store.counts().redirects).toBe(0);
  });
});

describe("a space's current page tree (what a redirect's page path is resolved against)", () => {
  it("lists the current content's pages, nested, each with its path; a member who cannot read the space gets 404", async () => {
    const r = await admin("GET", "/v1/spaces/space-guides/content/pages");
    expect(r.status).toBe(200);
    const paths = (pages: { path: string; pages: unknown[] }[]): string[] => pages.flatMap((p) => [p.path, ...paths(p.pages as never)]);
    expect(paths(r.body.pages)).toEqual(["getting-started", "getting-started/installation", "getting-started/configuration", "faq"]);
    expect((await admin("GET", "/v1/spaces/space-nope/content/pages")).status).toBe(404);
    expect((await reader("GET", "/v1/spaces/space-guides/content/pages")).status).toBe(200);
  });
});
