/**
 * The lines of `docsplatform diff`: what one change says, the changes of a site and of the whole
 * stack, and the small wordings every part of the comparison shares.
 */
import type { Absence as FieldAbsence, FieldSpec } from "../resources/kind";
import type { SiteGuard } from "../redirects/guard";
import type { Key } from "../file/model";

/** `+` added, `-` removed, `~` changed, `>` moved. */
export type Sign = "+" | "-" | "~" | ">";

/** One line of a diff. */
export interface Change {
  sign: Sign;
  text: string;
}

/** The changes of one site. */
export interface SiteDiff {
  key: Key;
  title: string;
  status: "added" | "removed" | "changed";
  changes: Change[];
  /** Reader URLs the change removes or moves, each redirected or broken (absent when none). */
  guard?: SiteGuard;
}

/** The whole diff: sites (by title, then key) and the organisation's other objects. */
export interface StackDiff {
  organization: { base: string | undefined; head: string | undefined };
  sites: SiteDiff[];
  /** Teams, members, SSO, specs, collections, spaces, translations and settings, summarised. */
  others: Change[];
}

/** A string quoted as the diff shows titles and values. */
export const q = (s: string): string => JSON.stringify(s);

/** Collects the lines of one site in the order they are added. */
export class Lines {
  readonly list: Change[] = [];
  add(sign: Sign, text: string): void {
    this.list.push({ sign, text });
  }
}

/** `a → b` for optional values; `undefined` as "none". */
export function arrow(a: string | undefined, b: string | undefined): string {
  return `${a ?? "none"} → ${b ?? "none"}`;
}

/**
 * A change of an optional field: added, changed, or left out — which removes the value (`clear`) or
 * leaves the platform's alone (`unmanaged`), as the kind's absence rule says. Fields with a reset
 * value are compared with absence already read as that value.
 */
export function fieldChange(name: string, b: string | undefined, h: string | undefined, absent: FieldAbsence, show: (v: string) => string = q): string | undefined {
  if (b === h) return undefined;
  if (h === undefined) return absent === "clear" ? `${name} ${show(b!)} removed` : `${name} no longer declared (the platform keeps ${show(b!)})`;
  if (b === undefined) return `${name} ${show(h)} added`;
  return `${name} ${show(b)} → ${show(h)}`;
}

/**
 * Items that keep their level but not their relative order: the fewest that moved (those outside a
 * longest run already in order), each with the sibling it now follows.

/** What leaving a field out means, as its kind declares it (a required field is never left out). */
export function absenceOf(spec: FieldSpec): FieldAbsence {
  return spec.absent ?? "unmanaged";
}

/** Where an entry now sits among its siblings. */
export function position(after: string | undefined): string {
  return after === undefined ? "now first" : `now after ${after}`;
}

/** A site diff's counts, e.g. `2 added, 1 removed, 3 changed`. */
export function countChanges(changes: Change[]): string {
  const n = (s: Sign): number => changes.filter((c) => c.sign === s && !c.text.startsWith("  ")).length;
  const parts = [
    [n("+"), "added"],
    [n("-"), "removed"],
    [n(">"), "moved"],
    [n("~"), "changed"],
  ] as const;
  return parts
    .filter(([k]) => k > 0)
    .map(([k, w]) => `${k} ${w}`)
    .join(", ");
}

/** Whether the diff has anything to show. */
export function isEmpty(d: StackDiff): boolean {
  return d.sites.length === 0 && d.others.length === 0 && d.organization.base === d.organization.head;
}
