/**
 * The URL guard of `docsplatform diff` on three edits of the handbook: a section's path changed without a
 * redirect (broken, a redirect proposed, exit 1 with --fail-on-broken), the same with the proposed redirect
 * (exit 0), a site space moved to another section (broken, or redirected as declared).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { diffMain } from "../view/cli";

const ROOT = path.resolve(__dirname, "../..");
const HANDBOOK = path.join(ROOT, "examples/handbook/docs.yaml");
const TESTDATA = path.join(ROOT, "provider/view/testdata");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "url-guard-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
// The handbook's integration script, which the copies name relative to themselves.
fs.cpSync(path.join(ROOT, "examples/handbook/integrations"), path.join(dir, "integrations"), { recursive: true });
// And the developer portal's site file and the OpenAPI spec file.
for (const folder of ["developer-portal", "openapi"]) fs.cpSync(path.join(ROOT, "examples/handbook", folder), path.join(dir, folder), { recursive: true });

/** A copy of `file` with `redirects` as the handbook site's redirects; its path. */
function withRedirects(file: string, name: string, redirects: unknown[]): string {
  const doc = parseDocument(fs.readFileSync(file, "utf8"));
  doc.setIn(["sites", 0, "redirects"], doc.createNode(redirects));
  const out = path.join(dir, `${name}.yaml`);
  fs.writeFileSync(out, doc.toString());
  return out;
}

async function diff(head: string, ...flags: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await diffMain([HANDBOOK, head, "--fail-on-broken", ...flags], {
    env: {},
    cwd: ROOT,
    stdout: { write: (t: string) => (stdout += t), isTTY: false },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

const LEVEL = { source: "/api/*", destination: { section: "api" }, captureWildcard: true, permanent: true };

describe("the URL guard on edits of the handbook", () => {
  it("a section path changed without a redirect: its URLs broken, the repairing redirect proposed, exit 1", async () => {
    const r = await diff(path.join(TESTDATA, "renamed-path.yaml"));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("/api (section \"API Reference\", moved to /reference): broken (with its pages)");
    expect(r.stdout).toContain("/api/changes (site space \"Changelog\", moved to /reference/changes): broken (with its pages)");
    expect(r.stdout).toContain("      - { source: /api/*, destination: { section: api }, captureWildcard: true, permanent: true }");
    expect(r.stderr).toContain("leaves reader URLs broken");
    const md = await diff(path.join(TESTDATA, "renamed-path.yaml"), "--format", "markdown");
    expect(md.code).toBe(1);
    expect(md.stdout).toMatchSnapshot();
  });

  it("the same with the proposed redirect pasted in: every URL redirected, nothing proposed, exit 0", async () => {
    const head = withRedirects(path.join(TESTDATA, "renamed-path.yaml"), "renamed-path-redirected", [LEVEL]);
    const r = await diff(head);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("+ redirect /api/* → section \"api\" (keeps the rest of the path), permanent");
    expect(r.stdout).toContain('/api (section "API Reference", moved to /reference): redirected by /api/* → section "api" (with its pages)');
    expect(r.stdout).not.toContain("broken");
    expect(r.stdout).not.toContain("would repair");
  });

  it("a site space moved to another section: broken without a redirect, redirected as declared with one", async () => {
    const moved = path.join(TESTDATA, "moved-site-space.yaml");
    const bare = await diff(moved);
    expect(bare.code).toBe(1);
    expect(bare.stdout).toContain("/api/changes (site space \"Changelog\", moved to /changes): broken (with its pages)");
    expect(bare.stdout).toContain("      - { source: /api/changes/*, destination: { siteSpace: api-changes }, captureWildcard: true, permanent: true }");
    // An exact redirect covers the URL but not the pages under it: still broken.
    const exact = await diff(withRedirects(moved, "moved-exact", [{ source: "/api/changes", destination: { siteSpace: "api-changes" } }]));
    expect(exact.code).toBe(1);
    expect(exact.stdout).toContain('/api/changes (site space "Changelog", moved to /changes): redirected by /api/changes → site space "api-changes"; its pages broken');
    const level = await diff(withRedirects(moved, "moved-level", [{ source: "/api/changes/*", destination: { siteSpace: "api-changes" }, captureWildcard: true }]));
    expect(level.code).toBe(0);
    expect(level.stdout).toContain('redirected by /api/changes/* → site space "api-changes" (with its pages)');
  });

  it("a redirect to what the same change removes is named in the diff", async () => {
    const base = withRedirects(HANDBOOK, "base-with-redirect", [{ source: "/old-changes", destination: { section: "changelog" } }]);
    const head = withRedirects(path.join(TESTDATA, "removed-section.yaml"), "head-with-redirect", [{ source: "/old-changes", destination: { section: "changelog" } }]);
    let stderr = "";
    const code = await diffMain([base, head], { env: {}, cwd: ROOT, stdout: { write: () => undefined }, stderr: { write: (t: string) => (stderr += t) } });
    // The head is not a valid stack file (its redirect names no section): a side that cannot be read, exit 2.
    expect(code).toBe(2);
    expect(stderr).toMatch(/head-with-redirect\.yaml:\d+:\d+: sites\[0\]\.redirects\[0\]\.destination\.section: names no section of this site: "changelog" .*; the base declares it: this change removes the section the redirect sends readers to/);
  });
});
