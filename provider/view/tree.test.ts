/** `docsplatform tree` of the handbook example and of edge cases of paths and defaults. */
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { loadStackFile, parseStack } from "../stack/load";
import type { ResolvedStack } from "../stack/resolve";
import { viewStack } from "./sites";
import { ansi } from "./style";
import { renderTree } from "./tree";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook/docs.yaml");

function load(file: string): ResolvedStack {
  const r = loadStackFile(file);
  if (!r.ok) throw new Error(r.problems.map((p) => p.message).join("\n"));
  return r;
}

function parse(text: string): ResolvedStack {
  const r = parseStack(text, "test.yaml");
  if (!r.ok) throw new Error(r.problems.map((p) => p.message).join("\n"));
  return r;
}

describe("tree", () => {
  it("draws the handbook's sites in display order", () => {
    expect(renderTree(viewStack(load(HANDBOOK)))).toMatchSnapshot();
  });

  it("shows keys on request", () => {
    expect(renderTree(viewStack(load(HANDBOOK)), { keys: true })).toMatchSnapshot();
  });
});

describe("tree rules", () => {
  it("draws paths the API chooses, derived ones, first-of-level defaults, empty groups and unpublished share-link sites", () => {
    const stack = parse(`organization: demo-org
spaces:
  - { key: guides, id: space-guides, title: Guides }
sites:
  - key: docs
    title: Docs
    visibility: share-link
    published: false
    sections:
      # No default declared: the first section is the site's default, served at /.
      - { key: start, title: Start here, space: guides }
      # A space known by ID only: the site space's title and path are the API's to choose.
      - key: more
        title: Más información
        siteSpaces:
          - { key: a, space: { id: space-other } }
          - { key: b, space: { id: space-third }, condition: visitor.claims.beta == true }
      # Two sections titled alike: the second derived path would collide, so the API suffixes one.
      - { key: x1, title: Same, space: guides }
      - { key: x2, title: Same!, space: guides }
    sectionGroups:
      - { key: empty, title: Later, sections: [] }
  - key: clash
    title: Clash
    sections:
      # The default section is the site's root: its site space \`changes\` is served at /changes,
      # which the second section claims too (paths are unique per level only).
      - key: home
        title: Home
        siteSpaces:
          - { key: home, space: guides }
          - { key: changes, space: { id: space-changelog }, path: changes }
      - { key: changelog, title: Changelog, space: guides, path: changes }
`);
    expect(renderTree(viewStack(stack))).toMatchInlineSnapshot(`
      "organization demo-org

      Clash (site)
      │  not published · agents excluded
      │  ! URL /changes is shared by section "Changelog" and site space changes of section "Home" (paths are unique per level, URLs are not)
      ├─ Home (section)  /  ★ default · path home
      │  ├─ Guides  /  ★ default · path guides · space space-guides
      │  └─ (title from the API)  /changes · space space-changelog
      └─ Changelog (section)  /changes
         └─ Guides  /changes  ★ default · path guides · space space-guides

      Docs (site)
      │  share-link (readers with a share link) · not published · agents excluded
      ├─ Start here (section)  /  ★ default · path start-here
      │  └─ Guides  /  ★ default · path guides · space space-guides
      ├─ Más información (section)  /mas-informacion
      │  ├─ (title from the API)  /mas-informacion  ★ default · path from the API · space space-other
      │  └─ (title from the API)  /mas-informacion/<path from the API> · space space-third · if visitor.claims.beta == true
      ├─ Same (section)  /<path from the API>
      │  └─ Guides  /<path from the API>  ★ default · path guides · space space-guides
      ├─ Same! (section)  /<path from the API>
      │  └─ Guides  /<path from the API>  ★ default · path guides · space space-guides
      ├─ Later (group) · no sections
      └─ share links: none
      "
    `);
  });

  it("colours with ANSI codes when asked", () => {
    const text = renderTree(viewStack(load(HANDBOOK)), { style: ansi });
    expect(text).toContain("\u001b[33m★ default\u001b[39m");
    expect(text.replace(/\u001b\[\d+m/g, "")).toBe(renderTree(viewStack(load(HANDBOOK))));
  });
});
