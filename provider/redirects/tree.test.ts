/** `docsplatform tree` counts each site's redirects; `tree --redirects` lists them. */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { treeMain } from "../view/cli";

const HANDBOOK = fs.readFileSync(path.resolve(__dirname, "../../examples/handbook/docs.yaml"), "utf8");
const at = HANDBOOK.indexOf("\n  - key: partner-preview");
const WITH_REDIRECTS = `${HANDBOOK.slice(0, at)}
    redirects:
      - { source: /old-guides/*, destination: { section: guides }, captureWildcard: true, permanent: true }
      - { source: /install, destination: { siteSpace: guides, page: getting-started/installation } }
      - { source: /blog, destination: { url: "https://blog.demo.test" }, draft: true }${HANDBOOK.slice(at)}`;

async function tree(...flags: string[]): Promise<string> {
  let stdout = "";
  // Piped: the handbook's site file is read from the current directory, the handbook's.
  const code = await treeMain(["-", ...flags], { env: {}, cwd: path.resolve(__dirname, "../../examples/handbook"), stdin: async () => WITH_REDIRECTS, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => undefined } });
  expect(code).toBe(0);
  return stdout;
}

describe("tree and redirects", () => {
  it("shows the count per site, and the table with --redirects", async () => {
    expect(await tree()).toContain("└─ 3 redirects (1 draft) (tree --redirects lists them)\n");
    const listed = await tree("--redirects");
    expect(listed).toContain(
      [
        "└─ 3 redirects (1 draft)",
        "   ├─ /blog → https://blog.demo.test (temporary, draft)",
        '   ├─ /install → site space "guides" page getting-started/installation (temporary)',
        '   └─ /old-guides/* → section "guides" (permanent, keeps the rest of the path)',
      ].join("\n"),
    );
    // A site without a redirects list manages none: no line.
    expect(listed.slice(listed.indexOf("Partner preview"))).not.toContain("redirect");
  });
});
