/** Permissions of sites, spaces and collections; visitor authentication settings; integration installations. */
import { describe, expect, it } from "vitest";
import { defaultSeed, type Seed } from "./index";
import { listAll } from "../test/support/api";
import { shareEmulator } from "../test/support/emulatorSuite";

/** The default fixture plus a guest, a team with the writer, a collection holding a space, and two integrations. */
function accessSeed(): Seed {
  const seed = defaultSeed();
  seed.users.push({ id: "guest-1", email: "guest@partner.test", displayName: "Guest One" }, { id: "outsider", email: "out@other.test" });
  seed.tokens["outsider-token"] = "outsider";
  const org = seed.organizations[0]!;
  org.members!.push({ user: "guest-1", role: null });
  org.teams = [{ id: "team-writers", title: "Writers", members: [{ user: "writer-1", role: "owner" }] }];
  org.collections = [{ id: "col-api", title: "API" }];
  seed.organizations.push({ id: "other-org", title: "Other Org", members: [{ user: "outsider", role: "admin" }] });
  seed.integrations = [
    { name: "analytics-x", title: "Analytics X", owner: "other-org", visibility: "public" },
    { name: "private-y", title: "Private Y", owner: "other-org", visibility: "private" },
  ];
  return seed;
}

const emu = shareEmulator({ seed: accessSeed() });
const admin = emu.caller();
const writer = emu.caller("writer-token");
const reader = emu.caller("reader-token");
const O = "/v1/orgs/demo-org";

async function newSite(title = "Partner"): Promise<string> {
  return (await admin("POST", `${O}/sites`, { title })).body.id;
}

