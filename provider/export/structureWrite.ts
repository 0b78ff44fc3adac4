/**
 * A site's structure written as Git Sync's site-structure file (`gitbook-docs.yaml`), from the one site
 * model (a stack file's site, or the live one export read), with the `structure:` entry docs.yaml then
 * gives the site. Keys are the stack file's; what a site file cannot hold is named in `notes`, never
 * dropped silently:
 * - a section's `draft` (the file's sections have none): left to the platform;
 * - a site space's look override (`customization`): the site file has no place for it, and a site whose
 *   structure comes from the file declares no site space of its own in docs.yaml (up deletes the override);
 * - keys a site file cannot share: its keys are unique across the file, so a site space whose key is
 *   also a section's, group's or link's (the `space` shorthand gives the section's key) is written with
 *   another, and `structure.previousKeys` keeps its resource;
 * - a path the stack file leaves to the platform (the file requires one): written as the platform
 *   derives it from the title;
 * - a space whose title the file does not know (a space by `{id}`): its key stands as the node's title.
 */
import { stringify } from "yaml";
import type { SectionEntry, SiteModel, SiteSpaceEntry } from "../site";
import type { GroupChild, LinkEntry, TopEntry } from "../site/types";
import type { Ref } from "../file/model";
import { SITE_FILE_NAME } from "../stack/structureFile";
import type { StackSiteStructure } from "../stack/structureExpand";

/** A node of the site file as written. */
type Node = Record<string, unknown>;

/** Where each space's content lives in the repository: by site-space key (the node's key), else one folder per space. */
export type ContentDirectories = Readonly<Record<string, string>>;

/** A site file written for one site: its data, the `structure:` entry for docs.yaml (`file` to be filled in by the caller) and the notes. */
export interface WrittenSiteFile {
  data: { version: 1; site: { title: string; structure: Node[] } };
  structure: Omit<StackSiteStructure, "file">;
  notes: string[];
}

/** The site file of one site (see the module's description). */
export function siteFileOf(site: SiteModel, dirs: ContentDirectories = {}): WrittenSiteFile {
  return new SiteFileWriter(site, dirs).write();
}

/** The text of a site file: a header naming where it came from, then the data. */
export function renderSiteFile(written: WrittenSiteFile, header: readonly string[]): string {
  const comments = header.map((l) => `# ${l}`.trimEnd()).join("\n");
  return `${comments}${comments === "" ? "" : "\n"}${stringify(written.data, { lineWidth: 0 })}`;
}

class SiteFileWriter {
  private readonly notes: string[] = [];
  private readonly taken = new Set<string>();
  private readonly spaces: Record<string, Ref> = {};
  private readonly previousKeys: Record<string, string[]> = {};

  constructor(
    private readonly site: SiteModel,
    private readonly dirs: ContentDirectories,
  ) {
    // Sections, groups and links keep their keys; site spaces give way where a key is shared.
    for (const s of site.sections) this.taken.add(s.key);
    for (const g of site.groups) this.taken.add(g.key);
    for (const l of site.links) this.taken.add(l.key);
  }

  write(): WrittenSiteFile {
    const site = this.site;
    const structure = site.sections.length > 0 || site.links.length > 0 || site.groups.length > 0 ? site.entries.map((e) => this.top(e)) : this.spacesOf(site.rootSiteSpaces);
    const out: Omit<StackSiteStructure, "file"> = {};
    if (Object.keys(this.spaces).length > 0) out.spaces = this.spaces;
    if (Object.keys(this.previousKeys).length > 0) out.previousKeys = this.previousKeys;
    return { data: { version: 1, site: { title: site.title, structure } }, structure: out, notes: this.notes };
  }

  private note(text: string): void {
    this.notes.push(`site ${JSON.stringify(this.site.key)}: ${text}`);
  }

  private top(e: TopEntry): Node {
    if (e.kind !== "group") return this.listed(e);
    const g = e.group;
    return {
      type: "section-group",
      key: g.key,
      title: g.title,
      ...defined({ icon: g.entry.icon ?? undefined, draft: g.draft }),
      ...(g.children.length > 0 ? { children: g.children.map((c) => this.listed(c)) } : {}),
    };
  }

