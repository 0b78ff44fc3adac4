/**
 * A site whose structure comes from a site file (`structure: {file: …/gitbook-docs.yaml}` in docs.yaml):
 * the file is read and checked (structureFile.ts), then its nodes become the site's entries as docs.yaml
 * would declare them inline — sections (and external links) in display order, section groups listing
 * their members, root-level site spaces, the defaults — so the one site model, and everything that reads
 * it (the checks, the component, `tree`, `diff`, the URL guard, export), reads the site as it reads any
 * declared structure. The site keeps its look, redirects, access and share links in docs.yaml.
 *
 * Node to entry: a section's `title`, `path`, `description`, `icon`, `condition`; a group's `title`,
 * `icon`, `draft`; a space's `path`, `condition`, `draft`, `hidden` (its `title` is its space's, its `content` is
 * Git Sync's: neither is sent); a link's every member. `default: true` marks the default section or
 * site space of its level. Each node's key is the entry's key.
 *
 * A space node names the space it shows by its key: the space of docs.yaml's `spaces:` with that key,
 * unless `structure.spaces` maps the node's key to another space (a key of `spaces:` or `{id: …}`).
 *
 * Problems the stack checks find in expanded entries are located back at the node of the site file
 * they came from (or at the mapping in docs.yaml), never at a line of docs.yaml that does not exist.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { escapeSegment } from "../pointer";
import { describe, isObject, type Loose } from "./checkKit";
import type { Problem } from "./problem";
import type { Ref, StackSiteStructure } from "../file/model";
import { projectFile, type FileBase } from "./projectFiles";
import { allNodes, parseSiteFile, SITE_FILE_NAME, type SiteFile, type SiteFileNode } from "./structureFile";

export type { StackSiteStructure };

/** The fields of a site entry the site file supplies: declaring one beside `structure` is refused. */
export const STRUCTURE_FIELDS = ["sections", "sectionGroups", "siteSpaces", "defaultSiteSection", "defaultSiteSpace"] as const;

/** Where a problem of the stack data is written in words: a file's locator and a pointer in that file. */
type At = (pointer: string, message: string, atKey?: boolean) => Problem;

interface Target {
  at: At;
  pointer: string;
}

/** Entries of the expanded data that came from elsewhere: the prefix in the data, where it came from, and fields that came from somewhere else again. */
interface Origin extends Target {
  prefix: string;
  fields?: Record<string, Target>;
}

/** How a site file named by a stack file is read: from disk (beside the stack file), or by the caller (a git revision). */
export type SiteFileReader = (given: string) => { ok: true; text: string } | { ok: false; reason: string };

/** What expanding found: the data with every structured site filled in, the problems, and where a problem of the filled-in entries is. */
export interface Expansion {
  data: unknown;
  problems: Problem[];
  /** The problem at a pointer of the data when the value came from a site file (or from `structure.spaces`); undefined otherwise. */
  relocate(pointer: string, reason: string, atKey: boolean): Problem | undefined;
}

/** The reader of site files beside a stack file on disk (inside the project, projectFiles.ts). */
export function diskReader(base: FileBase): SiteFileReader {
  return (given) => {
    const found = projectFile(base, given);
    if (!found.ok) return { ok: false, reason: found.reason.replace(/the stack file names/g, "docs.yaml names") };
    return loadSiteFileText(found.file);
  };
}

