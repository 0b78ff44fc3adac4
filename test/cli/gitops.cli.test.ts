/**
 * examples/gitops on a runner of one's own: a repository set up as its README says, then every job its
 * workflows run for a pull request, the merge, a hand edit and the nightly check, each step as the
 * workflow file writes it (test/cli/workflow.ts runs them), through the real Pulumi CLI against the
 * emulator, with a local file backend in place of Pulumi Cloud (the README's self-managed backend).
 *
 * Set-up: `npm run package` (without its build: the suite has built dist/; written into the test's own
 * folder), `pulumi new` of the packed template into the repository's `docs/`, the organisation set in
 * `docs.yaml`, the workflows copied to `.github/workflows/`, one `git add -A` and commit. The commit
 * must hold the tarball, `package-lock.json` and the `.gitignore`, and no `node_modules`.
 *
 * Each event's jobs are those whose `if:` holds for it, run in a fresh clone of the repository at the
 * event's commit (for a pull request, the merge of its branch into main, as actions/checkout gives it),
 * where `npm ci` installs from the committed tarball and lock file. The jobs of one commit share its
 * clone, and an install command that ran there already is not repeated. The site-diff comment is posted by
 * docs-diff-comment.yml from the artifact docs-diff.yml uploads, through a stand-in `gh` that answers
 * for the pull request and keeps the comment. DOCSPLATFORM_API_URL and DOCSPLATFORM_API_TOKEN come from
 * the workflow's `vars` and `secrets`, as on GitHub.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { REPO_ROOT } from "../harness/program";
import { apiOf, type Api } from "../support/api";
import { packTemplate, type PackedTemplate } from "./packedTemplate";
import { pulumiBinDir } from "./pulumi";
import { userShellEnv } from "./userShell";
import { describeJob, jobRuns, pulumiAction, readWorkflow, runJob, type ActionHandler, type Contexts, type JobResult, type Workflow } from "./workflow";

const EXAMPLE = path.join(REPO_ROOT, "examples", "gitops");
const PR_NUMBER = 7;
const ORG = "demo-org";

let work: string;
let emu: RunningEmulator;
let api: Api;
let packed: PackedTemplate;
let env: NodeJS.ProcessEnv;
let cliVersion: string;
/** The repository the workflows are copied into and run for. */
let repo: string;
/** `organization/<project>/<stack>`, as the platform workflow's STACK names it. */
let stack: string;
/** The merge of the pull request, as its jobs check it out. */
let prHead: string;
/** The comment job's stand-in `gh`: what it was asked and what it posted. */
let ghLog: string;
let ghPosted: string;
/** What the nightly job's pull requests would hold: the workspace's diff of docs/ when the action ran. */
const pullRequests: string[] = [];
/** The install commands that ran in each checkout. */
const installs = new Map<string, Set<string>>();

