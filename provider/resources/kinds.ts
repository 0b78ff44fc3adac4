import type { AnyKind } from "./kind";
import { shareLinkKind } from "./shareLink";
import { siteKind } from "./site";

/**
 * THE list of resource kinds: the stack loader, the docs and the table-driven tests walk it.
 * Adding a kind is one module under provider/resources/, its shim under provider/providers/,
 * its schema under schemas/kinds/, and one row here.
 */
export const kinds = [
  // Site structure
  siteKind,
  shareLinkKind,
  // Organisation
] as const satisfies readonly AnyKind[];

/** Name of a registered kind. */
export type KindName = (typeof kinds)[number]["name"];

/** The registered kind with that name, or undefined. */
export function kindByName(name: string): AnyKind | undefined {
  return kinds.find((k) => k.name === name);
}
