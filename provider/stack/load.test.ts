import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { derivePath } from "../rules";
import { formatProblem, linePositions, loadStackFile, parseStack, problemSummary, STACK_FILE_LIMITS, type LoadResult, type Problem } from "./load";
import { isIdRef, type StackFile } from "../file/model";
import { sectionSiteSpaces } from "../site";
import { countObjects } from "./summary";
import { schemasDir, stackValidator } from "./schema";

const repo = path.resolve(__dirname, "../..");
const testdata = path.join(__dirname, "testdata");
const handbook = path.join(repo, "examples/handbook/docs.yaml");

function problemsOf(result: LoadResult): Problem[] {
  if (result.ok) throw new Error(`expected problems, got a valid stack from ${result.file}`);
  return result.problems;
}

/** `line:col: message` of each problem, without the file name. */
function lines(result: LoadResult): string[] {
  return problemsOf(result).map((p) => `${p.line}:${p.col}: ${p.message}`);
}

/**
 * A stack file of demo-org whose one site is `s`, titled Site: these four lines, then `site`, the site's
 * further lines (indented under it), so that the lines a test counts start at line 5.
 */
function siteFile(site: string): string {
  return `organization: demo-org\nsites:\n  - key: s\n    title: Site\n${site}`;
}

function valid(text: string): StackFile {
  const result = parseStack(text, "inline.yaml");
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join("\n"));
  return result.stack;
}

describe("the handbook example", () => {
  it("is a valid stack file without warnings", () => {
    const result = loadStackFile(handbook);
    if (!result.ok) throw new Error(result.problems.map(formatProblem).join("\n"));
    expect(result.warnings).toEqual([]);
    expect(result.stack.organization).toBe("demo-org");
  });

  it("declares most kinds against the emulator's default fixture", () => {
    const result = loadStackFile(handbook);
    if (!result.ok) throw new Error("invalid");
    const counts = countObjects(result);
    // A site's display order is no object of the file; redirects have tests of their own (resources/siteRedirects.test.ts, redirects/),
    // and so has Git Sync (stack/gitSync.test.ts: the handbook's sites keep their structure in the file).
    for (const kind of (Object.keys(counts) as (keyof typeof counts)[]).filter((k) => k !== "SiteStructureOrder" && k !== "SiteRedirects" && k !== "SiteGitSync")) {
      expect(counts[kind], kind).toBeGreaterThan(0);
    }
    // The last space is created by the file: it has no ID yet.
    expect(result.stack.spaces?.map((s) => s.id)).toEqual(["space-guides", "space-api", "space-changelog", undefined]);
  });
});

/**
 * The corpus of broken files: each yields exactly these problems, located at the offending key or value.
 * Each entry is `line:col: message`; the message must contain every part listed.
 */
