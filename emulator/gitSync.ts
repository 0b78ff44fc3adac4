/**
 * Git Sync's site file, `gitbook-docs.yaml`, as the emulator holds it: files tests place in a repository
 * (there is no repository host here), the file's rules, and the import of its structure into a site —
 * what the platform does when a site installation with priority `git` is saved or its branch is pushed.
 */
import { parse as parseYaml } from "yaml";
import { slugify, uniquePath } from "./slug";
import type { ExternalLinkRow, GitImported, GitInstallationRow, GitSiteFileRow, JsonObject, SectionGroupRow, SectionRow, SiteRow, SiteSpaceRow, SpaceRow } from "./model";
import { newId } from "./seed";
import type { Store } from "./store";

/** The site file's name, at the top of the site installation's project directory. */
export const SITE_FILE = "gitbook-docs.yaml";

/** `docs/handbook/` → `docs/handbook`; absent or `/` → "" (the repository root). */
export function normalDirectory(dir: string | null | undefined): string {
  return (dir ?? "").replace(/^\/+|\/+$/g, "");
}

/** Where the site file of a directory lives in the repository. */
export function siteFilePath(dir: string | null | undefined): string {
  const d = normalDirectory(dir);
  return d === "" ? SITE_FILE : `${d}/${SITE_FILE}`;
}

/** The row ID of the site file of one repository, branch and directory. */
export function siteFileId(provider: string, repository: number, branch: string, dir: string | null | undefined): string {
  return `${provider}:${repository}:${branch}:${normalDirectory(dir)}`;
}

/** The repository an installation names (GitHub `repositoryId`, GitLab `projectId`). */
export function repositoryOf(inst: GitInstallationRow): number | undefined {
  const c = inst.providerConfiguration;
  const n = inst.provider === "github" ? c.repositoryId : c.projectId;
  return typeof n === "number" ? n : undefined;
}

/** The site file an installation would import, if a test placed one. */
export function siteFileFor(store: Store, inst: GitInstallationRow): GitSiteFileRow | undefined {
  const repository = repositoryOf(inst);
  const branch = inst.providerConfiguration.branch;
  if (repository === undefined || typeof branch !== "string") return undefined;
  return store.get("gitSiteFiles", siteFileId(inst.provider, repository, branch, inst.projectDirectory));
}

// ---- the file's shape and rules ----

type Node = Record<string, unknown> & { type: string; key: string; title: string };

/** The file's nodes, checked against its schema and the import rules; a breach throws naming the node. */
export function readSiteFile(text: string): { title: string; structure: Node[] } {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new Error(`${SITE_FILE} is not valid YAML: ${e instanceof Error ? e.message : String(e)}`);
  }
  const site = (doc as { site?: unknown } | null)?.site as { title?: unknown; structure?: unknown } | undefined;
  const version = (doc as { version?: unknown } | null)?.version;
  if (version !== undefined && version !== 1) throw new Error(`version must be 1`);
  if (typeof site?.title !== "string" || site.title === "") throw new Error("site.title must be a non-empty string");
  if (!Array.isArray(site.structure)) throw new Error("site.structure must be a list of nodes");
  const keys = new Set<string>();
  const structure = site.structure.map((n, i) => checkNode(n, `site.structure[${i}]`, "root", keys));
  checkDefaults(structure);
  return { title: site.title, structure };
}

const CHILDREN: Record<string, readonly string[]> = {
  root: ["section-group", "section", "space", "external-link"],
  "section-group": ["section", "section-group", "external-link"],
  "nested-group": ["section", "external-link"],
  section: ["space"],
};

