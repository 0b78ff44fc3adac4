/**
 * Agent instructions are a content document in the API and markdown in the stack file: one block per
 * paragraph (text separated by a blank line), `#`, `##` and `###` lines as headings. The same rule both
 * ways, so a document written from markdown reads back as the same markdown; a block the rule does not
 * write (a list, a table edited in the app) reads back as its text, and shows as a difference.
 */
import type { ContentDocument } from "../client";

type Node = { object?: string; type?: string; text?: string; nodes?: Node[]; leaves?: { text?: string }[] };

/** Markdown in the form compared: line breaks `\n`, no trailing spaces, one blank line between blocks, none at either end. */
export function canonicalMarkdown(markdown: string): string {
  return markdown
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.replace(/[ \t]+$/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The document for markdown: a heading block per `#`…`###` paragraph, a paragraph block per other one. */
export function documentOf(markdown: string): ContentDocument {
  const nodes = canonicalMarkdown(markdown)
    .split("\n\n")
    .filter((b) => b !== "")
    .map((block) => {
      const heading = /^(#{1,3})\s+(.*)$/s.exec(block);
      return {
        object: "block",
        type: heading ? `heading-${heading[1]!.length}` : "paragraph",
        nodes: [{ object: "text", leaves: [{ object: "leaf", text: heading ? heading[2]! : block, marks: [] }] }],
      };
    });
  return { object: "document", data: {}, nodes };
}

/** The text of a node: its leaves, or its children's text. */
function textOf(node: Node): string {
  if (typeof node.text === "string") return node.text;
  if (Array.isArray(node.leaves)) return node.leaves.map((l) => l.text ?? "").join("");
  return (node.nodes ?? []).map(textOf).join("");
}

/** The markdown a document reads back as (see the module's description). */
export function markdownOf(document: ContentDocument | undefined): string {
  const blocks = ((document?.nodes ?? []) as Node[]).map((block) => {
    const level = /^heading-([1-3])$/.exec(block.type ?? "");
    const text = textOf(block);
    return level ? `${"#".repeat(Number(level[1]))} ${text}` : text;
  });
  return canonicalMarkdown(blocks.join("\n\n"));
}
