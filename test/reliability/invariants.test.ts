/**
 * The state-versus-live comparison itself: what counts as held by the state.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import type { StateResource } from "../harness";
import { TYPE_PREFIX, baselineOf, compareStateWithLive } from "./invariants";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu?.close();
});

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(emu.url + path, {
    method: "POST",
    headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path}: ${res.status}`);
  return (await res.json()) as T;
}

const resource = (kind: string, id: string, outputs: Record<string, unknown>, extra: Partial<StateResource> = {}): StateResource => ({
  urn: `urn:pulumi:dev::p::${TYPE_PREFIX}${kind}::${id}`,
  custom: true,
  id,
  type: `${TYPE_PREFIX}${kind}`,
  inputs: {},
  outputs: outputs as StateResource["outputs"],
  ...extra,
});

describe("compareStateWithLive", () => {
  it("counts the site space a section's POST created as held by that section's state until a SiteSpace takes it over", async () => {
    emu.control.reset();
    const baseline = baselineOf(emu.store.snapshot());
    const site = await post<{ id: string; title: string }>("/v1/orgs/demo-org/sites", { title: "Held" });
    const section = await post<{ id: string; title: string; path: string; siteSpaces: { id: string; path: string }[] }>(
      `/v1/orgs/demo-org/sites/${site.id}/sections`,
      { spaceId: "space-guides" },
    );
    const own = section.siteSpaces[0]!;
    const siteState = resource("Site", site.id, { title: site.title });
    const sectionState = (extra: Partial<StateResource> = {}, siteSpaceId: string = own.id) =>
      resource("SiteSection", section.id, { siteId: site.id, title: section.title, path: section.path, siteSpaceId }, extra);
    const orphans = (state: StateResource[]) => compareStateWithLive(state, emu.store.snapshot(), baseline).orphans;

    expect(orphans([siteState, sectionState()])).toEqual([]);
    expect(orphans([siteState, sectionState(), resource("SiteSpace", own.id, { path: own.path })])).toEqual([]);
    // Not held: no section in the state, a section pending deletion, or a section recording another site space.
    const orphaned = [`SiteSpace ${own.id} (${own.path})`];
    expect(orphans([siteState])).toEqual([`SiteSection ${section.id} (${section.path})`, ...orphaned]);
    expect(orphans([siteState, sectionState({ delete: true })])).toEqual(orphaned);
    expect(orphans([siteState, sectionState({}, "sitesp_other")])).toEqual(orphaned);
  });
});
