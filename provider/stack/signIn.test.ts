/**
 * Visitor sign-in checked offline, before any call (issue #33): a visitor-auth site that declares no
 * `visitorAuth` block used to pass `validate` and `up` without a word, leaving readers no way in.
 */
import { describe, expect, it } from "vitest";
import { formatProblem, parseStack, type LoadResult } from "./load";

const messages = (r: LoadResult): string[] => (r.ok ? r.warnings : r.problems).map(formatProblem);

/** A file whose one site is `partners`, with the site's further lines from line 6. */
const site = (lines: string): string => `organization: demo-org\nsites:\n  - key: partners\n    title: Partners\n    siteSpaces: [{ key: g, space: { id: space-guides } }]\n${lines}`;

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
