/** Organizations, members, teams, spaces (restore window), collections, SAML/SSO, OpenAPI specs, translations, integrations. */
import { describe, expect, it } from "vitest";
import { defaultSeed, type Seed } from "./index";
import { listAll } from "../test/support/api";
import { shareEmulator } from "../test/support/emulatorSuite";

/** The default fixture plus an outsider, a second organization where demo-admin is admin (for transfers) and an integration. */
function orgSeed(): Seed {
  const seed = defaultSeed();
  seed.users.push({ id: "outsider", email: "out@other.test" });
  seed.tokens["outsider-token"] = "outsider";
  seed.organizations[0]!.invites = ["invite-1"];
  seed.organizations.push({ id: "other-org", title: "Other Org", members: [{ user: "demo-admin", role: "admin" }, { user: "outsider", role: "admin" }] });
  seed.integrations = [{ name: "analytics-x", title: "Analytics X", owner: "other-org", visibility: "public", categories: ["analytics"], installedIn: ["demo-org"] }];
  return seed;
}
const seed = orgSeed();

const emu = shareEmulator({ seed });
const admin = emu.caller();
const writer = emu.caller("writer-token");
const reader = emu.caller("reader-token");
const outsider = emu.caller("outsider-token");
const O = "/v1/orgs/demo-org";
const DAY = 24 * 60 * 60 * 1000;

describe("organizations", () => {
  it("lists the caller's organizations and reads one", async () => {
    expect((await listAll(admin, "/v1/orgs")).map((o) => o.id)).toEqual(["demo-org", "other-org"]);
    const r = await admin("GET", O);
    expect(r.body).toMatchObject({ object: "organization", id: "demo-org", title: "Demo Org", emailDomains: ["demo.test"], inviteLinks: true, urls: { location: `${emu.url}${O}` } });
    expect((await outsider("GET", O)).status).toBe(403);
  });

  it("patches settings (admins only) with limits", async () => {
    const site = (await admin("POST", `${O}/sites`, { title: "Home" })).body;
    const r = await admin("PATCH", O, { title: "Renamed Org", hostname: "renamed", defaultRole: "read", defaultContent: { type: "site", site: site.id }, ai: true, sso: true, logo: "https://x.test/logo.png" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: "Renamed Org", hostname: "renamed", defaultRole: "read", defaultContent: { type: "site", site: site.id }, ai: true, sso: true, urls: { logo: "https://x.test/logo.png" } });
    expect((await admin("PATCH", O, { title: "x" })).status).toBe(400);
    expect((await admin("PATCH", O, { hostname: "h".repeat(33) })).status).toBe(400);
    expect((await admin("PATCH", O, { defaultContent: { type: "site", site: "nope" } })).status).toBe(400);
    expect((await writer("PATCH", O, { ai: false })).status).toBe(403);
    // Deleting the default site clears defaultContent.
    await admin("DELETE", `${O}/sites/${site.id}`);
    expect((await admin("GET", O)).body.defaultContent).toBeUndefined();
  });

  it("deletes invite links, searches and finds organizations by e-mail domain", async () => {
    expect((await admin("DELETE", `${O}/link-invites/invite-1`)).status).toBe(205);
    expect((await admin("DELETE", `${O}/link-invites/invite-1`)).status).toBe(404);
    const s = await admin("GET", `${O}/search?query=guid`);
    expect(s.body.items).toEqual([{ id: "space-guides", title: "Guides", pages: [] }]);
    expect((await admin("GET", `${O}/search`)).status).toBe(400);
    expect((await admin("GET", `${O}/search?query=${"q".repeat(513)}`)).status).toBe(400);
    expect((await admin("GET", "/v1/email-domains/demo.test/orgs")).body.organizations.map((o: { id: string }) => o.id)).toEqual(["demo-org"]);
  });
});

