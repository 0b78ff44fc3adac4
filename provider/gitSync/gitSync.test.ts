/**
 * A site's Git Sync installation through the engine harness (the real language host and plugin) against
 * the emulator over HTTP: up, a second up with no call, a changed branch as one PATCH, priority git without
 * the site file (the platform's 409, said in the file's terms), with it (the structure imported, a push
 * re-imported), the two-owners plan refused before any call, the GitLab token as a source only, destroy.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import type { RunningEmulator } from "../../emulator";
import type { PreparedProgram, ProgramRunner } from "../../test/harness";
import { startNoCodeProgram, stopProgram } from "../../test/support/program";
import { BRANCH, pushSiteFile, REPOSITORY } from "../../test/support/gitSyncRepository";
import { changes, upAndSettle, writes } from "../../test/support/steps";
import { exposedInState } from "../../test/support/secrets";
import { exportMain } from "../export/cli";
import { diffMain, treeMain } from "../view/cli";

/** A command's exit code and what it wrote. */
async function run(main: (argv: string[], io: object) => Promise<number>, argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { env: { ...env, NO_COLOR: "1" }, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { code, stdout, stderr };
}

const GITLAB_TOKEN = "glpat-HARNESS-0f3b9c7e21d84a65";

const DOCS = `organization: demo-org
sites:
  - key: handbook
    title: Handbook
    gitSync:
      provider: github
      repository: ${REPOSITORY}
      branch: ${BRANCH}
      projectDirectory: docs/handbook
      priority: gitbook
      commitMessageTemplate: "docs: {{message}}"
`;

const SITE_FILE = `version: 1
site:
  title: Handbook
  structure:
    - type: section
      key: guides
      title: Guides
      path: guides
      default: true
      children:
        - {type: space, key: guides-latest, title: Guides, path: latest, default: true, content: {directory: ./guides}}
    - type: section
      key: api
      title: API
      path: api
      children:
        - {type: space, key: api-v1, title: API v1, path: v1, default: true, content: {directory: ./api}}
`;

describe("a site's Git Sync installation through the engine", { timeout: 300_000 }, () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  const docsFile = () => path.join(program.dir, "docs.yaml");
  const editGitSync = (edit: (g: Record<string, unknown>, site: Record<string, unknown>) => void): void => {
    const data = parseDocument(fs.readFileSync(docsFile(), "utf8")).toJS() as { sites: Record<string, unknown>[] };
    const site = data.sites[0]!;
    edit(site.gitSync as Record<string, unknown>, site);
    fs.writeFileSync(docsFile(), parseDocument(JSON.stringify(data)).toString());
  };
  const installation = () => [...emu.store.all("gitInstallations")].find((g) => g.target.type === "site")!;
  const push = (text: string | null) => pushSiteFile(emu.url, "docs/handbook", text);
  const siteShape = () => {
    const site = emu.store.snapshot().organizations[0]!.sites.find((s) => s.title === "Handbook")!;
    return site.sections.map((s) => [s.title, s.path, s.siteSpaces.map((ss) => ss.path)]);
  };

  beforeAll(async () => {
    ({ emu, program, runner } = await startNoCodeProgram("gitsync", { "docs.yaml": DOCS }, { runner: { env: { GITLAB_TOKEN } } }));
  }, 300_000);
  afterAll(() => stopProgram({ emu, program, runner }));

  it("up installs and configures in two writes, a second up makes no call, a changed branch is one PATCH", async () => {
    const preview = await runner.preview();
    expect(changes(preview)).toEqual(["create Site gitsync/handbook", "create SiteGitSync gitsync/handbook"]);
    const up = await upAndSettle(runner);
    expect(writes(up).filter((w) => w.includes("/git/"))).toEqual(["POST /v1/git/installations 201", "PATCH /v1/git/installations/:installationId 200"]);
    expect(installation()).toMatchObject({ provider: "github", providerConfiguration: { repositoryId: 4242, branch: BRANCH }, projectDirectory: "docs/handbook", priority: "gitbook", commitMessageTemplate: "docs: {{message}}" });

    editGitSync((g) => (g.branch = "refs/heads/docs"));
    const changed = await upAndSettle(runner);
    expect(changes(changed)).toEqual(["update SiteGitSync gitsync/handbook"]);
    expect(writes(changed)).toEqual(["PATCH /v1/git/installations/:installationId 200"]);
    expect(installation().providerConfiguration.branch).toBe("refs/heads/docs");
    editGitSync((g) => (g.branch = BRANCH));
    await runner.up();
  });

  it("a space's child installation: added with its folder, a second up with no call, its folder changed in the site's PATCH, removed", async () => {
    const children = () => [...emu.store.all("gitInstallations")].filter((g) => g.parent !== null).map((g) => [g.target.type === "space" ? g.target.spaceId : "", g.projectDirectory]);
    editGitSync((g) => (g.spaces = [{ space: { id: "space-guides" }, projectDirectory: "docs/guides" }]));
    const added = await upAndSettle(runner);
    expect(writes(added)).toEqual(["POST /v1/git/installations 201", "PATCH /v1/git/installations/:installationId 200"]);
    expect(children()).toEqual([["space-guides", "docs/guides"]]);
    editGitSync((g) => (g.spaces = [{ space: { id: "space-guides" }, projectDirectory: "docs/guides-v2" }]));
    const moved = await upAndSettle(runner);
    expect(writes(moved)).toEqual(["PATCH /v1/git/installations/:installationId 200"]);
    expect(children()).toEqual([["space-guides", "docs/guides-v2"]]);
    const tree = await run(treeMain, [docsFile()]);
    expect(tree.stdout).toContain("1 space synced from its own folder");
    editGitSync((g) => delete g.spaces);
    const removed = await upAndSettle(runner);
    expect(writes(removed)).toEqual(["DELETE /v1/git/installations/:installationId 205", "PATCH /v1/git/installations/:installationId 200"]);
    expect(children()).toEqual([]);
  });

  it("priority git without the site file fails with the path and branch the platform expects; with it the structure is imported, and a push re-imports it", async () => {
    editGitSync((g) => (g.priority = "git"));
    const failed = await runner.up({ allowError: true });
    expect(failed.error?.message).toContain("docs/handbook/gitbook-docs.yaml on branch refs/heads/main of repository 4242");
    expect(failed.error?.message).toContain("set gitSync.priority: gitbook");
    expect(writes(failed)).toEqual(["PATCH /v1/git/installations/:installationId 409"]);
    expect(installation().priority).toBe("gitbook");

    await push(SITE_FILE);
    const up = await upAndSettle(runner);
    expect(writes(up)).toEqual(["PATCH /v1/git/installations/:installationId 200"]);
    expect(siteShape()).toEqual([["Guides", "guides", ["latest"]], ["API", "api", ["v1"]]]);

    // A push (the emulator's test route) re-imports: the file's order and paths, no call from the provider.
    await push(SITE_FILE.replace("path: v1", "path: v2").replace(/( {4}- type: section\n {6}key: guides[\s\S]*?)( {4}- type: section\n {6}key: api[\s\S]*)$/, "$2$1"));
    expect(siteShape()).toEqual([["API", "api", ["v2"]], ["Guides", "guides", ["latest"]]]);
    const again = await runner.up();
    expect(again.apiCalls).toEqual([]);

    // Export writes the block back and leaves the repository's structure to the repository.
    const exported = await run(exportMain, ["--org", "demo-org"], { DOCSPLATFORM_API_URL: emu.url, DOCSPLATFORM_API_TOKEN: emu.token });
    expect(exported.code).toBe(0);
    const site = (parseDocument(exported.stdout).toJS() as { sites: Record<string, unknown>[] }).sites.find((s) => s.title === "Handbook")!;
    expect(site.gitSync).toEqual({ provider: "github", repository: 4242, branch: BRANCH, projectDirectory: "docs/handbook", priority: "git", commitMessageTemplate: "docs: {{message}}" });
    expect(site.sections).toBeUndefined();
    expect(exported.stdout + exported.stderr).toContain("docs/handbook/gitbook-docs.yaml");
  });

  it("refuses, before any call, a file that declares by hand the structure of a site whose repository owns it", async () => {
    const before = fs.readFileSync(docsFile(), "utf8");
    editGitSync((_g, site) => (site.sections = [{ key: "guides", title: "Guides", space: { id: "space-guides" } }]));
    const preview = await runner.preview({ allowError: true });
    const up = await runner.up({ allowError: true });
    for (const run of [preview, up]) {
      expect(run.apiCalls).toEqual([]);
      expect(run.error?.message).toMatch(/docs\.yaml:\d+:\d+: sites\[0\]\.sections: site handbook: its Git Sync installation \(gitSync, priority git, branch refs\/heads\/main\)/);
      expect(run.error?.message).toContain("structure: {file: <path of the site file>}");
      expect(run.error?.message).toContain("set gitSync.priority: gitbook");
    }
    fs.writeFileSync(docsFile(), before);
  });

  it("takes a GitLab token from the environment only: a plain token is refused offline, located and never echoed; the state keeps no plaintext", async () => {
    const before = fs.readFileSync(docsFile(), "utf8");
    const gitlab = (token: unknown) =>
      editGitSync((g, site) => {
        site.gitSync = { provider: "gitlab", project: 77, branch: BRANCH, projectDirectory: "docs/handbook", priority: "gitbook", accessToken: token };
        void g;
      });
    gitlab(GITLAB_TOKEN);
    const refused = await runner.preview({ allowError: true });
    expect(refused.apiCalls).toEqual([]);
    expect(refused.error?.message).toMatch(/docs\.yaml:\d+:\d+: sites\[0\]\.gitSync\.accessToken: a token is never written in the stack file/);
    expect(JSON.stringify([refused.error?.message, refused.logs, refused.output])).not.toContain(GITLAB_TOKEN);

    gitlab({ env: "GITLAB_TOKEN" });
    const up = await upAndSettle(runner);
    // A new provider is a new installation: the GitHub one is removed.
    expect(changes(up)).toEqual(["replace SiteGitSync gitsync/handbook"]);
    expect(installation()).toMatchObject({ provider: "gitlab", providerConfiguration: { projectId: 77, branch: BRANCH } });
    expect(installation().accessTokenSha256).toMatch(/^[0-9a-f]{64}$/);
    const state = fs.readFileSync(runner.stateFile, "utf8");
    expect(exposedInState(JSON.parse(state), [GITLAB_TOKEN])).toEqual([]);
    expect(JSON.stringify([up.logs, up.output, up.outputs])).not.toContain(GITLAB_TOKEN);

    // Export writes the token as a source to set; tree shows the installation, diff names what changed; none shows the token.
    const exported = await run(exportMain, ["--org", "demo-org"], { DOCSPLATFORM_API_URL: emu.url, DOCSPLATFORM_API_TOKEN: emu.token });
    expect(exported.code).toBe(0);
    const site = (parseDocument(exported.stdout).toJS() as { sites: Record<string, unknown>[] }).sites.find((s) => s.title === "Handbook")!;
    expect(site.gitSync).toEqual({ provider: "gitlab", project: 77, branch: BRANCH, projectDirectory: "docs/handbook", priority: "gitbook", accessToken: { env: "GITSYNC_HANDBOOK_TOKEN" } });
    expect(exported.stdout).toContain("set GITSYNC_HANDBOOK_TOKEN");
    const beforeFile = path.join(program.dir, "before.yaml");
    fs.writeFileSync(beforeFile, before);
    const tree = await run(treeMain, [docsFile()]);
    expect(tree.stdout).toContain("Git Sync: gitlab project 77 · branch refs/heads/main · folder docs/handbook · priority gitbook: the platform is the source of truth · access token from a secret source");
    const diff = await run(diffMain, [beforeFile, docsFile()]);
    expect(diff.stdout).toContain("Git Sync: github repository 4242 → gitlab project 77 (installed anew)");
    expect(diff.stdout).toContain("Git Sync: the access token's source changed");
    for (const text of [exported.stdout, exported.stderr, tree.stdout, tree.stderr, diff.stdout, diff.stderr]) expect(text).not.toContain(GITLAB_TOKEN);
    fs.writeFileSync(docsFile(), before);
  });

  it("destroy uninstalls", async () => {
    await runner.up();
    const down = await runner.destroy();
    expect(writes(down)).toContain("DELETE /v1/git/installations/:installationId 205");
    expect([...emu.store.all("gitInstallations")]).toEqual([]);
  });
});
