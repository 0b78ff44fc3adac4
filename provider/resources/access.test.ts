import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { PROVIDER_KEY, pluginAgainst, type PluginDriver, type PreparedProgram, type PropertyMap } from "../../test/harness";
import { apiOf, type Api } from "../../test/support/api";
import { prepareProviderProgram, serializeProviders } from "./testdata/helpers";

/**
 * The access kinds through the real dynamic-provider plugin: the lock-out guard refuses before any
 * request, and each day-two change sends the one write it needs (counted in the emulator's log).
 */

let program: PreparedProgram;
let emulator: RunningEmulator;
let plugin: PluginDriver;
let texts: Record<string, string>;
let api: Api;
let n = 0;
const ORG = "demo-org";

beforeAll(async () => {
  [program, emulator] = await Promise.all([prepareProviderProgram(), startEmulator({ port: 0 })]);
  texts = await serializeProviders(program.dir);
  plugin = await pluginAgainst(program.dir, emulator);
  api = apiOf(emulator);
});

afterAll(async () => {
  await plugin?.close();
  await emulator?.close();
  program?.cleanup();
});

const urn = (kind: string) => `urn:pulumi:dev::access::pulumi-nodejs:dynamic/docsplatform:${kind}::${kind.toLowerCase()}-${++n}`;
const withProvider = (kind: string, inputs: PropertyMap): PropertyMap => ({ ...inputs, [PROVIDER_KEY]: texts[kind]! });

/** The requests `run` sends, as `METHOD route`. */
async function requestsOf(run: () => Promise<unknown>): Promise<string[]> {
  const before = emulator.control.log().length;
  await run();
  return emulator.control.log().slice(before).map((e) => `${e.method} ${e.route}`);
}
const writes = (requests: string[]) => requests.filter((r) => !r.startsWith("GET "));

/** A resource of `kind` created through the plugin, then changed with `update(inputs)`; returns what each step sent. */
async function lifecycle(kind: string, inputs: PropertyMap) {
  const u = urn(kind);
  const created = await plugin.create(u, withProvider(kind, inputs));
  let state = created.outputs;
  let current = inputs;
  return {
    id: created.id,
    state: () => state,
    /** Applies `next` as the engine would: check, diff, update; answers the requests the update sent. */
    async change(next: PropertyMap): Promise<string[]> {
      const checked = await plugin.check(u, withProvider(kind, current), withProvider(kind, next));
      expect(checked.failures).toEqual([]);
      const d = await plugin.diff(u, created.id, state, withProvider(kind, next));
      expect(d.changes).toBe(true);
      const sent = await requestsOf(async () => {
        state = await plugin.update(u, created.id, state, withProvider(kind, next));
      });
      current = next;
      // A second run with nothing changed: no change, no request.
      expect(await requestsOf(async () => expect((await plugin.diff(u, created.id, state, withProvider(kind, next))).changes).toBe(false))).toEqual([]);
      return sent;
    },
    check: (next: PropertyMap) => plugin.check(u, withProvider(kind, current), withProvider(kind, next)),
  };
}

async function newSite(title: string, visibility = "public"): Promise<string> {
  return (await api<{ id: string }>("POST", `/v1/orgs/${ORG}/sites`, { title, visibility })).id;
}

