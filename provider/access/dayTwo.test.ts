/**
 * Access through the engine harness (the real language host and plugin, test/harness) with the
 * handbook: preview, up, a second up with no call, the day-two edits of permissions, visitor
 * authentication and installations (each the one write it needs, then a second up with no call), the
 * lock-out guard's planted plans (each refused with a located error and no request), and destroy.
 *
 * The copy of the handbook keeps what the rows edit and check — the organisation's settings, members and teams,
 * the collection and spaces with their grants, the integration and its installation, and the first three
 * sites (the partner portal with its site space, grants and visitor authentication; the other two bare) — and
 * leaves out the sites' structure, look and assistant, the fourth site, SSO, specs, guides, agent instructions
 * and translations (test/support/smallerHandbook.ts): fewer objects in each of the file's program runs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument, type YAMLMap, type YAMLSeq } from "yaml";
import type { RunningEmulator } from "../../emulator";
import { type ProgramRunner, type PreparedProgram, type RunResult } from "../../test/harness";
import { startProgram, stopProgram } from "../../test/support/program";
import { cutHandbook } from "../../test/support/smallerHandbook";
import { changes, upAndSettle, writes } from "../../test/support/steps";
import { exposedInState } from "../../test/support/secrets";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");
type Doc = ReturnType<typeof parseDocument>;

describe("access through the engine", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  const docsFile = () => path.join(program.dir, "docs.yaml");
  const editDocs = (edit: (doc: Doc) => void): void => {
    const doc = parseDocument(fs.readFileSync(docsFile(), "utf8"));
    edit(doc);
    fs.writeFileSync(docsFile(), doc.toString());
  };
  const api = async <T = any>(method: string, p: string, body?: unknown): Promise<T> => {
    const r = await fetch(`${emu.url}${p}`, { method, headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return (r.status === 204 || r.status === 205 ? undefined : await r.json()) as T;
  };
  const siteId = (title: string) => emu.store.snapshot().organizations[0]!.sites.find((s) => s.title === title)!.id;
  const grants = async (p: string) => {
    const [teams, users] = await Promise.all([api<{ items: any[] }>("GET", `${p}/teams`), api<{ items: any[] }>("GET", `${p}/users`)]);
    return [...teams.items.map((t) => `team ${t.team.title} ${t.permission}`), ...users.items.map((u) => `user ${u.user.id} ${u.permission}`)].sort();
  };


  beforeAll(async () => {
    ({ emu, program, runner } = await startProgram(HANDBOOK));
    cutHandbook(docsFile(), {
      blocks: ["agentInstructions", "saml", "openapi", "styleGuides", "translations"],
      sitesFrom: 3,
      siteBlocks: {
        0: ["styleGuide", "adaptiveContent", "adaptiveSchema", "customization", "defaultSiteSection", "sections", "sectionGroups", "mcpServers", "agent", "agentChannels", "contextConnections"],
        1: ["siteSpaces", "defaultSiteSpace", "shareLinks"],
      },
    });
  }, 300_000);
  afterAll(() => stopProgram({ emu, program, runner }));

  it("preview, up and a second up with no call: grants, visitor authentication and the installation are live", async () => {
    const preview = await runner.preview();
    expect(preview.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
    expect(changes(preview)).toEqual(expect.arrayContaining([
      "create IntegrationInstallation handbook/status-badges",
      "create Permissions handbook/collection/product-docs",
      "create Permissions handbook/site/partner-portal",
      "create Permissions handbook/space/guides",
      "create VisitorAuth handbook/partner-portal",
    ]));
    const up = await upAndSettle(runner);
    expect(up.error).toBeUndefined();
    const partners = siteId("Partner portal");
    expect(await grants("/v1/spaces/space-guides/permissions")).toEqual(["team Docs Team edit"]);
    const collection = emu.store.snapshot().organizations[0]!.collections.find((c) => c.title === "Product docs")!.id;
    expect(await grants(`/v1/collections/${collection}/permissions`)).toEqual(["team Reviewers review"]);
    // reader-1 is a guest of the organisation: the partner portal is granted to them directly.
    expect(await grants(`/v1/orgs/demo-org/sites/${partners}/permissions`)).toEqual(["user reader-1 read"]);
    expect(writes(up).filter((w) => w.includes("/permissions")).length).toBe(3);
    const auth = await api("GET", `/v1/orgs/demo-org/sites/${partners}/publishing/auth`);
    expect(auth).toMatchObject({ backend: "custom", fallbackURL: "https://partners.demo.test/login", logoutURL: "https://partners.demo.test/logout" });
    const installed = await api<{ items: any[] }>("GET", "/v1/orgs/demo-org/installations");
    expect(installed.items.map((i) => [i.integration.name, i.installation.configuration])).toEqual([["demo-status-badges", { theme: "dark" }]]);
    const sites = await api<{ items: any[] }>("GET", `/v1/integrations/demo-status-badges/installations/${installed.items[0].installation.id}/sites`);
    expect(sites.items.map((s) => s.site)).toEqual([siteId("Handbook")]);
    // The private key is in the state only as a secret.
    const state = fs.readFileSync(runner.stateFile, "utf8");
    expect(state).toContain(auth.privateKey);
    expect(exposedInState(JSON.parse(state), [auth.privateKey])).toEqual([]);
  });

  it("a changed role is 1 PATCH", async () => {
    editDocs((doc) => doc.setIn(["spaces", 0, "permissions", 0, "role"], "review"));
    const up = await upAndSettle(runner);
    expect(changes(up)).toEqual(["update Permissions handbook/space/guides"]);
    expect(writes(up)).toEqual(["PATCH /v1/spaces/:spaceId/permissions/teams/:teamId 204"]);
  });

  it("a removed grant is 1 DELETE", async () => {
    editDocs((doc) => (doc.getIn(["collections", 0, "permissions"]) as YAMLSeq).delete(0));
    const up = await upAndSettle(runner);
    expect(writes(up)).toEqual(["DELETE /v1/collections/:collectionId/permissions/teams/:teamId 205"]);
  });

  it("two new users with one role are 1 invite", async () => {
    editDocs((doc) => doc.setIn(["collections", 0, "permissions"], doc.createNode([{ user: "writer@demo.test", role: "review" }, { user: "reader@demo.test", role: "review" }])));
    const up = await upAndSettle(runner);
    expect(writes(up)).toEqual(["POST /v1/collections/:collectionId/permissions 204"]);
    const collection = emu.store.snapshot().organizations[0]!.collections.find((c) => c.title === "Product docs")!.id;
    expect(await grants(`/v1/collections/${collection}/permissions`)).toEqual(["user reader-1 review", "user writer-1 review"]);
  });

  it("a rotated key is 1 regenerate, and the new key is in the state only as a secret", async () => {
    const partners = siteId("Partner portal");
    const before = (await api("GET", `/v1/orgs/demo-org/sites/${partners}/publishing/auth`)).privateKey as string;
    editDocs((doc) => doc.setIn(["sites", 2, "visitorAuth", "rotation"], 2));
    const up = await upAndSettle(runner);
    expect(writes(up)).toEqual(["POST /sites/:siteId/publishing/auth/regenerate 200"]);
    const after = (await api("GET", `/v1/orgs/demo-org/sites/${partners}/publishing/auth`)).privateKey as string;
    expect(after).not.toBe(before);
    const state = fs.readFileSync(runner.stateFile, "utf8");
    expect(state).toContain(after);
    expect(state).not.toContain(before);
    expect(exposedInState(JSON.parse(state), [after])).toEqual([]);
  });

  it("an integration removed from a site is 1 call", async () => {
    editDocs((doc) => doc.setIn(["installations", 0, "sites"], doc.createNode([])));
    const up = await upAndSettle(runner);
    expect(writes(up)).toEqual(["DELETE /v1/integrations/:integrationName/installations/:installationId/sites/:siteId 205"]);
  });

  describe("the lock-out guard refuses, with a located error and no write", () => {
    /** Runs `up` on the edited file and expects it refused before any write, the message naming the object, the grant and the line. */
    async function refused(edit: (doc: Doc) => void, message: RegExp): Promise<void> {
      const saved = fs.readFileSync(docsFile(), "utf8");
      editDocs(edit);
      try {
        const up = await runner.up({ allowError: true });
        expect(up.error, "the up is refused").toBeDefined();
        const text = [up.error?.message ?? "", ...up.logs.map((l) => l.message), ...up.steps.map((s) => s.error ?? "")].join("\n");
        expect(text).toMatch(message);
        // A user's grant is confirmed live (two reads) before it is refused; a team's is refused from the file alone.
        expect(up.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
      } finally {
        fs.writeFileSync(docsFile(), saved);
      }
    }

    it("the last admin removed from a space", async () => {
      editDocs((doc) => doc.setIn(["spaces", 1, "permissions"], doc.createNode([{ user: "writer@demo.test", role: "admin" }, { user: "reader@demo.test", role: "review" }])));
      await upAndSettle(runner);
      await refused(
        (doc) => (doc.getIn(["spaces", 1, "permissions"]) as YAMLSeq).delete(0),
        /docs\.yaml:\d+:\d+: space api: removing user writer@demo\.test \(admin\) leaves it with no admin/,
      );
    });

    it("the caller's own grant removed (through their team)", async () => {
      await refused(
        (doc) => (doc.getIn(["spaces", 0, "permissions"]) as YAMLSeq).delete(0),
        // The team by the file's key, not its platform ID (#33).
        /docs\.yaml:\d+:\d+: space guides: removing team docs-team \(\w+\) removes the caller's own access/,
      );
    });

    it("a collection left without admin", async () => {
      editDocs((doc) => doc.setIn(["collections", 0, "permissions"], doc.createNode([{ team: "reviewers", role: "admin" }])));
      await upAndSettle(runner);
      await refused(
        (doc) => doc.setIn(["collections", 0, "permissions", 0, "role"], "review"),
        /docs\.yaml:\d+:\d+: collection product-docs: changing team reviewers from admin to review leaves it with no admin/,
      );
      // Said explicitly, it goes through.
      editDocs((doc) => {
        doc.setIn(["collections", 0, "permissions", 0, "role"], "review");
        doc.setIn(["collections", 0, "allowLockout"], true);
      });
      const up = await upAndSettle(runner);
      expect(writes(up)).toEqual(["PATCH /v1/collections/:collectionId/permissions/teams/:teamId 204"]);
    });
  });

  // Regression (#33): the caller added a grant for themselves that their organisation role already gave
  // (nothing sent); removing the line again was refused as removing their own access.
  it("the caller's own grant that was never sent is removed again without a refusal, and with no write", async () => {
    editDocs((doc) => (doc.getIn(["spaces", 1]) as YAMLMap).set("permissions", doc.createNode([{ user: "admin@demo.test", role: "admin" }, { user: "reader@demo.test", role: "review" }])));
    const added = await upAndSettle(runner);
    expect(added.error).toBeUndefined();
    expect(await grants("/v1/spaces/space-api/permissions")).not.toContain("user demo-admin admin");
    editDocs((doc) => (doc.getIn(["spaces", 1, "permissions"]) as YAMLSeq).delete(0));
    const removed = await upAndSettle(runner);
    expect(removed.error).toBeUndefined();
    expect(writes(removed)).toEqual([]);
  });

  // Regression (#33): the guard's settings showed as changed properties beside a real change.
  it("a preview's diff lists the changed grants only, never the guard's settings (its location moved, allowLockout set)", async () => {
    // A blank first line moves every block's location; allowLockout is set on the object whose grant changes.
    fs.writeFileSync(docsFile(), `\n${fs.readFileSync(docsFile(), "utf8")}`);
    editDocs((doc) => {
      doc.setIn(["spaces", 0, "permissions", 0, "role"], "comment");
      doc.setIn(["spaces", 0, "allowLockout"], true);
    });
    const preview = await runner.preview();
    const step = preview.steps.find((s) => s.urn.endsWith("::handbook/space/guides"));
    expect(step).toMatchObject({ op: "update", diffs: ["grants"] });
    const up = await upAndSettle(runner);
    expect(writes(up)).toEqual(["PATCH /v1/spaces/:spaceId/permissions/teams/:teamId 204"]);
  });

  it("destroy removes what the stack made", async () => {
    const down = await runner.destroy();
    expect(down.error).toBeUndefined();
    expect((await api<{ items: unknown[] }>("GET", "/v1/orgs/demo-org/installations")).items).toEqual([]);
    expect(runner.resources().filter((r) => r.custom)).toEqual([]);
  });
});

