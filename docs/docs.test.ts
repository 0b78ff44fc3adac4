/**
 * The README is the front door and docs/ the manual: the ten lines the README shows validate as they
 * stand, every relative link in the README and docs/ names a file of the repository, and the development
 * guide states none of the figures a test run prints.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const CLI = path.join(ROOT, "dist/provider/cli.js");
const read = (p: string): string => fs.readFileSync(path.join(ROOT, p), "utf8");
const pages = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

describe("the README and docs/", () => {
  it("the README says what the package is before anything else, then gives the demo and test commands", () => {
    const lines = read("README.md").split("\n");
    expect(lines[2]).toMatch(/^Infrastructure as code for a docs-hosting platform/);
    const commands = lines.slice(0, 15).filter((l) => l.startsWith("npm "));
    expect(commands).toEqual(["npm ci && npm run demo", "npm ci && npm test"]);
  });

  it("the README's docs.yaml validates as it stands", () => {
    const block = /```yaml\n([\s\S]*?)```/.exec(read("README.md"))?.[1];
    expect(block).toContain("sites:");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "readme-"));
    try {
      fs.writeFileSync(path.join(dir, "docs.yaml"), block!);
      const out = execFileSync(process.execPath, [CLI, "validate", path.join(dir, "docs.yaml")], { encoding: "utf8" });
      expect(out).toContain(": OK (organisation demo-org: 1 site, 2 sections, 2 site spaces, 1 share link)");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("docs/development.md leaves the suite's counts and times to the run that measures them", () => {
    const page = read("docs/development.md");
    // Test and file counts, seconds, and how many slowest files are shown: the run prints each (test/slowest.ts).
    expect(page.match(/\b\d[\d,]* (?:tests|test files|files)\b|\b\d[\d,.]*(?:–\d[\d,.]*)? s\b|\b(?:\d+|one|two|three|five|ten|fifteen|twenty) slowest\b/g)).toBeNull();
    expect(page).toContain("[test/slowest.ts](../test/slowest.ts) prints the slowest");
  });

  it.each(pages)("every relative link in %s names a file of the repository", (page) => {
    const broken: string[] = [];
    for (const [, target] of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target!)) continue;
      const file = target!.split("#")[0]!;
      if (!fs.existsSync(path.resolve(ROOT, path.dirname(page), file))) broken.push(target!);
    }
    expect(broken).toEqual([]);
  });
});
