/**
 * `docsplatform pull` through the Pulumi CLI: after `up`, a batch of changes made through the API as the
 * editor makes them (organisation settings, a team renamed, a site's field, a section retitled (its anchored
 * description untouched), another's description cleared, an MCP server moved) fails the nightly
 * `pulumi preview --refresh --expect-no-changes`; `pull` brings them into the file, touching only the
 * changed lines (comments, anchors, flow maps and quoting kept byte for byte), after which the same
 * check passes through the real CLI and a second pull writes nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiOf, type Api } from "../support/api";
import { pullMain } from "../../provider/pull/cli";
import { changedLines } from "../support/changedLines";
import { HANDBOOK, startCliProject, type CliProject } from "./project";

const DOCS = `# The docs platform of the pull test: comments, an anchor and flow maps the pull must keep.
organization: demo-org

settings:
  title: Demo Org
  defaultRole: read   # what members get unless told otherwise

teams:
  - key: writers
    title: 'Writers'

spaces:
  - key: guides
    id: space-guides
  - key: api
    id: space-api

sites:
  - key: docs
    title: Pull Docs
    visibility: public
    adaptiveContent: {enabled: false}
    sections:
      # The guides first: readers start there.
      - key: guides
        title: Guides
        description: &shared Written by the docs team
        space: guides
      - key: api
        title: "API"
        description: Reference
        space: api
      - key: more
        title: More
        description: *shared
        space: api
        path: more
  - key: partners
    title: Pull Partners
    visibility: share-link
    shareLinks:
      - key: acme
        name: Acme
      - key: globex
        name: Globex
    mcpServers:
      - key: status
        name: Status tools
        url: https://mcp.status.demo.test/sse
`;

let project: CliProject;
let api: Api;

beforeAll(async () => {
  project = await startCliProject(HANDBOOK, { prepare: (dir) => fs.writeFileSync(path.join(dir, "docs.yaml"), DOCS) });
  api = apiOf({ url: project.emu.url, token: project.emu.token });
}, 120_000);

afterAll(() => project?.stop());

async function pull(): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const code = await pullMain(["docs.yaml"], {
    env: { DOCSPLATFORM_API_URL: project.emu.url, DOCSPLATFORM_API_TOKEN: project.emu.token },
    cwd: project.program.dir,
    stdout: { write: () => true },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stderr };
}

describe("pull through the Pulumi CLI", { timeout: 300_000 }, () => {
  it("UI changes across kinds → pull → preview --refresh --expect-no-changes passes; a second pull writes nothing", async () => {
    const { cli } = project;
    await cli.run(["up", "--yes", "--skip-preview"]);
    const file = path.join(project.program.dir, "docs.yaml");
    expect(fs.readFileSync(file, "utf8")).toBe(DOCS);
    const sites = (await api<{ items: { id: string; title: string }[] }>("GET", "/v1/orgs/demo-org/sites")).items;
    const docs = sites.find((s) => s.title === "Pull Docs")!.id;
    const partners = sites.find((s) => s.title === "Pull Partners")!.id;
    const sections = (await api<{ items: { id: string; title: string }[] }>("GET", `/v1/orgs/demo-org/sites/${docs}/sections`)).items;
    const byTitle = (t: string) => sections.find((s) => s.title === t)!.id;
    const team = (await api<{ items: { id: string; title: string }[] }>("GET", "/v1/orgs/demo-org/teams")).items.find((t) => t.title === "Writers")!.id;
    const server = (await api<{ items: { id: string }[] }>("GET", `/v1/orgs/demo-org/sites/${partners}/mcp-servers`)).items[0]!.id;

    // As the editor would: one batch across kinds.
    await api("PATCH", "/v1/orgs/demo-org", { defaultRole: "comment" });
    await api("PATCH", `/v1/orgs/demo-org/teams/${team}`, { title: "Writers & editors" });
    await api("PATCH", `/v1/orgs/demo-org/sites/${docs}`, { visibility: "unlisted" });
    await api("PATCH", `/v1/orgs/demo-org/sites/${docs}/sections/${byTitle("Guides")}`, { title: "How-to guides" });
    await api("PATCH", `/v1/orgs/demo-org/sites/${docs}/sections/${byTitle("API")}`, { description: null });
    await api("PATCH", `/v1/orgs/demo-org/sites/${partners}/mcp-servers/${server}`, { url: "https://mcp.status.demo.test/v2/sse" });
    // Not in this batch: a share link deleted on the platform (pull removes its entry: provider/pull tests).

    const drift = await cli.run(["preview", "--refresh", "--expect-no-changes"], { allowFailure: true });
    expect(drift.code).not.toBe(0);

    const pulled = await pull();
    expect(pulled.code, pulled.stderr).toBe(0);
    const after = fs.readFileSync(file, "utf8");
    const changed = changedLines(DOCS, after);
    expect(changed.sort()).toEqual(
      [
        "-  defaultRole: read   # what members get unless told otherwise",
        "+  defaultRole: comment   # what members get unless told otherwise",
        "-    title: 'Writers'",
        "+    title: 'Writers & editors'",
        "-    visibility: public",
        "+    visibility: unlisted",
        "-        title: Guides",
        "+        title: How-to guides",
        "-        description: Reference",
        "-        url: https://mcp.status.demo.test/sse",
        "+        url: https://mcp.status.demo.test/v2/sse",
      ].sort(),
    );

    const check = await cli.run(["preview", "--refresh", "--expect-no-changes"]);
    expect(check.code).toBe(0);

    const again = await pull();
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("is up to date");
    expect(fs.readFileSync(file, "utf8")).toBe(after);
  });
});
