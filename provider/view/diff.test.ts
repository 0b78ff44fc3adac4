/**
 * `docsplatform diff` on the day-two edits of the handbook (copies in testdata/, one edit each):
 * what a reader of the sites would notice, in plain text and as a pull-request comment.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { loadStackFile, parseStack } from "../stack/load";
import type { ResolvedStack } from "../stack/resolve";
import { diffStacks, renderDiffMarkdown, renderDiffText } from "./diff";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook/docs.yaml");
const TESTDATA = path.resolve(__dirname, "testdata");

function load(file: string): ResolvedStack {
  const r = loadStackFile(file);
  if (!r.ok) throw new Error(`${file}:\n${r.problems.map((p) => p.message).join("\n")}`);
  return r;
}

function parse(text: string): ResolvedStack {
  // Edits of the handbook: its site file is read from the handbook's folder.
  const r = parseStack(text, "test.yaml", { baseDir: path.dirname(HANDBOOK) });
  if (!r.ok) throw new Error(r.problems.map((p) => p.message).join("\n"));
  return r;
}

const base = load(HANDBOOK);
const edited = (name: string): ResolvedStack => load(path.join(TESTDATA, `${name}.yaml`));
const text = (b: ResolvedStack, h: ResolvedStack): string => renderDiffText(diffStacks(b, h));

describe("diff of day-two edits of the handbook", () => {
  it("nothing changed", () => {
    expect(text(base, base)).toBe("No change to the sites or the organization.\n");
  });

  for (const edit of ["removed-section", "moved-site-space", "changed-default", "renamed-path", "reordered-group", "renamed-keys", "look-and-links"]) {
    it(edit, () => {
      expect(text(base, edited(edit))).toMatchSnapshot();
    });
  }

  it("the reverse of each edit reads as its undoing", () => {
    expect(text(edited("removed-section"), base)).toMatchSnapshot();
    expect(text(edited("reordered-group"), base)).toMatchSnapshot();
  });

  it("as a pull-request comment: one collapsible block per site, in a stable order", () => {
    expect(renderDiffMarkdown(diffStacks(base, edited("changed-default")))).toMatchSnapshot();
  });
});

describe("diff of sites, their facts and the organisation", () => {
  const small = (extra: string, site = ""): ResolvedStack =>
    parse(`organization: demo-org
spaces:
  - { key: guides, id: space-guides, title: Guides }
  - { key: api, id: space-api, title: API }
${extra}
sites:
  - key: docs
    title: Docs
    visibility: share-link
    published: true
    sections:
      - { key: guides, title: Guides, space: guides, condition: visitor.claims.beta == true }
      - { key: api, title: API, space: api }
    shareLinks:
      - { key: acme, name: Acme }
${site}`);

  it("a site added, a site removed, facts and conditions changed, the organisation summarised", () => {
    const b = small(
      `teams:
  - { key: docs-team, title: Docs team, members: [{ user: writer-1 }] }
members:
  - { user: reader-1, role: read }`,
      `  - key: old
    title: Old site
    siteSpaces: [{ key: g, space: guides }]`,
    );
    const h = parse(
      `organization: demo-org
settings: { defaultRole: read }
spaces:
  - { key: guides, id: space-guides, title: Guides }
  - { key: api, id: space-api, title: API }
teams:
  - { key: docs-team, title: Docs team, members: [{ user: writer-1, role: owner }, { user: reader-1 }] }
openapi:
  - { key: public-api, slug: public-api, sourceURL: https://api.example.test/openapi.json }
members:
  - { user: reader-1, role: comment }
sites:
  - key: docs
    title: Docs
    visibility: share-link
    published: false
    sections:
      - { key: guides, title: Guides, space: guides }
      - { key: api, title: API, space: api, condition: visitor.claims.staff == true }
    shareLinks:
      - { key: acme, name: Acme, active: false }
      - { key: initech, name: Initech }
  - key: new
    title: New site
    visibility: unlisted
    sections:
      - { key: intro, title: Introduction, space: guides }
      - { key: ref, title: Reference, space: api }
`,
    );
    expect(text(b, h)).toMatchSnapshot();
    expect(renderDiffMarkdown(diffStacks(b, h))).toMatchSnapshot();
  });

  it("an undeclared default is the first of its level; a path derived on create stays", () => {
    // Dropping `defaultSiteSection: guides`: Guides is the first section, so still the default.
    const h = parse(fs.readFileSync(HANDBOOK, "utf8").replace("    defaultSiteSection: guides\n", ""));
    expect(text(base, h)).toBe("No change to the sites or the organization.\n");
    // Declaring the path the platform derived changes nothing either.
    const declared = parse(fs.readFileSync(HANDBOOK, "utf8").replace("        space: guides\n        icon: book-open\n", "        space: guides\n        path: guides\n        icon: book-open\n"));
    expect(text(base, declared)).toBe("No change to the sites or the organization.\n");
    const renamed = parse(
      fs
        .readFileSync(HANDBOOK, "utf8")
        .replace("        title: Guides\n        space: guides\n", "        title: Getting started\n        space: guides\n"),
    );
    // A new title: the path derived from the old one stays (the API derives paths on create only).
    expect(text(base, renamed)).toBe('Handbook (site handbook): 1 changed\n  ~ section "Getting started": title "Guides" → "Getting started"\n');
  });

  it("a path left out stays as it is (the platform keeps it); a condition, icon or description left out is removed", () => {
    const h = parse(
      fs
        .readFileSync(HANDBOOK, "utf8")
        .replace("        path: changes\n        condition: visitor.claims.staff == true\n", "")
        .replace("        icon: book-open\n        description: Step-by-step guides for every feature\n", "")
        .replace("        defaultSiteSpace: api-v1\n", ""),
    );
    expect(text(base, h)).toMatchInlineSnapshot(`
      "Handbook (site handbook): 3 changed
        ~ section "Guides": icon book-open removed; description "Step-by-step guides for every feature" removed
        ~ section "Changelog": condition "visitor.claims.staff == true" removed
        ~ section "Changelog": path no longer declared (the platform keeps changes)
      "
    `);
  });
});

describe("markdown from untrusted titles", () => {
  it("escapes HTML in summaries and fences code longer than any backtick run", () => {
    const b = parse("organization: demo-org\nsites:\n  - { key: s, title: 'Docs <b>x</b>', siteSpaces: [{ key: a, space: { id: sp-1 }, path: a }] }\n");
    const h = parse(
      "organization: demo-org\nsites:\n  - key: s\n    title: 'Docs <b>x</b>'\n    sections:\n      - { key: t, title: 'Use ``` to break out', space: { id: sp-1 } }\n",
    );
    const md = renderDiffMarkdown(diffStacks(b, h));
    expect(md).toContain("<summary>Site <code>Docs &lt;b&gt;x&lt;/b&gt;</code>");
    expect(md).toContain("\n````diff\n");
    expect(md).toContain("\n````\n");
  });
});

describe("rough edges a new user met", () => {
  it("a setting going from none to a value shows the value; a site space whose space is known by ID only is named by its key", () => {
    const before = parse("organization: demo-org\n");
    const after = parse("organization: demo-org\nsettings:\n  title: Demo\n  emailDomains: [a.test]\n");
    expect(text(before, after)).toContain('emailDomains none → ["a.test"]');
    expect(text(before, after)).not.toContain("undefined");
    const sites = (ids: string) =>
      parse(`organization: demo-org\nsites:\n  - key: s\n    title: Site\n    siteSpaces:\n${ids}`);
    const two = sites("      - { key: first, space: {id: space-a}, path: a }\n      - { key: second, space: {id: space-b}, path: b }\n");
    const none = sites("      - { key: first, space: {id: space-a}, path: a }\n");
    const out = text(two, none);
    expect(out).toContain("site space second /b");
    expect(out).not.toContain("(title from the API)");
  });

  it("a section moved to another site names the space of each of its site spaces as the file does: its ID, or its key when the stack makes it", () => {
    const stack = (docs: string, other: string): ResolvedStack =>
      parse(`organization: demo-org
spaces:
  - { key: guides, id: space-guides, title: Guides }
  - { key: api, title: API }
  - { key: notes }
sites:
  - key: docs
    title: Docs
    sections:
      - { key: guides, title: Guides, space: guides }
${docs}  - key: other
    title: Other
    sections:
      - { key: misc, title: Misc, siteSpaces: [{ key: m, space: { id: space-misc } }] }
${other}`);
    const moved = "      - { key: api, title: API, space: api }\n      - { key: xray, title: Xray, space: { id: space-x } }\n      - { key: notes, title: Notes, space: notes }\n";
    const out = text(stack(moved, ""), stack("", moved));
    expect(out).toContain(`Other (site other): 3 added
  + section "API" /api, after "Misc"
  +   site space "API" /api (space api)
  + section "Xray" /xray, after "API"
  +   site space xray /xray (space space-x)
  + section "Notes" /notes, after "Xray"
  +   site space notes /notes (space notes)
`);
    expect(out).not.toContain("unknown space");
    expect(out.split("\n").filter((l) => l.includes("(space "))).toHaveLength(3);
  });
});
