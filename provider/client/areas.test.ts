import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isConflict, isNotFound, type ApiClient } from "./index";
import { Started } from "../../test/support/emulator";
import { SecretRecorder } from "../../test/support/secrets";

// The organisation-level areas, each through its typed methods against the emulator.
const TOKEN = "dpt_SCAN_0d6f2b8a91c5e374";
const ORG = "demo-org";
const rec = new SecretRecorder();
const started = new Started(TOKEN, { logger: rec.logger });
let api: ApiClient;

beforeAll(async () => {
  api = await started.clientOfNewEmulator();
});

afterAll(async () => {
  await started.close();
  expect(rec.lines.length).toBeGreaterThan(20);
  expect(rec.occurrences(TOKEN)).toBe(0);
});

describe("organisations and members", () => {
  it("orgs: list, get, update, search, by e-mail domain, ping", async () => {
    expect((await api.orgs.list()).map((o) => o.id)).toEqual([ORG]);
    const org = await api.orgs.get(ORG);
    expect(org).toMatchObject({ object: "organization", id: ORG, title: "Demo Org" });
    expect(await api.orgs.update(ORG, { title: "Demo Org Renamed", defaultRole: "read" })).toMatchObject({
      title: "Demo Org Renamed",
      defaultRole: "read",
    });
    await api.orgs.update(ORG, { title: "Demo Org", defaultRole: null });
    const found = await api.orgs.search(ORG, "guides");
    expect(Array.isArray(found.items)).toBe(true);
    expect((await api.orgs.byEmailDomain("demo.test")).map((o) => o.id)).toEqual([ORG]);
    expect(typeof (await api.orgs.ping(ORG))).toBe("object");
  });

  it("members: list with filters, get, update role, their spaces and teams, SSO flag", async () => {
    const all = await api.members.list(ORG);
    expect(all.map((m) => m.id).sort()).toEqual(["demo-admin", "reader-1", "writer-1"]);
    expect((await api.members.list(ORG, { role: "edit" })).map((m) => m.id)).toEqual(["writer-1"]);
    expect(await api.members.get(ORG, "writer-1")).toMatchObject({ object: "member", role: "edit" });
    expect(await api.members.update(ORG, "writer-1", { role: "review" })).toMatchObject({ role: "review" });
    await api.members.update(ORG, "writer-1", { role: "edit" });
    expect((await api.members.listSpaces(ORG, "writer-1")).length).toBeGreaterThan(0);
    expect(Array.isArray(await api.members.listTeams(ORG, "writer-1"))).toBe(true);
    expect(await api.members.setSso(ORG, "reader-1")).toMatchObject({ sso: true });
  });
});

describe("collections and spaces", () => {
  it("collections: create, get, list, update, move spaces in, list spaces, delete", async () => {
    const parent = await api.collections.create(ORG, { title: "Product" });
    const child = await api.collections.create(ORG, { title: "Guides", parent: parent.id });
    expect(child).toMatchObject({ object: "collection", parent: parent.id, organization: ORG });
    expect(await api.collections.get(child.id)).toMatchObject({ title: "Guides" });
    expect((await api.collections.list(ORG)).map((c) => c.id)).toEqual(expect.arrayContaining([parent.id, child.id]));
    expect((await api.collections.list(ORG, { nested: false })).map((c) => c.id)).not.toContain(child.id);
    expect(await api.collections.update(child.id, { description: "How-tos", defaultLevel: "read" })).toMatchObject({
      description: "How-tos",
      defaultLevel: "read",
    });
    await api.spaces.move("space-guides", { parent: child.id });
    expect((await api.collections.listSpaces(child.id)).map((s) => s.id)).toEqual(["space-guides"]);
    expect(await api.collections.move(child.id, { parent: null })).not.toHaveProperty("parent");
    await api.spaces.move("space-guides", { parent: null });
    await api.collections.delete(child.id);
    await api.collections.delete(parent.id);
    expect(isNotFound(await rec.failure(api.collections.get(parent.id)))).toBe(true);
  });

  it("spaces: get, update, duplicate, delete and restore, links", async () => {
    expect(await api.spaces.get("space-api")).toMatchObject({ object: "space", title: "API Reference" });
    expect(await api.spaces.update("space-api", { title: "API", editMode: "locked" })).toMatchObject({ title: "API", editMode: "locked" });
    await api.spaces.update("space-api", { title: "API Reference", editMode: "live" });
    const copy = await api.spaces.duplicate("space-changelog");
    expect(copy.id).not.toBe("space-changelog");
    await api.spaces.delete(copy.id);
    expect((await api.spaces.get(copy.id)).deletedAt).toBeTruthy();
    expect((await api.spaces.restore(copy.id)).deletedAt).toBeUndefined();
    // The fixture's API space links its overview to its authentication page.
    const links = await api.spaces.links("space-api");
    expect(links).toMatchObject({ count: 1, items: [{ status: "ok", targetReference: { kind: "page" } }], stats: { total: 1, broken: { total: 0 } } });
    expect(await api.spaces.links("space-api", { status: "broken" })).toMatchObject({ items: [], stats: { total: 1 } });
  });
});