function loadSiteFileText(file: string): { ok: true; text: string } | { ok: false; reason: string } {
  try {
    return { ok: true, text: fs.readFileSync(file, "utf8") };
  } catch (e) {
    return { ok: false, reason: `cannot read it: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** Fill in every site of `data` that names a site file (see the module's description). */
export function expandStructures(data: unknown, stackFile: string, located: At, reader: SiteFileReader | undefined): Expansion {
  const origins: Origin[] = [];
  const problems: Problem[] = [];
  if (!isObject(data) || !Array.isArray(data.sites) || !data.sites.some((s) => isObject(s) && s.structure !== undefined)) {
    return { data, problems, relocate: () => undefined };
  }
  const sites = data.sites.map((site: unknown, i: number) => {
    if (!isObject(site) || !isObject(site.structure)) return site;
    const expanded = expandSite(site, `/sites/${i}`, { stackFile, located, reader, origins, problems });
    return expanded ?? site;
  });
  return {
    data: { ...data, sites },
    problems,
    // The checks say "this file" of docs.yaml: a problem moved into a site file names docs.yaml instead.
    relocate: (pointer, reason, atKey) => relocate(origins, pointer, reason.replace(/\bin this file\b/g, `in ${path.basename(stackFile)}`), atKey),
  };
}

interface SiteContext {
  stackFile: string;
  located: At;
  reader: SiteFileReader | undefined;
  origins: Origin[];
  problems: Problem[];
}

/** One site with its structure from its file; undefined (the site left as written) when the file cannot be used. */
function expandSite(site: Loose, at: string, ctx: SiteContext): Loose | undefined {
  const file = siteFileOf(site, at, ctx);
  if (file === undefined) return undefined;
  const structure = site.structure as Loose;
  const fileAt: At = (pointer, message, atKey) => file.at(pointer, message, atKey);
  if (typeof site.title === "string" && site.title !== file.title) {
    ctx.problems.push(file.at("/site/title", `site.title: ${JSON.stringify(file.title)} differs from the site's title in ${ctx.stackFile} (${JSON.stringify(site.title)}, line ${ctx.located(`${at}/title`, "").line}); the two name one site: make them equal`));
  }
  const mapping = isObject(structure.spaces) ? (structure.spaces as Record<string, Ref>) : {};
  const former = isObject(structure.previousKeys) ? (structure.previousKeys as Record<string, string[]>) : {};
  // Under priority git the platform's import of the same file makes the structure: its objects are taken over, never made twice.
  const built = new Builder(at, fileAt, ctx, mapping, { adopt: structure.adopt === true || importedByGitSync(site), former }).build(file.structure);
  const nodes = allNodes(file.structure);
  unmatched(ctx, `${at}/structure/previousKeys`, former, new Set(nodes.map((n) => n.key)), `no node with key %s in ${file.file}`);
  unmatched(ctx, `${at}/structure/spaces`, mapping, new Set(nodes.filter((n) => n.type === "space").map((n) => n.key)), `no space node with key %s in ${file.file}`);
  ctx.origins.push(...["sections", "siteSpaces", "sectionGroups"].map((list) => ({ prefix: `${at}/${list}`, at: fileAt, pointer: "/site/structure" })));
  return { ...site, ...built };
}

/** Whether the site's Git Sync installation (priority git) imports the site file, making its structure before the provider does. */
function importedByGitSync(site: Loose): boolean {
  return isObject(site.gitSync) && site.gitSync.priority === "git";
}

/** The site file a site names, read and checked; undefined after reporting why it cannot be used. */
function siteFileOf(site: Loose, at: string, ctx: SiteContext): Extract<SiteFile, { ok: true }> | undefined {
  const refuse = (pointer: string, reason: string, atKey = false): undefined => void ctx.problems.push(ctx.located(pointer, `${describe(pointer)}: ${reason}`, atKey));
  const inline = STRUCTURE_FIELDS.filter((f) => site[f] !== undefined);
  const structureLine = ctx.located(`${at}/structure`, "", true).line;
  for (const f of inline) {
    refuse(`${at}/${f}`, `this site takes its structure from a site file (structure, line ${structureLine}); its sections, section groups, site spaces and defaults are the site file's: remove ${f} here or remove structure`, true);
  }
  const given = (site.structure as Loose).file;
  if (inline.length > 0 || typeof given !== "string") return undefined;
  const filePointer = `${at}/structure/file`;
  if (path.posix.basename(given.replace(/\\/g, "/")) !== SITE_FILE_NAME) {
    return refuse(filePointer, `must name a file called ${SITE_FILE_NAME} (the name Git Sync reads), in the folder of the site's project directory (got ${JSON.stringify(given)})`);
  }
  if (ctx.reader === undefined) return refuse(filePointer, "the site file cannot be read here (the stack file was given without its folder)");
  const read = ctx.reader(given);
  if (!read.ok) return refuse(filePointer, read.reason);
  const file = parseSiteFile(read.text, path.normalize(path.join(path.dirname(ctx.stackFile), given)));
  if (!file.ok) {
    ctx.problems.push(...file.problems);
    return undefined;
  }
  return file;
}

/** Entries of a mapping in docs.yaml (`structure.spaces`, `structure.previousKeys`) naming no node of the file, each located at its key. */
function unmatched(ctx: SiteContext, at: string, mapping: Record<string, unknown>, keys: ReadonlySet<string>, reason: string): void {
  for (const key of Object.keys(mapping)) {
    if (keys.has(key)) continue;
    const pointer = `${at}/${escapeSegment(key)}`;
    ctx.problems.push(ctx.located(pointer, `${describe(pointer)}: ${reason.replace("%s", JSON.stringify(key))}`, true));
  }
}

/** Builds one site's entries from its nodes, recording where each came from. */
class Builder {
  private readonly sections: Loose[] = [];
  private readonly groups: Loose[] = [];
  private readonly roots: Loose[] = [];
  private defaultSection: string | undefined;
  private defaultRoot: string | undefined;

  constructor(
    private readonly at: string,
    private readonly fileAt: At,
    private readonly ctx: SiteContext,
    private readonly mapping: Record<string, Ref>,
    private readonly carried: { adopt: boolean; former: Record<string, string[]> },
  ) {}

  build(structure: SiteFileNode[]): Loose {
    for (const n of structure) this.node(n, undefined);
    const out: Loose = {};
    if (this.sections.length > 0) out.sections = this.sections;
    if (this.groups.length > 0) out.sectionGroups = this.groups;
    if (this.roots.length > 0) out.siteSpaces = this.roots;
    if (this.defaultSection !== undefined) out.defaultSiteSection = this.defaultSection;
    if (this.defaultRoot !== undefined) out.defaultSiteSpace = this.defaultRoot;
    return out;
  }

  private origin(prefix: string, n: SiteFileNode, fields?: Record<string, Target>): void {
    this.ctx.origins.push({ prefix, at: this.fileAt, pointer: n.pointer, ...(fields ? { fields } : {}) });
  }

  private node(n: SiteFileNode, group: { pointer: string; members: string[] } | undefined): void {
    if (n.type === "section-group") return this.group(n);
    if (n.type === "space") {
      const pointer = `${this.at}/siteSpaces/${this.roots.length}`;
      if (n.node.default === true) {
        this.defaultRoot = n.key;
        this.ctx.origins.push({ prefix: `${this.at}/defaultSiteSpace`, at: this.fileAt, pointer: `${n.pointer}/default` });
      }
      this.roots.push(this.siteSpace(n, pointer));
      return;
    }
    const pointer = `${this.at}/sections/${this.sections.length}`;
    if (group !== undefined) {
      this.ctx.origins.push({ prefix: `${group.pointer}/sections/${group.members.length}`, at: this.fileAt, pointer: `${n.pointer}/key` });
      group.members.push(n.key);
    }
    this.sections.push(n.type === "section" ? this.section(n, pointer) : this.link(n, pointer));
  }

  private group(n: SiteFileNode): void {
    const pointer = `${this.at}/sectionGroups/${this.groups.length}`;
    const members: string[] = [];
    this.origin(pointer, n, { sections: { at: this.fileAt, pointer: `${n.pointer}/children` } });
    this.groups.push({ key: n.key, title: n.node.title, ...pick(n.node, ["icon", "draft"]), sections: members, ...this.carriedOf(n, pointer) });
    for (const child of n.children) this.node(child, { pointer, members });
  }

  private section(n: SiteFileNode, pointer: string): Loose {
    if (n.node.default === true) {
      this.defaultSection = n.key;
      this.ctx.origins.push({ prefix: `${this.at}/defaultSiteSection`, at: this.fileAt, pointer: `${n.pointer}/default` });
    }
    const spaces = n.children.filter((c) => c.type === "space");
    const def = spaces.find((c) => c.node.default === true);
    this.origin(pointer, n, { siteSpaces: { at: this.fileAt, pointer: `${n.pointer}/children` }, defaultSiteSpace: { at: this.fileAt, pointer: `${(def ?? n).pointer}/default` } });
    return {
      key: n.key,
      title: n.node.title,
      path: n.node.path,
      ...pick(n.node, ["description", "icon", "condition"]),
      siteSpaces: spaces.map((c, k) => this.siteSpace(c, `${pointer}/siteSpaces/${k}`)),
      ...(def === undefined ? {} : { defaultSiteSpace: def.key }),
      ...this.carriedOf(n, pointer),
    };
  }

  private siteSpace(n: SiteFileNode, pointer: string): Loose {
    const mapped = Object.hasOwn(this.mapping, n.key) ? this.mapping[n.key] : undefined;
    const spaceAt: Target = mapped === undefined ? { at: this.fileAt, pointer: `${n.pointer}/key` } : { at: this.ctx.located, pointer: `${this.at}/structure/spaces/${escapeSegment(n.key)}` };
    this.origin(pointer, n, { space: spaceAt, customization: spaceAt });
    return { key: n.key, space: mapped ?? n.key, path: n.node.path, ...pick(n.node, ["condition", "draft", "hidden"]), ...this.carriedOf(n, pointer) };
  }

  private link(n: SiteFileNode, pointer: string): Loose {
    this.origin(pointer, n);
    return { key: n.key, title: n.node.title, url: n.node.url, ...pick(n.node, ["description", "icon", "condition", "localizedTitle", "localizedDescription", "draft"]), ...this.carriedOf(n, pointer) };
  }

  /** What docs.yaml's `structure` gives every entry (`adopt`) or one entry by its key (`previousKeys`, located at its line there). */
  private carriedOf(n: SiteFileNode, pointer: string): Loose {
    const former = Object.hasOwn(this.carried.former, n.key) ? this.carried.former[n.key] : undefined;
    if (former !== undefined) this.ctx.origins.push({ prefix: `${pointer}/previousKeys`, at: this.ctx.located, pointer: `${this.at}/structure/previousKeys/${escapeSegment(n.key)}` });
    return { ...(former === undefined ? {} : { previousKeys: former }), ...(this.carried.adopt ? { adopt: true } : {}) };
  }
}

/** The members of a node that are set. */
function pick(node: Loose, members: readonly string[]): Loose {
  return Object.fromEntries(members.filter((m) => node[m] !== undefined).map((m) => [m, node[m]]));
}

/** The problem at a pointer of the expanded data, at the place of the site file (or docs.yaml) it came from. */
function relocate(origins: readonly Origin[], pointer: string, reason: string, atKey: boolean): Problem | undefined {
  let best: Origin | undefined;
  for (const o of origins) {
    if ((pointer === o.prefix || pointer.startsWith(`${o.prefix}/`)) && (best === undefined || o.prefix.length > best.prefix.length)) best = o;
  }
  if (best === undefined) return undefined;
  const rest = pointer.slice(best.prefix.length);
  const first = rest.split("/")[1] ?? "";
  const field = best.fields?.[first];
  const target: Target = field ?? { at: best.at, pointer: `${best.pointer}${rest}` };
  return target.at(target.pointer, `${describe(target.pointer)}: ${reason}`, field === undefined ? atKey : false);
}