describe("site permissions", () => {
  it("invites teams and users (guests with role null), changes and removes them; lists show direct grants only", async () => {
    const site = await newSite();
    const P = `${O}/sites/${site}/permissions`;
    expect((await admin("POST", P, { role: "edit", teams: ["team-writers"] })).status).toBe(204);
    expect((await admin("POST", P, { role: null, users: ["guest-1"] })).status).toBe(204);
    expect((await admin("POST", P, { role: "read", users: ["reader-1", "writer-1"] })).status).toBe(204);
    const teams = await listAll(admin, `${P}/teams`);
    expect(teams).toEqual([{ permission: "edit", team: expect.objectContaining({ object: "team", id: "team-writers", title: "Writers", members: 1 }) }]);
    const users = await listAll(admin, `${P}/users`);
    expect(users.map((u) => [u.user.id, u.permission])).toEqual([["guest-1", null], ["reader-1", "read"], ["writer-1", "read"]]);
    expect(users[0].user).toMatchObject({ object: "user", email: "guest@partner.test" });

    expect((await admin("PATCH", `${P}/users/reader-1`, { role: "comment" })).status).toBe(204);
    expect((await admin("PATCH", `${P}/users/reader-1`, {})).status).toBe(204);
    expect((await admin("PATCH", `${P}/users/reader-1`, { role: null })).status).toBe(400);
    expect((await admin("PATCH", `${P}/teams/team-writers`, { role: "admin" })).status).toBe(204);
    expect((await admin("PATCH", `${P}/users/demo-admin`, { role: "read" })).status).toBe(404);
    expect((await listAll(admin, `${P}/users`)).find((u) => u.user.id === "reader-1").permission).toBe("comment");

    expect((await admin("DELETE", `${P}/users/writer-1`)).status).toBe(205);
    expect((await admin("DELETE", `${P}/users/writer-1`)).status).toBe(404);
    expect((await admin("DELETE", `${P}/teams/team-writers`)).status).toBe(205);
    expect((await listAll(admin, `${P}/users`)).map((u) => u.user.id)).toEqual(["guest-1", "reader-1"]);
  });

  it("refuses bad invites and callers below admin", async () => {
    const site = await newSite();
    const P = `${O}/sites/${site}/permissions`;
    expect((await admin("POST", P, { role: "edit" })).status).toBe(400);
    expect((await admin("POST", P, { role: "edit", users: [] })).status).toBe(400);
    expect((await admin("POST", P, { role: "owner", users: ["reader-1"] })).status).toBe(400);
    expect((await admin("POST", P, { users: ["reader-1"] })).status).toBe(400);
    expect((await admin("POST", P, { role: "read", users: ["outsider"] })).status).toBe(404);
    expect((await admin("POST", P, { role: "read", teams: ["team-nope"], users: ["reader-1"] })).status).toBe(404);
    // Nothing of a refused invite was granted.
    expect(await listAll(admin, `${P}/users`)).toEqual([]);
    expect((await writer("POST", P, { role: "read", users: ["reader-1"] })).status).toBe(403);
    expect((await reader("GET", `${P}/users`)).status).toBe(200);
    expect((await admin("POST", `${O}/sites/site-nope/permissions`, { role: "read", users: ["reader-1"] })).status).toBe(404);
    expect((await admin("GET", `${P}/users?limit=0`)).status).toBe(400);
  });

  it("aggregates organisation roles, team memberships and direct grants, with filters, sort and order", async () => {
    const site = await newSite();
    const P = `${O}/sites/${site}/permissions`;
    await admin("POST", P, { role: "admin", teams: ["team-writers"] });
    await admin("POST", P, { role: null, users: ["guest-1"] });
    await admin("POST", P, { role: "review", users: ["reader-1"] });
    const all = await listAll(admin, `${P}/aggregate?sort=name&order=asc`);
    expect(all.map((a) => [a.user.id, a.permission, a.origin])).toEqual([
      ["demo-admin", "admin", { type: "organization", organization: "demo-org" }],
      ["guest-1", null, { type: "site", site, reason: "member" }],
      ["reader-1", "review", { type: "site", site, reason: "member" }],
      ["writer-1", "admin", { type: "site", site, reason: "team", team: "team-writers" }],
    ]);
    expect(all.every((a) => a.disabled === false)).toBe(true);
    expect((await listAll(admin, `${P}/aggregate?role=guest`)).map((a) => a.user.id)).toEqual(["guest-1"]);
    expect((await listAll(admin, `${P}/aggregate?role=admin&sort=name&order=desc`)).map((a) => a.user.id)).toEqual(["writer-1", "demo-admin"]);
    expect((await listAll(admin, `${P}/aggregate?team=team-writers`)).map((a) => a.user.id)).toEqual(["writer-1"]);
    expect((await listAll(admin, `${P}/aggregate?search=PARTNER`)).map((a) => a.user.id)).toEqual(["guest-1"]);
    expect((await admin("GET", `${P}/aggregate?sort=size`)).status).toBe(400);
    expect((await admin("GET", `${P}/aggregate?role=boss`)).status).toBe(400);
    // Without a grant a guest has no access at all.
    await admin("DELETE", `${P}/users/guest-1`);
    expect((await listAll(admin, `${P}/aggregate`)).map((a) => a.user.id)).not.toContain("guest-1");
  });
});

