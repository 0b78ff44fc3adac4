/**
 * A site model as the stack file declares it (export's last step, live → model → file): each entry's
 * fields with the structure around them — a section's `space` shorthand or its `siteSpaces`, the
 * defaults written only where a level has a choice, each group's sections by key.
 */
import type { LinkEntry, ListedEntry, SectionEntry, SiteModel, SiteSpaceEntry } from "../site";
import type { StackExternalLink, StackSection, StackSite, StackSiteSpace } from "../file/model";

/** An entry without its key and `adopt`: the fields between them. */
function fieldsOf<T extends { key: string; adopt?: boolean }>(entry: T): Omit<T, "key" | "adopt"> {
  const { key: _key, adopt: _adopt, ...fields } = entry;
  void _key;
  void _adopt;
  return fields;
}

/** The key of a level's default as the file writes it: only when the level has more than one entry (one entry is its own default). */
function writtenDefault(entries: readonly { key: string; default: boolean }[]): string | undefined {
  return entries.length > 1 ? entries.find((e) => e.default)?.key : undefined;
}

function siteSpaceEntry(ss: SiteSpaceEntry): StackSiteSpace {
  return ss.entry;
}

function sectionEntry(section: SectionEntry): StackSection {
  const structure: Partial<StackSection> =
    section.form === "space"
      ? { space: section.siteSpaces[0]!.space! }
      : { siteSpaces: section.siteSpaces.map(siteSpaceEntry), ...optional("defaultSiteSpace", writtenDefault(section.siteSpaces)) };
  return { key: section.key, ...structure, ...fieldsOf(section.entry), adopt: true };
}

function linkEntry(link: LinkEntry): StackExternalLink {
  return { key: link.key, ...fieldsOf(link.entry), adopt: true };
}

function optional<K extends string, V>(name: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [name]: value } as Record<K, V>);
}

/** The stack file's entry of a site. */
export function siteFileEntry(model: SiteModel): StackSite {
  const { adaptiveSchema, ...fields } = fieldsOf(model.entry);
  const out: StackSite = {
    key: model.key,
    ...(fields as Omit<StackSite, "key">),
    ...optional("defaultSiteSection", writtenDefault(model.sectionList)),
    ...optional("defaultSiteSpace", writtenDefault(model.rootSiteSpaces)),
    ...optional("adaptiveSchema", adaptiveSchema),
  };
  // Sections and external links in display order, groups expanded (each group lists its members by key).
  const listed = model.entries.flatMap((e): ListedEntry[] => (e.kind === "group" ? e.group.children : [e]));
  if (listed.length > 0) out.sections = listed.map((e) => (e.kind === "section" ? sectionEntry(e.section) : linkEntry(e.link)));
  if (model.groupList.length > 0) out.sectionGroups = model.groupList.map((g) => g.entry);
  if (model.rootSiteSpaces.length > 0) out.siteSpaces = model.rootSiteSpaces.map(siteSpaceEntry);
  if (model.shareLinks.length > 0) out.shareLinks = model.shareLinks.map((l) => l.entry);
  out.adopt = true;
  return out;
}
