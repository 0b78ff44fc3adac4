import { execFileSync } from "node:child_process";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { mutatedData, randomStack } from "../../test/reliability/stackfiles";
import { explain, schemaIssues, schemaReport, stackValidator, validatesPrecompiled, type SchemaIssue } from "./schema";

/** Issues as sorted `pointer: reason` lines, the order-free way to compare two validations. */
function lines(issues: readonly SchemaIssue[]): string[] {
  return issues.map((i) => `${i.pointer}${i.atKey ? " (key)" : ""}: ${i.reason}`).sort();
}

/** The whole document validated at once, as the stack schema is written. */
function wholeDocument(data: unknown): string[] {
  const validate = stackValidator();
  return validate(data) ? [] : lines(explain(validate.errors ?? []));
}

describe("schema validation in units", () => {
  it("the built loader uses the validators precompiled by the build, made from the schemas in schemas/: it loads no ajv compiler", () => {
    const built = path.resolve(__dirname, "../../dist/provider/stack/schema.js");
    const script = `const s = require(${JSON.stringify(built)}); s.schemaReport({}); console.log(JSON.stringify({ precompiled: s.validatesPrecompiled(), compiler: Object.keys(require.cache).some((f) => /node_modules[\\\\/]ajv[\\\\/]dist[\\\\/]ajv\\.js$/.test(f)) }))`;
    expect(JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }))).toEqual({ precompiled: true, compiler: false });
    // This process runs the sources, with no precompiled file beside them: it compiles, and answers the same.
    expect(validatesPrecompiled()).toBe(false);
  });

  it("finds exactly the issues of validating the whole document at once", () => {
    const parsed = fc.oneof(mutatedData, randomStack).map((text) => parseYaml(text, { schema: "core" }) as unknown);
    fc.assert(
      fc.property(parsed, (data) => {
        expect(lines(schemaIssues(data))).toEqual(wholeDocument(data));
      }),
      { numRuns: 300, seed: 20250102 },
    );
  });

  it("keeps uniqueItems on lists of keys, and reports a wrong item of such a list once", () => {
    const data = {
      organization: "demo-org",
      sites: [
        {
          key: "a",
          title: "Alpha",
          previousKeys: ["old", "old"],
          sectionGroups: [{ key: "g", title: "Group", sections: ["x", 7, "x"] }],
        },
      ],
    };
    expect(lines(schemaIssues(data))).toEqual(wholeDocument(data));
    expect(lines(schemaIssues(data))).toEqual([
      '/sites/0/previousKeys/1: repeats item 0 ("old"); each value may appear once',
      "/sites/0/sectionGroups/0/sections/1: must be a string (got an integer)",
      '/sites/0/sectionGroups/0/sections/2: repeats item 0 ("x"); each value may appear once',
    ]);
  });

  it("keeps the first issues in document order, up to the limit, and counts every issue", () => {
    const data = { organization: "demo-org", teams: Array.from({ length: 5_000 }, (_, i) => `t${i}`) };
    const report = schemaReport(data, 3);
    expect(report.issues).toEqual([
      { pointer: "/teams/0", reason: "must be a mapping (got a string)", atKey: false },
      { pointer: "/teams/1", reason: "must be a mapping (got a string)", atKey: false },
      { pointer: "/teams/2", reason: "must be a mapping (got a string)", atKey: false },
    ]);
    expect(report.total).toBe(5_000);
    expect(schemaReport(data).issues).toHaveLength(5_000);
  });
});
