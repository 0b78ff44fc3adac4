/** The `tree` and `diff` commands: arguments, sides (`-`, `git:<rev>:<path>`), colours, exit codes. */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIFF_OPTIONS, diffMain, TREE_OPTIONS, treeMain, type ViewIo } from "./cli";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook/docs.yaml");
const TESTDATA = path.resolve(__dirname, "testdata");

async function run(main: (argv: string[], io: Partial<ViewIo>) => Promise<number>, argv: string[], opts: { env?: NodeJS.ProcessEnv; tty?: boolean; stdin?: string; cwd?: string } = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    env: opts.env ?? {},
    cwd: opts.cwd ?? TESTDATA,
    stdin: async () => opts.stdin ?? "",
    stdout: { write: (t: string) => (stdout += t), isTTY: opts.tty ?? false },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

const ESC = "\u001b[";

describe("docsplatform tree", () => {
  it("colours only on a terminal, and never with NO_COLOR", async () => {
    const piped = await run(treeMain, [HANDBOOK]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).not.toContain(ESC);
    const tty = await run(treeMain, [HANDBOOK], { tty: true });
    expect(tty.stdout).toContain(ESC);
    expect(tty.stdout.replace(/\u001b\[\d+m/g, "")).toBe(piped.stdout);
    expect((await run(treeMain, [HANDBOOK], { tty: true, env: { NO_COLOR: "1" } })).stdout).toBe(piped.stdout);
    // An empty NO_COLOR does not count (no-color.org).
    expect((await run(treeMain, [HANDBOOK], { tty: true, env: { NO_COLOR: "" } })).stdout).toContain(ESC);
  });

  it("reads standard input for -", async () => {
    // Site files the piped file names are read from the current directory.
    const r = await run(treeMain, ["-"], { stdin: fs.readFileSync(HANDBOOK, "utf8"), cwd: path.dirname(HANDBOOK) });
    expect(r).toEqual({ code: 0, stdout: (await run(treeMain, [HANDBOOK])).stdout, stderr: "" });
  });

  it("prints file:line:col problems for a bad file and exits 1", async () => {
    const r = await run(treeMain, ["-"], { stdin: "organization: demo-org\nsites:\n  - key: Bad Key\n    title: x\n" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^<stdin>:3:\d+: /);
  });

  it("refuses wrong arguments with the usage and exit 2, and --live without a token", async () => {
    expect((await run(treeMain, [])).code).toBe(2);
    expect((await run(treeMain, ["a.yaml", "b.yaml"])).code).toBe(2);
    expect((await run(treeMain, ["--live"])).stderr).toContain("--live needs --org");
    expect((await run(treeMain, ["--org", "x", HANDBOOK])).stderr).toContain("--org goes with --live");
    expect((await run(treeMain, ["--colour", HANDBOOK])).stderr).toContain("unknown option '--colour'");
    const noToken = await run(treeMain, ["--live", "--org", "demo-org"]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain("DOCSPLATFORM_API_TOKEN is not set");
  });
});

// Regression (#33): the help left out flags the parser accepts (the top-level usage showed diff with
// `--format markdown` alone, tree with none).
describe("every option the parsers accept is in the help", () => {
  const topLevel = execFileSync(process.execPath, [path.resolve(__dirname, "../../dist/provider/cli.js"), "--help"], { encoding: "utf8" });
  it.each([
    ["tree", treeMain, TREE_OPTIONS],
    ["diff", diffMain, DIFF_OPTIONS],
  ] as const)("%s", async (name, main, options) => {
    const help = (await run(main, ["--help"])).stdout;
    const synopsis = topLevel.split("\n").filter((l) => l.trimStart().startsWith(`${name} `)).join("\n");
    for (const option of [...options.withValue, ...options.flags]) {
      expect(help, `${name} --help`).toMatch(new RegExp(`^\\s+${option}\\b`, "m"));
      expect(synopsis, `docsplatform --help, ${name}`).toContain(option);
    }
    // Nothing the help lists as an option is refused by the parser.
    for (const listed of new Set(help.match(/--[a-z][a-z-]+/g) ?? [])) expect([...options.withValue, ...options.flags, "--help"]).toContain(listed);
  });
});

describe("docsplatform diff", () => {
  let repo: string;
  beforeAll(() => {
    // A throwaway repository with two commits of the stack file.
    repo = fs.mkdtempSync(path.join(os.tmpdir(), "docsplatform-diff-"));
    const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, stdio: "pipe" });
    // Its branch is master: a `git:main:` side names a revision it does not have.
    git("init", "-q", "--initial-branch=master");
    git("config", "user.email", "test@example.test");
    git("config", "user.name", "test");
    fs.mkdirSync(path.join(repo, "docs"));
    fs.copyFileSync(HANDBOOK, path.join(repo, "docs", "docs.yaml"));
    // The script of the handbook's integration, which the stack file names.
    fs.cpSync(path.join(path.dirname(HANDBOOK), "integrations"), path.join(repo, "docs", "integrations"), { recursive: true });
    // The developer portal's site file, which the stack file names: read at each side's revision.
    fs.cpSync(path.join(path.dirname(HANDBOOK), "developer-portal"), path.join(repo, "docs", "developer-portal"), { recursive: true });
    // And the OpenAPI spec it sends from a file.
    fs.cpSync(path.join(path.dirname(HANDBOOK), "openapi"), path.join(repo, "docs", "openapi"), { recursive: true });
    git("add", ".");
    git("commit", "-qm", "handbook");
    fs.copyFileSync(path.join(TESTDATA, "removed-section.yaml"), path.join(repo, "docs", "docs.yaml"));
    git("commit", "-qam", "remove a section");
  });
  afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

  it("reads git:<rev>:<path> from the repository root, ./<path> from the current directory, and - from standard input", async () => {
    const files = await run(diffMain, [HANDBOOK, path.join(TESTDATA, "removed-section.yaml")]);
    expect(files.code).toBe(0);
    expect(await run(diffMain, ["git:HEAD~1:docs/docs.yaml", "git:HEAD:docs/docs.yaml"], { cwd: repo })).toEqual(files);
    expect(await run(diffMain, ["git:HEAD~1:./docs.yaml", "docs.yaml"], { cwd: path.join(repo, "docs") })).toEqual(files);
    // Standard input's site files are read from the current directory.
    expect(await run(diffMain, ["-", "docs.yaml"], { cwd: path.join(repo, "docs"), stdin: fs.readFileSync(HANDBOOK, "utf8") })).toEqual(files);
  });

  it("refuses a side missing at its revision (exit 2), unless the base may be missing (the pull request that adds the file)", async () => {
    const missing = await run(diffMain, ["git:HEAD~1:docs/new.yaml", "docs/docs.yaml"], { cwd: repo });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/the base git:HEAD~1:docs\/new.yaml does not exist .*--base-may-be-missing/);
    expect((await run(diffMain, ["no-such.yaml", "docs/docs.yaml"], { cwd: repo })).code).toBe(2);
    expect(missing.stdout).toBe("");
    const head = await run(diffMain, ["docs/docs.yaml", "git:HEAD:docs/new.yaml", "--base-may-be-missing"], { cwd: repo });
    expect(head.code).toBe(2);
    expect(head.stderr).toContain("the head git:HEAD:docs/new.yaml does not exist");
    const r = await run(diffMain, ["git:HEAD~1:docs/new.yaml", "docs/docs.yaml", "--base-may-be-missing"], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("diff: git:HEAD~1:docs/new.yaml does not exist: read as a file declaring nothing\n");
    expect(r.stdout).toContain("(site handbook, new site)");
  });

  // Regression (#33): `git:main:docs.yaml` in a repository whose branch is `master` exited 1, the code
  // `--fail-on-broken` gives a broken URL, so a CI step could not tell the two apart.
  describe("a side that cannot be read is exit 2, whatever the reason", () => {
    it.each([
      ["a revision the repository does not have (its branch is master, not main)", ["git:main:docs/docs.yaml", "docs/docs.yaml"], /^git:main:docs\/docs\.yaml: no revision 'main' in this repository/],
      ["a file missing at its revision", ["git:HEAD~1:docs/new.yaml", "docs/docs.yaml"], /the base git:HEAD~1:docs\/new\.yaml does not exist/],
      ["a file missing on disk", ["no-such.yaml", "docs/docs.yaml"], /the base no-such\.yaml does not exist/],
      ["a head missing on disk", ["docs/docs.yaml", "no-such.yaml"], /the head no-such\.yaml does not exist/],
      ["a file that is not valid YAML", ["docs/tab.yaml", "docs/docs.yaml"], /^docs\/tab\.yaml:\d+:1: YAML syntax error: a tab in the indentation/],
      ["a file that is not a valid stack file", ["docs/docs.yaml", "docs/invalid.yaml"], /^docs\/invalid\.yaml:3:\d+: sites\[0\]\.key: must be a key/],
    ])("%s", async (_why, argv, message) => {
      fs.writeFileSync(path.join(repo, "docs", "tab.yaml"), "organization: demo-org\nteams:\n\t- key: a\n");
      fs.writeFileSync(path.join(repo, "docs", "invalid.yaml"), "organization: demo-org\nsites:\n  - key: Not A Key\n    title: Docs\n");
      for (const failOnBroken of [[], ["--fail-on-broken"]]) {
        const r = await run(diffMain, [...argv, ...failOnBroken], { cwd: repo });
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(message);
        expect(r.stdout).toBe("");
      }
    });

    it("a file whose site file is not valid: each problem names the file it is in, the site file's by its path", async () => {
      fs.mkdirSync(path.join(repo, "docs", "broken"), { recursive: true });
      fs.writeFileSync(path.join(repo, "docs", "broken", "gitbook-docs.yaml"), "version: 1\nsite:\n  title: Broken\n  title: Again\n  structure: []\n");
      fs.writeFileSync(path.join(repo, "docs", "broken.yaml"), "organization: demo-org\nsites:\n  - key: broken\n    title: Broken\n    structure: { file: broken/gitbook-docs.yaml }\n");
      const r = await run(diffMain, ["docs/docs.yaml", "docs/broken.yaml"], { cwd: repo });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe('docs/broken/gitbook-docs.yaml:4:3: site.title: the key "title" is given twice in this mapping (first at line 3); each key may appear once: keep one of them\n');
      expect(r.stderr.split("\n")).toHaveLength(2);
    });

    it("a revision that starts with '-' is refused before git runs: no option reaches git from a side", async () => {
      const out = path.join(os.tmpdir(), `docsplatform-injected-${process.pid}`);
      for (const rev of [`--output=${out}`, "-p", "--ext-diff"]) {
        const r = await run(diffMain, [`git:${rev}:docs/docs.yaml`, "docs/docs.yaml"], { cwd: repo });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`git:${rev}:docs/docs.yaml: a revision never starts with '-' (git would read it as an option)`);
        expect(r.stdout).toBe("");
      }
      expect(fs.existsSync(`${out}:docs/docs.yaml`)).toBe(false);
      expect(fs.existsSync(out)).toBe(false);
      // A path starting with '-' is part of the object name `<rev>:<path>`, which options have ended before.
      const dashed = await run(diffMain, ["git:HEAD:--output=x", "docs/docs.yaml", "--base-may-be-missing"], { cwd: repo });
      expect(dashed.code).toBe(0);
      expect(fs.existsSync(path.join(repo, "x"))).toBe(false);
    });

    it("outside a git repository", async () => {
      const outside = fs.mkdtempSync(path.join(os.tmpdir(), "docsplatform-no-repo-"));
      try {
        fs.copyFileSync(HANDBOOK, path.join(outside, "docs.yaml"));
        const r = await run(diffMain, ["git:HEAD:docs.yaml", "docs.yaml", "--fail-on-broken"], { cwd: outside });
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`git:HEAD:docs.yaml: ${outside} is not inside a git repository`);
      } finally {
        fs.rmSync(outside, { recursive: true, force: true });
      }
    });
  });

  it("--keys names each object with its key, as tree --keys does", async () => {
    const r = await run(diffMain, [HANDBOOK, path.join(TESTDATA, "moved-site-space.yaml"), "--keys"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('> site space "Changelog" (site space api-changes) moved from section "API Reference" (section api) to section "Guides" (section guides)');
    expect((await run(diffMain, [HANDBOOK, path.join(TESTDATA, "moved-site-space.yaml")])).stdout).not.toContain("(site space api-changes)");
  });

  it("writes markdown on request, never coloured; text is coloured on a terminal", async () => {
    const args = [HANDBOOK, path.join(TESTDATA, "changed-default.yaml")];
    const md = await run(diffMain, [...args, "--format", "markdown"], { tty: true });
    expect(md.stdout.startsWith("<!-- docsplatform-diff -->\n")).toBe(true);
    expect(md.stdout).not.toContain(ESC);
    expect((await run(diffMain, args, { tty: true })).stdout).toContain(`${ESC}33m~ default section`);
    expect((await run(diffMain, [...args, "--format=html"])).code).toBe(2);
    expect((await run(diffMain, ["-", "-"])).stderr).toContain("only one side");
    expect((await run(diffMain, [HANDBOOK])).code).toBe(2);
  });
});