const corpus: { file: string; problems: [string, ...string[]][] }[] = [
  { file: "wrong-type.yaml", problems: [["5:16", "sites[0].published:", "must be true or false (got a string)"]] },
  { file: "limit-title.yaml", problems: [["13:16", "sites[0].sections[2].title: must be at most 128 characters (got 140)"]] },
  {
    file: "unknown-key.yaml",
    problems: [
      ["3:5", "teams[0].title: is required"],
      ["4:5", "teams[0].titel: unknown field", "did you mean 'title'?"],
    ],
  },
  {
    file: "dangling-reference.yaml",
    problems: [["8:18", "saml[0].defaultTeam:", 'no team with key "doc-team"', "teams: docs-team", '{id: "doc-team"}']],
  },
  {
    file: "duplicate-key.yaml",
    problems: [["5:10", "teams[1].key:", 'duplicate key "docs-team"', "teams[0] (line 3)"]],
  },
  {
    file: "duplicate-path.yaml",
    problems: [["12:15", "sites[0].sections[1].path:", 'duplicate path "docs"', "sites[0].sections[0] (line 6)"]],
  },
  {
    file: "two-defaults.yaml",
    problems: [["13:5", "sites[0].defaultSiteSection:", 'the key "defaultSiteSection" is given twice in this mapping (first at line 5)', "may appear once"]],
  },
  {
    file: "default-wrong-level.yaml",
    problems: [
      ["5:23", "sites[0].defaultSiteSpace:", "this site has sections", "set defaultSiteSpace on the section (sites[0].sections[0])"],
      ["12:27", "sites[0].sections[1].defaultSiteSpace:", 'no site space with key "guides" in this section', "belongs to sites[0].sections[0]", "known: api-v1"],
    ],
  },
  { file: "bad-yaml.yaml", problems: [["5:3", "YAML syntax error:", "Flow sequence"]] },
  { file: "alias-bomb.yaml", problems: [["3:8", "aliases expand too much", `more than ${STACK_FILE_LIMITS.maxAliasCount}`]] },
  { file: "too-deep.yaml", problems: [["3:74", `nesting is deeper than ${STACK_FILE_LIMITS.maxDepth} levels`]] },
  { file: "missing-required.yaml", problems: [["3:5", "sites[0].title: is required"]] },
  {
    file: "section-groups.yaml",
    problems: [
      ["15:28", "sites[0].sectionGroups[0].sections[1]:", 'no section or external link with key "tutorials"', "known: guides, api"],
      ["18:25", "sites[0].sectionGroups[1].sections[1]:", 'section "guides" is already in sites[0].sectionGroups[0] (line 15)'],
    ],
  },
  {
    file: "duplicate-member.yaml",
    problems: [["8:15", "teams[0].members[1].user:", 'user "Writer@Demo.test" is listed twice', "first at line 6"]],
  },
  {
    file: "reference-syntax.yaml",
    problems: [
      ["7:16", "sites[0].siteSpaces[0].space: must be a key:", "at most 63 characters", '(got "Guides Space")'],
      ["9:32", "sites[0].siteSpaces[1].space.title: unknown field", "allowed fields: id"],
      ["11:16", "sites[0].siteSpaces[2].space: must be a string or a mapping (got an integer)"],
    ],
  },
  {
    file: "limits.yaml",
    problems: [
      ["4:11", "openapi[0].slug:", "single hyphens", '(got "Public_API")'],
      ["5:16", "openapi[0].sourceURL: must be an absolute URI", '(got "not a url")'],
      ["9:17", "sites[0].visibility: must be one of public, unlisted, share-link, visitor-auth (got \"secret\")"],
      ["10:12", "sites[0].proxy: must be a host followed by one or more path segments", '(got "example.com")'],
    ],
  },
  {
    file: "adopt-natural-key.yaml",
    problems: [["7:9", "sites[0].sections[0].path: is required when adopt is true"]],
  },
  { file: "collection-cycle.yaml", problems: [["5:13", "collections[0].parent: collections form a cycle: a → b → a"]] },
  { file: "empty.yaml", problems: [["1:1", "the file is empty"]] },
  { file: "two-documents.yaml", problems: [["2:1", "more than one YAML document"]] },
  {
    file: "section-shape.yaml",
    problems: [
      ["6:9", "sites[0].sections[0]: needs either space", "or siteSpaces"],
      ["11:9", "sites[0].sections[1].siteSpaces: give either space", "not both"],
      ["14:5", "sites[0].siteSpaces: a site with sections keeps its site spaces inside its sections"],
    ],
  },
];

describe("broken stack files", () => {
  it("the corpus covers every file in testdata/", () => {
    expect(corpus.map((c) => c.file).sort()).toEqual(fs.readdirSync(testdata).filter((f) => f.endsWith(".yaml")).sort());
  });

  for (const { file, problems } of corpus) {
    it(`${file}: ${problems.map((p) => p[0]).join(", ")}`, () => {
      const result = loadStackFile(path.join(testdata, file));
      const found = problemsOf(result);
      expect(found.map((p) => `${p.line}:${p.col}`), found.map(formatProblem).join("\n")).toEqual(problems.map((p) => p[0]));
      found.forEach((p, i) => {
        expect(p.file).toBe(path.join(testdata, file));
        for (const part of problems[i].slice(1)) expect(p.message).toContain(part);
        expect(formatProblem(p)).toBe(`${p.file}:${p.line}:${p.col}: ${p.message}`);
      });
    });
  }
});

