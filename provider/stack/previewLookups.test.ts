/**
 * `pulumi preview` of the handbook through the engine harness: the members, spaces and teams a new or
 * changed object names are looked up read-only while the provider checks its inputs, so a mistyped
 * e-mail or a wrong space ID fails the preview (before any write) at its `file:line:col`, instead of the
 * `up` after the merge; a preview with nothing changed makes no call. The lookups are the preview's
 * (the component asks for them with a reserved input only then): an `up` makes none, and its state never
 * holds that input.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import type { PreparedProgram, ProgramRunner } from "../../test/harness";
import { startProgram, stopProgram } from "../../test/support/program";
import { changes, writes } from "../../test/support/steps";
import { REFERENCES_INPUT } from "../resources/references";

/** `docs.yaml:line:col` of the first `needle` in `text`, counted from the text itself. */
function located(text: string, needle: string): string {
  const offset = text.indexOf(needle);
  if (offset < 0) throw new Error(`${needle} is not in the file`);
  const before = text.slice(0, offset);
  return `docs.yaml:${before.split("\n").length}:${offset - before.lastIndexOf("\n")}`;
}

/** The routes the lookups read: the organisation's members (one walk), a space, a team. */
const LOOKUP_ROUTES = ["/v1/orgs/:organizationId/members", "/v1/spaces/:spaceId", "/v1/orgs/:organizationId/teams/:teamId"];
const lookups = (calls: { method: string; route: string }[]) => calls.filter((c) => c.method === "GET" && LOOKUP_ROUTES.includes(c.route));

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");

describe("preview looks up what new or changed objects refer to", { timeout: 180_000 }, () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  let original: string;
  const docs = () => path.join(program.dir, "docs.yaml");

  beforeAll(async () => {
    // Every command a fresh plugin, as each `pulumi` command starts one.
    ({ emu, program, runner } = await startProgram(HANDBOOK, { runner: { pluginPerRun: true } }));
    await runner.up();
    original = fs.readFileSync(docs(), "utf8");
  });
  afterAll(() => stopProgram({ emu, program, runner }));

  it("a preview with nothing changed makes no call, and the reserved input shows as no change", async () => {
    const preview = await runner.preview();
    expect(preview.apiCalls).toEqual([]);
    expect(changes(preview)).toEqual([]);
  });

  it("a team member's mistyped e-mail fails the preview, naming it, with read-only calls", async () => {
    const text = original.replace("      - user: reader@demo.test\n", "      - user: wrtier@demo.test\n");
    fs.writeFileSync(docs(), text);
    try {
      const preview = await runner.preview({ allowError: true });
      expect(preview.error?.message).toContain(`${located(text, "wrtier@demo.test")}: members[0].user: "wrtier@demo.test" is not a member of organization demo-org`);
      expect(lookups(preview.apiCalls).length).toBeGreaterThan(0);
      expect(preview.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
    } finally {
      fs.writeFileSync(docs(), original);
    }
  });

  it("a new site space on a space that does not exist fails the preview, naming the space", async () => {
    const text = original.replace("          - key: api-changes\n", "          - key: api-old\n            space: {id: space-nope}\n            path: old\n          - key: api-changes\n");
    fs.writeFileSync(docs(), text);
    try {
      const preview = await runner.preview({ allowError: true });
      expect(preview.error?.message).toContain(`${located(text, "space-nope")}: spaceId: no space "space-nope" exists`);
      expect(lookups(preview.apiCalls).length).toBeGreaterThan(0);
      expect(preview.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
    } finally {
      fs.writeFileSync(docs(), original);
    }
  });

  it("an `up` that adds references looks nothing up (its preview does), and no state holds the reserved input", async () => {
    // A new member of a team and a new site space on an existing space, as a merged pull request brings them.
    const text = original
      .replace("      - user: reader@demo.test\n", "      - user: reader@demo.test\n      - user: writer@demo.test\n")
      .replace("          - key: api-changes\n", "          - key: api-guides\n            space: {id: space-guides}\n            path: guides\n          - key: api-changes\n");
    fs.writeFileSync(docs(), text);
    try {
      // `pulumi up` previews first: the preview looks the two references up, read-only.
      const preview = await runner.preview();
      expect(lookups(preview.apiCalls).map((c) => c.route).sort()).toEqual(["/v1/orgs/:organizationId/members", "/v1/spaces/:spaceId"]);
      expect(writes(preview)).toEqual([]);

      const up = await runner.up();
      expect(changes(up)).toEqual([
        "create SiteSpace handbook/handbook/api-guides",
        "update SiteStructureOrder handbook/handbook",
        "update TeamMembers handbook/reviewers/members",
      ]);
      // Only the writes the change needs (the membership set, the site space, its move to its declared place); no lookup.
      expect(writes(up).sort()).toEqual([
        "POST /sites/:siteId/site-spaces 201",
        "POST /sites/:siteId/site-spaces/:siteSpaceId/move 200",
        "PUT /teams/:teamId/members 204",
      ]);
      expect(lookups(up.apiCalls)).toEqual([]);
      expect(JSON.stringify(runner.state())).not.toContain(REFERENCES_INPUT);
      expect(fs.readFileSync(runner.stateFile, "utf8")).not.toContain(REFERENCES_INPUT);
    } finally {
      fs.writeFileSync(docs(), original);
      await runner.up();
    }
  });
});
