/**
 * The resolved stack: a stack file with every site resolved into the site model. The loader makes it
 * once per file, before its cross-object checks, and everything after reads that one value: the checks,
 * the component's declarers, `validate`'s and export's summaries, `tree` and `diff`.
 */
import type { StackFile } from "../file/model";
import { siteModels, type SiteModel } from "../site";

/** A stack file and its sites, resolved once. */
export interface ResolvedStack {
  /** The file as its schema typed it. */
  stack: StackFile;
  /** Every site of the file, resolved (in file order). */
  sites: SiteModel[];
}

/** Resolves a stack file's sites: the one place a file's site models are built. */
export function resolveStack(stack: StackFile): ResolvedStack {
  // The loader resolves before its checks, so the value may be anything YAML holds.
  const isFile = stack !== null && typeof stack === "object" && !Array.isArray(stack);
  return { stack, sites: isFile ? siteModels(stack) : [] };
}