const git = (cwd: string, ...args: string[]): string => execFileSync("git", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

/** The repository's copies of the workflows. */
const workflows = (): Workflow[] =>
  fs
    .readdirSync(path.join(repo, ".github", "workflows"))
    .sort()
    .map((f) => readWorkflow(path.join(repo, ".github", "workflows", f)));

/** The event names a workflow's `on:` lists. */
function triggers(w: Workflow): string[] {
  if (typeof w.on === "string") return [w.on];
  if (Array.isArray(w.on)) return w.on as string[];
  return Object.keys(w.on as object);
}

/** A fresh clone of the repository at `rev`, or at the merge of `merge` into `rev` (a pull request's checkout). */
function checkout(name: string, rev: string, merge?: string): string {
  const dir = path.join(work, "checkouts", name);
  execFileSync("git", ["clone", "--quiet", repo, dir], { env });
  git(dir, "checkout", "--quiet", "--detach", `origin/${rev}`);
  if (merge) git(dir, "merge", "--quiet", "--no-ff", "--no-edit", `origin/${merge}`);
  return dir;
}

/** What the runner gives every job: its handlers of the `uses:` steps. */
function actions(artifacts: string): Record<string, ActionHandler> {
  const nothing = (why: string) => ({ command: "", code: 0, output: "", seconds: 0, skipped: why });
  return {
    // The job runs in the test's checkout of the event's commit (full history: HEAD^1 is there).
    "actions/checkout": async () => nothing("the test's checkout"),
    "actions/setup-node": async ({ inputs }) => {
      const wanted = inputs["node-version"];
      if (wanted !== undefined && process.versions.node.split(".")[0] !== wanted) return { command: "", code: 1, output: `node-version ${wanted}, but this runner has Node.js ${process.version}`, seconds: 0 };
      return nothing(`Node.js ${process.version} on PATH`);
    },
    "actions/upload-artifact": async ({ inputs, workspace }) => {
      fs.cpSync(path.resolve(workspace, inputs["path"]!), path.join(artifacts, inputs["name"]!), { recursive: true });
      return nothing(`kept as artifact ${inputs["name"]}`);
    },
    "actions/download-artifact": async ({ inputs, workspace }) => {
      fs.cpSync(path.join(artifacts, inputs["name"]!), path.resolve(workspace, inputs["path"] ?? "."), { recursive: true });
      return nothing(`artifact ${inputs["name"]}`);
    },
    "pulumi/actions": pulumiAction({ cliVersion }),
    // The pull request of the nightly pull: the change of docs/ is kept as the pull request's, and the
    // checkout goes back to the base branch's file (the pull request is not merged here).
    "peter-evans/create-pull-request": async ({ inputs, workspace }) => {
      const diff = git(workspace, "diff", "--", "docs");
      pullRequests.push(diff);
      if (diff !== "") git(workspace, "checkout", "--", "docs");
      return nothing(diff === "" ? "no change: no pull request" : `pull request on ${inputs["branch"]}`);
    },
  };
}

/** The contexts of an event on the repository. */
function contexts(event: string, payload: Record<string, unknown> = {}): Contexts {
  return {
    github: { event_name: event, event: payload, repository: "acme/docs", ref: "refs/heads/main" },
    secrets: { DOCSPLATFORM_API_TOKEN: emu.token, GITHUB_TOKEN: "ghs_stand-in" },
    vars: { DOCSPLATFORM_API_URL: emu.url },
  };
}

/** Runs every job the event starts, across the repository's workflows, in `workspace`. */
async function runEvent(event: string, workspace: string, payload: Record<string, unknown> = {}, jobEnv: NodeJS.ProcessEnv = {}): Promise<JobResult[]> {
  const ctx = contexts(event, payload);
  const installed = installs.get(workspace) ?? installs.set(workspace, new Set()).get(workspace)!;
  const results: JobResult[] = [];
  for (const w of workflows().filter((w) => triggers(w).includes(event))) {
    for (const job of Object.keys(w.jobs).filter((j) => jobRuns(w, j, ctx))) {
      results.push(await runJob(w, job, { contexts: ctx, workspace, env: { ...env, ...jobEnv }, actions: actions(path.join(work, "artifacts")), installed }));
    }
  }
  return results;
}

const jobNames = (results: JobResult[]): string[] => results.map((r) => `${r.workflow} ${r.job}`);
const stepOutput = (r: JobResult, pattern: RegExp): string => r.steps.find((s) => pattern.test(s.command))?.output ?? "";

/** The site the starter declares, and its sections, as the platform has them. */
async function liveSections(): Promise<{ siteId: string; sections: { id: string; title: string }[] }> {
  const sites = await api<{ items: { id: string; title: string }[] }>("GET", `/v1/orgs/${ORG}/sites`);
  const site = sites.items.find((s) => s.title === "Documentation");
  if (!site) return { siteId: "", sections: [] };
  const sections = await api<{ items: { id: string; title: string }[] }>("GET", `/v1/orgs/${ORG}/sites/${site.id}/sections`);
  return { siteId: site.id, sections: sections.items };
}

beforeAll(async () => {
  const bin = pulumiBinDir();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "docsplatform-gitops-"));
  for (const dir of ["home", "backend", "gh", "checkouts", "artifacts"]) fs.mkdirSync(path.join(work, dir));
  ghLog = path.join(work, "gh.log");
  ghPosted = path.join(work, "gh-posted.md");
  fs.writeFileSync(
    path.join(work, "gh", "gh"),
    [
      "#!/usr/bin/env bash",
      "# gh as the comment job calls it: the pull request's head, no comment of ours yet, and the comment posted kept.",
      "set -euo pipefail",
      'printf "%s\\n" "$*" >> "$GH_STAND_IN_LOG"',
      'if [[ "$1 $2" == "pr view" ]]; then echo "$GH_STAND_IN_HEAD"; exit 0; fi',
      'if [[ "$1" == api ]]; then for a in "$@"; do if [[ "$a" == body=@* ]]; then cp "${a#body=@}" "$GH_STAND_IN_POSTED"; fi; done; exit 0; fi',
      'echo "gh: no stand-in for: $*" >&2; exit 1',
    ].join("\n") + "\n",
    { mode: 0o755 },
  );
  env = {
    ...userShellEnv(path.join(work, "home"), [bin]),
    // The README's self-managed backend: a folder here, its passphrase as the runner's secret would give it.
    PULUMI_BACKEND_URL: `file://${path.join(work, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "gitops-passphrase",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    NO_COLOR: "1",
    GIT_AUTHOR_NAME: "Docs Team",
    GIT_AUTHOR_EMAIL: "docs@demo.test",
    GIT_COMMITTER_NAME: "Docs Team",
    GIT_COMMITTER_EMAIL: "docs@demo.test",
  };
  cliVersion = execFileSync("pulumi", ["version"], { env, encoding: "utf8" }).trim();
  emu = await startEmulator({ port: 0 });
  api = apiOf(emu);
  packed = packTemplate(path.join(work, "package"));
}, 120_000);

afterAll(async () => {
  await emu?.close();
  // The node_modules of the three installs take up to a minute to remove: a process of its own removes
  // them after the file ends.
  if (work) spawn("rm", ["-rf", work], { detached: true, stdio: "ignore" }).unref();
});

describe("examples/gitops on a repository set up as its README says", { timeout: 180_000 }, () => {
  it("set-up: npm run package, pulumi new into docs/, the organisation in docs.yaml, and one commit with the tarball, the lock file and the .gitignore, without node_modules", async () => {
    const readme = fs.readFileSync(path.join(EXAMPLE, "README.md"), "utf8");
    const setUp = readme.slice(readme.indexOf("## Set it up"), readme.indexOf("\n## ", readme.indexOf("## Set it up") + 1));
    for (const said of ["npm run package", "pulumi new", "--dir docs", "package-lock.json", ".gitignore", "organization:"]) expect(setUp).toContain(said);

    // The platform workflow's STACK names the project and stack; a file backend takes `organization` as the organisation.
    stack = String(readWorkflow(path.join(EXAMPLE, "docs-platform.yml")).env?.["STACK"]);
    const [owner, project, stackName] = stack.split("/");
    expect(owner).toBe("organization");
    // The README's `pulumi new` line makes that project and stack; the test runs it so (answering its prompts with --yes).
    expect(setUp).toContain(`pulumi new /path/to/clone/dist/package/docs-platform --dir docs --name ${project} --stack ${stack}\n`);

    repo = path.join(work, "repo");
    fs.mkdirSync(repo);
    git(repo, "init", "--quiet", "--initial-branch=main");
    // A repository that ignores package tarballs, as many do: the project's own .gitignore keeps its tarball in.
    fs.writeFileSync(path.join(repo, ".gitignore"), "*.tgz\n");
    fs.writeFileSync(path.join(repo, "README.md"), "# Our docs\n");
    git(repo, "add", "-A");
    git(repo, "commit", "--quiet", "-m", "Our docs");

    const made = spawnSync("pulumi", ["new", packed.template, "--dir", "docs", "--name", project!, "--stack", stack, "--yes"], { cwd: repo, env, encoding: "utf8" });
    expect(made.status, `${made.stdout}${made.stderr}`).toBe(0);
    expect(`${made.stdout}${made.stderr}`).not.toMatch(/npm (ERR|error)/);
    const docs = path.join(repo, "docs");
    expect(fs.readFileSync(path.join(docs, ".gitignore"), "utf8")).toMatch(/^node_modules\/$/m);
    expect(fs.existsSync(path.join(docs, "node_modules", "pulumi-docsplatform"))).toBe(true);

    // The organisation is the stack file's: `pulumi new` cannot write it there, the README says to.
    const starter = fs.readFileSync(path.join(docs, "docs.yaml"), "utf8");
    expect(starter).toMatch(/^organization: your-organization-id$/m);
    fs.writeFileSync(path.join(docs, "docs.yaml"), starter.replace(/^organization: .*$/m, `organization: ${ORG}`));

    fs.mkdirSync(path.join(repo, ".github", "workflows"), { recursive: true });
    for (const f of fs.readdirSync(EXAMPLE).filter((f) => f.endsWith(".yml"))) fs.copyFileSync(path.join(EXAMPLE, f), path.join(repo, ".github", "workflows", f));

    git(repo, "add", "-A");
    git(repo, "commit", "--quiet", "-m", "The docs platform, in docs/");
    const committed = git(repo, "ls-files", "docs").split("\n");
    expect(committed).toEqual(
      [".gitignore", `Pulumi.${stackName}.yaml`, "Pulumi.yaml", "README.md", "docs.yaml", "package-lock.json", "package.json", path.basename(packed.tarball)].map((f) => `docs/${f}`).sort(),
    );
    // The lock file names the tarball by path: `npm ci` installs it from the checkout.
    const lock = JSON.parse(fs.readFileSync(path.join(docs, "package-lock.json"), "utf8")) as { packages: Record<string, { resolved?: string }> };
    expect(lock.packages["node_modules/pulumi-docsplatform"]?.resolved).toBe(`file:${path.basename(packed.tarball)}`);
  });

  it("a pull request: validate and preview, the site diff posted as a comment with its URL-guard verdict, and the URL guard", async () => {
    // The pull request adds a section to the starter's site.
    git(repo, "checkout", "--quiet", "-b", "guides");
    const file = path.join(repo, "docs", "docs.yaml");
    const doc = parseDocument(fs.readFileSync(file, "utf8"));
    doc.setIn(["sites", 0, "sections"], doc.createNode([{ key: "guides", title: "Guides", space: { id: "space-guides" } }]));
    fs.writeFileSync(file, doc.toString());
    git(repo, "commit", "--quiet", "-am", "A Guides section");
    const head = git(repo, "rev-parse", "HEAD");
    git(repo, "checkout", "--quiet", "main");

    const merged = checkout("pull-request", "main", "guides");
    prHead = git(merged, "rev-parse", "HEAD");
    const jobs = await runEvent("pull_request", merged, { number: PR_NUMBER, pull_request: { number: PR_NUMBER, head: { sha: head } } });
    expect(jobNames(jobs)).toEqual(["docs-diff.yml diff", "docs-platform.yml preview", "docs-url-guard.yml guard"]);
    for (const job of jobs) expect(job.ok, describeJob(job)).toBe(true);

    const preview = jobs.find((j) => j.job === "preview")!;
    expect(stepOutput(preview, /docsplatform validate/)).toMatch(new RegExp(`docs\\.yaml: OK \\(organisation ${ORG}: `));
    expect(stepOutput(preview, /^pulumi preview/)).toMatch(/\+ \d+ to create/);

    // docs-diff.yml wrote the comment and the pull request's number; docs-diff-comment.yml posts it.
    const comment = fs.readFileSync(path.join(merged, "docs-diff", "comment.md"), "utf8");
    expect(comment.split("\n")[0]).toBe("<!-- docsplatform-diff -->");
    expect(comment).toMatch(/^\*\*URL guard: passed\*\* \(no reader URL removed or moved\)$/m);
    expect(comment).toMatch(/^\+ section "Guides"/m);
    expect(fs.readFileSync(path.join(merged, "docs-diff", "pr-number"), "utf8").trim()).toBe(String(PR_NUMBER));

    const poster = path.join(work, "checkouts", "comment");
    fs.mkdirSync(poster);
    const posted = await runEvent(
      "workflow_run",
      poster,
      { workflow_run: { event: "pull_request", conclusion: "success", id: 1, head_sha: head, html_url: "https://github.test/acme/docs/actions/runs/1" } },
      { PATH: `${path.join(work, "gh")}${path.delimiter}${env["PATH"]}`, GH_STAND_IN_LOG: ghLog, GH_STAND_IN_HEAD: head, GH_STAND_IN_POSTED: ghPosted },
    );
    expect(jobNames(posted)).toEqual(["docs-diff-comment.yml comment"]);
    expect(posted[0]!.ok, describeJob(posted[0]!)).toBe(true);
    expect(fs.readFileSync(ghPosted, "utf8")).toBe(comment);
    expect(fs.readFileSync(ghLog, "utf8")).toMatch(new RegExp(`^api --method POST repos/acme/docs/issues/${PR_NUMBER}/comments -F body=@`, "m"));
  });

  it("the merge: the up job validates and creates the platform", async () => {
    git(repo, "merge", "--quiet", "--no-ff", "--no-edit", "guides");
    const main = checkout("main", "main");
    expect(git(main, "rev-parse", "HEAD^{tree}")).toBe(git(path.join(work, "checkouts", "pull-request"), "rev-parse", `${prHead}^{tree}`));
    const [up, ...others] = await runEvent("push", main);
    expect(others.map((r) => r.job)).toEqual([]);
    expect(up?.job).toBe("up");
    expect(up!.ok, describeJob(up!)).toBe(true);
    expect(stepOutput(up!, /^pulumi up/)).toMatch(/\+ \d+ created/);
    expect((await liveSections()).sections.map((s) => s.title)).toEqual(["Guides"]);
  });

  it("a section retitled by hand: the nightly job pulls it into docs.yaml and opens a pull request with that line; the check passes; closed, the up job puts the title back", async () => {
    const main = path.join(work, "checkouts", "main");
    const { siteId, sections } = await liveSections();
    await api("PATCH", `/v1/orgs/${ORG}/sites/${siteId}/sections/${sections[0]!.id}`, { title: "Guides (edited by hand)" });

    const [drift] = await runEvent("schedule", main);
    expect(drift?.job).toBe("drift");
    expect(drift!.ok, describeJob(drift!)).toBe(true);
    expect(stepOutput(drift!, /docsplatform pull/)).toMatch(/pull: wrote docs\.yaml: 1 change from organization demo-org/);
    const changed = pullRequests.at(-1)!.split("\n").filter((l) => /^[-+] /.test(l));
    expect(changed).toEqual([expect.stringMatching(/^-\s+title: Guides$/), expect.stringMatching(/^\+\s+title: Guides \(edited by hand\)$/)]);

    // The pull request closed unmerged: what the up job runs, by hand (workflow_dispatch) or on the next merge.
    const [repair] = await runEvent("workflow_dispatch", main);
    expect(repair?.job).toBe("up");
    expect(repair!.ok, describeJob(repair!)).toBe(true);
    expect((await liveSections()).sections.map((s) => s.title)).toEqual(["Guides"]);

    const [again] = await runEvent("schedule", main);
    expect(again!.ok, describeJob(again!)).toBe(true);
    expect(pullRequests.at(-1)).toBe("");
  });
});
