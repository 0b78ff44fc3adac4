/**
 * The head of a diff as `pulumi up` leaves the platform when applied to the base: a field the head
 * no longer declares is left as it is on the platform (the provider compares only what is declared),
 * so an undeclared path keeps its base value.
 */
import type { SiteSpaceEntry } from "../site";
import { sectionSiteSpaces } from "../site";
import { sectionsOf, type Key, type StackFile, type StackSiteSpace } from "../file/model";
import { q, type Change } from "./changes";
import { matchKeyed } from "./match";
import { resolveStack, type ResolvedStack } from "../stack/resolve";

/** The head as applied to the base, with the paths the head stopped declaring (the platform keeps them), per head site key. */
export interface AppliedHead extends ResolvedStack {
  kept: Map<Key, Change[]>;
}

/**
 * The head file as `pulumi up` leaves the platform when applied to the base. A path is not managed
 * when not declared (the kind's absence rule): a section or site space that stays at its level (same key, or a
 * previous key) and declares no path keeps the one it has — derived from its title at creation, not
 * from a title changed since. Where the base declared that path, `kept` says the head no longer does.
 * Defaults need nothing: an undeclared default is the first of its level on both sides.
 */
export function appliedHead(base: ResolvedStack, head: ResolvedStack): AppliedHead {
  const stack = structuredClone(head.stack);
  const kept = new Map<Key, Change[]>();
  let edited = false;
  for (const site of stack.sites ?? []) {
    const [pair] = matchKeyed(base.sites, [site]).pairs;
    if (pair === undefined) continue;
    const b = pair[0];
    const notes: Change[] = [];
    const note = (text: string): void => void notes.push({ sign: "~", text });
    for (const [bs, hs] of matchKeyed(b.sections, sectionsOf(site)).pairs) {
      if (hs.path === undefined && bs.path.value !== undefined) {
        hs.path = bs.path.value;
        edited = true;
        if (bs.path.source === "declared") note(`section ${q(hs.title)}: path no longer declared (the platform keeps ${bs.path.value})`);
      }
      const list = sectionSiteSpaces(hs).map((ss) => ({ ...ss }));
      edited = keepPaths(matchKeyed(bs.siteSpaces, list).pairs, note) || edited;
      if (hs.siteSpaces !== undefined || list[0]?.path !== undefined) {
        // The shorthand's one site space is written out when it carries a path.
        delete hs.space;
        hs.siteSpaces = list;
      }
    }
    edited = keepPaths(matchKeyed(b.rootSiteSpaces, site.siteSpaces ?? []).pairs, note) || edited;
    if (notes.length > 0) kept.set(site.key, notes);
  }
  // Resolved again only when a path the head leaves out was kept: otherwise it is the head as loaded.
  return { ...(edited ? resolveStack(stack) : head), kept };
}

/** Site spaces that stay at their level and declare no path keep the one they have; true when any did. */
function keepPaths(pairs: [SiteSpaceEntry, StackSiteSpace][], note: (text: string) => void): boolean {
  let kept = false;
  for (const [bs, hs] of pairs) {
    if (hs.path !== undefined || bs.path.value === undefined) continue;
    hs.path = bs.path.value;
    kept = true;
    if (bs.path.source === "declared") note(`site space ${bs.url}: path no longer declared (the platform keeps ${bs.path.value})`);
  }
  return kept;
}
