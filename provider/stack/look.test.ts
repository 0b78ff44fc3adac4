/**
 * The site's look and navigation through the engine (real language host and plugin, test/harness)
 * against the emulator: the handbook's preview, up and a second up of 0 calls; then one day-two edit
 * per new element, each reaching the platform with the fewest writes and followed by an up of 0 calls;
 * an export of the organisation re-adopted with 0 writes, then 0 calls; destroy.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument, type YAMLMap, type YAMLSeq } from "yaml";
import type { RunningEmulator, SnapshotSite } from "../../emulator";
import { prepareProgram, runnerAgainst, type ProgramRunner, type PreparedProgram, type RunResult } from "../../test/harness";
import { startProgram, stopProgram } from "../../test/support/program";
import { changes, upAndSettle, writes } from "../../test/support/steps";
import { HANDBOOK_SECRET_ENV } from "../../test/harness/handbookSecrets";
import { exportMain } from "../export/cli";
import { diffMain } from "../view/cli";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");

describe("the handbook's look and navigation, day two", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  const docsFile = () => path.join(program.dir, "docs.yaml");

  function editDocs(edit: (doc: ReturnType<typeof parseDocument>) => void): string {
    const before = fs.readFileSync(docsFile(), "utf8");
    const doc = parseDocument(before);
    edit(doc);
    fs.writeFileSync(docsFile(), doc.toString());
    return before;
  }

  function handbook(): SnapshotSite {
    return emu.store.org("demo-org").sites.find((s) => s.title === "Handbook")!;
  }


  beforeAll(async () => {
    ({ emu, program, runner } = await startProgram(HANDBOOK));
  }, 300_000);
  afterAll(() => stopProgram({ emu, program, runner }));

  it("preview, up and a second up of 0 calls", async () => {
    const preview = await runner.preview();
    expect(preview.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
    expect(changes(preview)).toEqual(
      expect.arrayContaining([
        "create SiteCustomization handbook/handbook",
        "create SiteSpaceCustomization handbook/handbook/api-v1",
        "create SiteExternalLink handbook/handbook/status",
        "create SiteExternalLink handbook/handbook/community",
        "create Space handbook/whats-new",
      ]),
    );
    const up = await upAndSettle(runner);
    // The look: one read of the site's live look (recorded), one PUT; the override one PATCH.
    expect(writes(up).filter((w) => w.includes("customization"))).toEqual(["PUT /sites/:siteId/customization 200", "PATCH /sites/:siteId/site-spaces/:siteSpaceId/customization 200"]);
    // The handbook's two, and the developer portal's (from its site file).
    expect(writes(up).filter((w) => w.startsWith("POST /sites/:siteId/external-links"))).toHaveLength(3);
    expect(writes(up)).toContain("POST /spaces 201");
    expect(handbook().navigation).toEqual({ root: ["Guides", "Reference", "What's new", "Status"], Reference: ["API Reference", "Changelog", "Community"] });
  });

  it("a colour changed: one PUT", async () => {
    editDocs((doc) => doc.setIn(["sites", 0, "customization", "styling", "primaryColor", "light"], "#0044CC"));
    const up = await upAndSettle(runner);
    expect(changes(up)).toEqual(["update SiteCustomization handbook/handbook"]);
    expect(writes(up)).toEqual(["PUT /sites/:siteId/customization 200"]);
    expect(handbook().customization).toMatchObject({ styling: { primaryColor: { light: "#0044CC" }, theme: "bold" } });
  });

  it("a header link removed: one PUT", async () => {
    editDocs((doc) => (doc.getIn(["sites", 0, "customization", "header", "links"]) as YAMLSeq).delete(1));
    const up = await upAndSettle(runner);
    expect(writes(up)).toEqual(["PUT /sites/:siteId/customization 200"]);
    expect((handbook().customization as { header: { links: { title: string }[] } }).header.links.map((l) => l.title)).toEqual(["Status"]);
  });

  it("the override block removed: one DELETE", async () => {
    editDocs((doc) => (doc.getIn(["sites", 0, "sections", 1, "siteSpaces", 0]) as YAMLMap).delete("customization"));
    const up = await upAndSettle(runner);
    expect(changes(up)).toEqual(["delete SiteSpaceCustomization handbook/handbook/api-v1"]);
    expect(writes(up)).toEqual(["DELETE /sites/:siteId/site-spaces/:siteSpaceId/customization 205"]);
    expect(handbook().overrides).toEqual({});
  });

  it("the external link moved into a group and placed between its sections", async () => {
    editDocs((doc) => {
      doc.setIn(["sites", 0, "sectionGroups", 0, "sections"], doc.createNode(["api", "status", "changelog", "community"]));
      // Within a group, its members keep the order of the site's `sections`: the link goes right after `api` there.
      const sections = doc.getIn(["sites", 0, "sections"]) as YAMLSeq;
      const status = sections.items.splice(4, 1)[0]!;
      sections.items.splice(2, 0, status);
    });
    const up = await upAndSettle(runner);
    expect(changes(up)).toEqual(["update SiteExternalLink handbook/handbook/status", "update SiteStructureOrder handbook/handbook"]);
    expect(writes(up)).toEqual(["PATCH /sites/:siteId/external-links/:siteExternalLinkId 200", "PATCH /sites/:siteId/structure/sort 200"]);
    expect(handbook().navigation).toEqual({ root: ["Guides", "Reference", "What's new"], Reference: ["API Reference", "Status", "Changelog", "Community"] });
  });

  it("a section's draft set to false: one PATCH", async () => {
    editDocs((doc) => doc.setIn(["sites", 0, "sections", 4, "draft"], false));
    const up = await upAndSettle(runner);
    expect(changes(up)).toEqual(["update SiteSection handbook/handbook/whats-new"]);
    expect(writes(up)).toEqual(["PATCH /sites/:siteId/sections/:siteSectionId 200"]);
    expect(handbook().sections.find((s) => s.title === "What's new")!.draft).toBe(false);
  });

  it("the created space removed from the file: left in place with its content, and the preview and the diff warn", async () => {
    const spaceId = emu.store.org("demo-org").spaces.find((s) => s.title === "What's new")!.id;
    const before = editDocs((doc) => {
      // Its section goes too (it would publish a space the file no longer names).
      (doc.getIn(["sites", 0, "sections"]) as YAMLSeq).delete(4);
      (doc.getIn(["spaces"]) as YAMLSeq).delete(3);
    });
    const basePath = path.join(program.dir, "docs.before.yaml");
    fs.writeFileSync(basePath, before);
    let out = "";
    const code = await diffMain([basePath, docsFile()], { stdout: { write: (t: string) => void (out += t) }, stderr: { write: () => undefined } } as never);
    expect(code).toBe(0);
    expect(out).toContain(`space "whats-new": warning: left in place with its content and no longer managed`);
    // The engine's preview says it too: the space's delete is retained (the CLI's `delete[retain]`), never sent to the provider.
    const preview = await runner.preview();
    expect(changes(preview)).toEqual(["delete SiteSection handbook/handbook/whats-new", "delete SiteSpace handbook/handbook/whats-new", "delete[retain] Space handbook/whats-new", "update SiteStructureOrder handbook/handbook"]);
    const up = await upAndSettle(runner, () =>
      expect(emu.store.org("demo-org").spaces.find((s) => s.id === spaceId)).toMatchObject({ deletedAt: null, title: "What's new" }),
    );
    expect(changes(up)).toContain("delete[retain] Space handbook/whats-new");
    expect(writes(up).filter((w) => w.startsWith("DELETE") && w.includes("/spaces"))).toEqual([]);
    expect(writes(up).filter((w) => w.includes("/spaces/"))).toEqual([]);
    expect(writes(up)).toContain("DELETE /sites/:siteId/sections/:siteSectionId 205");
    // Out of management: the state no longer holds it.
    expect(runner.resources().filter((r) => r.type.endsWith(":Space") && r.urn.endsWith("::handbook/whats-new"))).toEqual([]);
    expect(emu.store.org("demo-org").spaces.find((s) => s.id === spaceId)).toMatchObject({ deletedAt: null, title: "What's new" });
  });

  it("export of the organisation, re-adopted: 0 writes, then 0 calls", async () => {
    const exported = path.join(program.dir, "exported.yaml");
    let err = "";
    const code = await exportMain(["--org", "demo-org", "--out", exported], {
      env: { DOCSPLATFORM_API_URL: emu.url, DOCSPLATFORM_API_TOKEN: emu.token },
      stderr: { write: (t: string) => (err += t) },
    });
    expect(code, err).toBe(0);
    const text = fs.readFileSync(exported, "utf8");
    expect(text).toContain("customization:");
    expect(text).toContain("url: https://status.demo.test");
    // A second program, with a state of its own, takes everything over from the exported file.
    const copy = await prepareProgram(HANDBOOK, { installPackage: true });
    // Export writes an installation's configuration as secret sources: the handbook's value, from the environment.
    const second = runnerAgainst(copy.dir, { url: emu.url, token: emu.token, control: emu.control }, {
      env: {
        INSTALLATION_DEMO_STATUS_BADGES_THEME: "dark",
        // And the assistant's secrets as {env} sources: the values the handbook used.
        MCP_HANDBOOK_STATUS_TOOLS_AUTHORIZATION: HANDBOOK_SECRET_ENV["HANDBOOK_MCP_TOKEN"]!,
        CONNECTION_HANDBOOK_PRODUCT_ISSUES_TOKEN: HANDBOOK_SECRET_ENV["HANDBOOK_GITHUB_TOKEN"]!,
      },
    });
    try {
      fs.copyFileSync(exported, path.join(copy.dir, "docs.yaml"));
      // Export cannot read an integration's script back: supply the one the handbook published.
      const supplied = path.join(copy.dir, "supply", "demo-status-badges");
      fs.mkdirSync(supplied, { recursive: true });
      fs.copyFileSync(path.join(HANDBOOK, "integrations", "status-badges.js"), path.join(supplied, "script"));
      // Nor the file a spec's text came from: supply the handbook's.
      fs.mkdirSync(path.join(copy.dir, "supply", "changelog-api"), { recursive: true });
      fs.copyFileSync(path.join(HANDBOOK, "openapi", "changelog-api.yaml"), path.join(copy.dir, "supply", "changelog-api", "file"));
      const adopt = await second.up();
      expect(adopt.error).toBeUndefined();
      expect(adopt.steps.filter((s) => s.custom && s.op !== "create")).toEqual([]);
      // An integration is published again: the API cannot serve its script back, so adopting it publishes (see the README).
      // The one other request that writes: the Git Sync installation is found through the platform's refusal of a second one.
      const KNOWN = ["POST /v1/git/installations 409"];
      const adoptWrites = writes(adopt).filter((w) => !w.startsWith("POST /v1/integrations/"));
      expect(adoptWrites.filter((w) => !KNOWN.includes(w))).toEqual([]);
      expect([...adoptWrites].sort()).toEqual([...KNOWN].sort());
      const again = await second.up();
      expect(changes(again)).toEqual([]);
      expect(again.apiCalls).toEqual([]);
    } finally {
      await second.close();
      copy.cleanup();
    }
  });

  it("destroy", async () => {
    const down = await runner.destroy();
    expect(down.steps.filter((s) => s.custom).every((s) => s.op === "delete")).toBe(true);
    expect(handbook()).toBeUndefined();
  });
});
