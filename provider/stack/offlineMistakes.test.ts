/**
 * Mistakes that used to pass every check until `up` (issue #33), now refused offline by the loader (so by
 * `docsplatform validate` and before any call), at their `file:line:col`, in words.
 */
import { describe, expect, it } from "vitest";
import { parseStack } from "./load";
import { messages, oneSiteFile } from "../../test/support/stackMessages";

/** A file whose one site is `partners`, with the site's further lines from line 6. */
const site = (lines: string): string => oneSiteFile(lines, "partners", "Partners");

describe("a visitor-auth site's sign-in", () => {
  it("is refused without a visitorAuth block, at the site's visibility, naming the site's key", () => {
    const result = parseStack(site("    visibility: visitor-auth\n"), "docs.yaml");
    expect(result.ok).toBe(false);
    expect(messages(result)).toEqual([
      expect.stringMatching(/^docs\.yaml:6:17: sites\[0\]\.visibility: site partners is visitor-auth but declares no visitorAuth block: no reader could sign in\. Add one/),
    ]);
  });

  it("passes with a block, and a site of another visibility needs none", () => {
    expect(parseStack(site("    visibility: visitor-auth\n    visitorAuth: { fallbackURL: https://partners.example.com/login }\n"), "docs.yaml").ok).toBe(true);
    expect(parseStack(site("    visibility: unlisted\n"), "docs.yaml").ok).toBe(true);
    expect(parseStack(site(""), "docs.yaml").ok).toBe(true);
  });
});

describe("an installation of the file's own integration", () => {
  const file = (integration: string): string =>
    `organization: demo-org\nintegrations:\n  - key: badges\n    name: demo-status-badges\n    title: Badges\n    description: Badges in pages\n    script: badges.js\ninstallations:\n  - key: badges\n    integration: ${integration}\n`;

  it("naming it by its key is refused at the name, saying the name to write (the platform has no integration of that name)", () => {
    const result = parseStack(file("badges"), "docs.yaml");
    expect(messages(result)).toEqual(['docs.yaml:10:18: installations[0].integration: "badges" is the key of an integration of this file; an installation names an integration by its name: "demo-status-badges"']);
  });

  it("naming it by its name passes", () => {
    expect(messages(parseStack(file("demo-status-badges"), "docs.yaml"))).toEqual([]);
  });
});
