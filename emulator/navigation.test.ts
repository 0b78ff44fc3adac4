/** The navigation tree: structure read and sort, external links, drafts, nested groups, publish, site-space duplicate, space creation. */
import { describe, expect, it } from "vitest";
import { listAll } from "../test/support/api";
import { shareEmulator } from "../test/support/emulatorSuite";

const emu = shareEmulator();
const admin = emu.caller();
const writer = emu.caller("writer-token");
const S = "/v1/orgs/demo-org/sites";

/** A site with two sections (Guides, API) and a group holding a third (Changelog). */
async function sectionsSite() {
  const site = (await admin("POST", S, { title: "Nav" })).body;
  const base = `${S}/${site.id}`;
  const guides = (await admin("POST", `${base}/sections`, { spaceId: "space-guides", title: "Guides" })).body;
  const api = (await admin("POST", `${base}/sections`, { spaceId: "space-api", title: "API" })).body;
  const log = (await admin("POST", `${base}/sections`, { spaceId: "space-changelog", title: "Changelog" })).body;
  const group = (await admin("POST", `${base}/section-groups`, { title: "More", sections: [log.id] })).body;
  return { site, base, guides, api, log, group };
}

/** The structure as `[object, title]` pairs, groups with their children nested. */
async function shape(base: string): Promise<unknown[]> {
  const r = await admin("GET", `${base}/structure`);
  expect(r.status).toBe(200);
  const walk = (items: any[]): unknown[] => items.map((i) => (i.object === "site-section-group" ? [i.title, walk(i.children)] : i.title));
  return [r.body.type, walk(r.body.structure)];
}