describe("space and collection permissions", () => {
  it("grant, list, change (null allowed: guest) and remove on a space; the aggregate counts the enclosing collection", async () => {
    const P = "/v1/spaces/space-api/permissions";
    await admin("POST", "/v1/collections/col-api/permissions", { role: "review", teams: ["team-writers"] });
    expect((await admin("POST", "/v1/spaces/space-api/move", { parent: "col-api" })).status).toBe(200);
    expect((await admin("POST", P, { role: "comment", users: ["guest-1"], teams: ["team-writers"] })).status).toBe(204);
    expect((await listAll(admin, `${P}/teams`)).map((t) => [t.team.id, t.permission])).toEqual([["team-writers", "comment"]]);
    expect((await admin("PATCH", `${P}/users/guest-1`, { role: null })).status).toBe(204);
    expect((await listAll(admin, `${P}/users`)).map((u) => [u.user.id, u.permission])).toEqual([["guest-1", null]]);
    const agg = await listAll(admin, `${P}/aggregate`);
    const level = Object.fromEntries(agg.map((a) => [a.user.id, a.permission]));
    // The writer edits through the organisation, reviews through the team's grant on the collection.
    expect(level).toEqual({ "demo-admin": "admin", "writer-1": "review", "reader-1": "read", "guest-1": null });
    expect((await listAll(admin, `${P}/aggregate?role=review`)).map((a) => a.user.id)).toEqual(["writer-1"]);
    expect((await admin("DELETE", `${P}/teams/team-writers`)).status).toBe(205);
    expect((await admin("DELETE", `${P}/teams/team-writers`)).status).toBe(404);
    expect((await writer("DELETE", `${P}/users/guest-1`)).status).toBe(403);
    expect((await admin("GET", "/v1/spaces/space-nope/permissions/users")).status).toBe(404);
  });

  it("grants on a collection, with the same operations", async () => {
    const P = "/v1/collections/col-api/permissions";
    expect((await admin("POST", P, { role: "admin", users: ["writer-1"] })).status).toBe(204);
    expect((await admin("PATCH", `${P}/users/writer-1`, { role: "edit" })).status).toBe(204);
    expect((await listAll(admin, `${P}/users`)).map((u) => [u.user.id, u.permission])).toEqual([["writer-1", "edit"]]);
    expect((await listAll(admin, `${P}/aggregate?role=edit`)).map((a) => a.user.id)).toEqual(["writer-1"]);
    expect((await admin("DELETE", `${P}/users/writer-1`)).status).toBe(205);
    expect((await emu.caller("outsider-token")("GET", `${P}/users`)).status).toBe(404);
  });
});

describe("visitor authentication settings", () => {
  it("has a private key per site, patches the backend and URLs, and rotates the key only on regenerate", async () => {
    const [a, b] = [await newSite("Site A"), await newSite("Site B")];
    const A = `${O}/sites/${a}/publishing/auth`;
    const first = (await admin("GET", A)).body;
    expect(first).toMatchObject({ object: "publishing-auth", backend: "custom" });
    expect(first.privateKey).toMatch(/^[0-9a-f]{64}$/);
    expect((await admin("GET", A)).body.privateKey).toBe(first.privateKey);
    expect((await admin("GET", `${O}/sites/${b}/publishing/auth`)).body.privateKey).not.toBe(first.privateKey);

    const patched = await admin("PATCH", A, { backend: "custom", fallbackURL: "https://partner.example.com/login", logoutURL: "https://partner.example.com/logout" });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ fallbackURL: "https://partner.example.com/login", logoutURL: "https://partner.example.com/logout", privateKey: first.privateKey });
    expect((await admin("PATCH", A, { backend: "custom", logoutURL: null })).body).not.toHaveProperty("logoutURL");
    expect((await admin("GET", A)).body.fallbackURL).toBe("https://partner.example.com/login");

    const rotated = (await admin("POST", `${A}/regenerate`)).body;
    expect(rotated.privateKey).toMatch(/^[0-9a-f]{64}$/);
    expect(rotated.privateKey).not.toBe(first.privateKey);
    expect((await admin("GET", A)).body.privateKey).toBe(rotated.privateKey);
  });

  it("refuses bad bodies, an integration backend without an integration, and callers below admin", async () => {
    const A = `${O}/sites/${await newSite()}/publishing/auth`;
    expect((await admin("PATCH", A, { fallbackURL: "https://x.test" })).status).toBe(400);
    expect((await admin("PATCH", A, { backend: "oauth" })).status).toBe(400);
    expect((await admin("PATCH", A, { backend: "custom", fallbackURL: "not a url" })).status).toBe(400);
    expect((await admin("PATCH", A, { backend: "custom", fallbackURL: `https://x.test/${"a".repeat(2048)}` })).status).toBe(400);
    expect((await admin("PATCH", A, { backend: "integration" })).status).toBe(400);
    expect((await writer("GET", A)).status).toBe(403);
    expect((await writer("POST", `${A}/regenerate`)).status).toBe(403);
  });
});

