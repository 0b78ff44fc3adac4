/** `docsplatform validate` on the handbook with one planted mistake per offline check of redirects: each located at file:line:col. */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(__dirname, "../..");
const cli = path.join(repo, "dist/provider/cli.js");
const HANDBOOK = fs.readFileSync(path.join(repo, "examples/handbook/docs.yaml"), "utf8");

/** The handbook with `lines` as the first site's redirects; the line number of the first of them. */
function handbookWith(lines: string[]): { text: string; first: number } {
  const at = HANDBOOK.indexOf("\n  - key: partner-preview");
  const before = `${HANDBOOK.slice(0, at)}\n    redirects:\n`;
  return { text: `${before}${lines.map((l) => `      - ${l}\n`).join("")}${HANDBOOK.slice(at + 1)}`, first: before.split("\n").length };
}

function validate(text: string): { status: number | null; lines: string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redirects-validate-"));
  try {
    fs.writeFileSync(path.join(dir, "docs.yaml"), text);
    // The handbook's integration script, which the file names relative to itself.
    fs.cpSync(path.join(repo, "examples/handbook/integrations"), path.join(dir, "integrations"), { recursive: true });
    for (const folder of ["developer-portal", "openapi"]) fs.cpSync(path.join(repo, "examples/handbook", folder), path.join(dir, folder), { recursive: true });
    const run = spawnSync(process.execPath, [cli, "validate", "docs.yaml"], { cwd: dir, encoding: "utf8" });
    return { status: run.status, lines: run.stderr.trim().split("\n") };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("validate: redirects", () => {
  it("accepts redirects of every destination kind", () => {
    const { text } = handbookWith([
      "{ source: /old-guides/*, destination: { section: guides }, captureWildcard: true, permanent: true }",
      "{ source: /v1, destination: { siteSpace: api-v1 } }",
      "{ source: /install, destination: { siteSpace: guides, page: getting-started/installation } }",
      "{ source: /old-api/*, destination: { path: /api/v1 }, captureWildcard: true }",
      "{ source: /blog, destination: { url: https://blog.demo.test }, draft: true }",
    ]);
    expect(validate(text)).toEqual({ status: 0, lines: [""] });
  });

  it("locates one planted mistake per check", () => {
    const planted = [
      ["{ source: old, destination: { section: guides } }", "source: must be a site path"],
      [`{ source: /${"a".repeat(512)}, destination: { section: guides } }`, "source: must be at most 512 characters"],
      ["{ source: /twice, destination: { section: guides } }", ""],
      ["{ source: /twice, destination: { section: api } }", 'source: "/twice" repeats the source of redirects[2]'],
      ["{ source: /nowhere, destination: { section: tutorials } }", 'destination.section: names no section of this site: "tutorials"'],
      ["{ source: /no-space, destination: { siteSpace: api-v0 } }", 'destination.siteSpace: names no site space of this site: "api-v0"'],
      ["{ source: /api/changes, destination: { section: guides } }", 'source: "/api/changes" is /api/changes, the live URL of site space "api-changes"'],
      ["{ source: /a, destination: { path: /b } }", "destination.path: chains: /a → /b → section \"guides\""],
      ["{ source: /b, destination: { section: guides } }", ""],
      ["{ source: /l1, destination: { path: /l2 } }", "destination.path: loops: /l1 → /l2 → /l1"],
      ["{ source: /l2, destination: { path: /l1 } }", "destination.path: loops: /l2 → /l1 → /l2"],
      ["{ source: /both, destination: { section: guides, url: https://x.test } }", "destination: gives section and url"],
    ] as const;
    const { text, first } = handbookWith(planted.map(([l]) => l));
    const run = validate(text);
    expect(run.status).toBe(1);
    const expected = planted.flatMap(([, message], i) => (message === "" ? [] : [[first + i, `sites[0].redirects[${i}].${message}`]]));
    const got = run.lines.slice(0, -1).map((l) => {
      const m = /^docs\.yaml:(\d+):(\d+): (.*)$/.exec(l);
      expect(m, l).not.toBeNull();
      return [Number(m![1]), m![3]] as const;
    });
    expect(got.map(([line]) => line)).toEqual(expected.map(([line]) => line));
    got.forEach(([, message], i) => expect(message.startsWith(String(expected[i]![1])), `${message}\n  should start with ${expected[i]![1]}`).toBe(true));
    expect(run.lines.at(-1)).toBe(`docs.yaml: ${expected.length} problems`);
  });
});
