/**
 * The pull-request comment of `docsplatform diff --format markdown` from a fork's stack file: titles,
 * keys, paths and redirect destinations are the attacker's. The comment is rendered as GitHub renders
 * Markdown (raw HTML kept, bare URLs linked, tables) and its structure checked: one verdict, no link,
 * no mention, no element opened or closed by file content, every table row its five cells.
 */
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { parseStack } from "../stack/load";
import type { ResolvedStack } from "../stack/resolve";
import { diffStacks, renderDiffMarkdown, renderDiffText } from "./diff";
import { code, fenced } from "./markdown";

function parse(text: string): ResolvedStack {
  const r = parseStack(text, "docs.yaml");
  if (!r.ok) throw new Error(r.problems.map((p) => p.message).join("\n"));
  return r;
}

const github = new MarkdownIt({ html: true, linkify: true });

/** The rendered HTML with every `<code>` and `<pre>` element's content removed: what renders as live text. */
const outsideCode = (rendered: string): string => rendered.replace(/<pre>[\s\S]*?<\/pre>/g, "").replace(/<code>[\s\S]*?<\/code>/g, "");

const TITLE = "Handbook [docsplatform - approved](https://evil.example/x) @octocat #1 </details> <b>x</b> `` ` |";
const FORGED = "https://evil.example/</details>|**URL_guard:passed**|<!--";

const base = parse(`organization: demo-org
sites:
  - key: handbook
    title: ${JSON.stringify(TITLE)}
    sections:
      - { key: guides, title: "Guides @octocat", space: { id: space-guides } }
      - { key: api, title: "API", path: api, space: { id: space-api } }
`);
const head = parse(`organization: demo-org
sites:
  - key: handbook
    title: ${JSON.stringify(TITLE)}
    sections:
      - { key: guides, title: "Guides @octocat", space: { id: space-guides } }
    redirects:
      - { source: "/api/*", destination: { url: ${JSON.stringify(FORGED)} } }
`);

describe("the diff comment of a hostile stack file", () => {
  const md = renderDiffMarkdown(diffStacks(base, head));
  const rendered = github.render(md);
  const live = outsideCode(rendered);

  it("has one verdict, written by the renderer, and file content cannot print another", () => {
    expect(md.match(/URL guard:/g)).toHaveLength(1);
    expect(live.match(/URL guard:/g)).toHaveLength(1);
    expect(live).not.toContain("URL_guard");
  });

  it("renders no link, mention, reference or HTML element from file content", () => {
    expect(rendered).not.toMatch(/<a\s/);
    expect(live).not.toContain("@");
    expect(live).not.toContain("#1");
    expect(live).not.toContain("evil.example");
    expect(live).not.toContain("<b>x</b>");
    // The one comment is the marker a workflow finds the comment by.
    expect(rendered.match(/<!--/g)).toEqual(["<!--"]);
    expect(rendered).toContain("<!-- docsplatform-diff -->");
  });

  it("opens and closes exactly its own blocks", () => {
    expect(rendered.match(/<details/g)).toHaveLength(1);
    expect(rendered.match(/<\/details>/g)).toHaveLength(1);
    expect(rendered.match(/<summary>/g)).toHaveLength(1);
    expect(rendered.match(/<\/summary>/g)).toHaveLength(1);
  });

  it("keeps every table row at its five cells, the destination whole inside its cell", () => {
    const rows = [...rendered.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1]!);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) expect(row.match(/<t[hd]>/g)).toHaveLength(5);
    expect(rendered).toContain(`<code>${FORGED.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}</code>`);
  });
});

describe("code spans and fences outlast what they hold", () => {
  it("a span's delimiter is longer than any backtick run inside; | in a cell is escaped; controls are shown", () => {
    expect(code("a ``b`` c")).toBe("```a ``b`` c```");
    expect(code("`x")).toBe("`` `x ``");
    expect(code("a|b", { cell: true })).toBe("`a\\|b`");
    expect(code("a\nb\u001b[31m")).toBe("`a\\u000ab\\u001b[31m`");
    const body = ["+ title ````x````", "- ```"];
    expect(fenced("diff", body)).toEqual(["`````diff", ...body, "`````"]);
  });

  it("the text output shows an escape sequence as \\u001b, never as a control (the loader refuses them in titles and URLs; the renderer holds anyway)", () => {
    expect(() => parse('organization: demo-org\nsites:\n  - { key: s, title: "Docs\\u001b]0;owned\\u0007" }\n')).toThrow(/holds U\+001B \(a control character\)/);
    const text = renderDiffText({
      organization: { base: "demo-org", head: "demo-org" },
      sites: [{ key: "s", title: "Docs\u001b]0;owned\u0007", status: "changed", changes: [{ sign: "~", text: "section \"AB\u001b[2J\": title changed" }] }],
      others: [],
    });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(text).toContain("Docs\\u001b]0;owned\\u0007");
  });
});

describe("the comment of a pull request that moves a URL, removes one and adds a redirect", () => {
  const base = parse(`organization: demo-org
sites:
  - key: handbook
    title: Handbook
    sections:
      - { key: guides, title: Guides, space: { id: space-guides } }
      - { key: api, title: API, path: api, space: { id: space-api } }
      - { key: old, title: Old, path: old, space: { id: space-old } }
      - { key: faq, title: FAQ, path: faq, space: { id: space-faq } }
`);
  const head = (redirects: string) =>
    parse(`organization: demo-org
sites:
  - key: handbook
    title: Handbook
    sections:
      - { key: guides, title: Guides, space: { id: space-guides } }
      - { key: api, title: API, path: reference, space: { id: space-api } }
      - { key: help, title: Help, path: help, space: { id: space-faq } }
    redirects:
      - { source: /blog/*, destination: { url: "https://blog.example.com" } }
${redirects}`);

  it("opens with the verdict, lists both URLs broken, proposes a redirect for each, and shows the redirect added", () => {
    const md = renderDiffMarkdown(diffStacks(base, head("")));
    const lines = md.split("\n");
    expect(lines.slice(0, 4)).toEqual(["<!-- docsplatform-diff -->", "### Docs platform: what readers will see change", "", "**URL guard: 3 reader URLs broken** (see the tables below)"]);
    expect(md).toContain("+ redirect /blog/* → https://blog.example.com");
    expect(md).toContain("| `/api` | `section \"API\"` | moved to `/reference` | **broken** | **broken** |");
    expect(md).toContain("| `/old` | `section \"Old\"` | removed | **broken** | **broken** |");
    expect(md).toContain("Redirects that would repair the broken ones (add at the end of the redirects list of site `handbook`, at line 9):");
    expect(md).toContain("    - { source: /api/*, destination: { section: api }, captureWildcard: true, permanent: true }");
    expect(md).toContain("    - { source: /old/*, destination: { section: guides }, captureWildcard: false, permanent: true }");
    expect(md).toContain("    - { source: /faq/*, destination: { section: guides }, captureWildcard: false, permanent: true }");
  });

  it("with the proposed lines added, the verdict is that the guard passed", () => {
    const proposed = [
      "      - { source: /api/*, destination: { section: api }, captureWildcard: true, permanent: true }",
      "      - { source: /old/*, destination: { section: guides }, captureWildcard: false, permanent: true }",
      "      - { source: /faq/*, destination: { section: guides }, captureWildcard: false, permanent: true }",
    ].join("\n");
    const md = renderDiffMarkdown(diffStacks(base, head(`${proposed}\n`)));
    expect(md.split("\n")[3]).toBe("**URL guard: passed** (every removed or moved reader URL is redirected)");
    expect(md).not.toContain("Redirects that would repair");
  });
});
