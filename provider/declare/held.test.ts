/**
 * A key renamed without `previousKeys` replaces its object as preview says, and never takes over the
 * live object its old resource holds (which the old resource's delete would then delete): through the
 * ready-made program (the real language host and plugin, test/harness) against the emulator.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNoCodeProgram, stopProgram, type ProgramAgainstEmulator } from "../../test/support/program";
import type { RunResult } from "../../test/harness";

const docs = (siteKey: string, linkKey = "partner", opts: { previousKeys?: string } = {}): string => `organization: demo-org
sites:
  - key: ${siteKey}
    title: Partner preview
    visibility: share-link
${opts.previousKeys ? `    previousKeys: [${opts.previousKeys}]\n` : ""}    siteSpaces:
      - { key: guides, space: { id: space-guides }, path: guides }
    shareLinks:
      - { key: ${linkKey}, name: Partner }
`;

describe("a renamed key never takes over what another resource of the stack holds", { timeout: 600_000 }, () => {
  let started: ProgramAgainstEmulator;
  const write = (text: string) => fs.writeFileSync(path.join(started.program.dir, "docs.yaml"), text);
  const liveSites = () => [...started.emu.store.all("sites")].filter((s) => s.title === "Partner preview");
  const warnings = (r: RunResult): string[] => r.logs.filter((l) => l.severity === "warning").map((l) => l.message);

  beforeAll(async () => {
    started = await startNoCodeProgram("held", { "docs.yaml": docs("partner-preview") });
    await started.runner.up();
  }, 300_000);
  afterAll(async () => stopProgram(started));

  it("without previousKeys: preview says the site is replaced, with what it holds; up makes a new site and deletes the old one; nothing is left claimed", async () => {
    const [before] = liveSites();
    expect(before).toBeDefined();
    write(docs("partners-preview"));
    const preview = await started.runner.preview();
    expect(warnings(preview)).toEqual([
      `renaming site partner-preview to partners-preview replaces the live site (id ${before!.id}), with its share links (1), its site spaces (1): \`up\` makes a new one and deletes this one, and what readers reach by its URLs goes with it. To keep it, give partners-preview \`previousKeys: [partner-preview]\``,
    ]);
    const up = await started.runner.up();
    expect(up.error).toBeUndefined();
    const after = liveSites();
    expect(after).toHaveLength(1);
    expect(after[0]!.id).not.toBe(before!.id);
    expect(up.outputs["siteIds"]).toEqual({ "partners-preview": after[0]!.id });
    const again = await started.runner.up();
    expect(again.apiCalls).toEqual([]);
    expect(warnings(again)).toEqual([]);
  });

  it("with previousKeys: renamed in place, nothing created or deleted", async () => {
    const [before] = liveSites();
    write(docs("handbook-preview", "partner", { previousKeys: "partners-preview" }));
    const preview = await started.runner.preview();
    expect(warnings(preview)).toEqual([]);
    const up = await started.runner.up();
    expect(up.error).toBeUndefined();
    expect(up.summary.create ?? 0).toBe(0);
    expect(up.summary.delete ?? 0).toBe(0);
    expect(liveSites().map((s) => s.id)).toEqual([before!.id]);
    expect((await started.runner.up()).apiCalls).toEqual([]);
  });

  it("a renamed share link is a new link of the same name: the old one is not taken over, then deleted", async () => {
    const [site] = liveSites();
    const links = () => [...started.emu.store.all("shareLinks")].filter((l) => l.site === site!.id);
    const [old] = links();
    write(docs("handbook-preview", "partner-2", { previousKeys: "partners-preview" }));
    const preview = await started.runner.preview();
    expect(warnings(preview)).toEqual([
      `renaming share link partner to partner-2 replaces the live share link (id ${old!.id}): \`up\` makes a new one and deletes this one, and what readers reach by its URLs goes with it. To keep it, give partner-2 \`previousKeys: [partner]\``,
    ]);
    const up = await started.runner.up();
    expect(up.error).toBeUndefined();
    const now = links();
    expect(now).toHaveLength(1);
    expect(now[0]!.id).not.toBe(old!.id);
    expect((await started.runner.up()).apiCalls).toEqual([]);
  });
});