describe("integration installations", () => {
  it("installs on the organisation, configures, enables on sites and spaces, and uninstalls", async () => {
    const site = await newSite();
    const created = await admin("POST", "/v1/integrations/analytics-x/installations", { organization: "demo-org" });
    expect(created.status).toBe(201);
    const inst = created.body;
    expect(created.headers.get("location")).toBe(inst.urls.location);
    expect(inst).toMatchObject({ status: "active", space_selection: "selected", site_selection: "selected", spaces: 0, configuration: {}, externalIds: [], target: { organization: "demo-org" } });
    expect(Object.keys(inst.urls).sort()).toEqual(["app", "location", "publicContentEndpoint", "publicEndpoint"]);
    expect((await admin("POST", "/v1/integrations/analytics-x/installations", { organization: "demo-org" })).status).toBe(409);

    const I = `/v1/integrations/analytics-x/installations/${inst.id}`;
    const patched = (await admin("PATCH", I, { configuration: { apiKey: "k-123", region: "eu" }, site_selection: "selected", externalIds: ["e1"] })).body;
    expect(patched).toMatchObject({ configuration: { apiKey: "k-123", region: "eu" }, externalIds: ["e1"] });
    expect((await admin("PATCH", I, { configuration: { region: "us" } })).body.configuration).toEqual({ region: "us" });
    expect((await admin("PATCH", I, { externalIds: ["1", "2", "3", "4", "5", "6"] })).status).toBe(400);
    expect((await admin("PATCH", I, { space_selection: "some" })).status).toBe(400);

    const s = await admin("POST", `${I}/sites`, { siteId: site });
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({ integration: "analytics-x", installation: inst.id, status: "active", site, configuration: {} });
    expect((await admin("POST", `${I}/sites`, { siteId: site })).status).toBe(409);
    expect((await admin("POST", `${I}/sites`, { siteId: "site-nope" })).status).toBe(404);
    expect((await admin("GET", `${I}/sites/${site}?extended=true`)).body.site).toMatchObject({ object: "site", id: site });
    expect((await admin("PATCH", `${I}/sites/${site}`, { configuration: { tracking: true } })).body.configuration).toEqual({ tracking: true });
    expect((await admin("POST", `${I}/spaces`, { space: "space-guides" })).status).toBe(201);
    expect((await admin("GET", I)).body.spaces).toBe(1);
    expect((await listAll(admin, `${I}/spaces`)).map((x) => x.space)).toEqual(["space-guides"]);
    expect((await listAll(admin, "/v1/integrations/analytics-x/sites")).map((x) => x.site)).toEqual([site]);

    // Visitor authentication can now use the integration as its backend.
    const auth = await admin("PATCH", `${O}/sites/${site}/publishing/auth`, { backend: "integration" });
    expect(auth.body).toMatchObject({ backend: "integration", integration: "analytics-x" });

    const org = await listAll(admin, `${O}/installations?search=analytics`);
    expect(org.map((x) => [x.integration.name, x.installation.id])).toEqual([["analytics-x", inst.id]]);
    expect(await listAll(admin, `${O}/installations?search=nothing`)).toEqual([]);

    expect((await writer("DELETE", `${I}/sites/${site}`)).status).toBe(403);
    expect((await admin("DELETE", `${I}/sites/${site}`)).status).toBe(205);
    expect((await admin("DELETE", `${I}/sites/${site}`)).status).toBe(404);
    expect((await admin("DELETE", I)).status).toBe(205);
    expect((await admin("GET", I)).status).toBe(404);
    expect((await admin("DELETE", I)).status).toBe(404);
    expect(await listAll(admin, "/v1/integrations/analytics-x/spaces")).toEqual([]);
  });

  it("refuses an unknown or private integration, a foreign organisation, and members below admin", async () => {
    expect((await admin("POST", "/v1/integrations/nope/installations", { organization: "demo-org" })).status).toBe(404);
    expect((await admin("POST", "/v1/integrations/private-y/installations", { organization: "demo-org" })).status).toBe(404);
    expect((await admin("POST", "/v1/integrations/analytics-x/installations", { organization: "other-org" })).status).toBe(403);
    expect((await writer("POST", "/v1/integrations/analytics-x/installations", { organization: "demo-org" })).status).toBe(403);
    expect((await admin("POST", "/v1/integrations/bad name/installations", { organization: "demo-org" })).status).toBe(404);
  });
});
