import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parseCondition } from "./conditions";
import { formatProblem, parseStack } from "./stack/load";

const HANDBOOK_DIR = path.resolve(__dirname, "../examples/handbook");
const HANDBOOK = fs.readFileSync(path.join(HANDBOOK_DIR, "docs.yaml"), "utf8");

describe("conditions parsed offline", () => {
  it.each([
    ["visitor.claims.beta == true", ["beta"]],
    ["visitor.claims.beta", ["beta"]],
    ["!visitor.claims.staff && (visitor.claims.beta || visitor.claims.unsigned.prefersApiFirst)", ["staff", "beta", "unsigned.prefersApiFirst"]],
    ['visitor.claims["beta"] === true', ["beta"]],
    ['visitor.claims.roles.includes("admin")', ["roles"]],
    ["visitor.claims.level >= 2 ? true : false", ["level"]],
    ["'a' in visitor.claims", []],
  ])("%s reads %j", (text, claims) => {
    const parsed = parseCondition(text);
    expect(parsed.ok && parsed.claims.map((c) => c.claim)).toEqual(claims);
  });

  it.each([
    ["visitor.claims.beta = = true", 21, /single '='/],
    ["visitor.claims.beta == ", 24, /expected a value .* found the end of the condition/],
    ["visitor.claims.beta == true)", 28, /expected an operator or the end/],
    ["(visitor.claims.beta", 21, /expected '\)'/],
    ["visitor.claims. == true", 17, /expected a name after '\.'/],
    ["visitor.claims.beta == 'yes", 24, /never closed/],
    ["visitor.claims.beta # 1", 21, /unexpected character "#"/],
  ])("%s: a syntax error at column %i", (text, column, message) => {
    const parsed = parseCondition(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.column).toBe(column);
      expect(parsed.message).toMatch(message);
    }
  });

  it("names the column of each claim", () => {
    const parsed = parseCondition("visitor.claims.a && visitor.claims.unsigned.b");
    expect(parsed.ok && parsed.claims).toEqual([
      { claim: "a", column: 16 },
      { claim: "unsigned.b", column: 45 },
    ]);
  });
});

describe("docsplatform validate: mistakes of meaning in conditions, located", () => {
  const problemsOf = (text: string) => {
    const loaded = parseStack(text, "docs.yaml", { baseDir: HANDBOOK_DIR });
    return loaded.ok ? [] : loaded.problems.map(formatProblem);
  };
  const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;

  it("the handbook as it is: valid", () => {
    expect(parseStack(HANDBOOK, "docs.yaml", { baseDir: HANDBOOK_DIR }).ok).toBe(true);
  });

  it("a syntax error", () => {
    const text = HANDBOOK.replace("condition: visitor.claims.beta == true", "condition: visitor.claims.beta = = true");
    expect(problemsOf(text)).toEqual([
      `docs.yaml:${lineOf(text, "= = true")}:24: sites[0].sections[1].siteSpaces[1].condition: condition has a syntax error at column 21: a single '=' (compare with '==')`,
    ]);
  });

  it("a claim the site's adaptive schema does not declare", () => {
    const text = HANDBOOK.replace("condition: visitor.claims.staff == true", "condition: visitor.claims.stafff == true");
    const problems = problemsOf(text);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^docs\\.yaml:${lineOf(text, "stafff")}:\\d+: sites\\[0\\]\\.sections\\[2\\]\\.condition: condition reads claim 'stafff' \\(column 16\\), which the site's adaptiveSchema does not declare \\(it declares beta, staff, unsigned\\.prefersApiFirst\\)`));
  });

  it("a condition on a site whose adaptive content is off", () => {
    const text = HANDBOOK.replace("    adaptiveContent:\n      enabled: true\n", "    adaptiveContent:\n      enabled: false\n");
    const problems = problemsOf(text);
    expect(problems).toHaveLength(2);
    for (const p of problems) expect(p).toMatch(/condition: the site's adaptive content is off \(adaptiveContent\.enabled: false\)/);
  });
});
