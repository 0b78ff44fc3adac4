/**
 * Behaviour of the organisation kinds that the table-driven lifecycle test does not pin: natural-key
 * adopt (exact matches only, ambiguity is an error), outcome-unknown creates resolved without a
 * duplicate, normalised fields that must not drift, and restore-on-delete of the kinds that take
 * over existing objects. The providers run in-process against the emulator on port 0.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { defaultSeed, startEmulator, type RunningEmulator } from "../../emulator/index";
import { closeSharedClients } from "../client";
import { collectionProvider } from "./collection";
import { memberRoleProvider } from "./memberRole";
import { openApiSpecProvider } from "./openApiSpec";
import { organizationSettingsProvider } from "./organizationSettings";
import { samlProviderProvider } from "./samlProvider";
import { spaceProvider } from "./space";
import { teamProvider } from "./team";
import { teamMembersProvider } from "./teamMembers";
import { translationSettingsProvider } from "./translationSettings";
import { apiOf, type Api } from "../../test/support/api";
import { withOuts } from "../../test/support/providerResults";

const ORG = "demo-org";
let emu: RunningEmulator;
/** Plain HTTP against the emulator, independent of the provider's client: out-of-band changes. */
let api: Api;

const items = async <T = Record<string, unknown>>(path: string): Promise<T[]> =>
  (await api<{ items: T[] }>("GET", `${path}${path.includes("?") ? "&" : "?"}limit=1000`)).items;

beforeAll(async () => {
  // One member beyond the fixture, who may be deleted out of band.
  const seed = defaultSeed();
  seed.users.push({ id: "temp-1", email: "temp@demo.test", displayName: "Temporary" });
  seed.organizations[0]!.members.push({ user: "temp-1", role: "read" });
  emu = await startEmulator({ port: 0, seed });
  api = apiOf(emu);
  process.env.DOCSPLATFORM_API_URL = emu.url;
  process.env.DOCSPLATFORM_API_TOKEN = emu.token;
});

afterEach(() => emu.control.setFaults(null));

afterAll(async () => {
  await closeSharedClients();
  await emu.close();
});

describe("Team", () => {
  it("adopts only the team whose title matches exactly (the API's title filter is a case-insensitive substring)", async () => {
    await api("PUT", `/v1/orgs/${ORG}/teams`, { title: "platform writers" });
    await api("PUT", `/v1/orgs/${ORG}/teams`, { title: "Platform Writers (old)" });
    const exact = await api<{ id: string }>("PUT", `/v1/orgs/${ORG}/teams`, { title: "Platform Writers" });
    const { id, outs } = await withOuts(teamProvider.create({ organizationId: ORG, title: "Platform Writers", adopt: true }));
    expect(id).toBe(exact.id);
    expect(outs.title).toBe("Platform Writers");
  });

  it("resolves a create whose response was lost by finding the team, never creating a second one", async () => {
    emu.control.setFaults({ dropAfterCommitRate: 1, methods: ["PUT"], routes: "/teams$" });
    const { id } = await teamProvider.create({ organizationId: ORG, title: "Lost Response" });
    emu.control.setFaults(null);
    const teams = (await items<{ id: string; title: string }>(`/v1/orgs/${ORG}/teams`)).filter((t) => t.title === "Lost Response");
    expect(teams.map((t) => t.id)).toEqual([id]);
  });

  it("without adopt, an existing title is the API's conflict, named in the error", async () => {
    await api("PUT", `/v1/orgs/${ORG}/teams`, { title: "Taken" });
    await expect(teamProvider.create({ organizationId: ORG, title: "Taken" })).rejects.toThrow(/409.*Taken/);
  });
});

