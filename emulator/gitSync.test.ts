/** Git Sync installations: install, configure, the missing site file's 409, the site file's import on save and on a push, the write-only GitLab token, limits. */
import { describe, expect, it } from "vitest";
import { shareEmulator } from "../test/support/emulatorSuite";

const emu = shareEmulator();
const admin = emu.caller();
const control = emu.caller(null);
const S = "/v1/orgs/demo-org/sites";
const G = "/v1/git/installations";
const BRANCH = "refs/heads/main";

const SITE_FILE = `
version: 1
site:
  title: Acme Docs
  structure:
    - type: section
      key: sec-guides
      title: Guides
      path: guides
      default: true
      children:
        - {type: space, key: sp-guides, title: Guides, path: latest, default: true, content: {directory: ./guides}}
        - {type: space, key: sp-old, title: Old guides, path: old, content: {directory: null}}
    - type: section-group
      key: grp-ref
      title: Reference
      children:
        - type: section
          key: sec-api
          title: API
          path: api
          children:
            - {type: space, key: sp-api, title: API, path: v1, default: true, content: {directory: /api-docs}}
        - {type: external-link, key: link-status, title: Status, url: "https://status.example.com", draft: true}
`;

/** A site with a GitHub installation on repository 42, configured with priority gitbook. */
async function installed(directory = "docs/handbook") {
  const site = (await admin("POST", S, { title: "Handbook" })).body;
  const inst = await admin("POST", G, { provider: "github", target: { type: "site", siteId: site.id } });
  expect(inst.status).toBe(201);
  expect(inst.headers.get("location")).toBe(`${emu.url}${G}/${inst.body.id}`);
  const setup = { provider: "github", providerConfiguration: { repositoryId: 42, branch: BRANCH }, projectDirectory: directory, priority: "gitbook" };
  expect((await admin("PATCH", `${G}/${inst.body.id}`, setup)).status).toBe(200);
  return { site, id: inst.body.id as string, setup };
}

const push = (text: string | null, directory = "docs/handbook") => control("PUT", "/_emulator/git/site-files", { provider: "github", repository: 42, branch: BRANCH, projectDirectory: directory, text });

/** The site's structure as titles and paths, groups nested. */
async function shape(siteId: string): Promise<unknown[]> {
  const r = await admin("GET", `${S}/${siteId}/structure`);
  const walk = (items: any[]): unknown[] =>
    items.map((i) =>
      i.object === "site-section-group" ? [i.title, walk(i.children)] : i.object === "site-section" ? [`${i.title} /${i.path}${i.default ? " (default)" : ""}`, i.siteSpaces.map((s: any) => `${s.title} /${s.path}${s.default ? " (default)" : ""}`)] : `${i.title} -> ${i.url}`,
    );
  return walk(r.body.structure);
}

