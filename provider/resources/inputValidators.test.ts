/**
 * The kinds' input validators made at build time (kindValidators/, ajv standalone) answer exactly as
 * the ones compiled at run time, and the built provider's check uses them without loading ajv's compiler.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import type { ValidateFunction } from "ajv";
import { inputSchema } from "./kind";
import { kinds } from "./kinds";
import { inputValidator } from "./inputValidators";
import { makeProvider } from "./provider";
import { siteSectionKind } from "./siteSection";

const BUILT = path.resolve(__dirname, "../../dist/provider/resources");

/** Inputs that break each rule of a kind's schema in turn: nothing, an unknown property, each field of the wrong type or too long. */
function badInputs(schema: { properties: Record<string, unknown> }): Record<string, unknown>[] {
  const fields = Object.keys(schema.properties);
  return [
    {},
    { unknownProperty: 1 },
    ...fields.flatMap((f) => [{ [f]: 12345 }, { [f]: "x" }, { [f]: "x".repeat(5000) }, { [f]: [{}] }, { [f]: { a: 1 } }, { [f]: true }]),
  ];
}

const errorsOf = (validate: ValidateFunction, subject: unknown) => (validate(subject) ? [] : JSON.parse(JSON.stringify(validate.errors)));

describe("precompiled input validators", () => {
  it.each(kinds.map((k) => [k.name, k] as const))("%s: the built validator finds exactly the errors of the compiled one", (name, kind) => {
    const schema = inputSchema(kind) as { properties: Record<string, unknown> };
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the build's output
    const built = require(path.join(BUILT, "kindValidators", `${name}.js`)) as { validate: ValidateFunction };
    // This process runs the sources, with no folder of validators beside them: it compiles.
    const compiled = inputValidator(name, schema);
    expect(compiled).not.toBe(built.validate);
    for (const subject of badInputs(schema)) expect(errorsOf(built.validate, subject)).toEqual(errorsOf(compiled, subject));
  });

  it("the built provider's check words a failure the same, with no ajv compiler loaded", async () => {
    const shim = path.resolve(__dirname, "../../dist/provider/providers/siteSection.js");
    const news = { organizationId: "demo-org", siteId: "site-1", spaceId: "space-guides", title: "A", path: "Bad Path!" };
    const script = `const p = require(${JSON.stringify(shim)}); p.check({}, ${JSON.stringify(news)}).then((r) => console.log(JSON.stringify({ failures: r.failures, compiler: Object.keys(require.cache).some((f) => /node_modules[\\\\/]ajv[\\\\/]dist[\\\\/]ajv\\.js$/.test(f)) })))`;
    const out = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as { failures: unknown[]; compiler: boolean };
    expect(out.compiler).toBe(false);
    expect(out.failures.length).toBeGreaterThan(0);
    // The sources' provider, compiling its validator, words the same failures.
    const source = await makeProvider(siteSectionKind).check({} as never, news as never);
    expect(out.failures).toEqual(source.failures);
  });
});
