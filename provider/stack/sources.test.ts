/** Files and secret sources a stack file names: checked by the loader (files) and the component (secrets), located. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatProblem, loadStackFile, parseStack } from "./load";
import { runtimeSources, secretSourceIssues } from "./sources";

const example = path.resolve(__dirname, "../../examples/integration/docs.yaml");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dp-sources-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

describe("integration entries of a stack file", () => {
  it("the example is valid, without warnings", () => {
    const result = loadStackFile(example);
    if (!result.ok) throw new Error(result.problems.map(formatProblem).join("\n"));
    expect(result.warnings).toEqual([]);
  });

  it("reports every limit and every missing file before any call, at file:line:col", () => {
    write("src/ok.js", "export default {};");
    const file = write(
      "bad.yaml",
      [
        "organization: demo-org",
        "integrations:",
        "  - key: a",
        "    name: bad name",
        "    title: X",
        `    description: ${"d".repeat(101)}`,
        `    summary: ${"s".repeat(2049)}`,
        "    script: src/missing.js",
        "    previewImages: [src/ok.js, src/ok.js, src/ok.js, src/gone.png]",
        "  - { key: b, name: dup, title: Fine, description: ok, script: src/ok.js }",
        "  - { key: c, name: dup, title: Fine, description: ok, script: src/ok.js, secrets: { K: { value: plain } } }",
        "",
      ].join("\n"),
    );
    const result = loadStackFile(file);
    expect(result.ok).toBe(false);
    const lines = result.ok ? [] : result.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
    expect(lines).toEqual([
      "4:11: integrations[0].name: must be letters, digits, '-', '_' and '.' only, like my-integration (got \"bad name\")",
      "5:12: integrations[0].title: must be at least 2 characters (got 1)",
      "6:18: integrations[0].description: must be at most 100 characters (got 101)",
      "7:14: integrations[0].summary: must be at most 2048 characters (got 2049)",
      "8:13: integrations[0].script: no file \"src/missing.js\" next to the stack file (paths are relative to the stack file's folder)",
      "9:20: integrations[0].previewImages: must have at most 3 items (got 4)",
      "9:54: integrations[0].previewImages[3]: no file \"src/gone.png\" next to the stack file (paths are relative to the stack file's folder)",
      "11:21: integrations[2].name: duplicate name \"dup\": also used by integrations[1] (line 10); integration names are unique on the whole platform",
      "11:91: integrations[2].secrets.K.value: unknown field; allowed fields: config, env",
    ]);
  });

  it("a misspelt script or image is refused in one line naming the nearest file of its folder", () => {
    write("src/badges.js", "export default {};");
    write("src/badge.png", "png");
    const file = write("misspelt.yaml", "organization: demo-org\nintegrations:\n  - { key: a, name: a, title: Ab, description: d, script: src/badge.js, previewImages: [src/bagde.png] }\n");
    const result = loadStackFile(file);
    const lines = result.ok ? [] : result.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
    expect(lines).toEqual([
      '3:59: integrations[0].script: no file "src/badge.js" next to the stack file; did you mean "src/badges.js"?',
      '3:89: integrations[0].previewImages[0]: no file "src/bagde.png" next to the stack file; did you mean "src/badge.png"?',
    ]);
    expect(lines.join("\n").split("\n")).toHaveLength(2);
  });

  it("does not look for files when the text has no folder (export's self-check of a placeholder)", () => {
    const text = "organization: demo-org\nintegrations:\n  - { key: a, name: a, title: Ab, description: d, script: supply/a/script, adopt: true }\n";
    expect(parseStack(text, "<stdout>").ok).toBe(true);
  });

  it("names every secret whose source is not set, and how to set it, never a value", () => {
    const stack = {
      organization: "demo-org",
      integrations: [{ key: "a", secrets: { A: { config: "proj:a" }, B: { env: "B_SECRET" }, C: { config: "c" }, D: { env: "EMPTY" } } }],
    };
    const lookup = { config: (k: string) => (k === "c" ? "value-c" : undefined), env: (n: string) => (n === "EMPTY" ? "" : undefined) };
    expect(secretSourceIssues(stack, lookup)).toEqual([
      { pointer: "/integrations/0/secrets/A", reason: 'secret "A": config key "proj:a" is not set: run `pulumi config set --secret proj:a <value>`' },
      { pointer: "/integrations/0/secrets/B", reason: 'secret "B": environment variable B_SECRET is not set: export it in the environment of `pulumi`' },
      { pointer: "/integrations/0/secrets/D", reason: 'secret "D": environment variable EMPTY is not set: export it in the environment of `pulumi`' },
    ]);
  });

  it("reads files as text or base64 and resolves secret sources into one secret value", () => {
    write("img.bin", "\u0001\u0002");
    const sources = runtimeSources({ dir, root: dir }, { config: (k) => `config:${k}`, env: (n) => `env:${n}` }, (v) => ({ secret: v }));
    expect(sources.file("src/ok.js", "text")).toBe("export default {};");
    expect(sources.file("img.bin", "base64")).toBe(Buffer.from("\u0001\u0002").toString("base64"));
    expect(sources.secrets({ A: { config: "k" }, B: { env: "N" } })).toEqual({ secret: { A: "config:k", B: "env:N" } });
  });
});