function checkNode(raw: unknown, at: string, parent: string, keys: Set<string>): Node {
  const n = raw as Partial<Node> | null;
  if (n === null || typeof n !== "object") throw new Error(`${at} must be a node object`);
  if (typeof n.type !== "string" || !CHILDREN.root!.includes(n.type)) throw new Error(`${at}.type must be section-group, section, space or external-link`);
  if (!CHILDREN[parent]!.includes(n.type)) throw new Error(`${at} (${String(n.key)}): a ${n.type} may not stand ${parent === "root" ? "at the root" : `in a ${parent.replace("nested-group", "nested section group")}`}`);
  if (typeof n.key !== "string" || n.key === "") throw new Error(`${at}.key must be a non-empty string`);
  if (keys.has(n.key)) throw new Error(`${at}: key '${n.key}' is used twice in the file`);
  keys.add(n.key);
  if (typeof n.title !== "string" || n.title === "") throw new Error(`${at} (${n.key}): title must be a non-empty string`);
  if ((n.type === "section" || n.type === "space") && (typeof n.path !== "string" || n.path === "" || n.path.length > 100)) throw new Error(`${at} (${n.key}): path must be 1 to 100 characters`);
  if (n.type === "space") {
    const content = n.content as { directory?: unknown } | undefined;
    if (content === undefined || !("directory" in content)) throw new Error(`${at} (${n.key}): content.directory is required`);
    if (typeof content.directory === "string" && content.directory.split("/").includes("..")) throw new Error(`${at} (${n.key}): content.directory may not hold '..'`);
  }
  if (n.type === "external-link" && (typeof n.url !== "string" || !/^https?:\/\//.test(n.url))) throw new Error(`${at} (${n.key}): url must be an absolute http or https URL`);
  const childLevel = n.type === "section-group" ? (parent === "root" ? "section-group" : "nested-group") : n.type;
  const children = Array.isArray(n.children) ? n.children.map((c, i) => checkNode(c, `${at}.children[${i}]`, childLevel, keys)) : [];
  return { ...(n as Node), ...(n.type === "section" || n.type === "section-group" ? { children } : {}) };
}

/** Rules 2 to 4: one default section in a site with sections (and no root space), one default space per level. */
function checkDefaults(structure: Node[]): void {
  const sections = flatten(structure).filter((n) => n.type === "section");
  const rootSpaces = structure.filter((n) => n.type === "space");
  if (sections.length > 0) {
    if (rootSpaces.length > 0) throw new Error(`space ${rootSpaces[0]!.key}: a site with sections has no top-level space`);
    const defaults = sections.filter((s) => s.default === true);
    if (defaults.length !== 1) throw new Error(`exactly one section must be default: true (found ${defaults.length})`);
    for (const s of sections) exactlyOneDefault((s.children as Node[]) ?? [], `section ${s.key}`);
  } else {
    if (flatten(structure).some((n) => n.type === "external-link")) throw new Error("external links need at least one section in the site");
    exactlyOneDefault(rootSpaces, "the site's top level");
  }
}

function exactlyOneDefault(spaces: Node[], where: string): void {
  const n = spaces.filter((s) => s.default === true).length;
  if (n !== 1) throw new Error(`${where}: exactly one space must be default: true (found ${n})`);
}

function flatten(nodes: Node[]): Node[] {
  return nodes.flatMap((n) => [n, ...(n.type === "section-group" ? flatten((n.children as Node[]) ?? []) : [])]);
}

// ---- import ----

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/**
 * Imports the file into the site: the site's title, and its whole structure (sections, groups, site spaces,
 * external links) becomes the file's, in the file's order. A node keeps the object an earlier import made
 * of it (by key); objects of the site the file does not hold are removed (the repository is the truth).
 * A space node's content is a space of the organisation titled as the node, made on its first import.
 */
export function importSiteFile(store: Store, site: SiteRow, inst: GitInstallationRow, file: { title: string; structure: Node[] }): void {
  const previous = inst.imported;
  const next: Record<string, GitImported> = {};
  const keep = new Set<string>();
  site.title = file.title;
  site.structure = [];
  site.rootSiteSpaces = [];
  site.defaultSection = null;
  site.defaultSiteSpace = null;
  const placeSpace = (n: Node, section: SectionRow | null): string => {
    const old = previous[n.key];
    // The site space keeps the space it publishes now (the import's own, or one it was pointed at since):
    // the node's directory is that space's content, so a re-import changes neither the space nor an ID.
    const current = old?.type === "space" ? store.get("siteSpaces", old.id)?.space : undefined;
    const kept = [current, old?.type === "space" ? old.space : undefined].find((id) => id !== undefined && id !== null && store.get("spaces", id) !== undefined);
    const spaceId = kept ?? newSpace(store, site, n).id;
    const row: SiteSpaceRow = {
      ...(old?.type === "space" ? store.get("siteSpaces", old.id) : undefined),
      id: old?.type === "space" ? old.id : newId("sitesp_"),
      site: site.id,
      section: section?.id ?? null,
      space: spaceId,
      path: n.path as string,
      condition: str(n.condition),
      draft: n.draft === true,
      createdAt: store.get("siteSpaces", old?.id ?? "")?.createdAt ?? store.nowIso(),
    };
    store.put("siteSpaces", row);
    keep.add(row.id);
    next[n.key] = { type: "space", id: row.id, space: spaceId };
    if (n.default === true) {
      if (section) section.defaultSiteSpace = row.id;
      else site.defaultSiteSpace = row.id;
    }
    return row.id;
  };
  const place = (n: Node, group: string | null): string => {
    const old = previous[n.key]?.type === n.type ? previous[n.key]!.id : undefined;
    const id = old ?? newId(n.type === "section" ? "sitesc_" : n.type === "section-group" ? "sitesg_" : n.type === "external-link" ? "sitelk_" : "sitesp_");
    if (n.type === "space") return placeSpace(n, null);
    keep.add(id);
    next[n.key] = { type: n.type as GitImported["type"], id };
    const createdAt = store.get("sections", id)?.createdAt ?? store.get("sectionGroups", id)?.createdAt ?? store.get("externalLinks", id)?.createdAt ?? store.nowIso();
    if (n.type === "section") {
      const section: SectionRow = { id, site: site.id, title: n.title, path: n.path as string, description: str(n.description), condition: str(n.condition), icon: str(n.icon), group, siteSpaces: [], defaultSiteSpace: null, draft: false, createdAt };
      store.put("sections", section);
      section.siteSpaces = ((n.children as Node[]) ?? []).map((c) => placeSpace(c, section));
      if (n.default === true) site.defaultSection = id;
    } else if (n.type === "section-group") {
      const row: SectionGroupRow = { id, site: site.id, title: n.title, icon: str(n.icon), children: [], parent: group, draft: n.draft === true, createdAt };
      store.put("sectionGroups", row);
      row.children = ((n.children as Node[]) ?? []).map((c) => place(c, id));
    } else {
      const link: ExternalLinkRow = {
        id, site: site.id, group, title: n.title, url: n.url as string, description: str(n.description), icon: str(n.icon), condition: str(n.condition), draft: n.draft === true,
        localizedTitle: (n.localizedTitle as JsonObject | undefined) ?? null, localizedDescription: (n.localizedDescription as JsonObject | undefined) ?? null, createdAt,
      };
      store.put("externalLinks", link);
    }
    return id;
  };
  for (const n of file.structure) {
    const id = place(n, null);
    if (n.type === "space") site.rootSiteSpaces.push(id);
    else site.structure.push(id);
  }
  removeOthers(store, site, keep);
  site.updatedAt = store.nowIso();
  store.touch("sites", site);
  inst.imported = next;
}

/** A space for a space node's content (its pages would come from the node's directory). */
function newSpace(store: Store, site: SiteRow, n: Node): SpaceRow {
  const now = store.nowIso();
  const space: SpaceRow = {
    id: newId("space_"), org: site.org, title: n.title.slice(0, 50), emoji: "", visibility: "private", createdAt: now, updatedAt: now, deletedAt: null, editMode: "live",
    parent: null, defaultLevel: null, language: str((n.content as { language?: unknown } | undefined)?.language), revision: newId("rev_"), comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0,
  };
  return store.put("spaces", space);
}

/** Removes the site's structure objects the import did not keep (the spaces themselves stay). */
function removeOthers(store: Store, site: SiteRow, keep: Set<string>): void {
  for (const table of ["siteSpaces", "sections", "sectionGroups", "externalLinks"] as const) {
    for (const row of [...store.all(table)]) if (row.site === site.id && !keep.has(row.id)) store.del(table, row.id);
  }
  // Section paths the import set must stay unique at the root level.
  const seen = new Set<string>();
  for (const row of store.all("sections")) {
    if (row.site !== site.id) continue;
    if (seen.has(row.path)) row.path = uniquePath(slugify(row.title, "section"), seen);
    seen.add(row.path);
  }
}

/**
 * The test-only push: places (or with `text: null` removes) the site file of a repository, branch and
 * directory, then re-imports it into every site installation with priority `git` that reads it.
 * Returns how many installations imported it.
 */
export function pushSiteFile(store: Store, b: Record<string, unknown> | null, sync: (row: GitInstallationRow) => void): number {
  const provider = b?.provider;
  const repository = b?.repository;
  const branch = b?.branch;
  const text = b?.text;
  if (provider !== "github" && provider !== "gitlab") throw new Error("provider must be github or gitlab");
  if (typeof repository !== "number") throw new Error("repository must be the repository's (or GitLab project's) numeric ID");
  if (typeof branch !== "string" || !branch.startsWith("refs/heads/")) throw new Error("branch must be a full ref, like refs/heads/main");
  if (typeof text !== "string" && text !== null) throw new Error("text must be the file's YAML text, or null to remove it");
  const directory = normalDirectory(typeof b?.projectDirectory === "string" ? b.projectDirectory : "");
  const id = siteFileId(provider, repository, branch, directory);
  if (text === null) store.del("gitSiteFiles", id);
  else store.put("gitSiteFiles", { id, provider, repository, branch, directory, text, updatedAt: store.nowIso() });
  let n = 0;
  for (const row of store.all("gitInstallations")) {
    if (text === null || row.target.type !== "site" || row.priority !== "git" || siteFileFor(store, row)?.id !== id) continue;
    sync(row);
    n++;
  }
  store.commit();
  return n;
}