describe("the lock-out guard", () => {
  it("refuses, before any write, the last admin removed from a space (a user's grant: its live grants read to confirm it was sent)", async () => {
    const base = { organizationId: ORG, on: "space", targetId: "space-api" };
    const p = await lifecycle("Permissions", { ...base, grants: [{ user: "writer-1", role: "admin" }, { user: "reader-1", role: "comment" }] });
    let result: Awaited<ReturnType<typeof p.check>> | undefined;
    const sent = await requestsOf(async () => {
      result = await p.check({ ...base, grants: [{ user: "reader-1", role: "comment" }] });
    });
    expect(sent).toEqual(["GET /v1/spaces/:spaceId/permissions/teams", "GET /v1/spaces/:spaceId/permissions/users"]);
    expect(result!.failures).toEqual([{ property: "grants", reason: "space space-api: removing user writer-1 (admin) leaves it with no admin (directly or through a team); set allowLockout: true on it to allow this" }]);
    // Demoting the last admin is the same.
    expect((await p.check({ ...base, grants: [{ user: "writer-1", role: "edit" }, { user: "reader-1", role: "comment" }] })).failures[0]!.reason).toContain("changing user writer-1 from admin to edit");
    // Said explicitly, it is allowed.
    expect((await p.check({ ...base, allowLockout: true, grants: [{ user: "reader-1", role: "comment" }] })).failures).toEqual([]);
    await api("DELETE", "/v1/spaces/space-api/permissions/users/writer-1");
    await api("DELETE", "/v1/spaces/space-api/permissions/users/reader-1");
  });

  it("refuses, before any write, the caller's own grant removed (by e-mail or through their team)", async () => {
    const site = await newSite("Guarded");
    const base = { organizationId: ORG, on: "site", targetId: site, caller: "writer@demo.test" };
    const p = await lifecycle("Permissions", { ...base, grants: [{ user: "writer@demo.test", role: "review" }, { user: "reader-1", role: "admin" }] });
    const sent = await requestsOf(async () => {
      const r = await p.check({ ...base, grants: [{ user: "reader-1", role: "admin" }] });
      expect(r.failures.map((f) => f.reason)).toEqual([`site ${site}: removing user writer@demo.test (review) removes the caller's own access; set allowLockout: true on it to allow this`]);
    });
    expect(writes(sent)).toEqual([]);
    // Declared by ID while the caller is named by e-mail: the live grants (with e-mail addresses) catch it when applied, before any write.
    const q = await lifecycle("Permissions", { ...base, targetId: await newSite("Guarded by ID"), grants: [{ user: "writer-1", role: "review" }, { user: "reader-1", role: "admin" }] });
    const applied = await requestsOf(() => expect(plugin.update(urn("Permissions"), q.id, q.state(), withProvider("Permissions", { ...base, targetId: q.state().targetId, grants: [{ user: "reader-1", role: "admin" }] }))).rejects.toThrow(/caller's own access/));
    expect(applied).toEqual([]);
    // A grant of a team the caller belongs to is the caller's access too.
    const withTeam: PropertyMap = { ...base, callerTeams: ["team-x"], grants: [{ team: "team-x", role: "edit" }, { user: "reader-1", role: "admin" }] };
    const r = await plugin.check(urn("Permissions"), withProvider("Permissions", withTeam), withProvider("Permissions", { ...withTeam, grants: [{ user: "reader-1", role: "admin" }] }));
    expect(r.failures.map((f) => f.reason)).toEqual([`site ${site}: removing team team-x (edit) removes the caller's own access; set allowLockout: true on it to allow this`]);
  });

  // Regression (#33): the caller declared a grant for themselves that their organisation role already
  // gave, so nothing was sent; removing the line again was refused as removing their own access.
  it("lets a user's grant that was never sent (implied by their organisation role) be removed: nothing to lock out", async () => {
    const site = await newSite("Implied admin");
    const base = { organizationId: ORG, on: "site", targetId: site, caller: "admin@demo.test" };
    const p = await lifecycle("Permissions", { ...base, grants: [{ user: "reader-1", role: "admin" }] });
    expect(writes(await p.change({ ...base, grants: [{ user: "reader-1", role: "admin" }, { user: "admin@demo.test", role: "admin" }] }))).toEqual([]);
    expect(p.state().implied).toEqual(["admin@demo.test"]);
    const sent = await requestsOf(async () => expect((await p.check({ ...base, grants: [{ user: "reader-1", role: "admin" }] })).failures).toEqual([]));
    expect(writes(sent)).toEqual([]);
    // The same on the only admin line of an object: it never was a direct grant, so no admin is lost.
    const q = await lifecycle("Permissions", { ...base, targetId: await newSite("Implied only"), grants: [{ user: "admin@demo.test", role: "admin" }] });
    expect(q.state().direct).toEqual([]);
    expect((await q.check({ ...base, targetId: q.state().targetId, grants: [] })).failures).toEqual([]);
  });

  it("names a team by the file's key where it has one", async () => {
    const site = await newSite("Named team");
    const team = (await api<{ id: string }>("PUT", `/v1/orgs/${ORG}/teams`, { title: "Keyed team", members: ["writer-1"] })).id;
    const base = { organizationId: ORG, on: "site", targetId: site, teamIds: { "docs-team": team }, location: "docs.yaml:40:7: site named" };
    const p = await lifecycle("Permissions", { ...base, grants: [{ team, role: "admin" }] });
    const r = await p.check({ ...base, grants: [] });
    expect(r.failures.map((f) => f.reason)).toEqual(["docs.yaml:40:7: site named: removing team docs-team (admin) leaves it with no admin (directly or through a team); set allowLockout: true on it to allow this"]);
  });

  it("refuses, before any request, a collection left without admin; and the same plan met only at apply time sends nothing", async () => {
    const collection = (await api<{ id: string }>("POST", `/v1/orgs/${ORG}/collections`, { title: "Guarded collection" })).id;
    const team = (await api<{ id: string }>("PUT", `/v1/orgs/${ORG}/teams`, { title: "Collection admins", members: ["writer-1"] })).id;
    const base = { organizationId: ORG, on: "collection", targetId: collection };
    const p = await lifecycle("Permissions", { ...base, grants: [{ team, role: "admin" }] });
    const sent = await requestsOf(async () => {
      const r = await p.check({ ...base, grants: [{ team, role: "review" }] });
      expect(r.failures.map((f) => f.reason)).toEqual([`collection ${collection}: changing team ${team} from admin to review leaves it with no admin (directly or through a team); set allowLockout: true on it to allow this`]);
    });
    expect(sent).toEqual([]);
    // A new resource over the same collection (nothing to compare offline): refused after the reads, before any write.
    const u = urn("Permissions");
    const reqs = await requestsOf(() => expect(plugin.create(u, withProvider("Permissions", { ...base, grants: [] }))).rejects.toThrow(/no admin/));
    expect(writes(reqs)).toEqual([]);
  });
});

describe("day two: one write per change, then nothing", () => {
  it("permissions: role changed → 1 PATCH; grant removed → 1 DELETE; two new users with one role → 1 invite; implied grants send nothing", async () => {
    const site = await newSite("Day two");
    const team = (await api<{ id: string }>("PUT", `/v1/orgs/${ORG}/teams`, { title: "Day two team" })).id;
    const base = { organizationId: ORG, on: "site", targetId: site };
    const p = await lifecycle("Permissions", { ...base, grants: [{ team, role: "edit" }, { user: "demo-admin", role: "read" }] });
    // demo-admin is an organisation admin: nothing was sent for that grant.
    expect(p.state().implied).toEqual(["demo-admin"]);
    expect(await p.change({ ...base, grants: [{ team, role: "review" }, { user: "demo-admin", role: "read" }] })).toEqual(["PATCH /v1/orgs/:organizationId/sites/:siteId/permissions/teams/:teamId"]);
    const two = await p.change({ ...base, grants: [{ team, role: "review" }, { user: "demo-admin", role: "read" }, { user: "reader@demo.test", role: "review" }, { user: "writer-1", role: "review" }] });
    expect(writes(two)).toEqual(["POST /v1/orgs/:organizationId/sites/:siteId/permissions"]);
    expect((await api<{ items: { user: { id: string }; permission: string }[] }>("GET", `/v1/orgs/${ORG}/sites/${site}/permissions/users`)).items.map((i) => [i.user.id, i.permission]).sort()).toEqual([["reader-1", "review"], ["writer-1", "review"]]);
    expect(await p.change({ ...base, grants: [{ team, role: "review" }, { user: "demo-admin", role: "read" }, { user: "reader@demo.test", role: "review" }] })).toEqual(["DELETE /v1/orgs/:organizationId/sites/:siteId/permissions/users/:userId"]);
  });

  it("permissions: a user's access through a team the same change removes is not taken as implied: the user's grant is sent first, then the team's removed", async () => {
    const site = await newSite("Team to user");
    const team = (await api<{ id: string }>("PUT", `/v1/orgs/${ORG}/teams`, { title: "Leaving team", members: ["reader-1"] })).id;
    const base = { organizationId: ORG, on: "site", targetId: site };
    const p = await lifecycle("Permissions", { ...base, grants: [{ team, role: "review" }, { user: "demo-admin", role: "admin" }] });
    // reader-1 reaches review through the team now; once the team's grant goes, only a direct grant keeps it.
    const sent = await p.change({ ...base, grants: [{ user: "reader@demo.test", role: "review" }, { user: "demo-admin", role: "admin" }] });
    expect(writes(sent)).toEqual(["POST /v1/orgs/:organizationId/sites/:siteId/permissions", "DELETE /v1/orgs/:organizationId/sites/:siteId/permissions/teams/:teamId"]);
    // demo-admin's access comes from the organisation, which the change keeps: still nothing sent for it.
    expect(p.state().implied).toEqual(["demo-admin"]);
    expect((await api<{ items: { user: { id: string }; permission: string }[] }>("GET", `/v1/orgs/${ORG}/sites/${site}/permissions/aggregate`)).items.find((i) => i.user.id === "reader-1")?.permission).toBe("review");
  });

  it("visitor authentication: key rotated → 1 regenerate, the new key only in the outputs", async () => {
    const site = await newSite("Members", "visitor-auth");
    const base = { organizationId: ORG, siteId: site, fallbackURL: "https://auth.example.com/login" };
    const v = await lifecycle("VisitorAuth", { ...base, rotation: 1 });
    const before = v.state().privateKey;
    expect(await v.change({ ...base, rotation: 2 })).toEqual(["POST /v1/orgs/:organizationId/sites/:siteId/publishing/auth/regenerate"]);
    const after = v.state().privateKey;
    expect(after).not.toBe(before);
    expect((await api<{ privateKey: string }>("GET", `/v1/orgs/${ORG}/sites/${site}/publishing/auth`)).privateKey).toBe(after);
    // Removing the counter is not a rotation.
    const d = await plugin.diff(urn("VisitorAuth"), v.id, v.state(), withProvider("VisitorAuth", base));
    expect(d.changes).toBe(false);
  });

  it("installation: removed from a site → 1 call; uninstalled on delete", async () => {
    await api("POST", "/v1/integrations/day-two-tool", { title: "Day two tool", description: "d", script: "export default {}", organization: ORG });
    const [a, b] = [await newSite("Tool A"), await newSite("Tool B")];
    const base = { organizationId: ORG, integration: "day-two-tool", secretConfiguration: { token: "tok-123456" } };
    const i = await lifecycle("IntegrationInstallation", { ...base, sites: [a, b] });
    expect(await i.change({ ...base, sites: [a] })).toEqual(["DELETE /v1/integrations/:integrationName/installations/:installationId/sites/:siteId"]);
    expect(JSON.stringify(i.state())).not.toContain("tok-123456");
    const sent = await requestsOf(() => plugin.delete(urn("IntegrationInstallation"), i.id, i.state()));
    expect(sent).toEqual(["DELETE /v1/integrations/:integrationName/installations/:installationId"]);
  });
  it("installation: a site enabled by an attempt whose answer was lost is enabled, not refused (409 means done)", async () => {
    await api("POST", "/v1/integrations/lost-answer-tool", { title: "Lost answer tool", description: "d", script: "export default {}", organization: ORG });
    const site = await newSite("Tool C");
    const base = { organizationId: ORG, integration: "lost-answer-tool" };
    const i = await lifecycle("IntegrationInstallation", { ...base, sites: [] });
    // The earlier attempt reached the platform; the state never learned of it.
    await api("POST", `/v1/integrations/lost-answer-tool/installations/${i.id}/sites`, { siteId: site });
    const sent = await i.change({ ...base, sites: [site] });
    expect(sent).toEqual(["POST /v1/integrations/:integrationName/installations/:installationId/sites"]);
    expect(i.state().sites).toEqual([site]);
  });
});
