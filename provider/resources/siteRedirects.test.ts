import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import type { ApiClient } from "../client";
import { Started } from "../../test/support/emulator";
import { type RedirectEntry, type SiteRedirectsOutputs, siteRedirectsKind, siteRedirectsProvider } from "./siteRedirects";

// A site's redirect set reconciles in ⌈changed / 500⌉ bulk calls, a no-op diff makes none, and a refresh
// is one paged walk of the live and draft lists. Calls are counted in the emulator's request log.

const ORG = "demo-org";
const started = new Started("dpt_SITE_REDIRECTS_93b1");
let emu: RunningEmulator;
let client: ApiClient;

beforeAll(async () => {
  emu = await started.emulator();
  client = started.client(emu.url);
});
afterAll(() => started.close());

const ext = (source: string, n = 0): RedirectEntry => ({ source, destination: { kind: "external", url: `https://example.com/${n}` } });
const many = (prefix: string, n: number): RedirectEntry[] => Array.from({ length: n }, (_, i) => ext(`/${prefix}/${i}`, i));

/** The calls made by `f`, as `METHOD count` per method. */
async function calls<T>(f: () => Promise<T>): Promise<{ result: T; puts: number; gets: number; total: number }> {
  emu.control.clearLog();
  const result = await f();
  const log = emu.control.log();
  return { result, puts: log.filter((c) => c.method === "PUT").length, gets: log.filter((c) => c.method === "GET").length, total: log.length };
}

async function newSite(): Promise<string> {
  return (await client.sites.create(ORG, { title: `redirects-${Math.random().toString(36).slice(2)}`, spaces: ["space-guides"] })).id;
}

