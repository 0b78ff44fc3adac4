/** Sites and their structure: shapes, defaults, paths, display order, moves, cascades, adaptive schema, published structure, share links, roles. */
import { describe, expect, it } from "vitest";
import { listAll } from "../test/support/api";
import { shareEmulator } from "../test/support/emulatorSuite";

const emu = shareEmulator();
const admin = emu.caller();
const writer = emu.caller("writer-token");
const reader = emu.caller("reader-token");
const S = "/v1/orgs/demo-org/sites";

async function site(body: Record<string, unknown> = { title: "Handbook" }): Promise<{ id: string; [k: string]: any }> {
  const r = await admin("POST", S, body);
  expect(r.status).toBe(201);
  return r.body;
}

describe("sites", () => {
  it("creates a site with its defaults, a Location header and site spaces at the root", async () => {
    const r = await admin("POST", S, { title: "Handbook", spaces: ["space-guides", "space-api"] });
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(r.body.urls.location);
    expect(r.body).toMatchObject({
      object: "site",
      type: "basic",
      title: "Handbook",
      visibility: "public",
      published: false,
      siteSpaces: 2,
      agentsContext: "excluded",
      adaptiveContent: { enabled: false },
      urls: { location: `${emu.url}${S}/${r.body.id}`, app: expect.stringMatching(/^https:\/\//), published: expect.stringMatching(/^https:\/\//) },
    });
    expect(Date.parse(r.body.createdAt)).not.toBeNaN();
    const spaces = await listAll(admin, `${S}/${r.body.id}/site-spaces`);
    expect(spaces.map((s) => [s.path, s.title, s.default, s.space.id, s.space.object])).toEqual([
      ["guides", "Guides", true, "space-guides", "space"],
      ["api-reference", "API Reference", false, "space-api", "space"],
    ]);
    expect((await admin("GET", `${S}/${r.body.id}`)).body).toEqual(r.body);
  });

  it("creates a new space titled after the site with spaces: \"new\"", async () => {
    const s = await site({ title: "Fresh Docs", spaces: "new" });
    const [ss] = await listAll(admin, `${S}/${s.id}/site-spaces`);
    expect(ss.space.title).toBe("Fresh Docs");
    expect(emu.store.org("demo-org").spaces.map((x) => x.title)).toContain("Fresh Docs");
  });

  it("rejects unknown spaces, bad hostnames and proxies with 400", async () => {
    expect((await admin("POST", S, { title: "X1", spaces: ["nope"] })).body.error.message).toMatch(/body\/spaces\/0/);
    const s = await site();
    expect((await admin("PATCH", `${S}/${s.id}`, { hostname: "Not A Host" })).status).toBe(400);
    expect((await admin("PATCH", `${S}/${s.id}`, { proxy: "no-path" })).status).toBe(400);
    expect((await admin("PATCH", `${S}/${s.id}`, { basename: "" })).status).toBe(400);
    expect((await admin("PATCH", `${S}/${s.id}`, { agentsContext: "sometimes" })).status).toBe(400);
  });

  it("patches fields, publishing and proxy; the hostname is read-only", async () => {
    const s = await site();
    const r = await admin("PATCH", `${S}/${s.id}`, {
      title: "Renamed",
      visibility: "share-link",
      basename: "docs",
      published: true,
      proxy: "example.com/docs",
      agentsContext: "included",
      adaptiveContent: { enabled: true },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: "Renamed", visibility: "share-link", basename: "docs", published: true, agentsContext: "included", adaptiveContent: { enabled: true } });
    expect(r.body.proxy).toMatchObject({ origin: "https://example.com/docs" });
    const readOnly = await admin("PATCH", `${S}/${s.id}`, { hostname: "docs.example.com" });
    expect(readOnly.status).toBe(400);
    expect(readOnly.body.error.message).toMatch(/hostname/);
    const cleared = await admin("PATCH", `${S}/${s.id}`, { proxy: null });
    expect(cleared.body.proxy).toBeUndefined();
  });

  it("lists with filters and pages", async () => {
    const a = await site({ title: "Alpha", spaces: ["space-guides"] });
    await site({ title: "Beta" });
    await admin("PATCH", `${S}/${a.id}`, { published: true });
    expect((await listAll(admin, S, 1)).map((s) => s.title)).toEqual(["Alpha", "Beta"]);
    expect((await listAll(admin, `${S}?title=bet`)).map((s) => s.title)).toEqual(["Beta"]);
    expect((await listAll(admin, `${S}?published=true`)).map((s) => s.title)).toEqual(["Alpha"]);
    expect((await listAll(admin, `${S}?space=space-guides`)).map((s) => s.title)).toEqual(["Alpha"]);
  });

  it("lets only admins manage sites; readers may read", async () => {
    const s = await site();
    expect((await writer("POST", S, { title: "Nope" })).status).toBe(403);
    expect((await reader("PATCH", `${S}/${s.id}`, { title: "Nope" })).status).toBe(403);
    expect((await reader("DELETE", `${S}/${s.id}`)).status).toBe(403);
    expect((await reader("GET", `${S}/${s.id}`)).status).toBe(200);
    expect((await reader("GET", `${S}/${s.id}/sections`)).status).toBe(200);
  });

  it("deletes a site with everything in it (205, then 404)", async () => {
    const s = await site({ title: "Doomed", spaces: ["space-guides"] });
    const sec = (await admin("POST", `${S}/${s.id}/sections`, { spaceId: "space-api" })).body;
    await admin("POST", `${S}/${s.id}/section-groups`, { title: "Group", sections: [sec.id] });
    await admin("POST", `${S}/${s.id}/share-links`, { name: "l" });
    await admin("PUT", `${S}/${s.id}/adaptive-schema`, { jsonSchema: { type: "object", properties: {} } });
    const before = emu.store.counts();
    expect((await admin("DELETE", `${S}/${s.id}`)).status).toBe(205);
    const after = emu.store.counts();
    expect([after.sites, after.sections, after.sectionGroups, after.siteSpaces, after.shareLinks]).toEqual([before.sites - 1, 0, 0, 0, 0]);
    expect((await admin("GET", `${S}/${s.id}`)).status).toBe(404);
    expect((await admin("DELETE", `${S}/${s.id}`)).status).toBe(404);
    expect((await admin("GET", `${S}/${s.id}/sections`)).status).toBe(404);
  });
});

describe("sections and site spaces", () => {
  it("creates a section with a site space for its space; the first section and first site space are defaults", async () => {
    const s = await site();
    const r = await admin("POST", `${S}/${s.id}/sections`, { spaceId: "space-guides", title: "Guides", icon: "book" });
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toMatch(new RegExp(`/sections/${r.body.id}$`));
    expect(r.body).toMatchObject({ object: "site-section", title: "Guides", path: "guides", default: true, icon: "book" });
    expect(r.body.siteSpaces).toHaveLength(1);
    expect(r.body.siteSpaces[0]).toMatchObject({ object: "site-space", default: true, section: r.body.id, path: "guides", title: "Guides" });
    const second = await admin("POST", `${S}/${s.id}/sections`, { spaceId: "space-api", title: "Guides" });
    expect(second.body).toMatchObject({ path: "guides-2", default: false });
    // A site space without sectionId goes to the default section.
    const ss = await admin("POST", `${S}/${s.id}/site-spaces`, { spaceId: "space-changelog" });
    expect(ss.status).toBe(201);
    expect(ss.body).toMatchObject({ section: r.body.id, default: false, path: "changelog" });
    expect((await admin("GET", `${S}/${s.id}`)).body.siteSpaces).toBe(3);
  });

  it("names the section after its space when no title is given, and enforces limits", async () => {
    const s = await site();
    expect((await admin("POST", `${S}/${s.id}/sections`, { spaceId: "space-api" })).body.title).toBe("API Reference");
    expect((await admin("POST", `${S}/${s.id}/sections`, { spaceId: "space-api", title: "x" })).body.error.message).toMatch(/body\/title must NOT have fewer than 2 characters/);
    expect((await admin("POST", `${S}/${s.id}/sections`, { spaceId: "missing" })).status).toBe(400);
    expect((await admin("POST", `${S}/${s.id}/sections`, {})).body.error.message).toMatch(/spaceId/);
    const sec = (await listAll(admin, `${S}/${s.id}/sections`))[0];
    expect((await admin("PATCH", `${S}/${s.id}/sections/${sec.id}`, { description: "d".repeat(257) })).body.error.message).toMatch(/256/);
    expect((await admin("PATCH", `${S}/${s.id}/sections/${sec.id}`, { condition: "" })).status).toBe(400);
    expect((await admin("PATCH", `${S}/${s.id}/sections/${sec.id}`, { path: "p".repeat(101) })).status).toBe(400);
  });

  it("patches sections: path conflicts are 409, condition and description null remove, defaults switch", async () => {
    const s = await site();
    const a = (await admin("POST", `${S}/${s.id}/sections`, { spaceId: "space-guides", title: "Alpha" })).body;
    const b = (await admin("POST", `${S}/${s.id}/sections`, { spaceId: "space-api", title: "Beta" })).body;
    expect((await admin("PATCH", `${S}/${s.id}/sections/${b.id}`, { path: "alpha" })).status).toBe(409);
    const p = await admin("PATCH", `${S}/${s.id}/sections/${b.id}`, { path: "beta-x", condition: "visitor.claims.beta", description: "desc" });
    expect(p.body).toMatchObject({ path: "beta-x", condition: "visitor.claims.beta", description: "desc" });
    const q = await admin("PATCH", `${S}/${s.id}/sections/${b.id}`, { condition: null, description: null });
    expect(q.body.condition).toBeUndefined();
    expect(q.body.description).toBeUndefined();
    const extra = (await admin("POST", `${S}/${s.id}/site-spaces`, { spaceId: "space-changelog", sectionId: b.id })).body;
    expect((await admin("PATCH", `${S}/${s.id}/sections/${b.id}`, { defaultSiteSpace: extra.id })).body.siteSpaces.map((x: { default: boolean }) => x.default)).toEqual([false, true]);
    expect((await admin("PATCH", `${S}/${s.id}/sections/${a.id}`, { defaultSiteSpace: extra.id })).status).toBe(400);
    const sw = await admin("PATCH", `${S}/${s.id}`, { defaultSiteSection: b.id });
    expect(sw.status).toBe(200);
    expect((await listAll(admin, `${S}/${s.id}/sections`)).map((x) => x.default)).toEqual([false, true]);
    expect((await admin("PATCH", `${S}/${s.id}`, { defaultSiteSection: "nope" })).status).toBe(400);
  });

  it("patches site spaces: path conflicts at the same level are 409, other levels are free; spaceId repoints", async () => {
    const s = await site({ title: "Root", spaces: ["space-guides", "space-api"] });
    const [g, a] = await listAll(admin, `${S}/${s.id}/site-spaces`);
    expect((await admin("PATCH", `${S}/${s.id}/site-spaces/${a.id}`, { path: "guides" })).status).toBe(409);
    const r = await admin("PATCH", `${S}/${s.id}/site-spaces/${a.id}`, { path: "reference", condition: "visitor.claims.x", spaceId: "space-changelog" });
    expect(r.body).toMatchObject({ path: "reference", condition: "visitor.claims.x", title: "Changelog" });
    expect(r.body.space.id).toBe("space-changelog");
    expect((await admin("PATCH", `${S}/${s.id}/site-spaces/${a.id}`, { condition: null })).body.condition).toBeUndefined();
    expect((await admin("PATCH", `${S}/${s.id}`, { defaultSiteSpace: a.id })).status).toBe(200);
    expect((await listAll(admin, `${S}/${s.id}/site-spaces?default=true`)).map((x) => x.id)).toEqual([a.id]);
    expect((await listAll(admin, `${S}/${s.id}/site-spaces?default=false`)).map((x) => x.id)).toEqual([g.id]);
  });

  it("site-space titles mirror their space's title", async () => {
    const s = await site({ title: "Mirror", spaces: ["space-guides"] });
    await admin("PATCH", "/v1/spaces/space-guides", { title: "Handbook Guides" });
    const [ss] = await listAll(admin, `${S}/${s.id}/site-spaces`);
    expect(ss.title).toBe("Handbook Guides");
    expect(ss.space.title).toBe("Handbook Guides");
  });

  it("deleting a section deletes its site spaces and moves the default on", async () => {
    const s = await site();
    const a = (await admin("POST", `${S}/${s.id}/sections`, { spaceId: "space-guides" })).body;
    const b = (await admin("POST", `${S}/${s.id}/sections`, { spaceId: "space-api" })).body;
    expect((await admin("DELETE", `${S}/${s.id}/sections/${a.id}`)).status).toBe(205);
    const left = await listAll(admin, `${S}/${s.id}/sections`);
    expect(left.map((x) => [x.id, x.default])).toEqual([[b.id, true]]);
    expect((await listAll(admin, `${S}/${s.id}/site-spaces`)).map((x) => x.section)).toEqual([b.id]);
    expect((await admin("DELETE", `${S}/${s.id}/sections/${a.id}`)).status).toBe(404);
  });

  it("deleting the default site space makes the next one the default", async () => {
    const s = await site({ title: "Root", spaces: ["space-guides", "space-api"] });
    const [g, a] = await listAll(admin, `${S}/${s.id}/site-spaces`);
    expect((await admin("DELETE", `${S}/${s.id}/site-spaces/${g.id}`)).status).toBe(205);
    expect((await listAll(admin, `${S}/${s.id}/site-spaces`)).map((x) => [x.id, x.default])).toEqual([[a.id, true]]);
  });

  it("moves sections and site spaces before and after others", async () => {
    const s = await site();
    const ids = [];
    for (const sp of ["space-guides", "space-api", "space-changelog"]) ids.push((await admin("POST", `${S}/${s.id}/sections`, { spaceId: sp })).body.id);
    const [a, b, c] = ids;
    const mv = await admin("POST", `${S}/${s.id}/sections/${c}/move`, { position: { before: { type: "site-section", siteSection: a } } });
    expect(mv.status).toBe(200);
    expect((await listAll(admin, `${S}/${s.id}/sections`)).map((x) => x.id)).toEqual([c, a, b]);
    await admin("POST", `${S}/${s.id}/sections/${c}/move`, { position: { after: { type: "site-section", siteSection: b } } });
    expect((await listAll(admin, `${S}/${s.id}/sections`)).map((x) => x.id)).toEqual([a, b, c]);
    expect((await admin("POST", `${S}/${s.id}/sections/${c}/move`, { position: {} })).status).toBe(400);
    expect((await admin("POST", `${S}/${s.id}/sections/${c}/move`, { position: { before: "nope" } })).status).toBe(400);

    const x = (await admin("POST", `${S}/${s.id}/site-spaces`, { spaceId: "space-api", sectionId: a })).body;
    const first = (await listAll(admin, `${S}/${s.id}/sections`))[0].siteSpaces[0];
    await admin("POST", `${S}/${s.id}/site-spaces/${x.id}/move`, { position: { before: { type: "site-space", siteSpace: first.id } } });
    expect((await listAll(admin, `${S}/${s.id}/sections`))[0].siteSpaces.map((y: { id: string }) => y.id)).toEqual([x.id, first.id]);
  });

  it("keeps the snapshot in display order", async () => {
    const s = await site();
    const a = (await admin("POST", `${S}/${s.id}/sections`, { spaceId: "space-guides", title: "One" })).body;
    const b = (await admin("POST", `${S}/${s.id}/sections`, { spaceId: "space-api", title: "Two" })).body;
    await admin("POST", `${S}/${s.id}/sections/${b.id}/move`, { position: { before: a.id } });
    const snap = emu.store.org("demo-org").sites[0]!;
    expect(snap.sections.map((x) => x.title)).toEqual(["Two", "One"]);
    expect(snap.sections[0]!.siteSpaces[0]).toMatchObject({ path: "api-reference", space: "space-api", default: true });
    expect(JSON.parse(JSON.stringify(emu.store.snapshot()))).toEqual(emu.store.snapshot());
  });
});

describe("section groups", () => {
  it("groups sections, lists them in display order, moves them and ungroups on delete", async () => {
    const s = await site();
    const ids: string[] = [];
    for (const sp of ["space-guides", "space-api", "space-changelog"]) ids.push((await admin("POST", `${S}/${s.id}/sections`, { spaceId: sp })).body.id);
    const [a, b, c] = ids as [string, string, string];
    const g = await admin("POST", `${S}/${s.id}/section-groups`, { title: "Reference", icon: "book", sections: [b, c] });
    expect(g.status).toBe(201);
    expect(g.headers.get("location")).toMatch(/section-groups\//);
    expect(g.body).toMatchObject({ object: "site-section-group", title: "Reference", icon: "book" });
    expect(g.body.sections.map((x: { id: string; sectionGroup: string }) => [x.id, x.sectionGroup])).toEqual([[b, g.body.id], [c, g.body.id]]);
    expect((await listAll(admin, `${S}/${s.id}/section-groups`)).map((x) => x.id)).toEqual([g.body.id]);
    expect((await listAll(admin, `${S}/${s.id}/sections`)).map((x) => x.id)).toEqual([a, b, c]);

    // Move the group before the first section.
    expect((await admin("POST", `${S}/${s.id}/section-groups/${g.body.id}/move`, { position: { before: { type: "site-section", id: a } } })).status).toBe(200);
    expect((await listAll(admin, `${S}/${s.id}/sections`)).map((x) => x.id)).toEqual([b, c, a]);

    // Remove one section from the group: back to the root, right after the group.
    expect((await admin("DELETE", `${S}/${s.id}/section-groups/${g.body.id}/sections/${b}`)).status).toBe(205);
    expect((await listAll(admin, `${S}/${s.id}/sections`)).map((x) => x.id)).toEqual([c, b, a]);
    const added = await admin("POST", `${S}/${s.id}/section-groups/${g.body.id}/sections`, { sectionId: a });
    expect(added.status).toBe(201);
    expect(added.body.sections.map((x: { id: string }) => x.id)).toEqual([c, a]);

    expect((await admin("PATCH", `${S}/${s.id}/section-groups/${g.body.id}`, { title: "Ref", icon: null })).body).toMatchObject({ title: "Ref" });
    expect((await admin("PATCH", `${S}/${s.id}/section-groups/${g.body.id}`, { title: "" })).status).toBe(400);

    // Delete the group: its sections go back to the root where it was.
    expect((await admin("DELETE", `${S}/${s.id}/section-groups/${g.body.id}`)).status).toBe(205);
    const after = await listAll(admin, `${S}/${s.id}/sections`);
    expect(after.map((x) => x.id)).toEqual([c, a, b]);
    expect(after.every((x) => x.sectionGroup === undefined)).toBe(true);
    expect(emu.store.counts().sections).toBe(3);
  });
});

describe("adaptive schema and published structure", () => {
  it("answers a default schema, stores a new one and derives template conditions", async () => {
    const s = await site();
    const d = await admin("GET", `${S}/${s.id}/adaptive-schema`);
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({ object: "site-adaptive-schema", jsonSchema: { type: "object", properties: {}, additionalProperties: false } });
    const jsonSchema = {
      type: "object",
      properties: {
        beta: { type: "boolean", description: "Beta users" },
        unsigned: { type: "object", description: "Unsigned claims of the site visitor.", properties: { plan: { type: "boolean" } }, additionalProperties: false },
      },
      additionalProperties: false,
    };
    const put = await admin("PUT", `${S}/${s.id}/adaptive-schema`, { jsonSchema });
    expect(put.status).toBe(200);
    expect(put.body.jsonSchema).toEqual(jsonSchema);
    expect((await admin("GET", `${S}/${s.id}/adaptive-schema`)).body.jsonSchema).toEqual(jsonSchema);
    expect((await admin("GET", `${S}/${s.id}/adaptive-schema/template-conditions`)).body.items).toEqual([
      { description: "Beta users", condition: "visitor.claims.beta" },
      { description: "plan", condition: "visitor.claims.unsigned.plan" },
    ]);
    expect((await admin("PUT", `${S}/${s.id}/adaptive-schema`, { jsonSchema: { type: "array" } })).status).toBe(400);
    // The unsigned member as the platform refuses it: without its fixed description and closed properties, or with another description.
    const { description: _d, additionalProperties: _a, ...bare } = jsonSchema.properties.unsigned;
    for (const unsigned of [bare, { ...jsonSchema.properties.unsigned, description: "Claims visitors set" }, { ...jsonSchema.properties.unsigned, additionalProperties: true }]) {
      const refused = await admin("PUT", `${S}/${s.id}/adaptive-schema`, { jsonSchema: { ...jsonSchema, properties: { ...jsonSchema.properties, unsigned } } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/unsigned/);
    }
    expect((await admin("GET", `${S}/${s.id}/adaptive-schema`)).body.jsonSchema).toEqual(jsonSchema);
    expect((await admin("PUT", `${S}/${s.id}/adaptive-schema`, { jsonSchema: { type: "object", properties: { x: { type: "string" } } } })).status).toBe(400);
  });

  it("publishes sections with their site spaces, or root site spaces when there are no sections", async () => {
    const s = await site({ title: "Pub", spaces: ["space-guides"] });
    const root = await admin("GET", `${S}/${s.id}/published`);
    expect(root.body).toMatchObject({ object: "published-content-site", site: { id: s.id }, structure: { type: "siteSpaces" } });
    expect(root.body.structure.structure.map((x: { path: string }) => x.path)).toEqual(["guides"]);
    await admin("POST", `${S}/${s.id}/sections`, { spaceId: "space-api", title: "API" });
    const withSections = await admin("GET", `${S}/${s.id}/published`);
    expect(withSections.body.structure.type).toBe("sections");
    expect(withSections.body.structure.structure.map((x: { object: string; title: string; siteSpaces: unknown[] }) => [x.object, x.title, x.siteSpaces.length])).toEqual([["site-section", "API", 1]]);
  });
});

describe("share links", () => {
  it("creates, lists, patches and deletes share links with secret published URLs", async () => {
    const s = await site();
    const r = await admin("POST", `${S}/${s.id}/share-links`, { name: "Partners" });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ object: "share-link", name: "Partners", active: true });
    expect(r.body.urls.published).toMatch(new RegExp(`^${s.urls.published.replace(/[.?]/g, "\\$&")}\\?token=[A-Za-z0-9_-]{20,}$`));
    const other = await admin("POST", `${S}/${s.id}/share-links`, { name: "Other" });
    expect(other.body.urls.published).not.toBe(r.body.urls.published);
    expect((await admin("POST", `${S}/${s.id}/share-links`, { name: "n".repeat(51) })).status).toBe(400);
    expect((await listAll(admin, `${S}/${s.id}/share-links`, 1)).map((l) => l.name)).toEqual(["Partners", "Other"]);
    const p = await admin("PATCH", `${S}/${s.id}/share-links/${r.body.id}`, { active: false, name: "Renamed" });
    expect(p.body).toMatchObject({ active: false, name: "Renamed", urls: r.body.urls });
    expect((await writer("POST", `${S}/${s.id}/share-links`, { name: "x" })).status).toBe(403);
    expect((await admin("DELETE", `${S}/${s.id}/share-links/${r.body.id}`)).status).toBe(205);
    expect((await admin("DELETE", `${S}/${s.id}/share-links/${r.body.id}`)).status).toBe(404);
    expect(JSON.stringify(emu.store.snapshot())).not.toContain(other.body.urls.published.split("token=")[1]);
  });
});