describe("TeamMembers", () => {
  it("keeps members declared by e-mail without drift, detects out-of-band changes and converges with one PUT", async () => {
    const team = await api<{ id: string }>("PUT", `/v1/orgs/${ORG}/teams`, { title: "Membership" });
    const path = `/v1/orgs/${ORG}/teams/${team.id}/members`;
    const inputs = {
      organizationId: ORG,
      teamId: team.id,
      members: [{ user: "Writer@Demo.Test", role: "owner" as const }, { user: "reader-1" }],
    };
    const { id, outs } = await withOuts(teamMembersProvider.create(inputs));
    expect(outs.members).toEqual([
      { user: "Writer@Demo.Test", role: "owner" },
      { user: "reader-1", role: "member" },
    ]);
    expect(outs.resolved.map((r) => [r.user, r.memberId, r.email])).toEqual([
      ["Writer@Demo.Test", "writer-1", "writer@demo.test"],
      ["reader-1", "reader-1", "reader@demo.test"],
    ]);

    const read = await teamMembersProvider.read(id, outs);
    expect((await teamMembersProvider.diff(id, read.props!, inputs)).changes).toBe(false);
    // Declared in another order, or with the default role spelled out: still no change.
    const reordered = { ...inputs, members: [{ user: "reader-1", role: "member" as const }, { user: "writer@demo.test", role: "owner" as const }] };
    expect((await teamMembersProvider.diff(id, read.props!, reordered)).changes).toBe(false);

    // Someone adds the admin and demotes the writer behind our back: read shows both as drift.
    await api("PUT", path, { add: ["demo-admin"], memberships: { "writer-1": { role: "member" } } });
    const drifted = await teamMembersProvider.read(id, read.props!);
    expect(drifted.props!.members).toEqual([
      { user: "Writer@Demo.Test", role: "member" },
      { user: "reader-1", role: "member" },
      { user: "demo-admin", role: "member" },
    ]);
    expect((await teamMembersProvider.diff(id, drifted.props!, inputs)).changes).toBe(true);

    // Update restores the declared set: the admin is removed, the writer is owner again.
    emu.control.clearLog();
    const { outs: updated } = await withOuts(teamMembersProvider.update(id, drifted.props!, inputs));
    expect(emu.control.counts()["PUT /v1/orgs/:organizationId/teams/:teamId/members"]).toBe(1);
    expect(updated.members).toEqual(outs.members);
    const live = await items<{ organization: { id: string }; team: { role: string } }>(path);
    expect(live.map((m) => [m.organization.id, m.team.role]).sort()).toEqual([
      ["reader-1", "member"],
      ["writer-1", "owner"],
    ]);

    await teamMembersProvider.delete(id, updated);
    expect(await items(path)).toEqual([]);
  });

  it("rejects a user declared twice (by ID and by e-mail the same person is one entry)", async () => {
    const team = await api<{ id: string }>("PUT", `/v1/orgs/${ORG}/teams`, { title: "Twice" });
    await expect(
      teamMembersProvider.create({ organizationId: ORG, teamId: team.id, members: [{ user: "reader@demo.test" }, { user: "READER@demo.test" }] }),
    ).rejects.toThrow(/members\[1\]\.user .* repeats members\[0\]\.user/);
  });

  it("an unknown member is the API's 400, naming the user", async () => {
    const team = await api<{ id: string }>("PUT", `/v1/orgs/${ORG}/teams`, { title: "Unknown member" });
    await expect(
      teamMembersProvider.create({ organizationId: ORG, teamId: team.id, members: [{ user: "nobody@demo.test" }] }),
    ).rejects.toThrow(/400.*nobody@demo\.test/);
  });
});