describe("structure and external links", () => {
  it("reads the structure in display order, with groups' children, links and drafts", async () => {
    const { base, group } = await sectionsSite();
    const link = await admin("POST", `${base}/external-links`, { title: "Status", url: "https://status.example.com", description: "Uptime", icon: "signal", condition: "visitor.claims.staff", draft: true });
    expect(link.status).toBe(201);
    expect(link.headers.get("location")).toBe(`${emu.url}${base}/external-links/${link.body.id}`);
    expect(link.body).toEqual({
      object: "site-external-link", id: link.body.id, title: "Status", url: "https://status.example.com", description: "Uptime", icon: "signal", condition: "visitor.claims.staff", draft: true,
    });
    // A new link goes last in its level; one in a group carries its group.
    const inGroup = (await admin("POST", `${base}/external-links`, { title: "Forum", url: "http://forum.example.com", parent: group.id })).body;
    expect(inGroup).toMatchObject({ sectionGroup: group.id, draft: false });
    expect(await shape(base)).toEqual(["sections", ["Guides", "API", ["More", ["Changelog", "Forum"]], "Status"]]);
    const r = (await admin("GET", `${base}/structure`)).body;
    expect(r.structure[0]).toMatchObject({ object: "site-section", draft: false, siteSpaces: [{ object: "site-space", draft: false }] });
    expect(r.structure[2]).toMatchObject({ object: "site-section-group", draft: false, sections: [{ title: "Changelog" }] });
    expect(r.structure[2].sections).toHaveLength(1);
  });

  it("sorts siblings before or after another, or to the end; the deprecated moves act on the same order", async () => {
    const { base, guides, api, group } = await sectionsSite();
    const link = (await admin("POST", `${base}/external-links`, { title: "Status", url: "https://status.example.com" })).body;
    const p = (type: string, id: string) => ({ type, id });
    let r = await admin("PATCH", `${base}/structure/sort`, { item: p("site-external-link", link.id), position: { before: p("site-section", guides.id) } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: "site-external-link", id: link.id });
    expect(await shape(base)).toEqual(["sections", ["Status", "Guides", "API", ["More", ["Changelog"]]]]);
    r = await admin("PATCH", `${base}/structure/sort`, { item: p("site-section-group", group.id), position: { after: p("site-external-link", link.id) } }, { prefer: "return=minimal" });
    expect(r.status).toBe(204);
    expect(r.headers.get("preference-applied")).toBe("return=minimal");
    expect(await shape(base)).toEqual(["sections", ["Status", ["More", ["Changelog"]], "Guides", "API"]]);
    // No position: the end of its level.
    await admin("PATCH", `${base}/structure/sort`, { item: p("site-external-link", link.id) });
    expect(await shape(base)).toEqual(["sections", [["More", ["Changelog"]], "Guides", "API", "Status"]]);
    // The deprecated move places a section next to a link, in the same order.
    expect((await admin("POST", `${base}/sections/${api.id}/move`, { position: { after: link.id } })).status).toBe(200);
    expect(await shape(base)).toEqual(["sections", [["More", ["Changelog"]], "Guides", "Status", "API"]]);
    expect((await admin("POST", `${base}/section-groups/${group.id}/move`, { position: { after: api.id } })).status).toBe(200);
    expect(await shape(base)).toEqual(["sections", ["Guides", "Status", "API", ["More", ["Changelog"]]]]);
  });

  it("refuses a sort across levels, both positions, an item of another site and a writer", async () => {
    const { base, guides, log } = await sectionsSite();
    const p = (type: string, id: string) => ({ type, id });
    const across = await admin("PATCH", `${base}/structure/sort`, { item: p("site-section", guides.id), position: { before: p("site-section", log.id) } });
    expect(across.status).toBe(400);
    expect(across.body.error.message).toMatch(/same level/);
    expect((await admin("PATCH", `${base}/structure/sort`, { item: p("site-section", guides.id), position: { before: p("site-section", log.id), after: p("site-section", log.id) } })).status).toBe(400);
    expect((await admin("PATCH", `${base}/structure/sort`, { item: p("site-section", "nope") })).status).toBe(404);
    expect((await admin("PATCH", `${base}/structure/sort`, { item: p("site-section", guides.id), position: { before: p("site-space", guides.siteSpaces[0].id) } })).status).toBe(400);
    expect((await admin("PATCH", `${base}/structure/sort`, { item: { type: "page", id: guides.id } })).status).toBe(400);
    expect((await writer("PATCH", `${base}/structure/sort`, { item: p("site-section", guides.id) })).status).toBe(403);
  });

  it("sorts site spaces among the variants of a section", async () => {
    const { base, guides } = await sectionsSite();
    const second = (await admin("POST", `${base}/site-spaces`, { spaceId: "space-api", sectionId: guides.id })).body;
    await admin("PATCH", `${base}/structure/sort`, { item: { type: "site-space", id: second.id }, position: { before: { type: "site-space", id: guides.siteSpaces[0].id } } });
    const sections = await listAll(admin, `${base}/sections`);
    expect(sections[0].siteSpaces.map((s: any) => s.id)).toEqual([second.id, guides.siteSpaces[0].id]);
  });

  it("patches a link (null clears, parent moves it to the end of that level) and deletes it (then 404)", async () => {
    const { base, group } = await sectionsSite();
    const link = (await admin("POST", `${base}/external-links`, { title: "Status", url: "https://status.example.com", icon: "signal", localizedTitle: { fr: "Statut" } })).body;
    let r = await admin("PATCH", `${base}/external-links/${link.id}`, { icon: null, localizedTitle: null, title: "Uptime", parent: group.id });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ object: "site-external-link", id: link.id, title: "Uptime", url: "https://status.example.com", sectionGroup: group.id, draft: false });
    expect(await shape(base)).toEqual(["sections", ["Guides", "API", ["More", ["Changelog", "Uptime"]]]]);
    r = await admin("PATCH", `${base}/external-links/${link.id}`, { parent: null, draft: true }, { prefer: "return=minimal" });
    expect(r.status).toBe(204);
    expect(await shape(base)).toEqual(["sections", ["Guides", "API", ["More", ["Changelog"]], "Uptime"]]);
    expect((await admin("DELETE", `${base}/external-links/${link.id}`)).status).toBe(205);
    expect((await admin("DELETE", `${base}/external-links/${link.id}`)).status).toBe(404);
    expect((await admin("PATCH", `${base}/external-links/${link.id}`, { title: "Gone" })).status).toBe(404);
  });

  it("refuses bad links: limits, non-HTTP URLs, unknown groups, a site of root site spaces", async () => {
    const { base } = await sectionsSite();
    const bad = async (body: Record<string, unknown>, field: RegExp) => {
      const r = await admin("POST", `${base}/external-links`, { title: "Ok", url: "https://x.example.com", ...body });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(field);
    };
    await bad({ title: "x" }, /title/);
    await bad({ url: "ftp://x.example.com" }, /url/);
    await bad({ url: "/relative" }, /url/);
    await bad({ url: `https://x.example.com/${"a".repeat(2048)}` }, /url/);
    await bad({ description: "d".repeat(257) }, /description/);
    await bad({ icon: "i".repeat(51) }, /icon/);
    await bad({ condition: "c".repeat(1025) }, /condition/);
    await bad({ localizedTitle: { xx: "Nope" } }, /localizedTitle/);
    await bad({ parent: "sitesg_nope" }, /parent/);
    await bad({ sectionGroup: "x" }, /additional|sectionGroup/);
    const flat = (await admin("POST", S, { title: "Flat", spaces: ["space-guides"] })).body;
    const r = await admin("POST", `${S}/${flat.id}/external-links`, { title: "Status", url: "https://status.example.com" });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/sections/);
    expect((await admin("GET", `${S}/${flat.id}/structure`)).body).toMatchObject({ type: "siteSpaces", structure: [{ object: "site-space" }] });
  });

  it("deleting a group moves its sections, nested groups and links up one level, in place; deleting the site deletes its links", async () => {
    const { site, base, group } = await sectionsSite();
    await admin("POST", `${base}/external-links`, { title: "Forum", url: "https://forum.example.com", parent: group.id });
    const inner = (await admin("POST", `${base}/section-groups`, { title: "Inner", parent: group.id })).body;
    expect(inner.sectionGroup).toBe(group.id);
    await admin("POST", `${base}/external-links`, { title: "Deep", url: "https://deep.example.com", parent: inner.id });
    expect(await shape(base)).toEqual(["sections", ["Guides", "API", ["More", ["Changelog", "Forum", ["Inner", ["Deep"]]]]]]);
    expect((await listAll(admin, `${base}/section-groups`)).map((g) => g.title)).toEqual(["More", "Inner"]);
    expect((await admin("DELETE", `${base}/section-groups/${group.id}`)).status).toBe(205);
    expect(await shape(base)).toEqual(["sections", ["Guides", "API", "Changelog", "Forum", ["Inner", ["Deep"]]]]);
    expect((await admin("GET", `${base}/structure`)).body.structure[3]).not.toHaveProperty("sectionGroup");
    await admin("DELETE", `${S}/${site.id}`);
    expect(emu.store.counts().externalLinks).toBe(0);
    expect(emu.store.counts().sectionGroups).toBe(0);
  });
});

