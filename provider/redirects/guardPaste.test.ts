/**
 * The URL guard's repair lines paste into the head file as they say: among the site's fields when it has
 * no redirects, as entries at the end of its list when it has one (block or flow). Pasted where the line
 * above them says, the file validates and the guard passes.
 */
import { describe, expect, it } from "vitest";
import { parseStack } from "../stack/load";
import type { ResolvedStack } from "../stack/resolve";
import { diffStacks, renderDiffText } from "../view/diff";
import { anyBroken, proposalSnippet, type PastePlace, type SiteGuard } from "./guard";

function parse(text: string): ResolvedStack {
  const r = parseStack(text, "docs.yaml");
  if (!r.ok) throw new Error(r.problems.map((p) => p.message).join("\n"));
  return r;
}

const site = (apiPath: string, redirects: string): string => `organization: demo-org
sites:
  - key: handbook
    title: Handbook
    sections:
      - { key: guides, title: Guides, space: { id: space-guides } }
      - { key: api, title: API, path: ${apiPath}, space: { id: space-api } }
      - { key: old, title: Old, path: old, space: { id: space-old } }
${redirects}`;

const base = parse(site("api", ""));

/** The head's guard for the site. */
function guardOf(head: ResolvedStack): SiteGuard {
  const g = diffStacks(base, head).sites.find((s) => s.key === "handbook")?.guard;
  if (!g) throw new Error("no guard");
  return g;
}

/** `text` with the snippet pasted where `place` says: after the site's key line, after the list's last line, or inside the brackets. */
function paste(text: string, place: PastePlace, snippet: string[]): string {
  const lines = text.split("\n");
  if (place.into === "site") lines.splice(place.line, 0, ...snippet);
  else if (place.into === "list") {
    let last = place.line;
    while (last < lines.length && lines[last]!.startsWith(`${place.indent}- `)) last++;
    lines.splice(last, 0, ...snippet);
  } else {
    const i = place.line - 1;
    const close = lines[i]!.lastIndexOf("]");
    const empty = /\[\s*\]/.test(lines[i]!);
    const inside = (empty ? [snippet[0]!.replace(/^, /, ""), ...snippet.slice(1)] : snippet).join(" ");
    lines[i] = `${lines[i]!.slice(0, close)}${inside}${lines[i]!.slice(close)}`;
  }
  return lines.join("\n");
}

describe("the repair lines paste where they say", () => {
  const moved = (redirects: string): string => site("reference", redirects).replace("      - { key: old, title: Old, path: old, space: { id: space-old } }\n", "");

  it("a site without redirects: a redirects list among its fields, after its key line", () => {
    const text = moved("");
    const g = guardOf(parse(text));
    expect(g.paste).toEqual({ into: "site", line: 3, indent: "    " });
    const snippet = proposalSnippet(g.proposed, g.paste);
    expect(snippet).toEqual([
      "    redirects:",
      "      - { source: /api/*, destination: { section: api }, captureWildcard: true, permanent: true }",
      "      - { source: /old/*, destination: { section: guides }, captureWildcard: false, permanent: true }",
    ]);
    expect(renderDiffText(diffStacks(base, parse(text)))).toContain("Redirects that would repair them (paste among the fields of site handbook, whose entry starts at line 3):");
    const pasted = parse(paste(text, g.paste!, snippet));
    expect(anyBroken([guardOf(pasted)])).toBe(false);
  });

  it("a site with a block list: entries at the list's indent, added at its end", () => {
    const text = moved("    redirects:\n    - { source: /blog/*, destination: { url: 'https://blog.example.com' } }\n");
    const g = guardOf(parse(text));
    expect(g.paste).toEqual({ into: "list", line: 8, indent: "    " });
    const snippet = proposalSnippet(g.proposed, g.paste);
    expect(snippet[0]).toBe("    - { source: /api/*, destination: { section: api }, captureWildcard: true, permanent: true }");
    expect(renderDiffText(diffStacks(base, parse(text)))).toContain("(add at the end of the redirects list of site handbook, at line 8):");
    const pasted = parse(paste(text, g.paste!, snippet));
    expect(anyBroken([guardOf(pasted)])).toBe(false);
    expect((pasted.stack.sites![0]!.redirects ?? []).map((r) => r.source)).toEqual(["/blog/*", "/api/*", "/old/*"]);
  });

  it("a site with a flow list, or an empty one: entries added inside its brackets", () => {
    for (const list of ["    redirects: [{ source: /blog/*, destination: { url: 'https://blog.example.com' } }]\n", "    redirects: []\n"]) {
      const text = moved(list);
      const g = guardOf(parse(text));
      expect(g.paste).toEqual({ into: "flowList", line: 8 });
      const pasted = parse(paste(text, g.paste!, proposalSnippet(g.proposed, g.paste)));
      expect(anyBroken([guardOf(pasted)])).toBe(false);
    }
  });
});

describe("a retitled section whose path is not declared keeps its URL: the redirect checks and diff agree", () => {
  const file = (title: string): string => `organization: demo-org
sites:
  - key: handbook
    title: Handbook
    sections:
      - { key: guides, title: Guides, space: { id: space-guides } }
      - { key: changelog, title: ${title}, space: { id: space-changes } }
    redirects:
      - { source: /release-notes/*, destination: { section: changelog } }
`;

  it("validate warns (does not refuse) that the redirect would cover the URL a new section of that title would get; diff shows no URL move", () => {
    const base = parseStack(file("Changelog"), "docs.yaml");
    const head = parseStack(file("Release notes"), "docs.yaml");
    expect(base.ok && head.ok).toBe(true);
    if (!base.ok || !head.ok) return;
    expect(head.warnings.map((w) => `${w.line}:${w.col}: ${w.message}`)).toEqual([
      `9:19: sites[0].redirects[0].source: "/release-notes/*" covers /release-notes, the URL section "changelog" gets from its title when it is made; its path is not declared and the platform keeps the path it made it with, so the live URL may be another. If /release-notes is live, the redirect shadows its pages; declare the path to have this checked`,
    ]);
    const text = renderDiffText(diffStacks(base, head));
    expect(text).not.toContain("URL /changelog");
    expect(text).not.toContain("Reader URLs this change removes or moves");
    // With the path declared, the URL is known: covering it is refused.
    const declared = parseStack(file("Release notes").replace("title: Release notes, space", "title: Release notes, path: release-notes, space"), "docs.yaml");
    expect(declared.ok).toBe(false);
    if (!declared.ok) expect(declared.problems.map((p) => p.message).join("\n")).toContain(`covers /release-notes, the live URL of section "changelog"`);
  });
});
