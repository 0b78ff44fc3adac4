/**
 * The handbook with 20 redirects of every destination kind, through the real language host and plugin
 * (test/harness) against the emulator: up, a second up with no call, day-two edits each in the fewest
 * bulk calls (one edited, one removed, 500 added, 501 added), destroy.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument, type YAMLSeq } from "yaml";
import type { RunningEmulator } from "../../emulator";
import type { PreparedProgram, ProgramRunner, RunResult } from "../../test/harness";
import { startProgram, stopProgram } from "../../test/support/program";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");

/** Four redirects of each destination kind: a section, a site space, a page by its path, a path on the site, a URL. */
export function twentyRedirects(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < 4; i++) {
    out.push({ source: `/old-guides-${i}/*`, destination: { section: "guides" }, captureWildcard: true, permanent: true });
    out.push({ source: `/old-v1-${i}`, destination: { siteSpace: "api-v1" } });
    out.push({ source: `/install-${i}`, destination: { siteSpace: "guides", page: "getting-started/installation" }, permanent: i % 2 === 0 });
    out.push({ source: `/moved-${i}`, destination: { path: `/api/v1` }, draft: i === 3 });
    out.push({ source: `/blog-${i}`, destination: { url: `https://blog.demo.test/${i}` } });
  }
  return out;
}

/** Redirects `/bulk/<from>` … `/bulk/<from + n - 1>`, each to the changelog section. */
const bulk = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ source: `/bulk/${from + i}`, destination: { section: "changelog" } }));

/** API writes as `METHOD route status`. */
function writes(result: RunResult): string[] {
  return result.apiCalls.filter((c) => c.method !== "GET").map((c) => `${c.method} ${c.route.replace(/^\/v1\/orgs\/:organizationId/, "")} ${c.status}`);
}

describe("the handbook's redirects through the engine", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  const docsFile = () => path.join(program.dir, "docs.yaml");
  const editRedirects = (edit: (list: unknown[]) => unknown[]) => {
    const doc = parseDocument(fs.readFileSync(docsFile(), "utf8"));
    const current = ((doc.getIn(["sites", 0, "redirects"]) as YAMLSeq | undefined)?.toJSON() ?? []) as unknown[];
    doc.setIn(["sites", 0, "redirects"], doc.createNode(edit(current)));
    fs.writeFileSync(docsFile(), doc.toString());
  };
  const handbookId = () => emu.store.org("demo-org").sites.find((s) => s.title === "Handbook")!.id;
  const liveRedirects = () => [...emu.store.all("redirects")].filter((r) => r.site === handbookId());

  /** `up`, then a second `up` that makes no call and changes nothing. */
  async function upAndSettle(): Promise<RunResult> {
    const up = await runner.up();
    const again = await runner.up();
    expect(again.apiCalls).toEqual([]);
    expect(again.steps.filter((s) => s.custom && s.op !== "same")).toEqual([]);
    return up;
  }

  beforeAll(async () => {
    ({ emu, program, runner } = await startProgram(HANDBOOK));
    editRedirects(() => twentyRedirects());
  }, 300_000);
  afterAll(() => stopProgram({ emu, program, runner }));

  it("up creates the handbook with its 20 redirects in one bulk call; a second up makes no call", async () => {
    const up = await upAndSettle();
    expect(writes(up).filter((w) => w.includes("/redirects"))).toEqual(["PUT /sites/:siteId/redirects 200"]);
    const live = liveRedirects();
    expect(live).toHaveLength(20);
    const guides = emu.store.org("demo-org").sites.find((s) => s.title === "Handbook")!;
    const byKind = (kind: string) => live.filter((r) => r.destination.kind === kind).length;
    expect([byKind("site-section"), byKind("site-space"), byKind("site-page"), byKind("external")]).toEqual([4, 4, 4, 8]);
    expect(live.find((r) => r.source === "/moved-0")!.destination).toMatchObject({ kind: "external", url: expect.stringMatching(/\/api\/v1$/) });
    expect(live.filter((r) => r.draft).map((r) => r.source)).toEqual(["/moved-3"]);
    expect(guides.sections.some((s) => s.id === (live.find((r) => r.source === "/old-guides-0/*")!.destination as { siteSectionId: string }).siteSectionId)).toBe(true);
  });

  it("day two: one edited, one removed, 500 added — one bulk call each; 501 added — two", async () => {
    editRedirects((list) => list.map((r, i) => (i === 4 ? { ...(r as object), destination: { url: "https://blog.demo.test/moved" } } : r)));
    expect(writes(await upAndSettle())).toEqual(["PUT /sites/:siteId/redirects 200"]);
    expect(liveRedirects().find((r) => r.source === "/blog-0")!.destination).toEqual({ kind: "external", url: "https://blog.demo.test/moved" });

    editRedirects((list) => list.filter((_, i) => i !== 1));
    expect(writes(await upAndSettle())).toEqual(["PUT /sites/:siteId/redirects 200"]);
    expect(liveRedirects().some((r) => r.source === "/old-v1-0")).toBe(false);

    editRedirects((list) => [...list, ...bulk(0, 500)]);
    expect(writes(await upAndSettle())).toEqual(["PUT /sites/:siteId/redirects 200"]);
    expect(liveRedirects()).toHaveLength(519);

    editRedirects((list) => [...list, ...bulk(500, 501)]);
    expect(writes(await upAndSettle())).toEqual(["PUT /sites/:siteId/redirects 200", "PUT /sites/:siteId/redirects 200"]);
    expect(liveRedirects()).toHaveLength(1020);
  });

  it("destroy deletes the redirects with the rest", async () => {
    const id = handbookId();
    const down = await runner.destroy();
    expect(writes(down).filter((w) => w.includes("/redirects"))).toEqual(["PUT /sites/:siteId/redirects 200", "PUT /sites/:siteId/redirects 200", "PUT /sites/:siteId/redirects 200"]);
    expect([...emu.store.all("redirects")].filter((r) => r.site === id)).toEqual([]);
  });
});
