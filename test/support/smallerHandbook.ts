/**
 * The handbook cut down to the blocks a test's rows edit and check, for rows that need no more than that: an
 * engine run costs a fixed part (the language host loading the SDK and the package) and a part per declared
 * object, and the whole handbook (about 70 objects) makes the second the larger (a no-op `up` of the handbook
 * cut to 27 objects takes about 30% less CPU than of the whole). The blocks kept are the handbook's own,
 * unchanged and at the same places (a kept site keeps its index among `sites`), so a row's edits, and its exact
 * changes and writes, read as they do on the whole file.
 */
import * as fs from "node:fs";
import { parseDocument, type YAMLMap, type YAMLSeq } from "yaml";

/** What to leave out of the handbook. */
export interface HandbookCut {
  /** Top-level blocks left out (`teams`, `saml`, …); each must be there. */
  blocks?: readonly string[];
  /** Sites left out: every site from this index on. */
  sitesFrom?: number;
  /** Blocks left out of every kept site (`mcpServers`, `agent`, …), or of the site at an index. */
  siteBlocks?: readonly string[] | Readonly<Record<number, readonly string[]>>;
  /** Grants left out of every collection and space (when the teams they name are left out). */
  grants?: boolean;
}

/** Rewrites the stack file at `file` (a prepared copy of the handbook) without what `cut` names. */
export function cutHandbook(file: string, cut: HandbookCut): void {
  const doc = parseDocument(fs.readFileSync(file, "utf8"));
  for (const block of cut.blocks ?? []) {
    if (!doc.has(block)) throw new Error(`the handbook has no block ${block}`);
    doc.delete(block);
  }
  const sites = doc.get("sites") as YAMLSeq<YAMLMap>;
  if (cut.sitesFrom !== undefined) sites.items.splice(cut.sitesFrom);
  sites.items.forEach((site, i) => {
    const blocks = Array.isArray(cut.siteBlocks) ? cut.siteBlocks : ((cut.siteBlocks as Record<number, readonly string[]> | undefined)?.[i] ?? []);
    for (const block of blocks) site.delete(block);
  });
  if (cut.grants) {
    for (const list of ["collections", "spaces"]) for (const entry of (doc.get(list) as YAMLSeq<YAMLMap>).items) entry.delete("permissions");
  }
  fs.writeFileSync(file, doc.toString());
}
