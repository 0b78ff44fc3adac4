/**
 * The DocsPlatform component run through the engine harness on small stack files: an invalid file stops
 * the program before any resource is registered (so no API call is made) and names every problem; a key
 * renamed without `previousKeys` is a new resource (create, then delete of the old one); with the old key
 * kept in `previousKeys` it is the same resource. A space the file creates is declared with `retainOnDelete`
 * unless its `deletionPolicy` is `delete` (the preview says `delete[retain]`, the provider is not called);
 * a change of the policy reaches the state with no call, and a state written before the option behaves as it did.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { opLabel, saveState, type ProgramRunner, type PreparedProgram, type RunResult } from "../../test/harness";
import { startProgram, stopProgram } from "../../test/support/program";
import { changes, writes } from "../../test/support/steps";
import { formatProblem, parseStack } from "../stack/load";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");

const SMALL = (linkKey: string, previous = "") => `
organization: demo-org
sites:
  - key: preview
    title: Preview
    visibility: share-link
    siteSpaces:
      - key: guides
        space: {id: space-guides}
    shareLinks:
      - key: ${linkKey}${previous ? `\n        previousKeys: [${previous}]` : ""}
        name: Acme Corp
`;

describe("DocsPlatform", () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  const writeDocs = (text: string) => fs.writeFileSync(path.join(program.dir, "docs.yaml"), text);

  beforeAll(async () => {
    ({ emu, program, runner } = await startProgram(HANDBOOK));
  });
  afterAll(() => stopProgram({ emu, program, runner }));

  it("refuses an invalid stack file before registering anything, naming every problem", async () => {
    const broken = [
      "organization: demo-org",
      "teams:",
      "  - key: Docs Team", // not a key
      "    title: Docs",
      "sites:",
      "  - key: handbook",
      "    title: H", // too short
      "    defaultSiteSection: nowhere", // no such section
      "",
    ].join("\n");
    writeDocs(broken);
    const expected = parseStack(broken, "docs.yaml");
    if (expected.ok) throw new Error("the broken file loaded");
    expect(expected.problems.length).toBeGreaterThanOrEqual(3);

    const result = await runner.up({ allowError: true });
    expect(result.error?.message).toContain(`docs.yaml is not a valid stack file (${expected.problems.length} problems):`);
    for (const p of expected.problems) expect(result.error?.message).toContain(formatProblem(p));
    // Nothing registered but the stack itself; no request reached the API.
    expect(result.steps.filter((s) => s.type !== "pulumi:pulumi:Stack")).toEqual([]);
    expect(result.apiCalls).toEqual([]);
  });

  // Regression (#33): a preview of a file with a tab in its indentation printed 209 lines: the SDK's
  // stack trace of the thrown error, a dump of its every problem object, and the parser's ten errors.
  it("a tab-indented file: the preview says where the tab is in at most 5 lines, with no stack trace", async () => {
    const lines = fs.readFileSync(path.join(HANDBOOK, "docs.yaml"), "utf8").split("\n");
    const deep = lines.findIndex((l, i) => i > 60 && l.startsWith("      - "));
    lines[deep] = `\t${lines[deep].slice(2)}`;
    writeDocs(lines.join("\n"));

    const preview = await runner.preview({ allowError: true });
    const errors = preview.logs.filter((l) => l.severity === "error").map((l) => l.message);
    expect(errors).toHaveLength(1);
    const said = errors[0].split("\n");
    expect(said.length, errors[0]).toBeLessThanOrEqual(5);
    expect(said).toContain(`docs.yaml:${deep + 1}:1: YAML syntax error: a tab in the indentation; YAML indents with spaces only`);
    expect(errors[0]).not.toMatch(/^\s+at |problems: \[|StackFileError/m);
    expect(preview.error?.message.split("\n").length).toBeLessThanOrEqual(5);
    expect(preview.output).toBe("");
    expect(preview.apiCalls).toEqual([]);
  });

  it("a key renamed without previousKeys is a new resource; with previousKeys it is the same one", async () => {
    writeDocs(SMALL("acme"));
    const up = await runner.up();
    expect(changes(up)).toEqual([
      "create ShareLink handbook/preview/acme",
      "create Site handbook/preview",
      "create SiteSpace handbook/preview/guides",
      "create SiteStructureOrder handbook/preview",
    ]);

    // Renamed with the old key kept: an alias, so nothing changes.
    writeDocs(SMALL("acme-corp", "acme"));
    const aliased = await runner.up();
    expect(changes(aliased)).toEqual([]);
    expect(aliased.apiCalls).toEqual([]);

    // Renamed again, this time without previousKeys: a new share link, then the old one is deleted.
    writeDocs(SMALL("acme-inc"));
    const renamed = await runner.up();
    expect(changes(renamed)).toEqual(["create ShareLink handbook/preview/acme-inc", "delete ShareLink handbook/preview/acme-corp"]);
    expect(renamed.apiCalls.filter((c) => c.method !== "GET").map((c) => c.method)).toEqual(["POST", "DELETE"]);

    await runner.destroy();
  });

  /** A space the file creates (`notes`, with `deletionPolicy` when given) and one it takes over by `id`. */
  const SPACES = (notes: { policy?: string } | undefined) => `
organization: demo-org
spaces:${notes === undefined ? "" : `\n  - key: notes\n    title: Release notes${notes.policy ? `\n    deletionPolicy: ${notes.policy}` : ""}`}
  - key: guides
    id: space-guides
    emoji: "🧪"
`;
  const NOTES = "Space handbook/notes";
  const stored = (key: string) => runner.resources().find((r) => r.urn.endsWith(`::handbook/${key}`) && r.type.endsWith(":Space"));
  /** The spaces titled as `notes` that are not deleted. */
  const liveNotes = () => emu.store.org("demo-org").spaces.filter((sp) => sp.title === "Release notes" && sp.deletedAt === null);
  const space = (id: string | undefined) => emu.store.org("demo-org").spaces.find((sp) => sp.id === id);
  const spaceWrites = (r: RunResult) => writes(r).filter((w) => w.includes("/spaces"));

  it("a created space is retained on delete unless its deletionPolicy is delete; the policy reaches the state with 0 calls", async () => {
    writeDocs(SPACES({}));
    await runner.up();
    expect(stored("notes")?.retainOnDelete).toBe(true);
    expect(stored("guides")?.retainOnDelete).toBeUndefined();

    // deletionPolicy: delete: an update of the state alone, which drops the retain.
    writeDocs(SPACES({ policy: "delete" }));
    const toDelete = await runner.up();
    expect(changes(toDelete)).toEqual([`update ${NOTES}`]);
    expect(toDelete.apiCalls).toEqual([]);
    expect(stored("notes")?.retainOnDelete).toBeUndefined();
    // Removed: a plain delete in the preview, and the provider deletes the space (restorable for 7 days).
    writeDocs(SPACES(undefined));
    const deleted = stored("notes")?.id;
    expect(changes(await runner.preview())).toEqual([`delete ${NOTES}`]);
    const removed = await runner.up();
    expect(spaceWrites(removed)).toEqual(["DELETE /v1/spaces/:spaceId 205"]);
    expect(space(deleted)?.deletedAt).toEqual(expect.any(String));

    // The reverse: created with deletionPolicy: delete (no retain), then the policy taken back (retained again, 0 calls).
    writeDocs(SPACES({ policy: "delete" }));
    await runner.up();
    expect(stored("notes")?.retainOnDelete).toBeUndefined();
    writeDocs(SPACES({}));
    const toRestore = await runner.up();
    expect(changes(toRestore)).toEqual([`update ${NOTES}`]);
    expect(toRestore.apiCalls).toEqual([]);
    expect(stored("notes")?.retainOnDelete).toBe(true);
    const kept = stored("notes")?.id;
    writeDocs(SPACES(undefined));
    expect(changes(await runner.preview())).toEqual([`delete[retain] ${NOTES}`]);
    const left = await runner.up();
    expect(spaceWrites(left)).toEqual([]);
    expect(stored("notes")).toBeUndefined();
    expect(space(kept)).toMatchObject({ deletedAt: null, title: "Release notes" });

    // A space taken over by id is not retained: removing it is a delete that restores its settings.
    writeDocs("organization: demo-org\n");
    const preview = await runner.preview();
    expect(changes(preview)).toEqual(["delete Space handbook/guides"]);
    const restored = await runner.up();
    expect(spaceWrites(restored)).toEqual(["PATCH /v1/spaces/:spaceId 200"]);
    expect(emu.store.org("demo-org").spaces.find((sp) => sp.id === "space-guides")?.emoji).toBe("📘");
  });

  it("a state written before the option: the next up stores it with 0 calls; removed or destroyed without it, the space stays as before", async () => {
    // The state as this package wrote it before it declared the option.
    const dropRetain = () => saveState(runner.stateFile, runner.resources().map(({ retainOnDelete: _, ...r }) => r));
    const before = liveNotes().length;
    writeDocs(SPACES({}));
    await runner.up();
    dropRetain();
    // Only the option differs from the state: a same step that records it, and no call.
    const again = await runner.up();
    expect(changes(again)).toEqual([]);
    expect(again.apiCalls).toEqual([]);
    expect(stored("notes")?.retainOnDelete).toBe(true);

    // Removed from a state without the option: a plain delete reaches the provider, which leaves a created space in place.
    dropRetain();
    writeDocs(SPACES(undefined));
    expect(changes(await runner.preview())).toEqual([`delete ${NOTES}`]);
    const removed = await runner.up();
    expect(removed.apiCalls).toEqual([]);
    expect(liveNotes()).toHaveLength(before + 1);

    // Destroy: the created space retained with the option, left in place by the provider without it (no call
    // for it either way); the taken-over space gets its emoji back (one PATCH).
    const spaceSteps = (r: RunResult) => r.steps.filter((st) => st.type.endsWith(":Space")).map((st) => `${opLabel(st)} ${st.urn.slice(st.urn.lastIndexOf("::") + 2)}`).sort();
    writeDocs(SPACES({}).replace("notes", "notes-2"));
    await runner.up();
    const retained = await runner.destroy();
    expect(spaceSteps(retained)).toEqual(["delete handbook/guides", "delete[retain] handbook/notes-2"]);
    expect(spaceWrites(retained)).toEqual(["PATCH /v1/spaces/:spaceId 200"]);
    writeDocs(SPACES({}).replace("notes", "notes-3"));
    await runner.up();
    dropRetain();
    const plain = await runner.destroy();
    expect(spaceSteps(plain)).toEqual(["delete handbook/guides", "delete handbook/notes-3"]);
    expect(spaceWrites(plain)).toEqual(["PATCH /v1/spaces/:spaceId 200"]);
    expect(liveNotes()).toHaveLength(before + 3);
  });
});
