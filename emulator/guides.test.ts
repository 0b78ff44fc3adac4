/** Extensions §12, §13 and §15: hidden site spaces, OpenAPI text specs and visibility, style guides, site defaultLevel, agent instructions. */
import { describe, expect, it } from "vitest";
import { shareEmulator } from "../test/support/emulatorSuite";

const emu = shareEmulator();
const admin = emu.caller();
const reader = emu.caller("reader-token");
const O = "/v1/orgs/demo-org";
const S = `${O}/sites`;

describe("hidden site spaces", () => {
  it("are shown until a PATCH hides them; the create body takes no hidden; sections have none", async () => {
    const site = (await admin("POST", S, { title: "Hidden" })).body;
    const base = `${S}/${site.id}`;
    // Not a member of the create body: ignored, as every member a body does not name.
    const ss = (await admin("POST", `${base}/site-spaces`, { spaceId: "space-guides", hidden: true })).body;
    expect(ss.hidden).toBe(false);
    const hidden = await admin("PATCH", `${base}/site-spaces/${ss.id}`, { hidden: true });
    expect(hidden.status).toBe(200);
    expect(hidden.body.hidden).toBe(true);
    const listed = (await admin("GET", `${base}/site-spaces`)).body.items;
    expect(listed.find((x: { id: string }) => x.id === ss.id)).toMatchObject({ hidden: true, path: ss.path });
    expect((await admin("PATCH", `${base}/site-spaces/${ss.id}`, { hidden: false })).body.hidden).toBe(false);
    const section = (await admin("POST", `${base}/sections`, { spaceId: "space-api", title: "API" })).body;
    const patched = await admin("PATCH", `${base}/sections/${section.id}`, { hidden: true });
    expect(patched.body.hidden).toBeUndefined();
  });
});

describe("OpenAPI text specs", () => {
  it("take a text source, serve it raw, add no version for the same text, and change visibility by PATCH only", async () => {
    const text = '{"openapi":"3.1.0","info":{"title":"Pets","version":"1"}}';
    const created = await admin("POST", `${O}/openapi`, { slug: "pets-text", source: { text } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: "pets-text", visibility: "private" });
    expect(created.body.sourceURL).toBeUndefined();
    expect((await admin("GET", `${O}/openapi/pets-text/versions/latest/content/raw`)).body).toEqual({ text, format: "json" });
    const same = await admin("PUT", `${O}/openapi/pets-text`, { source: { text } });
    expect(same.body.lastVersion).toBe(created.body.lastVersion);
    const yaml = "openapi: 3.1.0\ninfo: {title: Pets, version: '2'}\n";
    const changed = await admin("PUT", `${O}/openapi/pets-text`, { source: { text: yaml } });
    expect(changed.body.lastVersion).not.toBe(created.body.lastVersion);
    expect((await admin("GET", `${O}/openapi/pets-text/versions/latest/content/raw`)).body).toEqual({ text: yaml, format: "yaml" });
    // Exactly one source; an empty text is refused.
    expect((await admin("PUT", `${O}/openapi/pets-text`, { source: { text: "x", url: "https://example.com/a.yaml" } })).status).toBe(400);
    expect((await admin("PUT", `${O}/openapi/pets-text`, { source: { text: "" } })).status).toBe(400);
    // Visibility: PATCH only, required, private or public; readers cannot.
    expect((await admin("PATCH", `${O}/openapi/pets-text`, { visibility: "public" })).body.visibility).toBe("public");
    expect((await admin("PATCH", `${O}/openapi/pets-text`, {})).status).toBe(400);
    expect((await admin("PATCH", `${O}/openapi/pets-text`, { visibility: "published" })).status).toBe(400);
    expect((await reader("PATCH", `${O}/openapi/pets-text`, { visibility: "private" })).status).toBe(403);
    expect((await admin("GET", `${O}/openapi/pets-text`)).body.visibility).toBe("public");
    // A URL spec has no raw content.
    await admin("POST", `${O}/openapi`, { slug: "pets-url", source: { url: "https://example.com/pets.yaml" } });
    expect((await admin("GET", `${O}/openapi/pets-url/versions/latest/content/raw`)).status).toBe(404);
  });

  it("answers 413 to a body over 1 MiB", async () => {
    const r = await admin("POST", `${O}/openapi`, { slug: "huge", source: { text: "x".repeat(1024 * 1024) } });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe(413);
  });
});

