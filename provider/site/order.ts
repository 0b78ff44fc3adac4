/**
 * Display order, written once: where groups and sections sit at a site's top level, and the one
 * ordering function that both the structure order plan (`SiteStructureOrder`'s fewest moves) and
 * `diff` (what moved) use.
 *
 * - Sections keep the order of the file's `sections`; a section group takes the place of its first
 *   section and holds its sections in that same order (what `SiteStructureOrder` applies). Groups
 *   without sections, which have no place in that order, come last.
 * - A section listed by two groups belongs to the first (the checks refuse such a file).
 */
import type { Key } from "../file/model";
import { longestIncreasing } from "../sequence";
import type { GroupEntry, LinkEntry, ListedEntry, SectionEntry, TopEntry } from "./types";

export { longestIncreasing };

/**
 * Items that keep their level but not their relative order: the fewest that moved (those outside a
 * longest run already in order), each with the sibling it now follows.
 */
export function reordered<T>(baseOrder: readonly Key[], head: readonly T[], baseKeyOf: (t: T) => Key | undefined): { item: T; after: T | undefined }[] {
  const common = head.filter((t) => {
    const bk = baseKeyOf(t);
    return bk !== undefined && baseOrder.includes(bk);
  });
  const keep = longestIncreasing(common.map((t) => baseOrder.indexOf(baseKeyOf(t)!)));
  const out: { item: T; after: T | undefined }[] = [];
  common.forEach((t, i) => {
    if (keep.has(i)) return;
    const at = head.indexOf(t);
    out.push({ item: t, after: at > 0 ? head[at - 1] : undefined });
  });
  return out;
}

/** The group each section key belongs to: the first group listing it. */
export function groupMembership(groups: readonly { key: Key; members: readonly { key: unknown }[] }[]): Map<Key, Key> {
  const groupOf = new Map<Key, Key>();
  for (const g of groups) {
    for (const m of g.members) if (typeof m.key === "string" && !groupOf.has(m.key)) groupOf.set(m.key, g.key);
  }
  return groupOf;
}

/**
 * The top level in display order from the entries of `sections` as the file lists them (sections and
 * external links, each already naming its group); fills each group's `sections` and `children`. A group
 * takes the place of its first listed member. Returns the top level, every section, every external link
 * and every group in display order.
 */
export function displayOrder(
  listed: readonly ListedEntry[],
  groups: readonly GroupEntry[],
): { entries: TopEntry[]; sections: SectionEntry[]; links: LinkEntry[]; groups: GroupEntry[] } {
  const byKey = new Map<Key, GroupEntry>();
  for (const g of groups) if (!byKey.has(g.key)) byKey.set(g.key, g);
  const entries: TopEntry[] = [];
  for (const item of listed) {
    const groupKey = item.kind === "section" ? item.section.group : item.link.group;
    const group = groupKey === undefined ? undefined : byKey.get(groupKey);
    if (group === undefined) {
      entries.push(item);
      continue;
    }
    if (group.children.length === 0) entries.push({ kind: "group", group });
    group.children.push(item);
    if (item.kind === "section") group.sections.push(item.section);
  }
  for (const g of groups) if (g.children.length === 0) entries.push({ kind: "group", group: g });
  const flat = entries.flatMap((e): ListedEntry[] => (e.kind === "group" ? e.group.children : [e]));
  return {
    entries,
    sections: flat.flatMap((e) => (e.kind === "section" ? [e.section] : [])),
    links: flat.flatMap((e) => (e.kind === "link" ? [e.link] : [])),
    groups: entries.filter((e): e is Extract<TopEntry, { kind: "group" }> => e.kind === "group").map((e) => e.group),
  };
}
