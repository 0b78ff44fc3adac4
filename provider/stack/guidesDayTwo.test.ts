/**
 * Day two of the handbook's hidden site space, OpenAPI spec from a file, style guide, agent instructions
 * and site default level (extensions §12, §13, §15), each edit through the real language host and plugin
 * (test/harness) against the emulator: exactly the calls the edit needs, then a second `up` with no call.
 * Hand edits on the platform are found by refresh and undone by the next `up`.
 *
 * The copy of the handbook keeps what the rows edit and check — the specs, the style guide, the agent
 * instructions, the collection and spaces, the first site (its guide and default level) and the second (its
 * site spaces, one hidden) — and leaves out the sites' structure, look and assistant, the last two sites, the
 * organisation's settings, members, teams, grants, SSO, translations and integrations
 * (test/support/smallerHandbook.ts): fewer objects in each of the file's program runs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument, type YAMLMap } from "yaml";
import type { RunningEmulator } from "../../emulator";
import type { ProgramRunner, PreparedProgram } from "../../test/harness";
import { startProgram, stopProgram } from "../../test/support/program";
import { cutHandbook } from "../../test/support/smallerHandbook";
import { changes, upAndSettle, writes } from "../../test/support/steps";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");
const ORG = "demo-org";

type Doc = ReturnType<typeof parseDocument>;

describe("day two of hidden site spaces, spec files, style guides and agent instructions", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  const docsFile = () => path.join(program.dir, "docs.yaml");
  const specFile = () => path.join(program.dir, "openapi/changelog-api.yaml");

  function editDocs(edit: (doc: Doc) => void): void {
    const doc = parseDocument(fs.readFileSync(docsFile(), "utf8"));
    edit(doc);
    fs.writeFileSync(docsFile(), doc.toString());
  }

  const site = (title: string) => [...emu.store.all("sites")].find((s) => s.org === ORG && s.title === title)!;
  const siteSpaceOf = (siteTitle: string, spaceId: string) => [...emu.store.all("siteSpaces")].find((ss) => ss.site === site(siteTitle).id && ss.space === spaceId)!;
  const spec = (slug: string) => [...emu.store.all("openapiSpecs")].find((s) => s.org === ORG && s.slug === slug)!;
  const guide = () => [...emu.store.all("spaces")].find((s) => s.org === ORG && s.type === "styleguide")!;

  async function hand(method: string, url: string, body: unknown): Promise<void> {
    const res = await fetch(`${emu.url}${url}`, { method, headers: { authorization: "Bearer dev-token", "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(res.status, url).toBe(200);
  }

  beforeAll(async () => {
    ({ emu, program, runner } = await startProgram(HANDBOOK));
    cutHandbook(docsFile(), {
      blocks: ["settings", "members", "teams", "saml", "translations", "integrations", "installations"],
      sitesFrom: 2,
      siteBlocks: {
        0: ["adaptiveContent", "adaptiveSchema", "customization", "defaultSiteSection", "sections", "sectionGroups", "mcpServers", "agent", "agentChannels", "contextConnections"],
        1: ["shareLinks"],
      },
      grants: true,
    });
    const first = await runner.up();
    // Made as declared: the hidden site space (create, then the PATCH that hides it), the spec from its file
    // (then its visibility), the site's guide (then attached), the instructions, the site's default level.
    expect(writes(first)).toEqual(expect.arrayContaining(["POST /openapi 201", "PATCH /openapi/:specSlug 200", "POST /sites/:siteId/styleguide 200", "PUT /agent-instructions 200"]));
    expect(siteSpaceOf("Partner preview", "space-changelog").hidden).toBe(true);
    expect(spec("changelog-api")).toMatchObject({ text: fs.readFileSync(specFile(), "utf8"), sourceURL: null, visibility: "public" });
    expect(site("Handbook")).toMatchObject({ styleguide: guide().id, defaultLevel: "read" });
    expect(guide().styleguideFor).toBe(site("Handbook").id);
    const again = await runner.up();
    expect(changes(again)).toEqual([]);
    expect(again.apiCalls).toEqual([]);
  }, 300_000);
  afterAll(() => stopProgram({ emu, program, runner }));

  it("a site space shown again, then hidden again: one PATCH each", async () => {
    editDocs((doc) => (doc.getIn(["sites", 1, "siteSpaces", 1]) as YAMLMap).delete("hidden"));
    const shown = await upAndSettle(runner);
    expect(changes(shown)).toEqual(["update SiteSpace handbook/partner-preview/preview-changelog"]);
    expect(writes(shown)).toEqual(["PATCH /sites/:siteId/site-spaces/:siteSpaceId 200"]);
    expect(siteSpaceOf("Partner preview", "space-changelog").hidden).toBe(false);
    editDocs((doc) => doc.setIn(["sites", 1, "siteSpaces", 1, "hidden"], true));
    const hidden = await upAndSettle(runner);
    expect(writes(hidden)).toEqual(["PATCH /sites/:siteId/site-spaces/:siteSpaceId 200"]);
    expect(siteSpaceOf("Partner preview", "space-changelog").hidden).toBe(true);
  });

  it("an edited spec file is one PUT; touched but unchanged, no call", async () => {
    const edited = `${fs.readFileSync(specFile(), "utf8")}  /releases/{id}:\n    get:\n      summary: One release\n      responses:\n        "200":\n          description: The release\n`;
    fs.writeFileSync(specFile(), edited);
    const up = await upAndSettle(runner);
    expect(changes(up)).toEqual(["update OpenAPISpec handbook/changelog-api"]);
    expect(writes(up)).toEqual(["PUT /openapi/:specSlug 200"]);
    expect(spec("changelog-api").text).toBe(edited);
    // The same content written again (a new mtime): the digest is the same, nothing is sent.
    fs.writeFileSync(specFile(), edited);
    const same = await runner.up();
    expect(changes(same)).toEqual([]);
    expect(same.apiCalls).toEqual([]);
  });

  it("a spec made private: one PATCH of its visibility", async () => {
    editDocs((doc) => doc.setIn(["openapi", 1, "visibility"], "private"));
    const up = await upAndSettle(runner);
    expect(writes(up)).toEqual(["PATCH /openapi/:specSlug 200"]);
    expect(spec("changelog-api").visibility).toBe("private");
  });

  it("a spec text replaced by hand is drift: refresh reads it, up sends the file again", async () => {
    await hand("PUT", `/v1/orgs/${ORG}/openapi/changelog-api`, { source: { text: "openapi: 3.1.0\ninfo: {title: By hand, version: '0'}\n" } });
    const refresh = await runner.refresh();
    expect(refresh.apiCalls.every((c) => c.method === "GET")).toBe(true);
    // The site and its attached style guide read one answer: each site is read once.
    const siteReads = refresh.apiCalls.filter((c) => c.route === "/v1/orgs/:organizationId/sites/:siteId").map((c) => c.path);
    expect(siteReads.length).toBeGreaterThan(0);
    expect(siteReads).toEqual([...new Set(siteReads)]);
    expect(refresh.apiCalls.map((c) => c.route)).toContain("/v1/orgs/:organizationId/openapi/:specSlug/versions/latest/content/raw");
    const up = await upAndSettle(runner);
    expect(writes(up)).toEqual(["PUT /openapi/:specSlug 200"]);
    expect(spec("changelog-api").text).toBe(fs.readFileSync(specFile(), "utf8"));
  });

  it("a style guide detached, attached again, and detached by hand (refresh, then up attaches it)", async () => {
    editDocs((doc) => (doc.getIn(["sites", 0]) as YAMLMap).delete("styleGuide"));
    const detached = await upAndSettle(runner);
    expect(changes(detached)).toEqual(["delete SiteStyleGuide handbook/handbook/styleguide"]);
    expect(writes(detached)).toEqual(["PATCH /sites/:siteId 200"]);
    expect(site("Handbook").styleguide).toBeNull();
    // The guide stays: its content is people's work.
    expect(guide().deletedAt).toBeNull();
    editDocs((doc) => doc.setIn(["sites", 0, "styleGuide"], "house-style"));
    const attached = await upAndSettle(runner);
    expect(changes(attached)).toEqual(["create SiteStyleGuide handbook/handbook/styleguide"]);
    expect(writes(attached)).toEqual(["PATCH /sites/:siteId 200"]);
    expect(site("Handbook").styleguide).toBe(guide().id);
    await hand("PATCH", `/v1/orgs/${ORG}/sites/${site("Handbook").id}`, { styleguide: null });
    await runner.refresh();
    const up = await upAndSettle(runner);
    expect(changes(up)).toEqual(["update SiteStyleGuide handbook/handbook/styleguide"]);
    expect(site("Handbook").styleguide).toBe(guide().id);
  });

  it("a removed style guide entry leaves the guide in place (delete[retain], no call)", async () => {
    editDocs((doc) => {
      (doc.getIn(["sites", 0]) as YAMLMap).delete("styleGuide");
      doc.delete("styleGuides");
    });
    const up = await upAndSettle(runner);
    expect(changes(up)).toEqual(["delete SiteStyleGuide handbook/handbook/styleguide", "delete[retain] StyleGuide handbook/house-style"]);
    expect(writes(up)).toEqual(["PATCH /sites/:siteId 200"]);
    expect(guide().deletedAt).toBeNull();
  });

  it("edited agent instructions are one PUT; a hand edit is drift that the next up undoes", async () => {
    editDocs((doc) => doc.setIn(["agentInstructions", "markdown"], "# Tone\n\nAnswer briefly.\n"));
    const up = await upAndSettle(runner);
    expect(writes(up)).toEqual(["PUT /agent-instructions 200"]);
    const nodes = (emu.store.get("orgs", ORG)!.agentInstructions!.document.nodes as { type: string }[]).map((n) => n.type);
    expect(nodes).toEqual(["heading-1", "paragraph"]);
    await hand("PUT", `/v1/orgs/${ORG}/agent-instructions`, { instructions: { object: "document", data: {}, nodes: [] } });
    await runner.refresh();
    const again = await upAndSettle(runner);
    expect(changes(again)).toEqual(["update AgentInstructions handbook/agent-instructions"]);
    expect(writes(again)).toEqual(["PUT /agent-instructions 200"]);
  });

  it("a site's default level changed: one PATCH of the site; removed: not managed, no call", async () => {
    editDocs((doc) => doc.setIn(["sites", 0, "defaultLevel"], null));
    const guests = await upAndSettle(runner);
    expect(writes(guests)).toEqual(["PATCH /sites/:siteId 200"]);
    expect(site("Handbook").defaultLevel).toBeNull();
    editDocs((doc) => (doc.getIn(["sites", 0]) as YAMLMap).delete("defaultLevel"));
    const removed = await runner.up();
    expect(removed.apiCalls).toEqual([]);
    expect(site("Handbook").defaultLevel).toBeNull();
  });
});
