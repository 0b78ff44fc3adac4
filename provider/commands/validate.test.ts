import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kinds } from "../resources/kinds";
import { githubAnnotation } from "./validate";

/** Stack files written for one test each, in one folder removed when the file's tests end. */
const written = fs.mkdtempSync(path.join(os.tmpdir(), "validate-"));
afterAll(() => fs.rmSync(written, { recursive: true, force: true }));
let writtenCount = 0;

/** `text` as a new stack file named `name`; its path. */
function stackFile(name: string, text: string): string {
  const file = path.join(written, String(++writtenCount), name);
  fs.mkdirSync(path.dirname(file));
  fs.writeFileSync(file, text);
  return file;
}

/** A valid file with one warning: a redirect to a loopback address. */
const WARNED = "organization: demo-org\nsites:\n  - key: s\n    title: Site\n    visibility: public\n    redirects:\n      - { source: /docs/*, destination: { url: 'http://localhost:3000/docs' } }\n";

// The command as users run it: the compiled entry point (`npm test` builds first).
const repo = path.resolve(__dirname, "../..");
const cli = path.join(repo, "dist/provider/cli.js");

function validate(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [cli, "validate", ...args], { cwd: repo, encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A file with the objects of access and of a site's look and navigation: grants, sign-in, installations, customizations, links, redirects. */
const EVERY_OBJECT = `organization: demo-org
spaces:
  - key: guides
    id: space-guides
    permissions:
      - { user: admin@demo.test, role: admin }
      - { user: writer@demo.test, role: edit }
sites:
  - key: docs
    title: Docs
    visibility: visitor-auth
    permissions:
      - { user: admin@demo.test, role: admin }
      - { user: reader@demo.test, role: read }
    visitorAuth:
      fallbackURL: https://example.com/login
    gitSync: { provider: github, repository: 42, branch: refs/heads/main, priority: gitbook }
    customization:
      styling: { theme: bold }
    sections:
      - key: guides
        title: Guides
        siteSpaces:
          - key: guides-v1
            space: guides
            customization:
              styling: { primaryColor: { light: "#0B5FFF", dark: "#7AA2FF" } }
      - key: status
        title: Status
        url: https://status.example.com
    redirects:
      - { source: /old, destination: { section: guides } }
      - { source: /blog, destination: { url: "https://blog.example.com" } }
installations:
  - key: badges
    integration: status-badges
`;

describe("docsplatform validate", () => {
  beforeAll(() => {
    if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first (\`npm test\` does)`);
  });

  it("exits 0 with a one-line summary counting objects by kind for a valid file", () => {
    const run = validate("examples/handbook/docs.yaml");
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      "examples/handbook/docs.yaml: OK (organisation demo-org: 4 sites, 6 sections, 2 section groups, 11 site spaces, " +
        "1 adaptive schema, 2 share links, 1 site customization, 1 site-space customization, 3 external links, 1 style guide attachment, 2 teams, " +
        "3 team members, 1 SAML provider, 2 OpenAPI specs, 1 collection, 4 spaces, organisation settings, 2 member roles, " +
        "1 translation setting, 1 integration, 1 style guide, agent instructions, 3 permission grants, 1 visitor sign-in, 1 installation, 1 Git Sync installation, 1 MCP server, " +
        "1 agent settings block, 2 agent channels, 2 context connections)\n",
    );
  });

  it("counts every object the file declares, each kind named as its declaration names it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "validate-"));
    try {
      const file = path.join(dir, "access-and-look.yaml");
      fs.writeFileSync(file, EVERY_OBJECT);
      const run = validate(file);
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe(
        `${file}: OK (organisation demo-org: 1 site, 1 section, 1 site space, 2 redirects, 1 site customization, ` +
          "1 site-space customization, 1 external link, 1 space, 4 permission grants, 1 visitor sign-in, 1 installation, 1 Git Sync installation)\n",
      );
      // With the handbook, every kind of object is named; none is left out of the summary.
      const both = run.stdout + validate("examples/handbook/docs.yaml").stdout;
      for (const kind of kinds.filter((k) => k.name !== "SiteStructureOrder")) {
        const { one, many } = kind.noun;
        expect(both, kind.name).toMatch(new RegExp(one === many ? `[:,] ${one}[,)]` : `[:,] \\d+ (${one}|${many})[,)]`));
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("exits 1 and prints file:line:col: message for each problem on stderr", () => {
    const file = "provider/stack/testdata/default-wrong-level.yaml";
    const run = validate(file);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^${file}:5:23: sites\\[0\\]\\.defaultSiteSpace: this site has sections`));
    expect(lines[1]).toMatch(new RegExp(`^${file}:12:27: sites\\[0\\]\\.sections\\[1\\]\\.defaultSiteSpace: no site space with key "guides"`));
    expect(lines[2]).toBe(`${file}: 2 problems`);
  });

  it("checks several files and fails if any fails", () => {
    const run = validate("examples/handbook/docs.yaml", "provider/stack/testdata/bad-yaml.yaml");
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^examples\/handbook\/docs\.yaml: OK /);
    expect(run.stderr).toMatch(/^provider\/stack\/testdata\/bad-yaml\.yaml:5:3: YAML syntax error: /);
  });

  // Regression (#33): one tab in the indentation printed the parser's every error, burying the tab.
  it("a tab-indented file: the tab, located and in words, and one summary line", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "validate-"));
    try {
      const lines = fs.readFileSync(path.join(repo, "examples/handbook/docs.yaml"), "utf8").split("\n");
      const deep = lines.findIndex((l, i) => i > 60 && l.startsWith("      - "));
      lines[deep] = `\t${lines[deep].slice(2)}`;
      const file = path.join(dir, "docs.yaml");
      fs.writeFileSync(file, lines.join("\n"));
      const run = validate(file);
      expect(run.status).toBe(1);
      const said = `${run.stdout}${run.stderr}`.trimEnd().split("\n");
      expect(said.length).toBeLessThanOrEqual(5);
      expect(said).toEqual([
        `${file}:${deep + 1}:1: YAML syntax error: a tab in the indentation; YAML indents with spaces only`,
        expect.stringMatching(new RegExp(`^${file}: not valid YAML; fix this syntax error first \\(the parser's \\d+ other errors?, left out, usually follows? from it\\)$`)),
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("exits 1 for a missing file", () => {
    const run = validate("no/such/stack.yaml");
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("no/such/stack.yaml:1:1: cannot read the file: no such file\n");
  });

  it("prints warnings without failing", () => {
    const file = stackFile("warn.yaml", WARNED);
    const run = validate(file);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(
      `${file}:7:48: warning: sites[0].redirects[0].destination.url: readers cannot reach this URL: it names localhost (a loopback name), which a reader's browser looks for on the reader's own machine or network\n`,
    );
    expect(run.stdout).toBe(`${file}: OK (organisation demo-org: 1 site, 1 redirect)\n`);
  });

  it("refuses share links on a site whose visibility is not share-link, in two located lines", () => {
    const links = (visibility: string) => `organization: demo-org\nsites:\n  - key: s\n    title: Site\n    visibility: ${visibility}\n    shareLinks:\n      - { key: l, name: Link }\n`;
    const file = stackFile("links.yaml", links("public"));
    const run = validate(file);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `${file}:6:5: sites[0].shareLinks: share links grant access only to sites whose visibility is share-link, and this site is public: each link would grant nothing now and the whole site the day it turns share-link. Declare visibility: share-link on this site, or remove its share links\n`,
    );
    expect(validate(stackFile("links.yaml", links("share-link"))).status).toBe(0);
  });

  describe("--format github: GitHub workflow commands that annotate the lines", () => {
    it("each problem as ::error with the file's absolute path, line, column and field, then the summary line", () => {
      const file = "provider/stack/testdata/default-wrong-level.yaml";
      const run = validate("--format", "github", file);
      expect(run.status).toBe(1);
      expect(run.stdout).toBe(
        `::error file=${repo}/${file},line=5,col=23,title=sites[0].defaultSiteSpace::this site has sections: set defaultSiteSpace on the section (sites[0].sections[0]) instead; the site-level default is only for sites without sections\n` +
          `::error file=${repo}/${file},line=12,col=27,title=sites[0].sections[1].defaultSiteSpace::no site space with key "guides" in this section; it belongs to sites[0].sections[0] (known: api-v1)\n`,
      );
      expect(run.stderr).toBe(`${file}: 2 problems\n`);
      // The same with --format=github.
      expect(validate(`--format=github`, file).stdout).toBe(run.stdout);
    });

    it("escapes the file, the field and the message as the runner reads them (%, CR, LF; and : , in properties)", () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "validate-"));
      try {
        const file = path.join(dir, "odd,name: 100%.yaml");
        fs.writeFileSync(file, 'organization: demo-org\nteams:\n  - key: t\n    title: T\n    "a:b,c%d": 1\n');
        const run = validate("--format", "github", file);
        expect(run.status).toBe(1);
        expect(run.stdout).toBe(`::error file=${dir}/odd%2Cname%3A 100%25.yaml,line=5,col=5,title=teams[0]["a%3Ab%2Cc%25d"]::unknown field; allowed fields: key, previousKeys, title, members, adopt\n`);
        expect(run.stderr).toBe(`${file}: 1 problem\n`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it("a message with a comma, a colon, a percent sign and line breaks stays one command", () => {
      const problem = { file: "docs/a,b:c%.yaml", line: 3, col: 7, path: "/sites/0/title", message: "sites[0].title: 100% wrong, see: here\r\nnext line" };
      expect(githubAnnotation(problem, "error", "/repo")).toBe("::error file=/repo/docs/a%2Cb%3Ac%25.yaml,line=3,col=7,title=sites[0].title::100%25 wrong, see: here%0D%0Anext line");
      // A problem of the whole file names no field: no title, the message whole.
      expect(githubAnnotation({ file: "/abs/docs.yaml", line: 1, col: 1, path: "", message: "the file is empty: 0% of it" }, "warning")).toBe("::warning file=/abs/docs.yaml,line=1,col=1::the file is empty: 0%25 of it");
    });

    it("warnings as ::warning, and the OK line: exit 0", () => {
      const file = stackFile("warn.yaml", WARNED);
      const run = validate("--format", "github", file);
      expect(run.status).toBe(0);
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe(
        `::warning file=${file},line=7,col=48,title=sites[0].redirects[0].destination.url::readers cannot reach this URL: it names localhost (a loopback name), which a reader's browser looks for on the reader's own machine or network\n` +
          `${file}: OK (organisation demo-org: 1 site, 1 redirect)\n`,
      );
    });

    it("text stays the default, whatever the environment", () => {
      const run = spawnSync(process.execPath, [cli, "validate", "provider/stack/testdata/unknown-key.yaml"], { cwd: repo, encoding: "utf8", env: { ...process.env, GITHUB_ACTIONS: "true" } });
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(/^provider\/stack\/testdata\/unknown-key\.yaml:3:5: teams\[0\]\.title: is required\n/);
    });

    it("refuses a format it does not know, or none", () => {
      const wrong = validate("--format", "json", "examples/handbook/docs.yaml");
      expect(wrong.status).toBe(2);
      expect(wrong.stderr).toContain("docsplatform validate: --format is text or github, not 'json'\n");
      const none = validate("examples/handbook/docs.yaml", "--format");
      expect(none.status).toBe(2);
      expect(none.stderr).toContain("docsplatform validate: --format needs a value: text or github\n");
    });
  });

  it("exits 2 with usage when no file is given or an option is unknown", () => {
    const none = validate();
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("usage: docsplatform validate [--format text|github] <stack.yaml>");
    const unknown = validate("--strict", "examples/handbook/docs.yaml");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--strict'");
  });
});