describe("SSO, OpenAPI, translations, integrations", () => {
  it("saml: create, get, list, update, SSO info, delete", async () => {
    const team = await api.teams.create(ORG, { title: "SSO Default" });
    const p = await api.saml.create(ORG, {
      label: "Okta",
      ssoURL: "https://idp.example.com/sso",
      entityID: "https://idp.example.com/entity",
      defaultTeam: team.id,
      defaultRole: "read",
    });
    expect(p).toMatchObject({ object: "saml-provider", label: "Okta", defaultRole: "read" });
    expect(p.defaultTeam?.id).toBe(team.id);
    expect(await api.saml.get(ORG, p.id)).toMatchObject({ id: p.id });
    expect((await api.saml.list(ORG)).map((x) => x.id)).toEqual([p.id]);
    expect(await api.saml.update(ORG, p.id, { label: "Okta EU" })).toMatchObject({ label: "Okta EU" });
    expect((await api.saml.ssoInfo(ORG)).map((i) => i.label)).toEqual(["Okta EU"]);
    await api.saml.delete(ORG, p.id);
    expect(await api.saml.list(ORG)).toEqual([]);
    await api.teams.delete(ORG, team.id);
  });

  it("openapi: create, conflict on an existing slug, put, versions and content, delete", async () => {
    const spec = await api.openapi.create(ORG, { slug: "petstore", source: { url: "https://example.com/petstore.json" } });
    expect(spec).toMatchObject({ object: "openapi-spec", slug: "petstore" });
    expect(isConflict(await rec.failure(api.openapi.create(ORG, { slug: "petstore", source: { url: "https://example.com/x.json" } })))).toBe(true);
    expect(await api.openapi.put(ORG, "petstore", { source: { url: "https://example.com/petstore-v2.json" } })).toMatchObject({
      slug: "petstore",
    });
    expect(await api.openapi.get(ORG, "petstore")).toMatchObject({ sourceURL: "https://example.com/petstore-v2.json" });
    expect((await api.openapi.list(ORG)).map((s) => s.slug)).toEqual(["petstore"]);
    const versions = await api.openapi.listVersions(ORG, "petstore");
    expect(versions.length).toBe(2);
    const latest = await api.openapi.latestVersion(ORG, "petstore");
    expect(latest.url).toBe("https://example.com/petstore-v2.json");
    expect(await api.openapi.getVersion(ORG, "petstore", latest.id)).toMatchObject({ id: latest.id });
    expect((await api.openapi.versionContent(ORG, "petstore")).url).toBe(latest.url);
    expect((await api.openapi.versionContent(ORG, "petstore", versions.find((v) => v.id !== latest.id)!.id)).url).toBe(
      "https://example.com/petstore.json",
    );
    await api.openapi.delete(ORG, "petstore");
    expect(isNotFound(await rec.failure(api.openapi.get(ORG, "petstore")))).toBe(true);
  });

  it("translations: create, get, list, update, delete", async () => {
    const t = await api.translations.create(ORG, { title: "French" });
    expect(t).toMatchObject({ object: "translation-settings", title: "French" });
    expect(await api.translations.get(ORG, t.id)).toMatchObject({ id: t.id });
    expect(await api.translations.update(ORG, t.id, { title: "Français" })).toMatchObject({ title: "Français" });
    expect((await api.translations.list(ORG)).map((x) => x.id)).toEqual([t.id]);
    await api.translations.delete(ORG, t.id);
    expect(await api.translations.list(ORG)).toEqual([]);
  });

  it("integrations: publish, get, list, installations, unpublish", async () => {
    const g = await api.integrations.publish("client-test-integration", {
      title: "Client Test",
      description: "Published by the client test",
      script: "export default {}",
      organization: ORG,
      scopes: ["space:views:read"],
      secrets: { apiKey: "integration-secret" },
    });
    expect(g).toMatchObject({ object: "integration", name: "client-test-integration", title: "Client Test" });
    expect(await api.integrations.get("client-test-integration")).toMatchObject({ name: "client-test-integration" });
    expect((await api.integrations.list({ owner: ORG })).map((x) => x.name)).toContain("client-test-integration");
    expect(await api.integrations.listInstallations("client-test-integration")).toEqual([]);
    await api.integrations.unpublish("client-test-integration");
    expect(isNotFound(await rec.failure(api.integrations.get("client-test-integration")))).toBe(true);
  });
});