describe("drafts, group children and nesting", () => {
  it("creates and patches draft sections, groups and site spaces; sections move in and out of groups", async () => {
    const { base, group, guides } = await sectionsSite();
    const draft = (await admin("POST", `${base}/sections`, { spaceId: "space-api", title: "Next", draft: true, siteSectionGroupId: group.id })).body;
    expect(draft).toMatchObject({ draft: true, sectionGroup: group.id, siteSpaces: [{ draft: true }] });
    expect((await admin("PATCH", `${base}/sections/${draft.id}`, { draft: false, siteSectionGroupId: null })).body).toMatchObject({ draft: false });
    expect(await shape(base)).toEqual(["sections", ["Guides", "API", ["More", ["Changelog"]], "Next"]]);
    const g2 = (await admin("POST", `${base}/section-groups`, { title: "Staged", draft: true })).body;
    expect(g2).toMatchObject({ draft: true, children: [], sections: [] });
    expect((await admin("PATCH", `${base}/section-groups/${g2.id}`, { draft: false, parentSectionGroupId: group.id })).body).toMatchObject({ draft: false, sectionGroup: group.id });
    expect((await admin("PATCH", `${base}/section-groups/${group.id}`, { parentSectionGroupId: g2.id })).status).toBe(400);
    expect((await admin("PATCH", `${base}/section-groups/${group.id}`, { parentSectionGroupId: group.id })).status).toBe(400);
    const ss = (await admin("POST", `${base}/site-spaces`, { spaceId: "space-api", sectionId: guides.id, draft: true })).body;
    expect(ss.draft).toBe(true);
    expect((await admin("PATCH", `${base}/site-spaces/${ss.id}`, { draft: false })).body.draft).toBe(false);
    expect((await admin("POST", `${base}/sections`, { spaceId: "space-api", siteSectionGroupId: "nope" })).status).toBe(400);
  });

  it("publishes and unpublishes through the site's `published` field", async () => {
    const { site, base } = await sectionsSite();
    expect((await admin("POST", `${base}/publish`)).body).toMatchObject({ id: site.id, published: true });
    expect((await admin("GET", base)).body.published).toBe(true);
    expect((await admin("POST", `${base}/unpublish`)).body.published).toBe(false);
    expect((await writer("POST", `${base}/publish`)).status).toBe(403);
  });

  it("duplicates a site space: a sole variant into a new sibling section, otherwise beside it", async () => {
    const { base, guides, api } = await sectionsSite();
    const copy = await admin("POST", `${base}/site-spaces/${guides.siteSpaces[0].id}/duplicate`, { draft: true });
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ object: "site-space", draft: true, space: { title: "Guides (copy)" } });
    expect(await shape(base)).toEqual(["sections", ["Guides", "Guides", "API", ["More", ["Changelog"]]]]);
    await admin("POST", `${base}/site-spaces`, { spaceId: "space-guides", sectionId: api.id });
    const beside = (await admin("POST", `${base}/site-spaces/${api.siteSpaces[0].id}/duplicate`)).body;
    const sections = await listAll(admin, `${base}/sections`);
    expect(sections.find((s) => s.id === api.id).siteSpaces.map((s: any) => s.id)).toContain(beside.id);
  });
});

