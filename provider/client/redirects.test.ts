import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isConflict, isNotFound, REDIRECTS_PER_BULK, type ApiClient, type BulkRedirectItem } from "./index";
import { Started } from "../../test/support/emulator";

// The redirects area through its typed methods against the emulator over HTTP.
const ORG = "demo-org";
const started = new Started("dpt_REDIRECTS_5e1c0a77");
let api: ApiClient;

beforeAll(async () => {
  api = await started.clientOfNewEmulator();
});
afterAll(async () => {
  await started.close();
});

describe("redirects", () => {
  it("create, bulk upsert per item, list whole and paged, update, lookup, delete", async () => {
    const site = await api.sites.create(ORG, { title: "Redirected", spaces: ["space-guides"] });
    const [guides] = await api.siteSpaces.list(ORG, site.id);
    const one = await api.redirects.create(ORG, site.id, { source: "/one", destination: { kind: "site-space", siteSpaceId: guides!.id } });
    expect(one).toMatchObject({ object: "site-redirect", source: "/one", draft: false, permanent: false, captureWildcard: false });
    await expect(api.redirects.create(ORG, site.id, { source: "/one", destination: { kind: "external", url: "https://x.test" } })).rejects.toSatisfy(isConflict);

    const items: BulkRedirectItem[] = Array.from({ length: REDIRECTS_PER_BULK }, (_, i) => ({ source: `/many/${i}`, destination: { kind: "path", spaceId: "space-guides", path: "faq" } }));
    const results = await api.redirects.bulk(ORG, site.id, items);
    expect(results.filter((r) => r.status === "created")).toHaveLength(REDIRECTS_PER_BULK);
    await expect(api.redirects.bulk(ORG, site.id, [...items, items[0]!])).rejects.toThrow(RangeError);
    await expect(api.redirects.bulk(ORG, site.id, [])).rejects.toThrow(RangeError);
    const again = await api.redirects.bulk(ORG, site.id, [{ source: "/one", destination: null }, { source: "/nope", intent: "publish" }]);
    expect(again.map((r) => r.status)).toEqual(["deleted", "error"]);

    const all = await api.redirects.list(ORG, site.id, { orderBy: "source" });
    expect(all).toHaveLength(REDIRECTS_PER_BULK);
    expect(all[0]!.destination).toEqual({ kind: "site-page", siteSpaceId: guides!.id, pageId: expect.any(String) });
    let paged = 0;
    for await (const r of api.redirects.iterate(ORG, site.id, { search: "/many/1" })) paged += r.source.startsWith("/many/1") ? 1 : 0;
    expect(paged).toBe(111);
    expect(await api.redirects.list(ORG, site.id, { draft: true })).toEqual([]);

    const first = all[0]!;
    const updated = await api.redirects.update(ORG, site.id, first.id, { source: "/many/*", captureWildcard: true, destination: { kind: "external", url: "https://x.test/new" } });
    expect(updated).toMatchObject({ source: "/many/*", captureWildcard: true, updatedAt: expect.any(String) });
    expect(await api.redirects.lookup(ORG, site.id, "/many/elsewhere/deep")).toMatchObject({ redirect: { id: first.id }, target: "https://x.test/new/elsewhere/deep" });
    await api.redirects.delete(ORG, site.id, first.id);
    await expect(api.redirects.lookup(ORG, site.id, "/many/elsewhere")).rejects.toSatisfy(isNotFound);
    await expect(api.redirects.delete(ORG, site.id, first.id)).rejects.toSatisfy(isNotFound);
  });
});
