/**
 * A site's structure from a site file (Git Sync's gitbook-docs.yaml), offline: mistakes planted in the
 * site file are each reported at the site file's own line and column, in words; docs.yaml's side of the
 * link (inline structure beside `structure`, the file's name and place, the space mapping) at docs.yaml's.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { failureHeadline, formatProblem, loadStackFile } from "./load";
import { siteModels } from "../site";
import { parseSiteFile, siteFileValidatesPrecompiled } from "./structureFile";

const DOCS = `organization: demo-org
spaces:
  - { key: guides, id: space-guides }
  - { key: api, id: space-api }
sites:
  - key: portal
    title: Portal
    structure:
      file: portal/gitbook-docs.yaml
      spaces: { api-v1: api }
`;

/** A good site file: a section, a group with a section and a link. */
const GOOD = `version: 1
site:
  title: Portal
  structure:
    - type: section
      key: start
      title: Start
      path: start
      default: true
      children:
        - { type: space, key: guides, title: Guides, path: guides, default: true, content: { directory: ./guides } }
    - type: section-group
      key: reference
      title: Reference
      children:
        - type: section
          key: api
          title: API
          path: api
          children:
            - { type: space, key: api-v1, title: API, path: v1, default: true, content: { directory: ./api } }
        - { type: external-link, key: status, title: Status, url: "https://status.example.com" }
`;

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** docs.yaml and portal/gitbook-docs.yaml in a fresh project; the problems of loading docs.yaml, as `file:line:col: message` relative to the project. */
function load(siteFile: string, docs = DOCS): { lines: string[]; result: ReturnType<typeof loadStackFile> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sitefile-"));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: p\nruntime: nodejs\n");
  fs.mkdirSync(path.join(dir, "portal"));
  fs.writeFileSync(path.join(dir, "docs.yaml"), docs);
  fs.writeFileSync(path.join(dir, "portal", "gitbook-docs.yaml"), siteFile);
  const result = loadStackFile(path.join(dir, "docs.yaml"));
  const lines = result.ok ? result.warnings.map(formatProblem) : result.problems.map(formatProblem);
  return { lines: lines.map((l) => l.split(`${dir}${path.sep}`).join("")), result };
}

