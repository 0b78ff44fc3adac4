import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isConflict, isNotFound, type ApiClient } from "./index";
import { Started } from "../../test/support/emulator";
import { SecretRecorder } from "../../test/support/secrets";

// Permissions, visitor authentication and installations through the typed client against the emulator;
// the debug log and the errors never show the private key or a configuration value.
const TOKEN = "dpt_SCAN_access_5be1c0f2";
const ORG = "demo-org";
const CONFIG_SECRET = "cfg-secret-7c1d9e03a5";
const rec = new SecretRecorder();
const started = new Started(TOKEN, { logger: rec.logger });
let api: ApiClient;
const keys: string[] = [];

beforeAll(async () => {
  api = await started.clientOfNewEmulator();
});

afterAll(async () => {
  await started.close();
  expect(rec.lines.length).toBeGreaterThan(20);
  for (const secret of [TOKEN, CONFIG_SECRET, ...keys]) expect(rec.occurrences(secret), secret.slice(0, 6)).toBe(0);
});

describe("permissions", () => {
  it("a site: invite, list, change, remove, aggregate with filters", async () => {
    const site = await api.sites.create(ORG, { title: "Partner portal" });
    const team = await api.teams.create(ORG, { title: "Partners", members: ["reader@demo.test"] });
    const grants = api.permissions.site(ORG, site.id);
    await grants.invite({ role: "edit", teams: [team.id] });
    await grants.invite({ role: "read", users: ["writer-1"] });
    await grants.invite({ role: "read", users: ["writer-1"] }); // repeating an invite changes nothing
    expect((await grants.listTeams()).map((t) => [t.team.id, t.permission])).toEqual([[team.id, "edit"]]);
    expect((await grants.listUsers()).map((u) => [u.user.id, u.permission])).toEqual([["writer-1", "read"]]);
    await grants.updateUser("writer-1", "comment");
    await grants.updateTeam(team.id, "review");
    const agg = await grants.aggregate({ sort: "name", order: "asc" });
    expect(agg.map((a) => [a.user.id, a.permission, a.origin.type])).toEqual([
      ["demo-admin", "admin", "organization"],
      ["reader-1", "review", "site"],
      ["writer-1", "edit", "organization"],
    ]);
    expect((await grants.aggregate({ team: team.id })).map((a) => a.user.id)).toEqual(["reader-1"]);
    await grants.removeUser("writer-1");
    await grants.removeTeam(team.id);
    expect(isNotFound(await rec.failure(grants.removeTeam(team.id)))).toBe(true);
    expect(await grants.listUsers()).toEqual([]);
  });

  it("a space and a collection, guests with null", async () => {
    const space = api.permissions.space("space-guides");
    await space.invite({ role: null, users: ["reader-1"] });
    await space.updateUser("reader-1", "comment");
    expect((await space.aggregate({ role: "comment" })).map((a) => a.user.id)).toEqual(["reader-1"]);
    await space.removeUser("reader-1");
    const collection = await api.collections.create(ORG, { title: "Reviewed" });
    const grants = api.permissions.collection(collection.id);
    await grants.invite({ role: "admin", users: ["writer-1"] });
    expect((await grants.listUsers()).map((u) => u.permission)).toEqual(["admin"]);
    expect(isNotFound(await rec.failure(grants.updateTeam("team-nope", "read")))).toBe(true);
  });
});

describe("visitor authentication", () => {
  it("reads, patches and regenerates the private key", async () => {
    const site = await api.sites.create(ORG, { title: "Members only" });
    const before = await api.publishingAuth.get(ORG, site.id);
    keys.push(before.privateKey);
    const patched = await api.publishingAuth.update(ORG, site.id, { backend: "custom", fallbackURL: "https://auth.example.com/fallback", logoutURL: "https://auth.example.com/logout" });
    expect(patched).toMatchObject({ object: "publishing-auth", backend: "custom", fallbackURL: "https://auth.example.com/fallback", privateKey: before.privateKey });
    const after = await api.publishingAuth.regenerate(ORG, site.id);
    keys.push(after.privateKey);
    expect(after.privateKey).not.toBe(before.privateKey);
    expect((await api.publishingAuth.update(ORG, site.id, { backend: "custom", logoutURL: null })).logoutURL).toBeUndefined();
  });
});

describe("integration installations", () => {
  it("install, configure, enable on a site and a space, list, disable, uninstall", async () => {
    await api.integrations.publish("team-chat", { title: "Team chat", description: "Chat", script: "export default {}", organization: ORG });
    const site = await api.sites.create(ORG, { title: "With chat" });
    const inst = await api.installations.install("team-chat", ORG);
    expect(isConflict(await rec.failure(api.installations.install("team-chat", ORG)))).toBe(true);
    const configured = await api.installations.update("team-chat", inst.id, { configuration: { webhook: CONFIG_SECRET }, site_selection: "selected" });
    expect(configured.configuration).toEqual({ webhook: CONFIG_SECRET });
    expect((await api.installations.get("team-chat", inst.id)).target).toEqual({ organization: ORG });
    expect((await api.installations.enableOnSite("team-chat", inst.id, site.id)).site).toBe(site.id);
    expect(await api.installations.updateSite("team-chat", inst.id, site.id, { configuration: { channel: "#docs" } })).toMatchObject({ configuration: { channel: "#docs" } });
    expect((await api.installations.getSite("team-chat", inst.id, site.id)).installation).toBe(inst.id);
    await api.installations.enableOnSpace("team-chat", inst.id, "space-api");
    expect((await api.installations.listSpaces("team-chat", inst.id)).map((s) => s.space)).toEqual(["space-api"]);
    expect((await api.installations.getSpace("team-chat", inst.id, "space-api")).status).toBe("active");
    await api.installations.updateSpace("team-chat", inst.id, "space-api", { externalIds: ["x"] });
    expect((await api.installations.allSpaces("team-chat")).map((s) => s.externalIds)).toEqual([["x"]]);
    expect((await api.installations.allSites("team-chat")).map((s) => s.site)).toEqual([site.id]);
    expect((await api.installations.listSites("team-chat", inst.id)).length).toBe(1);
    expect((await api.installations.list("team-chat")).map((i) => i.id)).toEqual([inst.id]);
    expect((await api.installations.listForOrg(ORG, { search: "chat" })).map((i) => i.installation.id)).toEqual([inst.id]);
    await api.installations.disableOnSpace("team-chat", inst.id, "space-api");
    await api.installations.disableOnSite("team-chat", inst.id, site.id);
    expect(await api.installations.listSites("team-chat", inst.id)).toEqual([]);
    await api.installations.uninstall("team-chat", inst.id);
    expect(isNotFound(await rec.failure(api.installations.get("team-chat", inst.id)))).toBe(true);
  });
});