describe("space creation", () => {
  it("creates a space with title, emoji, language, edit mode and parent; lists the organisation's live spaces", async () => {
    const r = await admin("POST", "/v1/orgs/demo-org/spaces", { title: "New guide", emoji: "📘", language: "fr", editMode: "locked" });
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(`${emu.url}/v1/spaces/${r.body.id}`);
    expect(r.body).toMatchObject({ object: "space", title: "New guide", emoji: "📘", language: "fr", editMode: "locked", organization: "demo-org" });
    const col = (await admin("POST", "/v1/orgs/demo-org/collections", { title: "Shelf" })).body;
    const inCol = (await admin("POST", "/v1/orgs/demo-org/spaces", { title: "Shelved", parent: col.id, empty: true })).body;
    expect(inCol.parent).toBe(col.id);
    expect((await admin("POST", "/v1/orgs/demo-org/spaces")).body.title).toBe("Untitled");
    await admin("DELETE", `/v1/spaces/${inCol.id}`);
    const titles = (await listAll(admin, "/v1/orgs/demo-org/spaces")).map((s) => s.title);
    expect(titles).toEqual(expect.arrayContaining(["Guides", "New guide", "Untitled"]));
    expect(titles).not.toContain("Shelved");
  });

  it("refuses limits, unknown parents and languages, two sources, templates, and a writer", async () => {
    const post = (body: unknown, call = admin) => call("POST", "/v1/orgs/demo-org/spaces", body);
    expect((await post({ title: "t".repeat(51) })).body.error.message).toMatch(/title/);
    expect((await post({ language: "xx" })).status).toBe(400);
    expect((await post({ parent: "nope" })).body.error.message).toMatch(/parent/);
    expect((await post({ empty: true, template: { id: "x" } })).status).toBe(400);
    expect((await post({ template: { id: "x" } })).body.error.message).toMatch(/template/);
    expect((await post({ editMode: "frozen" })).status).toBe(400);
    expect((await post({ title: "W" }, writer)).status).toBe(403);
  });
});
