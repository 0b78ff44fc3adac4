/**
 * Drift in words (drift.ts): a refresh's read remembers what differs from the stored outputs, and the diff
 * after it names each field the file sets to another value, with both values, never a secret or content.
 */
import { describe, expect, it } from "vitest";
import { sha256 } from "./digest";
import { driftWarnings, rememberDrift } from "./drift";
import { integrationKind } from "./integration";
import { UNKNOWN } from "./kind";
import { siteSectionKind } from "./siteSection";

const BACK = "; `pulumi up --refresh` puts the file's value back";

const stored = { organizationId: "org", siteId: "site", spaceId: "space", title: "Guides", path: "guides", description: null, icon: null, condition: null, draft: false, default: true };

describe("drift in words", () => {
  it("names each field the file manages that was changed on the platform, with both values", () => {
    const live = { ...stored, title: "Guides (edited)", description: "By hand", path: "moved" };
    rememberDrift(siteSectionKind, "sec-1", stored, live);
    // The file: the title declared, no description (absence clears it), no path (the platform's to choose).
    const news = { organizationId: "org", siteId: "site", spaceId: "space", title: "Guides", default: true };
    expect(driftWarnings(siteSectionKind, "sec-1", live, news, ["title", "description"])).toEqual([
      `drift: section "Guides": title is "Guides (edited)" on the platform, "Guides" in the file${BACK}`,
      `drift: section "Guides": description is "By hand" on the platform, not set in the file${BACK}`,
    ]);
    // Told once: the record goes with the diff.
    expect(driftWarnings(siteSectionKind, "sec-1", live, news, ["title", "description"])).toEqual([]);
  });

  it("says nothing without a refresh's read, for a change of the file alone, or when the diff's old values are not the ones read", () => {
    const news = { ...stored, title: "Tutorials" };
    // No refresh: a change of the file is no drift.
    expect(driftWarnings(siteSectionKind, "sec-2", stored, news, ["title"])).toEqual([]);
    // A refresh that found the icon changed, and a file that changes the title: only what both touch is told.
    rememberDrift(siteSectionKind, "sec-2", stored, { ...stored, icon: "book" });
    expect(driftWarnings(siteSectionKind, "sec-2", { ...stored, icon: "book" }, news, ["title"])).toEqual([]);
    rememberDrift(siteSectionKind, "sec-2", stored, { ...stored, title: "Edited" });
    expect(driftWarnings(siteSectionKind, "sec-2", { ...stored, title: "Other" }, news, ["title"])).toEqual([]);
  });

  it("names the object by its ID when it has no title or name, and shortens long values", () => {
    const long = "x".repeat(80);
    const untitled = { ...stored, title: null };
    rememberDrift(siteSectionKind, "sec-3", untitled, { ...untitled, condition: long });
    expect(driftWarnings(siteSectionKind, "sec-3", { ...untitled, condition: long }, { organizationId: "org" }, ["condition"])).toEqual([
      `drift: section sec-3: condition is "${"x".repeat(57)}..." on the platform, not set in the file${BACK}`,
    ]);
  });

  it("a value the file does not know yet (unknown in a preview) is not told", () => {
    rememberDrift(siteSectionKind, "sec-4", stored, { ...stored, title: "Edited" });
    expect(driftWarnings(siteSectionKind, "sec-4", { ...stored, title: "Edited" }, { ...stored, title: UNKNOWN }, ["title"])).toEqual([]);
  });

  it("content kept as a digest: changed, without values; secrets: never compared", () => {
    const outs = { organizationId: "org", name: "badges", title: "Badges", description: "d", script: sha256("one"), secrets: { key: sha256("key\u0000old") } };
    const live = { ...outs, script: sha256("two"), secrets: { key: sha256("key\u0000new") } };
    rememberDrift(integrationKind, "int-1", outs, live);
    const news = { organizationId: "org", name: "badges", title: "Badges", description: "d", script: "export default 1", secrets: { key: "s3cr3t-value" } };
    const told = driftWarnings(integrationKind, "int-1", live, news, ["script", "secrets"]);
    expect(told).toEqual([`drift: integration "Badges": script differs on the platform from the file${BACK}`]);
    expect(told.join("\n")).not.toMatch(/s3cr3t|sha256|export default/);
  });
});