describe("members", () => {
  it("lists members newest first with filters, reads, patches roles and removes members", async () => {
    const all = await listAll(admin, `${O}/members`, 2);
    expect(all.map((m) => m.id)).toEqual(["reader-1", "writer-1", "demo-admin"]);
    expect((await listAll(admin, `${O}/members?order=asc`)).map((m) => m.id)).toEqual(["demo-admin", "writer-1", "reader-1"]);
    expect((await listAll(admin, `${O}/members?role=edit`)).map((m) => m.id)).toEqual(["writer-1"]);
    expect((await listAll(admin, `${O}/members?search=READER`)).map((m) => m.id)).toEqual(["reader-1"]);
    expect((await admin("GET", `${O}/members?role=boss`)).status).toBe(400);
    const m = await admin("GET", `${O}/members/writer-1`);
    expect(m.body).toMatchObject({ object: "member", id: "writer-1", role: "edit", user: { object: "user", id: "writer-1", email: "writer@demo.test" }, spaces: 3, teams: 0, disabled: false, sso: false });
    expect((await admin("PATCH", `${O}/members/writer-1`, { role: "create" })).body.role).toBe("create");
    expect((await admin("PATCH", `${O}/members/writer-1`, { role: "owner" })).status).toBe(400);
    expect((await writer("PATCH", `${O}/members/reader-1`, { role: "admin" })).status).toBe(403);
    expect((await admin("POST", `${O}/members/reader-1/sso`)).body.sso).toBe(true);
    expect((await admin("DELETE", `${O}/members/reader-1`)).status).toBe(204);
    expect((await admin("GET", `${O}/members/reader-1`)).status).toBe(404);
    expect((await reader("GET", O)).status).toBe(403);
  });

  it("pings, and lists a member's spaces and teams", async () => {
    expect((await reader("POST", `${O}/ping`)).status).toBe(200);
    expect((await listAll(admin, `${O}/members?sort=lastSeenAt`)).map((m) => m.id)).toEqual(["reader-1"]);
    const spaces = await listAll(admin, `${O}/members/writer-1/spaces`);
    expect(spaces.map((x) => [x.permission, x.space.id])).toEqual([["edit", "space-changelog"], ["edit", "space-api"], ["edit", "space-guides"]]);
    await admin("PUT", `${O}/teams`, { title: "Writers", members: ["writer-1"] });
    const teams = await listAll(admin, `${O}/members/writer-1/teams?title=writ`);
    expect(teams.map((x) => [x.team.title, x.member.role])).toEqual([["Writers", "member"]]);
    expect((await admin("GET", `${O}/members/writer-1`)).body.teams).toBe(1);
  });
});

describe("teams", () => {
  it("creates teams (201 + Location, 409 on a taken title), reads, renames and deletes them", async () => {
    const r = await admin("PUT", `${O}/teams`, { title: "Docs", members: ["writer@demo.test", "reader-1"] });
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(`${emu.url}${O}/teams/${r.body.id}`);
    expect(r.body).toMatchObject({ object: "team", title: "Docs", members: 2, spaces: 0, permissions: { admin: true, view: true } });
    expect((await admin("PUT", `${O}/teams`, { title: "Docs" })).status).toBe(409);
    expect((await admin("PUT", `${O}/teams`, { title: "t".repeat(65) })).status).toBe(400);
    expect((await admin("PUT", `${O}/teams`, { title: "X", members: ["nobody@x.test"] })).body.error.message).toMatch(/body\/members\/0/);
    const other = (await admin("PUT", `${O}/teams`, { title: "Other" })).body;
    expect((await admin("PATCH", `${O}/teams/${other.id}`, { title: "Docs" })).status).toBe(409);
    expect((await admin("PATCH", `${O}/teams/${other.id}`, { title: "Renamed" })).body.title).toBe("Renamed");
    expect((await admin("GET", `${O}/teams/${r.body.id}`)).body.members).toBe(2);
    expect((await listAll(admin, `${O}/teams?title=REN`)).map((t) => t.title)).toEqual(["Renamed"]);
    expect((await writer("PUT", `${O}/teams`, { title: "No" })).status).toBe(403);
    expect((await admin("DELETE", `${O}/teams/${other.id}`)).status).toBe(204);
    expect((await admin("GET", `${O}/teams/${other.id}`)).status).toBe(404);
  });

  it("manages team members by user ID or e-mail; remove wins over add; owners may manage", async () => {
    const t = (await admin("PUT", `${O}/teams`, { title: "Crew" })).body;
    const M = `${O}/teams/${t.id}/members`;
    expect((await admin("PUT", M, { add: ["writer@demo.test", "reader-1"], remove: ["reader-1"], memberships: { "writer-1": { role: "owner" } } })).status).toBe(204);
    let members = await listAll(admin, M);
    expect(members.map((m) => [m.organization.id, m.team.role, m.permissions.view])).toEqual([["writer-1", "owner", true]]);
    expect((await admin("PUT", M, { add: ["ghost"] })).status).toBe(400);
    expect((await admin("PUT", M, { memberships: { "writer-1": { role: "king" } } })).status).toBe(400);
    // The owner (role edit in the org) may manage the team's members; a reader may not.
    expect((await writer("PUT", `${M}/reader-1`, { role: "member" })).status).toBe(204);
    expect((await reader("PUT", `${M}/reader-1`, { role: "owner" })).status).toBe(403);
    expect((await admin("PUT", `${M}/ghost`, {})).status).toBe(404);
    members = await listAll(admin, M);
    expect(members.map((m) => m.organization.id)).toEqual(["writer-1", "reader-1"]);
    expect((await admin("DELETE", `${M}/reader-1`)).status).toBe(204);
    expect((await admin("DELETE", `${M}/reader-1`)).status).toBe(404);
    expect((await listAll(admin, `${O}/teams?owner=writer-1`)).map((x) => x.id)).toEqual([t.id]);
    expect(emu.store.org("demo-org").teams[0]!.members).toEqual([{ user: "writer-1", role: "owner" }]);
  });
});

