/**
 * Pattern failures in words (#33): a colour or a URL failing its pattern printed the regular expression
 * (`must match the pattern ^#(?:[0-9a-fA-F]{3}){1,2}$`). Every `pattern` the schemas declare — the
 * limits the kinds' declarations refer to, the kinds' input schemas, the stack file's schema — carries its
 * words, and the message of a failure is those words, never the pattern.
 */
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import limits from "../schemas/limits.json";
import { explain, PATTERN_WORDS } from "./phrases";
import { inputSchema } from "./resources/kind";
import { kinds } from "./resources/kinds";
import { makeProvider } from "./resources/provider";
import { siteCustomizationKind } from "./resources/siteCustomization";
import { siteExternalLinkKind } from "./resources/siteExternalLink";
import { parseStack } from "./stack/load";
import { stackSchema } from "./stack/stackSchema";
import { ajvWithLimits } from "./validators";

interface Declared {
  where: string;
  node: Record<string, unknown>;
}

/** Every schema node that declares a `pattern`, with where it is. */
function declaredPatterns(where: string, node: unknown): Declared[] {
  if (node === null || typeof node !== "object") return [];
  if (Array.isArray(node)) return node.flatMap((v, i) => declaredPatterns(`${where}/${i}`, v));
  const record = node as Record<string, unknown>;
  const here = typeof record.pattern === "string" ? [{ where, node: record }] : [];
  return [...here, ...Object.entries(record).flatMap(([k, v]) => (k === "properties" || k === "definitions" || typeof v === "object" ? declaredPatterns(`${where}/${k}`, v) : []))];
}

const everyPattern: Declared[] = [
  ...declaredPatterns("limits.json", limits),
  ...declaredPatterns("stack.schema.json", stackSchema()),
  ...kinds.flatMap((k) => declaredPatterns(`kinds/${k.name}`, inputSchema(k))),
];

describe("every declared pattern has words", () => {
  it("finds the patterns: colours, URLs, keys, paths, secret sources", () => {
    expect(everyPattern.length).toBeGreaterThanOrEqual(15);
    expect(everyPattern.map((d) => d.where)).toEqual(expect.arrayContaining(["limits.json/definitions/color", "stack.schema.json/definitions/key"]));
  });

  it.each(everyPattern.map((d) => [d.where, d] as const))("%s", (_where, { node }) => {
    const words = node[PATTERN_WORDS];
    expect(typeof words).toBe("string");
    // Words, not a regular expression: no anchors, groups, classes or escapes.
    expect(words).not.toMatch(/\^|\$|\(\?|\[[^\]']*-[^\]']*\]|\\[dswDSW.]|\{\d/);

    // A value that breaks the pattern is told the words, and never sees the pattern.
    const ajv = ajvWithLimits(limits, { strict: false }, false);
    const validate = ajv.compile({ ...node, $id: undefined });
    expect(validate(" ")).toBe(false);
    const reasons = explain(validate.errors ?? []).map((i) => i.reason);
    // A field with a format too (a URL) is told by the format's words when both fail; else by the pattern's.
    if (node.format === undefined) expect(reasons).toContain(`must be ${String(words)} (got " ")`);
    else expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(reason).not.toContain(String(node.pattern));
  });
});

describe("a colour and a URL failing their patterns, as users meet them", () => {
  it("validate: a colour without its # is told #rgb or #rrggbb", () => {
    const text = [
      "organization: demo-org",
      "sites:",
      "  - key: docs",
      "    title: Docs",
      "    customization:",
      "      styling:",
      '        primaryColor: {light: "0B5FFF", dark: "#7AA2FF"}',
      "    sections:",
      "      - key: guides",
      "        title: Guides",
      "        siteSpaces:",
      "          - key: guides",
      "            space: {id: space-guides}",
      "      - key: status",
      "        title: Status",
      "        url: ftp://status.example.com",
      "",
    ].join("\n");
    const result = parseStack(text, "docs.yaml");
    expect(result.ok).toBe(false);
    const messages = result.ok ? [] : result.problems.map((p) => p.message);
    expect(messages).toContain('sites[0].customization.styling.primaryColor.light: must be a hex colour, #rgb or #rrggbb, like #346ddb (got "0B5FFF")');
    expect(messages).toContainEqual(expect.stringMatching(/^sites\[0\]\.sections\[1\]\.url: .*only https: and http: URLs are allowed/));
    for (const m of messages) expect(m).not.toMatch(/pattern|\^/);
  });

  it("a kind's check: the same words", async () => {
    const colour = await makeProvider(siteCustomizationKind).check({} as never, { organizationId: "demo-org", siteId: "site-1", styling: { primaryColor: { light: "blue", dark: "#fff" } } } as never);
    expect(colour.failures?.map((f) => f.reason)).toContainEqual(expect.stringContaining('must be a hex colour, #rgb or #rrggbb, like #346ddb (got "blue")'));
    const link = await makeProvider(siteExternalLinkKind).check({} as never, { organizationId: "demo-org", siteId: "site-1", title: "Status", url: "ftp://status.example.com" } as never);
    expect(link.failures?.map((f) => f.reason)).toContainEqual(expect.stringContaining("only https: and http: URLs are allowed"));
    // A URL the format accepts but the pattern does not (an upper-case scheme): the pattern's words.
    const upper = await makeProvider(siteExternalLinkKind).check({} as never, { organizationId: "demo-org", siteId: "site-1", title: "Status", url: "HTTPS://status.example.com" } as never);
    for (const f of upper.failures ?? []) expect(f.reason).not.toMatch(/\^|\[hH\]/);
  });

  it("the built plugin's precompiled validator carries the words too", async () => {
    const { execFileSync } = await import("node:child_process");
    const shim = path.resolve(__dirname, "../dist/provider/providers/siteCustomization.js");
    const news = { organizationId: "demo-org", siteId: "site-1", styling: { primaryColor: { light: "blue", dark: "#fff" } } };
    const script = `require(${JSON.stringify(shim)}).check({}, ${JSON.stringify(news)}).then((r) => console.log(JSON.stringify(r.failures)))`;
    const failures = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as { reason: string }[];
    expect(failures.map((f) => f.reason)).toContainEqual(expect.stringContaining('must be a hex colour, #rgb or #rrggbb, like #346ddb (got "blue")'));
  });
});