describe("a site's structure from its site file", () => {
  it("becomes the site's sections, group, site spaces, link and defaults", () => {
    const { result } = load(GOOD);
    if (!result.ok) throw new Error(result.problems.map(formatProblem).join("\n"));
    const [site] = siteModels(result.stack);
    expect(site!.sections.map((s) => [s.key, s.url, s.default, s.group])).toEqual([
      ["start", "/", true, undefined],
      ["api", "/api", false, "reference"],
    ]);
    expect(site!.siteSpaces.map((ss) => [ss.key, ss.spaceId, ss.url])).toEqual([
      ["guides", "space-guides", "/"],
      ["api-v1", "space-api", "/api"],
    ]);
    expect(site!.groups.map((g) => [g.key, g.children.map((c) => (c.kind === "section" ? c.section.key : c.link.key))])).toEqual([["reference", ["api", "status"]]]);
    expect(site!.links.map((l) => [l.key, l.target])).toEqual([["status", "https://status.example.com"]]);
  });

  it("a key used by two branches is located at the second, naming the first", () => {
    const file = GOOD.replace("key: api-v1", "key: start");
    expect(load(file).lines).toEqual([
      `portal/gitbook-docs.yaml:21:35: site.structure[1].children[0].children[0].key: duplicate key "start": already the key of the section at site.structure[0] (line 5); keys are unique in the whole site file, whatever the node's type (Git Sync recognises a node by its key)`,
    ]);
  });

  it("a group inside a nested group is refused at its type (and the nested group, which the stack file cannot declare)", () => {
    const file = GOOD.replace(
      "        - { type: external-link",
      `        - type: section-group
          key: inner
          title: Inner
          children:
            - { type: section-group, key: innermost, title: Innermost }
        - { type: external-link`,
    );
    expect(load(file).lines).toEqual([
      "portal/gitbook-docs.yaml:22:17: site.structure[1].children[1].type: a nested section group: docsplatform cannot apply it (the stack file's section groups do not nest); list its sections in the outer group",
      "portal/gitbook-docs.yaml:26:23: site.structure[1].children[1].children[0].type: a section group inside a nested section group: groups nest one level at most (a nested group holds no group)",
    ]);
  });

  it("a section with no default space is located at its children", () => {
    const file = GOOD.replace("path: v1, default: true,", "path: v1,");
    expect(load(file).lines).toEqual([
      `portal/gitbook-docs.yaml:21:13: site.structure[1].children[0].children: section "api" has no default space: mark exactly one of its spaces default: true (the one its URL opens)`,
    ]);
  });

  it("a '..' in a content directory is located at the directory", () => {
    const file = GOOD.replace("directory: ./api", "directory: ./api/../../secrets");
    expect(load(file).lines).toEqual([
      `portal/gitbook-docs.yaml:21:102: site.structure[1].children[0].children[0].content.directory: "./api/../../secrets" has a '..' segment; a content directory stays inside the repository (relative to the site's project directory, or from its root with a leading '/')`,
    ]);
  });

  it("a title over its limit is located at the title, naming the limit", () => {
    const file = GOOD.replace("title: Reference", `title: ${"R".repeat(101)}`);
    expect(load(file).lines).toEqual(["portal/gitbook-docs.yaml:14:14: site.structure[1].title: must be at most 100 characters (got 101)"]);
  });

  it("a limit of the stack file the site file does not have (a path that is no URL segment) is located in the site file", () => {
    const file = GOOD.replace("path: api\n", "path: api/v2\n");
    const { lines } = load(file);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^portal\/gitbook-docs\.yaml:19:17: site\.structure\[1\]\.children\[0\]\.path: must be /);
  });

  it("a space node naming no space of docs.yaml is located at its key", () => {
    const file = GOOD.replace("key: guides,", "key: guide,");
    const { lines } = load(file);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^portal\/gitbook-docs\.yaml:11:31: site\.structure\[0\]\.children\[0\]\.key: no space with key "guide" in docs\.yaml \(spaces: guides, api\)/);
  });

  it("inline sections beside structure, a wrong file name and a mapping of no node are located in docs.yaml", () => {
    const inline = DOCS.replace("    structure:\n", "    sections: []\n    structure:\n");
    expect(load(GOOD, inline).lines).toEqual([
      "docs.yaml:8:5: sites[0].sections: this site takes its structure from a site file (structure, line 9); its sections, section groups, site spaces and defaults are the site file's: remove sections here or remove structure",
    ]);
    const renamed = DOCS.replace("portal/gitbook-docs.yaml", "portal/site.yaml");
    expect(load(GOOD, renamed).lines).toEqual([
      `docs.yaml:9:13: sites[0].structure.file: must name a file called gitbook-docs.yaml (the name Git Sync reads), in the folder of the site's project directory (got "portal/site.yaml")`,
    ]);
    const outside = DOCS.replace("portal/gitbook-docs.yaml", "../gitbook-docs.yaml");
    expect(load(GOOD, outside).lines[0]).toMatch(/^docs\.yaml:9:13: sites\[0\]\.structure\.file: "\.\.\/gitbook-docs\.yaml" leads outside the project/);
    const unmapped = DOCS.replace("{ api-v1: api }", "{ api-v1: api, api-v2: api }");
    expect(load(GOOD, unmapped).lines).toEqual(['docs.yaml:10:30: sites[0].structure.spaces.api-v2: no space node with key "api-v2" in portal/gitbook-docs.yaml']);
  });

  it("a site file in a misspelt folder is refused in one line at docs.yaml's file, naming the nearest folder", () => {
    const { lines } = load(GOOD, DOCS.replace("portal/gitbook-docs.yaml", "portl/gitbook-docs.yaml"));
    expect(lines).toEqual(['docs.yaml:9:13: sites[0].structure.file: no file "portl/gitbook-docs.yaml" next to the stack file; did you mean "portal/gitbook-docs.yaml"?']);
    expect(lines[0]!.split("\n")).toHaveLength(1);
  });

  it("a site file's own shape and size are refused in words that call it a site file, one line each", () => {
    const cases: [string, string][] = [
      [`${GOOD}---\nversion: 1\n`, "portal/gitbook-docs.yaml:23:1: the file holds more than one YAML document (---); a site file is one document"],
      [`version: 1\nsite:\n  title: Portal\n  structure: ${"[".repeat(70)}${"]".repeat(70)}\n`, "portal/gitbook-docs.yaml:4:78: nesting is deeper than 64 levels; a site file never needs that many"],
      [`version: 1\nsite:\n  title: Portal\n  structure: [${Array(10_001).fill("1").join(",")}]\n`, "portal/gitbook-docs.yaml:4:14: site.structure: a list of 10,001 items; a list may hold at most 10,000 items in a site file"],
      ["", "portal/gitbook-docs.yaml:1:1: the file is empty; a site file is a mapping with at least `site`"],
      [`${GOOD}#${"x".repeat(6 * 1024 * 1024)}\n`, "portal/gitbook-docs.yaml:1:1: the file is 6.0 MiB; a site file may be at most 5.0 MiB"],
    ];
    for (const [file, message] of cases) {
      const { lines } = load(file);
      expect(lines).toEqual([message]);
      expect(lines[0]!.split("\n")).toHaveLength(1);
    }
  });

  it("a failed load is headed by the file at fault: the site file, the stack file, or both, in one line", () => {
    const headline = (siteFile: string, docs = DOCS): string => {
      const { result } = load(siteFile, docs);
      if (result.ok) throw new Error("loaded");
      const dir = path.dirname(result.file);
      return failureHeadline(result.file, result.problems).split(`${dir}${path.sep}`).join("");
    };
    const badSite = GOOD.replace("title: Reference", "title: Reference\n      title: Again");
    const badDocs = DOCS.replace("key: portal", "key: Portal Site");
    const said = [headline(badSite), headline(GOOD, badDocs), headline(badSite, badDocs)];
    expect(said).toEqual([
      "portal/gitbook-docs.yaml, the site file docs.yaml names, is not a valid site file (1 problem)",
      "docs.yaml is not a valid stack file (1 problem)",
      "docs.yaml is not a valid stack file, and its site file portal/gitbook-docs.yaml is not a valid site file (2 problems)",
    ]);
    for (const line of said) expect(line.split("\n")).toHaveLength(1);
  });

  it.each([
    ["spaces reading one directory in two languages", GOOD.replace("directory: ./api }", "directory: ./guides, language: fr }"), "21:122", "reads directory \"./guides\" in \"fr\", but site.structure[0].children[0] (line 11) reads it in no declared language; a directory is read once, in one language"],
    ["a space at the top level of a site with sections", GOOD.replace("    - type: section-group\n", "    - { type: space, key: loose, title: Loose, path: loose, content: { directory: null } }\n    - type: section-group\n"), "12:15", "a site with sections keeps every space inside a section"],
    ["a space directly in a group", GOOD.replace("        - { type: external-link", "        - { type: space, key: loose, title: Loose, path: loose, content: { directory: null } }\n        - { type: external-link"), "22:19", "a space stands in a section (or at the top level of a site without sections), never directly in a section group"],
    ["a node of no known type", GOOD.replace("type: external-link", "type: link"), "22:19", "type: must be one of section-group, section, space, external-link (got \"link\")"],
    ["two default sections", GOOD.replace("          path: api\n", "          path: api\n          default: true\n"), "20:20", "a second default section of the site: site.structure[0] (line 5) is already the default"],
    ["a localized section title, which the stack file cannot declare", GOOD.replace("      title: Start\n", "      title: Start\n      localizedTitle: { fr: Début }\n"), "8:7", "docsplatform cannot apply a section's localizedTitle"],
    ["a member the node does not take", GOOD.replace("      title: Reference\n", "      title: Reference\n      path: reference\n"), "15:7", "unknown field"],
  ])("%s is located in the site file", (_what, file, at, words) => {
    const { lines } = load(file);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`portal/gitbook-docs.yaml:${at}: `);
    expect(lines[0]).toContain(words);
  });

  it("a site without sections: its top-level spaces, one of them the default", () => {
    const file = `site:\n  title: Portal\n  structure:\n    - { type: space, key: guides, title: Guides, path: guides, default: true, content: { directory: ./guides } }\n    - { type: space, key: api-v1, title: API, path: api, content: { directory: /api } }\n`;
    const { result } = load(file);
    if (!result.ok) throw new Error(result.problems.map(formatProblem).join("\n"));
    const [site] = siteModels(result.stack);
    expect(site!.rootSiteSpaces.map((ss) => [ss.key, ss.url, ss.default, ss.spaceId])).toEqual([
      ["guides", "/", true, "space-guides"],
      ["api-v1", "/api", false, "space-api"],
    ]);
    expect(load(file.replace("default: true, ", "")).lines).toEqual(["portal/gitbook-docs.yaml:4:7: site.structure[0]: no top-level space is marked default: true; a site without sections marks exactly one of them"]);
  });

  it("a site title other than docs.yaml's is located at the site file's title", () => {
    expect(load(GOOD.replace("title: Portal", "title: Portail")).lines).toEqual([
      `portal/gitbook-docs.yaml:3:10: site.title: "Portail" differs from the site's title in docs.yaml ("Portal", line 7); the two name one site: make them equal`,
    ]);
  });
});