describe("spaces", () => {
  it("reads and patches spaces with limits and roles", async () => {
    const r = await admin("GET", "/v1/spaces/space-guides");
    expect(r.body).toMatchObject({ object: "space", id: "space-guides", title: "Guides", organization: "demo-org", editMode: "live", comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0, permissions: { admin: true, edit: true } });
    expect(r.body.deletedAt).toBeUndefined();
    expect((await writer("PATCH", "/v1/spaces/space-guides", { title: "Guides 2", emoji: "📗", editMode: "locked" })).body).toMatchObject({ title: "Guides 2", emoji: "📗", editMode: "locked" });
    expect((await writer("PATCH", "/v1/spaces/space-guides", { title: "t".repeat(51) })).status).toBe(400);
    expect((await writer("PATCH", "/v1/spaces/space-guides", { editMode: "frozen" })).status).toBe(400);
    expect((await reader("PATCH", "/v1/spaces/space-guides", { title: "No" })).status).toBe(403);
    expect((await reader("GET", "/v1/spaces/space-guides")).body.permissions.edit).toBe(false);
    expect((await outsider("GET", "/v1/spaces/space-guides")).status).toBe(404);
    expect((await admin("GET", "/v1/spaces/missing")).status).toBe(404);
  });

  it("soft-deletes, hides from lists, restores within 7 days and forgets after", async () => {
    expect((await writer("DELETE", "/v1/spaces/space-api")).status).toBe(403);
    expect((await admin("DELETE", "/v1/spaces/space-api")).status).toBe(205);
    const deleted = await admin("GET", "/v1/spaces/space-api");
    expect(deleted.status).toBe(200);
    expect(typeof deleted.body.deletedAt).toBe("string");
    expect((await listAll(admin, `${O}/members/writer-1/spaces`)).map((x) => x.space.id)).not.toContain("space-api");
    expect((await admin("DELETE", "/v1/spaces/space-api")).status).toBe(404);
    emu.control.advanceClock(6 * DAY);
    const restored = await admin("POST", "/v1/spaces/space-api/restore");
    expect(restored.status).toBe(200);
    expect(restored.body.deletedAt).toBeUndefined();

    await admin("DELETE", "/v1/spaces/space-api");
    emu.control.advanceClock(7 * DAY + 1);
    expect((await admin("POST", "/v1/spaces/space-api/restore")).status).toBe(404);
    expect((await admin("GET", "/v1/spaces/space-api")).status).toBe(404);
    expect(emu.store.org("demo-org").spaces.map((s) => s.id)).toEqual(["space-guides", "space-changelog"]);
  });

  it("duplicates, moves into collections and transfers to another organization", async () => {
    const dup = await writer("POST", "/v1/spaces/space-guides/duplicate");
    expect(dup.status).toBe(403);
    const copy = await admin("POST", "/v1/spaces/space-guides/duplicate");
    expect(copy.status).toBe(201);
    expect(copy.headers.get("location")).toBe(copy.body.urls.location);
    expect(copy.body).toMatchObject({ title: "Guides (copy)", organization: "demo-org" });
    const col = (await admin("POST", `${O}/collections`, { title: "Docs" })).body;
    const moved = await admin("POST", "/v1/spaces/space-guides/move", { parent: col.id, position: { after: { type: "space", space: "space-api" } } });
    expect(moved.body.parent).toBe(col.id);
    expect((await listAll(admin, `/v1/collections/${col.id}/spaces`)).map((s) => s.id)).toEqual(["space-guides"]);
    expect((await admin("POST", "/v1/spaces/space-guides/move", { parent: "nope" })).status).toBe(400);
    expect((await admin("POST", "/v1/spaces/space-guides/move", { parent: null })).body.parent).toBeUndefined();
    expect((await admin("POST", `/v1/spaces/${copy.body.id}/transfer`, { organization: "nope" })).status).toBe(400);
    const t = await admin("POST", `/v1/spaces/${copy.body.id}/transfer`, { organization: "other-org" });
    expect(t.body.organization).toBe("other-org");
    expect(emu.store.org("other-org").spaces.map((s) => s.id)).toEqual([copy.body.id]);
    // The links of the space's current content: the fixture's guides have one broken link and one into the app.
    const links = await admin("GET", "/v1/spaces/space-guides/links?status=broken");
    expect(links.body).toMatchObject({ count: 1, items: [{ status: "broken" }], stats: { total: 7, broken: { total: 1, changeRequest: 0 } } });
    expect((await admin("GET", "/v1/spaces/space-guides/links?status=in-app")).body.count).toBe(1);
  });
});