describe("Git Sync installations", () => {
  it("installs on a site, answers the setup, lists it with the site's, and uninstalls (205, then 404)", async () => {
    const { site, id } = await installed();
    const got = await admin("GET", `${G}/${id}`);
    expect(got.body).toMatchObject({
      object: "git-sync-installation", id, target: { type: "site", siteId: site.id }, status: "active", provider: "github",
      providerConfiguration: { repositoryId: 42, branch: BRANCH }, projectDirectory: "docs/handbook", priority: "gitbook",
      repositoryConnection: { object: "git-repository-connection", repositoryId: "42" }, repositoryRef: { name: BRANCH, type: "branch" },
    });
    expect((await admin("POST", G, { provider: "github", target: { type: "site", siteId: site.id } })).status).toBe(409);
    expect((await admin("GET", `${S}/${site.id}/spaces/git/installations`)).body.items.map((i: any) => i.id)).toEqual([id]);
    expect((await admin("DELETE", `${G}/${id}`)).status).toBe(205);
    expect((await admin("GET", `${G}/${id}`)).status).toBe(404);
    expect((await admin("DELETE", `${G}/${id}`)).status).toBe(404);
  });

  it("answers priority git without a site file 409 missing_site_git_sync_config naming the path and branch, and saves nothing", async () => {
    const { id, setup } = await installed();
    const r = await admin("PATCH", `${G}/${id}`, { ...setup, priority: "git", commitMessageTemplate: "docs: {message}" });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 409, type: "missing_site_git_sync_config", details: { path: "docs/handbook/gitbook-docs.yaml", branch: BRANCH, prompt: expect.stringContaining("docs/handbook/gitbook-docs.yaml") } });
    expect(r.body.error.message).toContain("docs/handbook/gitbook-docs.yaml");
    const after = (await admin("GET", `${G}/${id}`)).body;
    expect(after.priority).toBe("gitbook");
    expect(after.commitMessageTemplate).toBeUndefined();
    // A file in another directory is not the one it reads.
    await push(SITE_FILE, "docs");
    expect((await admin("PATCH", `${G}/${id}`, { ...setup, priority: "git" })).status).toBe(409);
  });

  it("imports the site file's structure when priority git is saved, and again on each push, keeping objects by key", async () => {
    const { site, id, setup } = await installed();
    expect((await push(SITE_FILE)).body).toEqual({ imported: 0 });
    expect((await admin("PATCH", `${G}/${id}`, { ...setup, priority: "git" })).status).toBe(200);
    expect((await admin("GET", `${S}/${site.id}`)).body.title).toBe("Acme Docs");
    expect(await shape(site.id)).toEqual([
      ["Guides /guides (default)", ["Guides /latest (default)", "Old guides /old"]],
      ["Reference", [["API /api", ["API /v1 (default)"]], "Status -> https://status.example.com"]],
    ]);
    const before = (await admin("GET", `${S}/${site.id}/structure`)).body.structure;
    // A push: the group goes first, the old guides go, the API section is renamed.
    const pushed = SITE_FILE.replace("title: API\n", "title: API reference\n").replace(/ {8}- \{type: space, key: sp-old.*\n/, "");
    const moved = pushed.replace(/( {4}- type: section\n {6}key: sec-guides[\s\S]*?)( {4}- type: section-group[\s\S]*)$/, "$2$1");
    expect((await push(moved)).body).toEqual({ imported: 1 });
    expect(await shape(site.id)).toEqual([
      ["Reference", [["API reference /api", ["API /v1 (default)"]], "Status -> https://status.example.com"]],
      ["Guides /guides (default)", ["Guides /latest (default)"]],
    ]);
    const after = (await admin("GET", `${S}/${site.id}/structure`)).body.structure;
    expect(after[1].id).toBe(before[0].id);
    expect(after[0].children[0].id).toBe(before[1].children[0].id);
  });

  it("fails the sync of a file that breaks the rules and leaves the site as it was", async () => {
    const { site, id, setup } = await installed();
    await push(SITE_FILE.replace("      default: true\n      children:", "      children:"));
    expect((await admin("PATCH", `${G}/${id}`, { ...setup, priority: "git" })).status).toBe(200);
    expect(await shape(site.id)).toEqual([]);
    expect(emu.store.get("gitInstallations", id)!.operation).toMatchObject({ state: "failure", error: expect.stringContaining("exactly one section") });
    // The site reports its installation and the failed import.
    expect((await admin("GET", `${S}/${site.id}`)).body.gitSync).toMatchObject({ installationId: id, installationProvider: "github", installationStatus: "active", operation: { state: "failure", direction: "import" } });
  });

  it("never answers a GitLab access token, and keeps only its digest", async () => {
    const site = (await admin("POST", S, { title: "Lab" })).body;
    const id = (await admin("POST", G, { provider: "gitlab", target: { type: "site", siteId: site.id } })).body.id;
    expect((await admin("GET", `${G}/${id}`)).body.status).toBe("pending");
    const token = "glpat-emulator-secret-0123456789";
    const r = await admin("PATCH", `${G}/${id}`, { provider: "gitlab", providerConfiguration: { projectId: 7, accessToken: token, customInstanceURL: "https://gitlab.example.com", branch: BRANCH } });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("active");
    expect(r.body.providerConfiguration).toEqual({ projectId: 7, customInstanceURL: "https://gitlab.example.com", branch: BRANCH });
    expect(JSON.stringify(r.body)).not.toContain(token);
    expect(JSON.stringify((await admin("GET", `${S}/${site.id}/spaces/git/installations`)).body)).not.toContain(token);
    expect(JSON.stringify(emu.store.snapshot())).not.toContain(token);
    expect(JSON.stringify([...emu.store.all("gitInstallations")])).not.toContain(token);
    // customInstanceURL: null clears it; the token is kept.
    const cleared = await admin("PATCH", `${G}/${id}`, { provider: "gitlab", providerConfiguration: { customInstanceURL: null } });
    expect(cleared.body.providerConfiguration).toEqual({ projectId: 7, branch: BRANCH });
    expect(cleared.body.status).toBe("active");
  });

  it("holds every body to the limits, naming the field and the limit in words", async () => {
    const { id, setup } = await installed();
    const refused = async (body: unknown, field: RegExp) => {
      const r = await admin("PATCH", `${G}/${id}`, body);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(field);
    };
    await refused({ ...setup, providerConfiguration: { branch: "main" } }, /branch.*refs\/heads\//);
    await refused({ ...setup, projectDirectory: "../outside" }, /projectDirectory must be a folder of the repository relative to its root: no leading '\/'/);
    await refused({ ...setup, priority: "platform" }, /priority/);
    await refused({ ...setup, providerConfiguration: { projectId: 3 } }, /projectId is not a member of a github configuration/);
    await refused({ providerConfiguration: {} }, /provider/);
    await refused({ provider: "gitlab", providerConfiguration: { customInstanceURL: "not a url" } }, /customInstanceURL/);
    expect((await admin("POST", G, { provider: "github", target: { type: "site", siteId: "nope" } })).status).toBe(404);
  });

  it("installs a space's child installation under the site's: it inherits preview branches and gets its directory from the site's PATCH", async () => {
    const { site, id, setup } = await installed();
    const child = await admin("POST", G, { provider: "github", target: { type: "space", spaceId: "space-guides", siteId: site.id } });
    expect(child.status).toBe(201);
    expect(child.body.parentInstallationId).toBe(id);
    const r = await admin("PATCH", `${G}/${child.body.id}`, { provider: "github", providerConfiguration: {}, previewExternalBranches: true });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/previewExternalBranches is inherited/);
    expect((await admin("PATCH", `${G}/${id}`, { ...setup, childInstallationProjectDirectories: { [child.body.id]: "docs/guides" } })).status).toBe(200);
    expect((await admin("GET", `${G}/${child.body.id}`)).body.projectDirectory).toBe("docs/guides");
    expect((await admin("GET", `${S}/${site.id}/spaces/git/installations`)).body.items).toHaveLength(2);
    // Uninstalling the site's removes its children.
    await admin("DELETE", `${G}/${id}`);
    expect((await admin("GET", `${G}/${child.body.id}`)).status).toBe(404);
  });
});