describe("SiteRedirects", () => {
  it("creates, changes and deletes a set in ⌈changed / 500⌉ bulk calls; a no-op is 0 calls; a refresh walks the lists", async () => {
    const siteId = await newSite();
    const ctx = { client };
    const declared = many("a", 1200);
    const created = await calls(() => siteRedirectsKind.create(ctx, { organizationId: ORG, siteId, redirects: declared }));
    expect([created.puts, created.total]).toEqual([3, 3]);
    let outs: SiteRedirectsOutputs = created.result.outs;
    expect(outs.redirects.every((r) => typeof r.id === "string")).toBe(true);

    const diff = (redirects: RedirectEntry[]) => siteRedirectsProvider.diff(siteId, outs, { organizationId: ORG, siteId, redirects });
    // The same set in another order, defaults spelt out: no change, no call.
    const noop = await calls(() => diff([...declared].reverse().map((r) => ({ ...r, permanent: false, draft: false }))));
    expect(noop.result.changes).toBe(false);
    expect(noop.total).toBe(0);

    const update = async (redirects: RedirectEntry[]) => {
      const d = await diff(redirects);
      expect(d.changes).toBe(true);
      // The kind's update takes no list of changed fields: it reconciles the declared set against `outs`.
      const r = await calls(() => siteRedirectsKind.update(ctx, siteId, outs, { organizationId: ORG, siteId, redirects }));
      outs = r.result;
      return r.total;
    };
    let current = declared.map((r, i) => (i === 7 ? { ...r, permanent: true } : r));
    expect(await update(current)).toBe(1); // one edited
    current = current.filter((_, i) => i !== 8);
    expect(await update(current)).toBe(1); // one removed
    current = [...current, ...many("b", 500)];
    expect(await update(current)).toBe(1); // 500 added
    current = [...current, ...many("c", 501)];
    expect(await update(current)).toBe(2); // 501 added

    const refresh = await calls(() => siteRedirectsKind.read(ctx, siteId, outs));
    // 2,700 live redirects: three pages of 1000, and one page of drafts.
    expect([refresh.gets, refresh.total]).toEqual([4, 4]);
    expect((await siteRedirectsProvider.diff(siteId, refresh.result!, { organizationId: ORG, siteId, redirects: current })).changes).toBe(false);
    const live = await client.redirects.list(ORG, siteId);
    expect(live).toHaveLength(current.length);
    expect(live.find((r) => r.source === "/a/7")?.permanent).toBe(true);
    expect(live.some((r) => r.source === "/a/8")).toBe(false);

    const destroyed = await calls(() => siteRedirectsKind.delete(ctx, siteId, outs));
    expect(destroyed.total).toBe(Math.ceil(current.length / 500));
    expect(await client.redirects.list(ORG, siteId)).toEqual([]);
  });

  it("a run killed after its bulk call leaves no duplicate: the next run upserts the same sources", async () => {
    const siteId = await newSite();
    const inputs = { organizationId: ORG, siteId, redirects: [...many("k", 3), { ...ext("/k/draft"), draft: true }] };
    await siteRedirectsKind.create({ client }, inputs);
    // The state was never written: the next run creates again.
    const again = await siteRedirectsKind.create({ client }, inputs);
    expect(await client.redirects.list(ORG, siteId)).toHaveLength(3);
    expect(await client.redirects.list(ORG, siteId, { draft: true })).toHaveLength(1);
    expect(new Set(again.outs.redirects.map((r) => r.id)).size).toBe(4);
  });

  it("drift: a redirect made or deleted by hand shows as a change and the next update repairs it; a page path is not drift", async () => {
    const siteId = await newSite();
    const ctx = { client };
    const redirects: RedirectEntry[] = [ext("/keep"), ext("/lose"), { source: "/faq-old", destination: { kind: "path", spaceId: "space-guides", path: "faq" } }];
    let outs = (await siteRedirectsKind.create(ctx, { organizationId: ORG, siteId, redirects })).outs;
    const refreshed = (await siteRedirectsKind.read(ctx, siteId, outs))!;
    expect(refreshed.redirects.find((r) => r.source === "/faq-old")!.destination).toEqual({ kind: "path", spaceId: "space-guides", path: "faq" });
    expect((await siteRedirectsProvider.diff(siteId, refreshed, { organizationId: ORG, siteId, redirects })).changes).toBe(false);
    outs = refreshed;

    const lose = (await client.redirects.list(ORG, siteId)).find((r) => r.source === "/lose")!;
    await client.redirects.delete(ORG, siteId, lose.id);
    await client.redirects.create(ORG, siteId, { source: "/by-hand", destination: { kind: "external", url: "https://x.test" } });
    const drifted = (await siteRedirectsKind.read(ctx, siteId, outs))!;
    expect(drifted.redirects.map((r) => r.source).sort()).toEqual(["/by-hand", "/faq-old", "/keep"]);
    expect((await siteRedirectsProvider.diff(siteId, drifted, { organizationId: ORG, siteId, redirects })).changes).toBe(true);
    const repair = await calls(() => siteRedirectsKind.update(ctx, siteId, drifted, { organizationId: ORG, siteId, redirects }));
    expect(repair.total).toBe(1);
    expect((await client.redirects.list(ORG, siteId, { orderBy: "source" })).map((r) => r.source)).toEqual(["/faq-old", "/keep", "/lose"]);
  });

  it("a set, not a list: a refresh of unchanged redirects the platform lists in another order stores exactly what it stored", async () => {
    const siteId = await newSite();
    const ctx = { client };
    const redirects = [ext("/b", 1), ext("/a", 2), ext("/c", 3)];
    const outs = (await siteRedirectsKind.create(ctx, { organizationId: ORG, siteId, redirects })).outs;
    // Made again by hand, the same: the platform now lists it last.
    const a = (await client.redirects.list(ORG, siteId)).find((r) => r.source === "/b")!;
    await client.redirects.delete(ORG, siteId, a.id);
    const again = await client.redirects.create(ORG, siteId, { source: "/b", destination: { kind: "external", url: "https://example.com/1" } });
    expect((await client.redirects.list(ORG, siteId)).map((r) => r.source)).not.toEqual(outs.redirects.map((r) => r.source));
    const refreshed = (await siteRedirectsKind.read(ctx, siteId, outs))!;
    expect(refreshed.redirects.map((r) => r.source)).toEqual(["/b", "/a", "/c"]);
    expect(refreshed).toEqual({ ...outs, redirects: outs.redirects.map((r) => (r.source === "/b" ? { ...r, id: again.id } : r)) });
    expect((await siteRedirectsProvider.diff(siteId, refreshed, { organizationId: ORG, siteId, redirects })).changes).toBe(false);
  });

  it("refuses a source twice in one state before any call, and reports what the platform refused by source", async () => {
    const siteId = await newSite();
    const twice = await calls(() => siteRedirectsKind.create({ client }, { organizationId: ORG, siteId, redirects: [ext("/x"), ext("/y"), ext("/x", 2)] }).catch((e: Error) => e));
    expect(String(twice.result)).toMatch(/redirects\[2\]\.source "\/x" repeats redirects\[0\]\.source/);
    expect(twice.total).toBe(0);
    const refused = await siteRedirectsKind
      .create({ client }, { organizationId: ORG, siteId, redirects: [ext("/fine"), { source: "/nowhere", destination: { kind: "path", spaceId: "space-guides", path: "no/such/page" } }] })
      .catch((e: Error) => e);
    expect(String(refused)).toMatch(/refused 1 redirect\(s\): \/nowhere: .*no\/such\/page/);
  });
});