describe("collections", () => {
  it("creates, reads, patches, lists (nested or not), moves and deletes collections", async () => {
    const parent = await admin("POST", `${O}/collections`, { title: "Parent" });
    expect(parent.status).toBe(201);
    expect(parent.headers.get("location")).toBe(parent.body.urls.location);
    expect(parent.body).toMatchObject({ object: "collection", title: "Parent", organization: "demo-org", defaultLevel: null, permissions: { admin: true } });
    const child = (await admin("POST", `${O}/collections`, { title: "Child", parent: parent.body.id })).body;
    expect(child.parent).toBe(parent.body.id);
    expect((await admin("POST", `${O}/collections`, { title: "c".repeat(51) })).status).toBe(400);
    expect((await reader("POST", `${O}/collections`, { title: "No" })).status).toBe(403);
    expect((await listAll(admin, `${O}/collections`)).map((c) => c.title)).toEqual(["Parent", "Child"]);
    expect((await listAll(admin, `${O}/collections?nested=false`)).map((c) => c.title)).toEqual(["Parent"]);
    const p = await admin("PATCH", `/v1/collections/${child.id}`, { title: "Kid", description: "small", defaultLevel: "read" });
    expect(p.body).toMatchObject({ title: "Kid", description: "small", defaultLevel: "read" });
    expect((await admin("PATCH", `/v1/collections/${child.id}`, { description: "d".repeat(101) })).status).toBe(400);
    expect((await admin("POST", `/v1/collections/${parent.body.id}/move`, { parent: child.id })).status).toBe(400);
    expect((await admin("POST", `/v1/collections/${child.id}/move`, { parent: null })).body.parent).toBeUndefined();
    await admin("POST", "/v1/spaces/space-changelog/move", { parent: child.id });
    expect((await admin("DELETE", `/v1/collections/${child.id}`)).status).toBe(205);
    expect((await admin("GET", `/v1/collections/${child.id}`)).status).toBe(404);
    expect((await admin("GET", "/v1/spaces/space-changelog")).body.deletedAt).toEqual(expect.any(String));
  });

  it("transfers a collection with its spaces", async () => {
    const c = (await admin("POST", `${O}/collections`, { title: "Moving" })).body;
    await admin("POST", "/v1/spaces/space-api/move", { parent: c.id });
    const t = await admin("POST", `/v1/collections/${c.id}/transfer`, { organization: "other-org" });
    expect(t.status).toBe(200);
    expect(t.body.organization).toBe("other-org");
    expect((await admin("GET", "/v1/spaces/space-api")).body.organization).toBe("other-org");
    expect((await writer("POST", `/v1/collections/${c.id}/transfer`, { organization: "demo-org" })).status).toBe(404);
  });
});

