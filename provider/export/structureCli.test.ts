/**
 * `docsplatform site-file`, offline: each site's structure written as Git Sync's site file (valid against
 * the published schema), content folders as given or one per space, what a site file cannot hold named
 * on stderr, a file in the way refused, usage mistakes exit 2.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { publishedSiteFileErrors } from "../../test/support/gitSyncSchema";
import { siteFileMain } from "./structureCli";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");
let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A copy of the handbook; the command run in it. */
async function run(argv: string[], dir?: string): Promise<{ code: number; stdout: string; stderr: string; dir: string }> {
  const at = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "site-file-"));
  if (dir === undefined) {
    dirs.push(at);
    fs.cpSync(HANDBOOK, at, { recursive: true, filter: (src) => !src.includes("node_modules") });
  }
  let stdout = "";
  let stderr = "";
  const code = await siteFileMain(argv, { cwd: at, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { code, stdout, stderr, dir: at };
}

describe("docsplatform site-file", () => {
  it("writes each site's structure as a site file valid against the published schema, keys as in the stack file", async () => {
    const r = await run(["docs.yaml", "--out", "sites", "--dirs", "api-v1=reference/api,api-changes=/changes"]);
    expect(r.code, r.stderr).toBe(0);
    const validate = publishedSiteFileErrors();
    for (const site of ["handbook", "partner-preview", "partner-portal", "developer-portal"]) {
      const data = parse(fs.readFileSync(path.join(r.dir, "sites", site, "gitbook-docs.yaml"), "utf8")) as { site: { structure: { key: string }[] } };
      expect(validate(data), site).toEqual([]);
    }
    const handbook = parse(fs.readFileSync(path.join(r.dir, "sites", "handbook", "gitbook-docs.yaml"), "utf8")) as { site: { title: string; structure: Record<string, unknown>[] } };
    expect(handbook.site.title).toBe("Handbook");
    expect(handbook.site.structure.map((n) => [n.type, n.key])).toEqual([
      ["section", "guides"],
      ["section-group", "reference"],
      ["section", "whats-new"],
      ["external-link", "status"],
    ]);
    const api = (handbook.site.structure[1]!.children as Record<string, unknown>[])[0]!;
    expect((api.children as Record<string, unknown>[]).map((n) => [n.key, n.path, n.default ?? false, n.content])).toEqual([
      ["api-v1", "v1", true, { directory: "reference/api" }],
      ["api-changes", "changes", false, { directory: "/changes" }],
    ]);
    // The printed entry docs.yaml gives the site: the file, the spaces mapped, former keys of renamed site spaces.
    expect(r.stdout).toContain("wrote sites/handbook/gitbook-docs.yaml; in docs.yaml, site handbook reads it with");
    expect(r.stdout).toContain("    structure:\n      file: sites/handbook/gitbook-docs.yaml\n      spaces:\n        guides-space: guides\n");
    expect(r.stdout).toContain("      previousKeys:\n        guides-space:\n          - guides\n");
    // Named, not dropped.
    expect(r.stderr).toContain('site-file: note: site "handbook": section "whats-new": its draft flag (true) has no place in a site file');
    expect(r.stderr).toContain('site-file: note: site "handbook": site space "api-v1": its look override (customization) has no place in a site file');
  });

  it("one folder per space by default; a file in the way is refused unless --force", async () => {
    const first = await run(["docs.yaml", "--site", "partner-preview"]);
    expect(first.code, first.stderr).toBe(0);
    const written = parse(fs.readFileSync(path.join(first.dir, "partner-preview", "gitbook-docs.yaml"), "utf8")) as { site: { structure: Record<string, unknown>[] } };
    expect(written.site.structure.map((n) => [n.key, n.content])).toEqual([
      ["preview-guides", { directory: "./guides" }],
      ["preview-changelog", { directory: "./changelog" }],
    ]);
    const again = await run(["docs.yaml", "--site", "partner-preview"], first.dir);
    expect(again).toMatchObject({ code: 1, stderr: "docsplatform site-file: partner-preview/gitbook-docs.yaml exists; pass --force to overwrite\n" });
    expect((await run(["docs.yaml", "--site", "partner-preview", "--force"], first.dir)).code).toBe(0);
  });

  it("usage mistakes exit 2, an unknown site 1", async () => {
    expect((await run(["docs.yaml", "--dirs", "api-v1"])).code).toBe(2);
    expect((await run([])).code).toBe(2);
    const unknown = await run(["docs.yaml", "--site", "nope"]);
    expect(unknown).toMatchObject({ code: 1, stderr: "docsplatform site-file: no site with key 'nope' in docs.yaml\n" });
  });
});