describe("SamlProvider", () => {
  it("declares defaultTeam by ID while the API answers with the Team object: no drift", async () => {
    const team = await api<{ id: string }>("PUT", `/v1/orgs/${ORG}/teams`, { title: "SSO joiners" });
    const inputs = {
      organizationId: ORG,
      label: "Okta",
      ssoURL: "https://idp.example.com/sso",
      entityID: "https://idp.example.com/entity",
      certificate: "MIIBfake",
      defaultTeam: team.id,
      defaultRole: "read" as const,
    };
    const { id, outs } = await withOuts(samlProviderProvider.create(inputs));
    expect(outs).toMatchObject({ defaultTeam: team.id, defaultRole: "read" });
    expect(outs).not.toHaveProperty("status");
    expect(outs.service?.acsURL).toMatch(/^https:\/\//);
    const read = await samlProviderProvider.read(id, outs);
    expect((await samlProviderProvider.diff(id, read.props!, inputs)).changes).toBe(false);
    await samlProviderProvider.delete(id, read.props!);
  });

  it("adopt with two providers of that label is a clear error", async () => {
    await api("POST", `/v1/orgs/${ORG}/saml`, { label: "Twin" });
    await api("POST", `/v1/orgs/${ORG}/saml`, { label: "Twin" });
    await expect(samlProviderProvider.create({ organizationId: ORG, label: "Twin", adopt: true })).rejects.toThrow(
      /2 SAML providers .* labelled "Twin"; adopt needs exactly one/,
    );
  });

  it("resolves a create answered with a 5xx after it took effect", async () => {
    emu.control.setFaults({ error5xxAfterCommitRate: 1, methods: ["POST"], routes: "/saml$" });
    const { id } = await samlProviderProvider.create({ organizationId: ORG, label: "Flaky" });
    emu.control.setFaults(null);
    const found = (await items<{ id: string; label: string }>(`/v1/orgs/${ORG}/saml`)).filter((p) => p.label === "Flaky");
    expect(found.map((p) => p.id)).toEqual([id]);
  });
});

describe("OpenAPISpec", () => {
  it("an existing slug without adopt is an error that says how to take it over; with adopt the source is PUT", async () => {
    await api("POST", `/v1/orgs/${ORG}/openapi`, { slug: "petstore", source: { url: "https://example.com/v1.yaml" } });
    const inputs = { organizationId: ORG, slug: "petstore", sourceURL: "https://example.com/v2.yaml" };
    await expect(openApiSpecProvider.create(inputs)).rejects.toThrow(/already has a spec with slug "petstore"; declare adopt: true/);
    const { outs } = await withOuts(openApiSpecProvider.create({ ...inputs, adopt: true }));
    expect(outs.sourceURL).toBe("https://example.com/v2.yaml");
    const versions = await items(`/v1/orgs/${ORG}/openapi/petstore/versions`);
    expect(versions).toHaveLength(2);
  });
});

describe("Collection", () => {
  it("adopts only when exactly one collection has the title; moves on a parent change", async () => {
    const parent = await api<{ id: string }>("POST", `/v1/orgs/${ORG}/collections`, { title: "Parent" });
    await api("POST", `/v1/orgs/${ORG}/collections`, { title: "Dup" });
    await api("POST", `/v1/orgs/${ORG}/collections`, { title: "Dup" });
    await expect(collectionProvider.create({ organizationId: ORG, title: "Dup", adopt: true })).rejects.toThrow(
      /2 collections .* titled "Dup"; adopt needs exactly one/,
    );

    const inputs = { organizationId: ORG, title: "Guides", description: "How-tos", defaultLevel: "read" as const };
    const { id, outs } = await withOuts(collectionProvider.create(inputs));
    expect(outs).toMatchObject({ description: "How-tos", defaultLevel: "read" });
    expect(outs).not.toHaveProperty("parent"); // at the top: what the field's absence means, not kept
    const moved = await withOuts(collectionProvider.update(id, outs, { ...inputs, parent: parent.id }));
    expect(moved.outs.parent).toBe(parent.id);
    const back = await withOuts(collectionProvider.update(id, moved.outs, { ...inputs, parent: null }));
    expect(back.outs).not.toHaveProperty("parent"); // back at the top: not kept
    await collectionProvider.delete(id, back.outs);
    expect((await collectionProvider.read(id, back.outs)).id).toBe("");
  });
  it("moves its spaces and nested collections up before it is deleted, so no content goes with it", async () => {
    const outer = await api<{ id: string }>("POST", `/v1/orgs/${ORG}/collections`, { title: "Outer" });
    const { id, outs } = await withOuts(collectionProvider.create({ organizationId: ORG, title: "Doomed", parent: outer.id }));
    const inner = await api<{ id: string }>("POST", `/v1/orgs/${ORG}/collections`, { title: "Inner", parent: id });
    const copy = await api<{ id: string }>("POST", "/v1/spaces/space-changelog/duplicate");
    await api("POST", `/v1/spaces/${copy.id}/move`, { parent: id });

    await collectionProvider.delete(id, outs);

    expect((await collectionProvider.read(id, outs)).id).toBe("");
    const space = await api<{ parent?: string; deletedAt?: string }>("GET", `/v1/spaces/${copy.id}`);
    expect(space.deletedAt).toBeUndefined();
    expect(space.parent).toBe(outer.id);
    expect((await api<{ parent?: string }>("GET", `/v1/collections/${inner.id}`)).parent).toBe(outer.id);
  });
});

describe("Space", () => {
  it("restores the replaced settings on delete by default", async () => {
    const copy = await api<{ id: string; title: string; emoji: string }>("POST", "/v1/spaces/space-guides/duplicate");
    const inputs = { spaceId: copy.id, title: "Managed", editMode: "locked" as const };
    const { id, outs } = await withOuts(spaceProvider.create(inputs));
    expect(outs).toMatchObject({ title: "Managed", editMode: "locked", previous: { title: copy.title } });
    expect(outs).not.toHaveProperty("deletionPolicy"); // "restore", what the field's absence means: not kept

    // A setting managed later remembers its value from before, too.
    const { outs: updated } = await withOuts(spaceProvider.update(id, outs, { ...inputs, emoji: "🚀" }));
    expect(updated.previous).toMatchObject({ title: copy.title, emoji: copy.emoji });

    await spaceProvider.delete(id, updated);
    const after = await api<{ title: string; emoji: string; deletedAt?: string }>("GET", `/v1/spaces/${copy.id}`);
    expect(after).toMatchObject({ title: copy.title, emoji: copy.emoji });
    expect(after.deletedAt).toBeUndefined();
  });

  it("an update sends the changed settings with no read first: one PATCH, and a move only for a changed parent", async () => {
    const copy = await api<{ id: string }>("POST", "/v1/spaces/space-guides/duplicate");
    const inputs = { spaceId: copy.id, title: "Managed" };
    const { id, outs } = await withOuts(spaceProvider.create(inputs));
    const collection = await api<{ id: string }>("POST", `/v1/orgs/${ORG}/collections`, { title: "Shelf" });
    const calls = async (run: () => Promise<unknown>): Promise<string[]> => {
      const before = emu.control.log().length;
      await run();
      return emu.control.log().slice(before).map((e) => `${e.method} ${e.route}`);
    };

    let updated = outs;
    expect(await calls(async () => ({ outs: updated } = await withOuts(spaceProvider.update(id, updated, { ...inputs, title: "Renamed" }))))).toEqual(["PATCH /v1/spaces/:spaceId"]);
    expect(updated.title).toBe("Renamed");
    expect(await calls(async () => ({ outs: updated } = await withOuts(spaceProvider.update(id, updated, { ...inputs, title: "Renamed", parent: collection.id }))))).toEqual(["POST /v1/spaces/:spaceId/move"]);
    expect(updated.parent).toBe(collection.id);
    await spaceProvider.delete(id, updated);
  });

  it("deletionPolicy delete soft-deletes, and a soft-deleted space reads as gone", async () => {
    const copy = await api<{ id: string }>("POST", "/v1/spaces/space-api/duplicate");
    const { id, outs } = await withOuts(spaceProvider.create({ spaceId: copy.id, deletionPolicy: "delete" }));
    await spaceProvider.delete(id, outs);
    const after = await api<{ deletedAt?: string }>("GET", `/v1/spaces/${copy.id}`);
    expect(after.deletedAt).toBeTruthy();
    expect((await spaceProvider.read(id, outs)).id).toBe("");
    await expect(spaceProvider.create({ spaceId: copy.id })).rejects.toThrow(/does not exist \(or is deleted\)/);
  });
});

describe("OrganizationSettings", () => {
  it("compares e-mail domains as a set and restores every replaced setting on delete", async () => {
    const before = await api<Record<string, unknown>>("GET", `/v1/orgs/${ORG}`);
    const inputs = { organizationId: ORG, title: "Renamed Org", emailDomains: ["Demo.test", "example.org"], ai: true, defaultRole: "read" as const };
    const { id, outs } = await withOuts(organizationSettingsProvider.create(inputs));
    expect(outs).toMatchObject({ title: "Renamed Org", ai: true, defaultRole: "read", previous: { title: before.title } });
    const read = await organizationSettingsProvider.read(id, outs);
    const reordered = { ...inputs, emailDomains: ["example.org", "demo.test"] };
    expect((await organizationSettingsProvider.diff(id, read.props!, reordered)).changes).toBe(false);

    await organizationSettingsProvider.delete(id, read.props!);
    const after = await api<Record<string, unknown>>("GET", `/v1/orgs/${ORG}`);
    for (const k of ["title", "emailDomains", "ai", "defaultRole"]) expect(after[k]).toEqual(before[k]);
  });
});

describe("MemberRole", () => {
  it("sets a member's role and restores the previous one on delete", async () => {
    const { id, outs } = await withOuts(memberRoleProvider.create({ organizationId: ORG, userId: "reader-1", role: "comment" }));
    expect(outs).toMatchObject({ role: "comment", previous: { role: "read" }, email: "reader@demo.test" });
    const { outs: guest } = await withOuts(memberRoleProvider.update(id, outs, { organizationId: ORG, userId: "reader-1", role: null }));
    expect(guest).toMatchObject({ role: null, previous: { role: "read" } });
    await memberRoleProvider.delete(id, guest);
    expect((await api<{ role: string }>("GET", `/v1/orgs/${ORG}/members/reader-1`)).role).toBe("read");
  });

  it("a member removed out of band reads as gone, and delete is then done", async () => {
    const { id, outs } = await withOuts(memberRoleProvider.create({ organizationId: ORG, userId: "temp-1", role: "edit" }));
    await api("DELETE", `/v1/orgs/${ORG}/members/temp-1`);
    expect((await memberRoleProvider.read(id, outs)).id).toBe("");
    await memberRoleProvider.delete(id, outs);
  });

  it("accepts the member's e-mail address; a change of its case is no change", async () => {
    const inputs = { organizationId: ORG, userId: "Writer@Demo.Test", role: "review" as const };
    const { id, outs } = await withOuts(memberRoleProvider.create(inputs));
    expect(id).toBe("writer-1");
    const read = await memberRoleProvider.read(id, outs);
    const d = await memberRoleProvider.diff(id, read.props!, { ...inputs, userId: "writer@demo.test" });
    expect(d.changes).toBe(false);
    await memberRoleProvider.delete(id, read.props!);
    expect((await api<{ role: string }>("GET", `/v1/orgs/${ORG}/members/writer-1`)).role).toBe("edit");
  });

  it("a user who is not a member is a clear error", async () => {
    await expect(memberRoleProvider.create({ organizationId: ORG, userId: "ghost", role: "read" })).rejects.toThrow(
      /ghost is not a member of organization demo-org/,
    );
  });
});

describe("TranslationSettings", () => {
  it("adopts the one object with that exact title and renames in place", async () => {
    const existing = await api<{ id: string }>("POST", `/v1/orgs/${ORG}/translations`, { title: "French" });
    const { id, outs } = await withOuts(translationSettingsProvider.create({ organizationId: ORG, title: "French", adopt: true }));
    expect(id).toBe(existing.id);
    const { outs: renamed } = await withOuts(translationSettingsProvider.update(id, outs, { organizationId: ORG, title: "Français" }));
    expect(renamed.title).toBe("Français");
    expect((await translationSettingsProvider.diff(id, renamed, { organizationId: ORG, title: "Français" })).changes).toBe(false);
  });
});