describe("SAML and SSO", () => {
  it("creates, reads, lists, patches and deletes SAML providers; /sso lists login info", async () => {
    const team = (await admin("PUT", `${O}/teams`, { title: "SSO Team" })).body;
    const r = await admin("POST", `${O}/saml`, { label: "Okta", entityID: "urn:okta", certificate: "CERT", ssoURL: "https://okta.test/sso", defaultTeam: team.id, defaultRole: "read" });
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(r.body.urls.location);
    expect(r.body).toMatchObject({ object: "saml-provider", label: "Okta", defaultRole: "read", defaultTeam: { object: "team", id: team.id }, status: "active" });
    expect(Object.keys(r.body.service).sort()).toEqual(["acsURL", "entityID", "startURL"]);
    expect((await admin("POST", `${O}/saml`, { label: "l".repeat(31) })).status).toBe(400);
    expect((await admin("POST", `${O}/saml`, { label: "Bad", ssoURL: "not a url" })).status).toBe(400);
    expect((await admin("POST", `${O}/saml`, { label: "Bad", defaultTeam: "nope" })).status).toBe(400);
    expect((await writer("POST", `${O}/saml`, { label: "No" })).status).toBe(403);
    expect((await admin("PATCH", `${O}/saml/${r.body.id}`, { label: "Okta 2", defaultTeam: null })).body).toMatchObject({ label: "Okta 2" });
    expect((await admin("GET", `${O}/saml/${r.body.id}`)).body.defaultTeam).toBeUndefined();
    expect((await listAll(admin, `${O}/saml`)).map((p) => p.label)).toEqual(["Okta 2"]);
    expect((await reader("GET", `${O}/sso`)).body).toEqual({ items: [{ id: r.body.id, label: "Okta 2", startURL: r.body.service.startURL }] });
    expect((await admin("DELETE", `${O}/saml/${r.body.id}`)).status).toBe(204);
    expect((await admin("GET", `${O}/saml/${r.body.id}`)).status).toBe(404);
  });
});

describe("OpenAPI specs", () => {
  it("creates (409 on an existing slug), processes pending → progress → complete, versions each new URL", async () => {
    const r = await admin("POST", `${O}/openapi`, { slug: "petstore", source: { url: "https://x.test/v1.yaml" } });
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(r.body.urls.location);
    expect(r.body).toMatchObject({ object: "openapi-spec", slug: "petstore", sourceURL: "https://x.test/v1.yaml", processingState: "pending" });
    expect((await admin("POST", `${O}/openapi`, { slug: "petstore", source: { url: "https://x.test/v1.yaml" } })).status).toBe(409);
    expect((await admin("POST", `${O}/openapi`, { slug: "Bad Slug", source: { url: "https://x.test" } })).status).toBe(400);
    expect((await admin("POST", `${O}/openapi`, { slug: "ok", source: { url: "nope" } })).status).toBe(400);
    expect((await reader("POST", `${O}/openapi`, { slug: "no", source: { url: "https://x.test" } })).status).toBe(403);
    emu.control.advanceClock(100);
    expect((await admin("GET", `${O}/openapi/petstore`)).body.processingState).toBe("progress");
    emu.control.advanceClock(1000);
    const done = (await admin("GET", `${O}/openapi/petstore`)).body;
    expect(done).toMatchObject({ processingState: "complete", lastVersion: expect.any(String) });

    const same = await admin("PUT", `${O}/openapi/petstore`, { source: { url: "https://x.test/v1.yaml" } });
    expect(same.status).toBe(200);
    const next = await admin("PUT", `${O}/openapi/petstore`, { source: { url: "https://x.test/v2.yaml" } });
    expect(next.body.processingState).toBe("pending");
    const versions = await listAll(admin, `${O}/openapi/petstore/versions`);
    expect(versions.map((v) => v.url)).toEqual(["https://x.test/v1.yaml", "https://x.test/v2.yaml"]);
    expect(versions[0]).toMatchObject({ object: "openapi-spec-version", urls: { location: expect.stringContaining("/versions/") } });
    expect((await admin("GET", `${O}/openapi/petstore/versions/latest`)).body.url).toBe("https://x.test/v2.yaml");
    expect((await admin("GET", `${O}/openapi/petstore/versions/latest/content`)).body.url).toBe("https://x.test/v2.yaml");
    expect((await admin("GET", `${O}/openapi/petstore/versions/${versions[0].id}`)).body.id).toBe(versions[0].id);
    expect((await admin("GET", `${O}/openapi/petstore/versions/${versions[0].id}/content`)).body).toMatchObject({ url: "https://x.test/v1.yaml", filesystem: expect.any(Object) });
    expect((await admin("GET", `${O}/openapi/petstore/versions/nope`)).status).toBe(404);

    expect((await admin("PUT", `${O}/openapi/Not_A_Slug`, { source: { url: "https://x.test/a.yaml" } })).body.error.message).toMatch(/params\/specSlug/);
    const created = await admin("PUT", `${O}/openapi/fresh`, { source: { url: "https://x.test/fetch-error.yaml" } });
    expect(created.status).toBe(200);
    emu.control.advanceClock(1000);
    expect((await admin("GET", `${O}/openapi/fresh`)).body).toMatchObject({ processingState: "failed", lastProcessErrorCode: "FETCH_ERROR" });
    expect((await listAll(admin, `${O}/openapi`)).map((s) => s.slug)).toEqual(["petstore", "fresh"]);
    expect((await admin("DELETE", `${O}/openapi/fresh`)).status).toBe(205);
    expect((await admin("GET", `${O}/openapi/fresh`)).status).toBe(404);
  });
});