describe("the site file's validators", () => {
  it("the built checker uses the validators precompiled by the build (it loads no ajv compiler) and finds what compiled ones find", () => {
    const files = [
      GOOD,
      GOOD.replace("title: Reference", `title: ${"R".repeat(101)}`),
      GOOD.replace("title: API\n", "title: API\n          draft: maybe\n"),
      GOOD.replace("type: external-link, key: status,", "type: external-link, key: status, colour: red,"),
      GOOD.replace("version: 1", "version: 2"),
    ];
    const built = path.resolve(__dirname, "../../dist/provider/stack/structureFile.js");
    const script = `const s = require(${JSON.stringify(built)}); const files = JSON.parse(require("fs").readFileSync(0, "utf8"));
      const found = files.map((f) => { const r = s.parseSiteFile(f, "portal/gitbook-docs.yaml"); return r.ok ? [] : r.problems.map((p) => p.message); });
      console.log(JSON.stringify({ found, precompiled: s.siteFileValidatesPrecompiled(), compiler: Object.keys(require.cache).some((f) => /node_modules[\\\\/]ajv[\\\\/]dist[\\\\/]ajv\\.js$/.test(f)) }))`;
    const child = JSON.parse(execFileSync(process.execPath, ["-e", script], { input: JSON.stringify(files), encoding: "utf8" })) as { found: string[][]; precompiled: boolean; compiler: boolean };
    expect({ precompiled: child.precompiled, compiler: child.compiler }).toEqual({ precompiled: true, compiler: false });
    // This process runs the sources, with no precompiled file beside them: it compiles, and must find the same.
    expect(siteFileValidatesPrecompiled()).toBe(false);
    const here = files.map((f) => {
      const r = parseSiteFile(f, "portal/gitbook-docs.yaml");
      return r.ok ? [] : r.problems.map((p) => p.message);
    });
    expect(child.found).toEqual(here);
    expect(here.slice(1).every((problems) => problems.length > 0)).toBe(true);
  });
});