describe("style guides", () => {
  it("make a site's own guide once, attach it by the site PATCH, list it with its sites, and detach it", async () => {
    const site = (await admin("POST", S, { title: "Guided" })).body;
    const base = `${S}/${site.id}`;
    const templates = (await admin("GET", `${O}/styleguide-templates`)).body.templates;
    expect(templates.map((t: { id: string }) => t.id)).toContain("technical-writing");
    expect((await admin("POST", `${base}/styleguide`, { template: "no-such-template" })).status).toBe(400);
    const guide = await admin("POST", `${base}/styleguide`, { template: "technical-writing" });
    expect(guide.status).toBe(200);
    expect(guide.body).toMatchObject({ object: "space", type: "styleguide" });
    // Idempotent: the same space again, whatever the body.
    expect((await admin("POST", `${base}/styleguide`)).body.id).toBe(guide.body.id);
    // Not attached by the POST.
    expect((await admin("GET", base)).body.styleguide).toBeUndefined();
    expect((await admin("PATCH", base, { styleguide: "space-guides" })).status).toBe(400);
    const attached = await admin("PATCH", base, { styleguide: guide.body.id });
    expect(attached.body.styleguide).toEqual({ kind: "space", space: guide.body.id });
    const listed = (await admin("GET", `${O}/styleguides`)).body.styleguides;
    const mine = listed.find((g: { space: { id: string } }) => g.space.id === guide.body.id);
    expect(mine.sites.map((s: { id: string }) => s.id)).toEqual([site.id]);
    expect((await admin("PATCH", base, { styleguide: null })).body.styleguide).toBeUndefined();
  });

  it("run a guide over up to three content spaces, each getting a draft change request tagged with the run", async () => {
    const site = (await admin("POST", S, { title: "Runs" })).body;
    const base = `${S}/${site.id}`;
    expect((await admin("POST", `${base}/styleguide/runs`, { spaces: ["space-guides"] })).status).toBe(404);
    const guide = (await admin("POST", `${base}/styleguide`)).body;
    await admin("PATCH", base, { styleguide: guide.id });
    expect((await admin("POST", `${base}/styleguide/runs`, { spaces: [] })).status).toBe(400);
    expect((await admin("POST", `${base}/styleguide/runs`, { spaces: [guide.id] })).status).toBe(400);
    const first = await admin("POST", `${base}/styleguide/runs`, { spaces: ["space-api"] });
    expect(first.status).toBe(201);
    expect(first.body.run).toMatchObject({ object: "styleguide-run", site: site.id, styleguide: guide.id, spaces: ["space-api"] });
    expect(first.body.changeRequests[0]).toMatchObject({ status: "draft" });
    // The check still open is taken over.
    const second = await admin("POST", `${base}/styleguide/runs`, { spaces: ["space-api"] });
    expect(second.body.changeRequests[0].id).toBe(first.body.changeRequests[0].id);
    const runs = (await admin("GET", `${base}/styleguide/runs`)).body.items;
    expect(runs.map((r: { id: string }) => r.id)).toEqual([second.body.run.id, first.body.run.id]);
  });
});

describe("site defaultLevel and agent instructions", () => {
  it("serve a site's defaultLevel (inherit when never set) and take a role, null or inherit", async () => {
    const site = (await admin("POST", S, { title: "Levels" })).body;
    expect(site.defaultLevel).toBe("inherit");
    expect((await admin("PATCH", `${S}/${site.id}`, { defaultLevel: "read" })).body.defaultLevel).toBe("read");
    expect((await admin("PATCH", `${S}/${site.id}`, { defaultLevel: null })).body.defaultLevel).toBeNull();
    expect((await admin("PATCH", `${S}/${site.id}`, { defaultLevel: "owner" })).status).toBe(400);
  });

  it("answer an empty document until a PUT replaces it; admins only", async () => {
    const before = (await admin("GET", `${O}/agent-instructions`)).body;
    expect(before).toMatchObject({ object: "agent-instructions", instructions: { object: "document", nodes: [] } });
    const doc = { object: "document", data: {}, nodes: [{ object: "block", type: "paragraph", nodes: [] }] };
    expect((await reader("PUT", `${O}/agent-instructions`, { instructions: doc })).status).toBe(403);
    expect((await admin("PUT", `${O}/agent-instructions`, { instructions: { nodes: [] } })).status).toBe(400);
    const put = await admin("PUT", `${O}/agent-instructions`, { instructions: doc });
    expect(put.body).toMatchObject({ instructions: doc, updatedBy: "demo-admin" });
    expect((await admin("GET", `${O}/agent-instructions`)).body.instructions).toEqual(doc);
  });
});