describe("translations", () => {
  it("creates, reads, lists, updates and deletes translation settings", async () => {
    const r = await admin("POST", `${O}/translations`, { title: "French", languages: ["fr"] });
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(r.body.urls.location);
    expect(r.body).toMatchObject({ object: "translation-settings", title: "French", languages: ["fr"] });
    expect((await admin("POST", `${O}/translations`, { title: "" })).status).toBe(400);
    expect((await writer("POST", `${O}/translations`, { title: "No" })).status).toBe(403);
    expect((await admin("PUT", `${O}/translations/${r.body.id}`, { title: "Français" })).body).toMatchObject({ title: "Français", languages: ["fr"] });
    expect((await admin("GET", `${O}/translations/${r.body.id}`)).body.title).toBe("Français");
    expect((await listAll(admin, `${O}/translations`)).length).toBe(1);
    expect((await admin("DELETE", `${O}/translations/${r.body.id}`)).status).toBe(205);
    expect((await admin("GET", `${O}/translations/${r.body.id}`)).status).toBe(404);
  });
});

describe("integrations", () => {
  it("lists with filters, reads, publishes new versions, lists installations and unpublishes", async () => {
    expect((await listAll(admin, "/v1/integrations?category=analytics")).map((g) => g.name)).toEqual(["analytics-x"]);
    const g = await admin("GET", "/v1/integrations/analytics-x");
    expect(g.body).toMatchObject({ object: "integration", name: "analytics-x", version: 1, owner: { id: "other-org" } });
    const body = { title: "My Tool", description: "Does things", script: "export default {}", organization: "demo-org", scopes: ["space:views:read"], blocks: [{ id: "b", title: "B", urlUnfurl: ["https://tool.test/x"] }], secrets: { KEY: "s3cret" } };
    const p = await admin("POST", "/v1/integrations/my-tool", body);
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ name: "my-tool", version: 1, title: "My Tool", scopes: ["space:views:read"] });
    expect(JSON.stringify(p.body)).not.toContain("s3cret");
    expect((await admin("POST", "/v1/integrations/my-tool", body)).body.version).toBe(2);
    expect((await admin("POST", "/v1/integrations/my-tool", { ...body, title: "x" })).status).toBe(400);
    expect((await admin("POST", "/v1/integrations/my-tool", { ...body, previewImages: ["a", "b", "c", "d"] })).status).toBe(400);
    expect((await admin("POST", "/v1/integrations/bad%20name", body)).status).toBe(400);
    expect((await writer("POST", "/v1/integrations/w-tool", body)).status).toBe(403);
    expect((await outsider("POST", "/v1/integrations/my-tool", { ...body, organization: "other-org" })).status).toBe(403);
    expect((await listAll(admin, "/v1/integrations?blocks=true")).map((x) => x.name)).toEqual(["my-tool"]);
    expect((await listAll(admin, "/v1/integrations?blockDomain=tool.test")).map((x) => x.name)).toEqual(["my-tool"]);
    expect((await listAll(outsider, "/v1/integrations")).map((x) => x.name)).toEqual(["analytics-x"]);
    const inst = await listAll(admin, "/v1/integrations/analytics-x/installations");
    expect(inst.map((i) => i.target.organization)).toEqual(["demo-org"]);
    expect((await admin("DELETE", "/v1/integrations/my-tool")).status).toBe(204);
    expect((await admin("GET", "/v1/integrations/my-tool")).status).toBe(404);
  });
});