describe("dangerous input", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stack-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("refuses a file over the size cap without parsing it", () => {
    const file = path.join(dir, "huge.yaml");
    const filler = `# ${"x".repeat(1020)}\n`;
    fs.writeFileSync(file, `organization: demo-org\n${filler.repeat(Math.ceil(STACK_FILE_LIMITS.maxBytes / filler.length) + 1)}`);
    expect(lines(loadStackFile(file))).toEqual([expect.stringMatching(/^1:1: the file is 5\.0 MiB; a stack file may be at most 5\.0 MiB$/)]);
  });

  it("refuses over-large text given directly", () => {
    const text = `organization: demo-org\n${"#".repeat(STACK_FILE_LIMITS.maxBytes)}\n`;
    expect(lines(parseStack(text, "big.yaml"))[0]).toMatch(/^1:1: the file is 5\.0 MiB; a stack file may be at most 5\.0 MiB$/);
  });

  it("refuses deep block nesting (compact sequences) as well as flow nesting", () => {
    const text = `organization: demo-org\nmembers:\n  ${"- ".repeat(100_000)}x\n`;
    expect(lines(parseStack(text, "deep.yaml"))).toEqual([expect.stringMatching(/^3:\d+: nesting is deeper than 64 levels/)]);
    const flow = `organization: demo-org\nsettings: ${"{a: ".repeat(1_000_000)}\n`;
    expect(lines(parseStack(flow, "deep.yaml"))).toEqual([expect.stringMatching(/^2:\d+: nesting is deeper than 64 levels/)]);
  });

  it("accepts a few aliases that expand modestly", () => {
    const stack = valid(`organization: demo-org
sites:
  - key: a
    title: Alpha
    siteSpaces:
      - key: one
        space: {id: space-guides}
        condition: &beta visitor.claims.beta == true
      - key: two
        space: {id: space-api}
        condition: *beta
`);
    expect(stack.sites?.[0].siteSpaces?.[1].condition).toBe("visitor.claims.beta == true");
  });

  it("reports a missing file and a directory as problems", () => {
    expect(lines(loadStackFile(path.join(dir, "nope.yaml")))).toEqual(["1:1: cannot read the file: no such file"]);
    expect(lines(loadStackFile(dir))).toEqual(["1:1: is not a regular file"]);
  });

  it("never throws on arbitrary text, and returns problems sorted by position", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."organization: demo-org\n -[]{}&*!|>'\"#?:,key: title x12".split("")), maxLength: 200 }), (text) => {
        const result = parseStack(text, "fuzz.yaml");
        if (!result.ok) {
          expect(result.problems.length).toBeGreaterThan(0);
          const order = result.problems.map((p) => p.line * 1e6 + p.col);
          expect(order).toEqual([...order].sort((a, b) => a - b));
          for (const p of result.problems) expect(p.line).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("positions and syntax errors", () => {
  /** Every problem names a line of the text and a column inside that line (or just past its end). */
  function expectInside(text: string, problems: readonly Problem[]): void {
    const textLines = text.split("\n");
    for (const p of problems) {
      const where = `${formatProblem(p)} (text of ${textLines.length} lines)`;
      expect(p.line >= 1 && p.line <= textLines.length, where).toBe(true);
      expect(p.col >= 1 && p.col <= textLines[p.line - 1].length + 1, where).toBe(true);
    }
  }

  it("a broken document shows its first syntax error, located, though the parser recovers through a block scalar later", () => {
    // The indented first line breaks the document; the parser then recovers through the block scalar.
    const text = "  members:\norganization: demo-org\nsaml:\n  - certificate: |\n      line one\n      line two\n    defaultTeam: x\n";
    const problems = problemsOf(parseStack(text, "recovery.yaml"));
    expectInside(text, problems);
    // The first error is shown, where the parser met it: the first key back at column 1.
    expect(problems.map(formatProblem)).toEqual(["recovery.yaml:2:1: YAML syntax error: Unexpected scalar at node end"]);
  });

  it("one bad indent gives its first syntax error alone, and counts the parser's other errors", () => {
    const handbookText = fs.readFileSync(handbook, "utf8");
    const text = `    members:\n${handbookText}`;
    const result = parseStack(text, "indent.yaml");
    const problems = problemsOf(result);
    expectInside(text, problems);
    expect(problems).toHaveLength(1);
    // The parser's first error: the first key of the file at column 1, after the indented one.
    expect(problems[0]).toMatchObject({ line: text.split("\n").findIndex((l) => l.startsWith("organization:")) + 1, col: 1, path: "" });
    expect(problems[0].message).toMatch(/^YAML syntax error: /);
    expect(result.ok ? undefined : result.laterSyntaxErrors).toBeGreaterThan(0);
  });

  // Regression (#33): a tab in the indentation made the parser report errors on the lines before it
  // (a block sequence "used as an implicit map key") and ten echoes after it; the tab was buried.
  it("a tab in the indentation is the error shown, at the tab, in words, even where the parser complained earlier", () => {
    const lines = fs.readFileSync(handbook, "utf8").split("\n");
    const deep = lines.findIndex((l, i) => i > 60 && l.startsWith("      - "));
    lines[deep] = `\t${lines[deep].slice(2)}`;
    const result = parseStack(lines.join("\n"), "docs.yaml");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map(formatProblem)).toEqual([`docs.yaml:${deep + 1}:1: YAML syntax error: a tab in the indentation; YAML indents with spaces only`]);
    expect(result.laterSyntaxErrors).toBeGreaterThan(0);
    expect(problemSummary(result.problems, result.laterSyntaxErrors)).toMatch(/^not valid YAML; fix this syntax error first \(the parser's \d+ other errors?, left out, usually follows? from it\)$/);
  });

  it("duplicate keys are no parse failure: each is listed in one line, named by its path and where the key is first", () => {
    const text = [
      "organization: demo-org",
      "teams:",
      "  - key: a",
      "    title: A",
      "    title: B",
      "  - key: b",
      "    key: c",
      "    title: C",
      "    key: d",
      "  - { key: e, title: E, key: f }",
      "organization: other-org",
      "",
    ].join("\n");
    const result = parseStack(text, "dup.yaml");
    const lines = problemsOf(result).map(formatProblem);
    expect(lines).toEqual([
      'dup.yaml:5:5: teams[0].title: the key "title" is given twice in this mapping (first at line 4); each key may appear once: keep one of them',
      'dup.yaml:7:5: teams[1].key: the key "key" is given twice in this mapping (first at line 6); each key may appear once: keep one of them',
      'dup.yaml:9:5: teams[1].key: the key "key" is given 3 times in this mapping (first at line 6); each key may appear once: keep one of them',
      'dup.yaml:10:25: teams[2].key: the key "key" is given twice in this mapping (first at column 7); each key may appear once: keep one of them',
      'dup.yaml:11:1: organization: the key "organization" is given twice in this mapping (first at line 1); each key may appear once: keep one of them',
    ]);
    expect(lines.join("\n").split("\n")).toHaveLength(5);
    expect(result.ok ? 0 : result.laterSyntaxErrors).toBeUndefined();
  });

  it("line and column come from the text: LF and CRLF lines, offsets clamped to the text", () => {
    const at = linePositions("ab\r\ncd\n\nef");
    expect(at(0)).toEqual({ line: 1, col: 1 });
    expect(at(3)).toEqual({ line: 1, col: 4 });
    expect(at(4)).toEqual({ line: 2, col: 1 });
    expect(at(7)).toEqual({ line: 3, col: 1 });
    expect(at(9)).toEqual({ line: 4, col: 2 });
    expect(at(10)).toEqual({ line: 4, col: 3 });
    expect(at(1_000)).toEqual({ line: 4, col: 3 });
    expect(at(-5)).toEqual({ line: 1, col: 1 });
    expect(linePositions("")(0)).toEqual({ line: 1, col: 1 });
  });
});

describe("bounded work on files with many entries or many problems", () => {
  it("refuses a list past the cap before the schema, at the list, naming the limit", () => {
    const count = STACK_FILE_LIMITS.maxCollectionItems + 1;
    const text = `organization: demo-org\nteams: [${Array.from({ length: count }, (_, i) => `t${i}`).join(", ")}]\n`;
    expect(lines(parseStack(text, "long.yaml"))).toEqual([
      `2:8: teams: a list of ${count.toLocaleString("en-US")} items; a list may hold at most 10,000 items in a stack file`,
    ]);
  });

  it("refuses a mapping past the cap the same way", () => {
    const count = STACK_FILE_LIMITS.maxCollectionItems + 1;
    const text = `organization: demo-org\nsettings:\n${Array.from({ length: count }, (_, i) => `  k${i}: x\n`).join("")}`;
    expect(lines(parseStack(text, "wide.yaml"))).toEqual([
      `3:3: settings: a mapping of ${count.toLocaleString("en-US")} keys; a mapping may hold at most 10,000 keys in a stack file`,
    ]);
  });

  it("lists the first problems only, then how many more, at the first one left out", () => {
    const count = STACK_FILE_LIMITS.maxCollectionItems;
    const text = `organization: demo-org\nteams:\n${Array.from({ length: count }, (_, i) => `  - t${i}\n`).join("")}`;
    const found = lines(parseStack(text, "wrong.yaml"));
    expect(found).toHaveLength(STACK_FILE_LIMITS.maxProblems + 1);
    expect(found.slice(0, STACK_FILE_LIMITS.maxProblems)).toEqual(
      Array.from({ length: STACK_FILE_LIMITS.maxProblems }, (_, i) => `${i + 3}:5: teams[${i}]: must be a mapping (got a string)`),
    );
    expect(found[STACK_FILE_LIMITS.maxProblems]).toBe(
      `${STACK_FILE_LIMITS.maxProblems + 3}:5: … and ${count - STACK_FILE_LIMITS.maxProblems} more problems (the first ${STACK_FILE_LIMITS.maxProblems} are listed)`,
    );
  });

  it("counts the problems of the cross-object checks in the same cap", () => {
    const count = 150;
    const teams = Array.from({ length: count }, () => "  - {key: same, title: Same}\n").join("");
    const found = lines(parseStack(`organization: demo-org\nteams:\n${teams}`, "dup.yaml"));
    expect(found).toHaveLength(STACK_FILE_LIMITS.maxProblems + 1);
    // Each repeat after the first has a duplicate key and a duplicate title.
    expect(found[STACK_FILE_LIMITS.maxProblems]).toMatch(new RegExp(`^\\d+:\\d+: … and ${2 * (count - 1) - STACK_FILE_LIMITS.maxProblems} more problems`));
  });
});

describe("cross-object rules", () => {
  it("reports every problem at once, sorted by position", () => {
    const result = parseStack(
      `organization: demo-org
teams:
  - key: t
    title: T
  - key: t
    title: T
saml:
  - key: s
    label: ${"L".repeat(31)}
    defaultTeam: nobody
`,
      "all.yaml",
    );
    expect(lines(result)).toEqual([
      expect.stringMatching(/^5:10: teams\[1\]\.key: duplicate key "t"/),
      expect.stringMatching(/^6:12: teams\[1\]\.title: duplicate title "T".*team titles are unique/),
      "9:12: saml[0].label: must be at most 30 characters (got 31)",
      expect.stringMatching(/^10:18: saml\[0\]\.defaultTeam: no team with key "nobody"/),
    ]);
  });

  it("accepts a platform ID reference without checking it, and tells the two forms apart", () => {
    const stack = valid(`organization: demo-org
saml:
  - key: s
    label: Okta
    defaultTeam: {id: team-123}
`);
    const ref = stack.saml?.[0].defaultTeam;
    expect(ref !== undefined && isIdRef(ref) && ref.id).toBe("team-123");
  });

  it("explicit paths clash; a path the platform derives only warns, since the platform suffixes it", () => {
    const result = parseStack(
      siteFile(`    sections:
      - key: a
        title: Getting Started!
        space: {id: space-guides}
      - key: b
        title: Other
        path: getting-started
        space: {id: space-api}
`),
      "paths.yaml",
    );
    expect(result.ok).toBe(true);
    expect(result.warnings.map((w) => `${w.line}:${w.col}: ${w.message}`)).toEqual([
      expect.stringMatching(/^6:9: sites\[0\]\.sections\[0\]: has no path and the platform derives "getting-started" from its title, already the path of sites\[0\]\.sections\[1\]/),
    ]);
  });

  it("site-space paths are unique per level, not across levels", () => {
    valid(siteFile(`    sections:
      - key: a
        title: Alpha
        siteSpaces:
          - { key: a1, space: {id: space-guides}, path: v1 }
      - key: b
        title: Beta
        siteSpaces:
          - { key: b1, space: {id: space-api}, path: v1 }
`));
    const clash = parseStack(
      siteFile(`    siteSpaces:
      - { key: one, space: {id: space-guides}, path: v1 }
      - { key: two, space: {id: space-api}, path: v1 }
`),
      "clash.yaml",
    );
    expect(lines(clash)).toEqual([expect.stringMatching(/^7:51: sites\[0\]\.siteSpaces\[1\]\.path: duplicate path "v1".*unique for site spaces at the root of this site/)]);
  });

  it("site-space keys are unique across a site, including the key the `space` shorthand takes", () => {
    const result = parseStack(
      siteFile(`    sections:
      - key: guides
        title: Guides
        space: {id: space-guides}
      - key: api
        title: API
        siteSpaces:
          - key: guides
            space: {id: space-api}
`),
      "keys.yaml",
    );
    expect(lines(result)).toEqual([
      expect.stringMatching(/^12:18: sites\[0\]\.sections\[1\]\.siteSpaces\[0\]\.key: duplicate key "guides": already used by the site space at sites\[0\]\.sections\[0\] \(line 6\)/),
    ]);
  });

  it("a former key must not be in use", () => {
    expect(
      lines(
        parseStack(
          `organization: demo-org
translations:
  - { key: fr, title: French, previousKeys: [de] }
  - { key: de, title: German }
`,
          "prev.yaml",
        ),
      ),
    ).toEqual([expect.stringMatching(/^3:46: translations\[0\]\.previousKeys\[0\]: "de" is the current key of translations\[1\] \(line 4\)/)]);
  });

  it("duplicate natural keys are refused only where adopt would be ambiguous", () => {
    valid(`organization: demo-org
translations:
  - { key: a, title: Same }
  - { key: b, title: Same }
`);
    expect(
      lines(
        parseStack(
          `organization: demo-org
translations:
  - { key: a, title: Same }
  - { key: b, title: Same, adopt: true }
`,
          "adopt.yaml",
        ),
      ),
    ).toEqual([expect.stringMatching(/^4:22: translations\[1\]\.title: duplicate title "Same".*adopt looks objects up by title/)]);
  });

  it("adaptive schema: required claims must be declared", () => {
    expect(
      lines(
        parseStack(
          siteFile(`    adaptiveSchema:
      type: object
      properties:
        beta: { type: boolean }
      required: [beta, staff]
`),
          "schema.yaml",
        ),
      ),
    ).toEqual([expect.stringMatching(/^9:24: sites\[0\]\.adaptiveSchema\.required\[1\]: claim "staff" is not declared/)]);
  });

  it("YAML 1.2 core schema: yes/no are strings, so a boolean written as yes is a type error", () => {
    expect(lines(parseStack("organization: demo-org\nsettings: { sso: no }\n", "bool.yaml"))).toEqual([
      "2:18: settings.sso: must be true or false (got a string)",
    ]);
  });

  it("a top level that is not a mapping", () => {
    expect(lines(parseStack("- organization: demo-org\n", "list.yaml"))).toEqual(["1:1: top level: must be a mapping (got a list)"]);
  });
});

describe("model helpers", () => {
  it("sectionSiteSpaces expands the space shorthand into one site space keyed by the section", () => {
    expect(sectionSiteSpaces({ key: "guides", title: "Guides", space: "guides" })).toEqual([{ key: "guides", space: "guides" }]);
    const listed = [{ key: "v1", space: { id: "space-api" } }];
    expect(sectionSiteSpaces({ key: "api", title: "API", siteSpaces: listed })).toBe(listed);
  });

  it("derivePath follows the platform's rule", () => {
    expect(derivePath("Getting Started!")).toBe("getting-started");
    expect(derivePath("  API  v2 ")).toBe("api-v2");
    expect(derivePath("Café déjà vu")).toBe("cafe-deja-vu");
    expect(derivePath("!!!", "section")).toBe("section");
  });
});

describe("the schema", () => {
  const schema = JSON.parse(fs.readFileSync(path.join(schemasDir(), "stack.schema.json"), "utf8")) as Record<string, unknown>;

  type Schema = Record<string, unknown>;
  const definitions = schema.definitions as Record<string, Schema>;

  /** Every subschema, following the keywords that hold schemas (not `if`, whose branches only test). */
  function* subschemas(node: Schema, at: string): Generator<[string, Schema]> {
    yield [at, node];
    for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, Schema>)) {
      yield* subschemas(child, `${at}/properties/${name}`);
    }
    for (const [name, child] of Object.entries((node.definitions ?? {}) as Record<string, Schema>)) {
      yield* subschemas(child, `${at}/definitions/${name}`);
    }
    for (const keyword of ["items", "additionalProperties"]) {
      const child = node[keyword];
      if (typeof child === "object" && child !== null) yield* subschemas(child as Schema, `${at}/${keyword}`);
    }
    for (const keyword of ["oneOf", "anyOf", "allOf"]) {
      const branches = node[keyword];
      if (Array.isArray(branches)) for (const [i, b] of branches.entries()) yield* subschemas(b as Schema, `${at}/${keyword}/${i}`);
    }
  }

  it("gives every property a description", () => {
    const missing: string[] = [];
    for (const [at, node] of subschemas(schema, "")) {
      for (const [name, prop] of Object.entries((node.properties ?? {}) as Record<string, Schema>)) {
        const ref = typeof prop.$ref === "string" && prop.$ref.startsWith("#/definitions/") ? definitions[prop.$ref.slice(14)] : undefined;
        if (typeof prop.description !== "string" && typeof ref?.description !== "string") missing.push(`${at}/properties/${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("is closed: every object schema sets additionalProperties", () => {
    const open: string[] = [];
    for (const [at, node] of subschemas(schema, "")) {
      if (node.type === "object" && !("additionalProperties" in node)) open.push(at);
    }
    expect(open).toEqual([]);
  });

  it("is compiled once per process", () => {
    expect(stackValidator()).toBe(stackValidator());
  });

  it("takes API limits from limits.json by reference", () => {
    const limits = JSON.parse(fs.readFileSync(path.join(schemasDir(), "limits.json"), "utf8")) as { definitions: Record<string, unknown> };
    const refs = [...JSON.stringify(schema).matchAll(/"\$ref":"https:\/\/docsplatform\.dev\/schemas\/limits\.json#\/definitions\/([A-Za-z]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(30);
    for (const name of refs) expect(limits.definitions, name).toHaveProperty(name);
  });
});