  private listed(e: GroupChild): Node {
    return e.kind === "section" ? this.section(e.section) : this.link(e.link);
  }

  private section(s: SectionEntry): Node {
    if (s.draft !== undefined) this.note(`section ${JSON.stringify(s.key)}: its draft flag (${String(s.draft)}) has no place in a site file (its sections have none); the platform keeps the section's draft state as it is`);
    return {
      type: "section",
      key: s.key,
      title: s.title,
      ...defined({ description: s.entry.description ?? undefined, icon: s.entry.icon ?? undefined }),
      ...(s.default ? { default: true } : {}),
      path: this.pathOf(s.path, s.key, "section"),
      ...defined({ condition: s.condition }),
      children: this.spacesOf(s.siteSpaces),
    };
  }

  private spacesOf(level: readonly SiteSpaceEntry[]): Node[] {
    return level.map((ss) => this.space(ss));
  }

  private space(ss: SiteSpaceEntry): Node {
    const key = this.keyOf(ss);
    const ref = ss.space;
    // A space node shows the space of docs.yaml's `spaces:` with its key; any other space is mapped.
    if (ref !== undefined && ref !== key) this.spaces[key] = ref;
    if (ss.entry.customization !== undefined) this.note(`site space ${JSON.stringify(ss.key)}: its look override (customization) has no place in a site file, nor beside structure in docs.yaml: a site reading this file declares none, and up deletes the override (the site's look shows again)`);
    const title = ss.spaceTitle ?? key;
    if (ss.spaceTitle === undefined) this.note(`site space ${JSON.stringify(ss.key)}: its space's title is not known here; the node's title is its key (${JSON.stringify(key)}): write the space's title`);
    return {
      type: "space",
      key,
      title,
      path: this.pathOf(ss.path, key, "site space"),
      ...(ss.default ? { default: true } : {}),
      ...defined({ draft: ss.draft, condition: ss.condition, hidden: ss.hidden }),
      content: { directory: this.dirs[key] ?? this.dirs[ss.key] ?? `./${typeof ref === "string" ? ref : key}` },
    };
  }

  /** A site space's key in the file: its own, unless a section, group, link or earlier site space has it. */
  private keyOf(ss: SiteSpaceEntry): string {
    let key = ss.key;
    for (let n = 1; this.taken.has(key); n++) key = n === 1 ? `${ss.key}-space` : `${ss.key}-space-${n}`;
    this.taken.add(key);
    if (key !== ss.key) {
      this.previousKeys[key] = [ss.key, ...ss.previousKeys];
      this.note(`site space ${JSON.stringify(ss.key)} is written with key ${JSON.stringify(key)}: a site file's keys are unique across the file, and ${JSON.stringify(ss.key)} is already a section's, group's or link's; structure.previousKeys keeps its resource`);
    } else if (ss.previousKeys.length > 0) {
      this.previousKeys[key] = [...ss.previousKeys];
    }
    return key;
  }

  private pathOf(p: SectionEntry["path"], key: string, what: string): string {
    if (p.source === "declared" || p.source === "live") return p.value!;
    const written = p.value ?? p.derived ?? key;
    this.note(`${what} ${JSON.stringify(key)}: its path is the platform's to choose in the stack file, and a site file requires one: written as ${JSON.stringify(written)}, the path the platform derives from its title`);
    return written;
  }

  private link(l: LinkEntry): Node {
    const e = l.entry;
    return {
      type: "external-link",
      key: l.key,
      title: l.title,
      ...defined({ localizedTitle: e.localizedTitle, description: l.entry.description ?? undefined, localizedDescription: e.localizedDescription, icon: l.entry.icon ?? undefined }),
      url: l.target,
      ...defined({ draft: l.draft, condition: l.condition }),
    };
  }
}

/** The members whose value is set. */
function defined(members: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(members).filter(([, v]) => v !== undefined && v !== null));
}

export { SITE_FILE_NAME };
