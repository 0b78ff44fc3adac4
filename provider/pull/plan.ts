/**
 * What `pull` changes in a stack file: the file's entries matched to the live organisation as export
 * spells it (same keys, same entries), references renamed to the file's own keys, then every value the
 * file declares compared with its live value and edited where it stands. Objects added on the platform
 * inside a list the file declares are appended as export writes them (`adopt: true`); objects gone from
 * the platform are removed; what the file does not declare is left out.
 */
import { isAlias, isMap, isScalar, isSeq, type Document, type Node, type Pair, type YAMLMap } from "yaml";
import { kinds } from "../resources/kinds";
import { isAbsentValue, type AnyKind, type FieldSpec } from "../resources/kind";
import { siteKind } from "../resources/site";
import { siteSectionKind } from "../resources/siteSection";
import { siteSectionGroupKind } from "../resources/siteSectionGroup";
import { siteSpaceKind } from "../resources/siteSpace";
import { shareLinkKind } from "../resources/shareLink";
import { siteMcpServerKind } from "../resources/siteMcpServer";
import { teamKind } from "../resources/team";
import { spaceKind } from "../resources/space";
import { collectionKind } from "../resources/collection";
import { memberRoleKind } from "../resources/memberRole";
import { organizationSettingsKind } from "../resources/organizationSettings";
import { stackFields } from "../stack/stackSchema";
import { changePairs, changeItems, replaceValue, setScalar, type Edit } from "./edit";

/** A stack-file value as plain data. */
type Data = unknown;
type Obj = Record<string, unknown>;

/** What pulling the live organisation into a file would do. */
export interface PullPlan {
  edits: Edit[];
  /** One line per change, `path: what`. */
  changes: string[];
  /** What was left as it is, and why, one sentence each. */
  notes: string[];
  /** The secret sources of added objects, one sentence each: to be set before the next up. */
  sources: string[];
  /** The live organisation as compared: export's entries with the file's keys. */
  live: Obj;
}

/** How a plan is made. */
export interface PlanOptions {
  /** Add live objects of a top-level list that the file does not name (`--include-new`). */
  includeNew: boolean;
  /** E-mail address of users by ID (a file may name a member by either). */
  emails: ReadonlyMap<string, string>;
  /** The paths export writes for files the platform cannot give back (a spec's file, a script): never written over the file's own. */
  placeholders?: readonly string[];
  /** The file is a site file: its \`structure\` is the platform's, not a pointer to another file. */
  siteFile?: boolean;
}

/** Fields that are the file's own, never the platform's (`content`: a site file's folders for Git Sync). */
const FILE_ONLY = new Set(["key", "adopt", "previousKeys", "caller", "organization", "$schema", "structure", "content"]);
const SITE_FILE_ONLY = new Set([...FILE_ONLY].filter((f) => f !== "structure"));

/** Fields an object is recognised by in a list, in order: the first one both sides give decides. */
const IDENTITY = ["id", "user", "team", "path", "source", "slug", "label", "name", "title", "url"];

/** Fields of a site that name its own sections and site spaces by key (the site model's, not a kind's). */
const SITE_REFERENCES: Record<string, string> = {
  section: "sections",
  sections: "sections",
  defaultSiteSection: "sections",
  siteSpace: "siteSpaces",
  defaultSiteSpace: "siteSpaces",
  team: "teams",
  styleGuide: "styleGuides",
};

/** Fields that name another object of the file by key, and the list that object is in: the kinds' declared references, and the site's own. */
function references(): Record<string, string> {
  const out: Record<string, string> = { ...SITE_REFERENCES };
  for (const kind of kinds as readonly AnyKind[]) {
    for (const f of stackFields(kind)) {
      const spelling = f.spec.stack;
      if (typeof spelling === "object" && spelling !== null && "ref" in spelling) out[f.as] = spelling.ref;
    }
  }
  return out;
}

const REFERENCE = references();

/**
 * The kind of the objects of each list (and single block) the stack file spells, by its name: what a
 * field's absence means there is the kind's declaration (export leaves out a field at that value).
 */
function kindsByList(): Map<string, AnyKind> {
  const out = new Map<string, AnyKind>([
    ["sites", siteKind],
    ["sections", siteSectionKind],
    ["sectionGroups", siteSectionGroupKind],
    ["siteSpaces", siteSpaceKind],
    ["shareLinks", shareLinkKind],
    ["mcpServers", siteMcpServerKind],
    ["teams", teamKind],
    ["spaces", spaceKind],
    ["collections", collectionKind],
    ["members", memberRoleKind],
    ["settings", organizationSettingsKind],
  ]);
  for (const kind of kinds as readonly AnyKind[]) if (kind.list !== undefined) out.set(kind.list.property, kind);
  return out;
}

const LIST_KIND = kindsByList();

/** The declaration of a field of `kind` as the stack file spells it; undefined for what is not a field of it. */
function fieldOf(kind: AnyKind | undefined, as: string): FieldSpec | undefined {
  return kind === undefined ? undefined : stackFields(kind).find((f) => f.as === as)?.spec;
}

/** Whether the field's absence is managed (cleared, reset or restored): a live value the file does not declare is then drift. */
function absenceManaged(spec: FieldSpec | undefined): boolean {
  return spec !== undefined && (spec.absent === "clear" || spec.absent === "restore" || typeof spec.absent === "object");
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** `{env: NAME}` or `{config: KEY}`: a secret's source, never replaced by a value. */
function isSource(v: unknown): boolean {
  return isObj(v) && Object.keys(v).length === 1 && ("env" in v || "config" in v);
}

/** Plans the pull of `live` (the organisation as export builds its stack file) into the parsed file. */
export function planPull(doc: Document.Parsed, text: string, live: Obj, opts: PlanOptions): PullPlan {
  const file = doc.toJS({ maxAliasCount: -1 }) as Obj;
  const users = new Map<string, string>();
  for (const [id, email] of opts.emails) users.set(email.toLowerCase(), id);
  const planner = new Planner(doc, text, opts, (u) => users.get(u.toLowerCase()) ?? u);
  const renamed = structuredClone(live);
  planner.root = file;
  planner.liveRoot = renamed;
  planner.matchKeys(file, renamed, "");
  planner.renameReferences(renamed, "");
  planner.compare(doc.contents as Node, file, renamed, "", 0);
  return { edits: planner.edits, changes: planner.changes, notes: planner.notes, sources: planner.sources, live: renamed };
}

class Planner {
  readonly edits: Edit[] = [];
  readonly changes: string[] = [];
  readonly notes: string[] = [];
  readonly sources: string[] = [];
  /** Fields that are the file's own in this file. */
  private get fileOnly(): ReadonlySet<string> {
    return this.opts.siteFile ? SITE_FILE_ONLY : FILE_ONLY;
  }

  /** The file's data as a whole (its top-level lists are where renames are recognised). */
  root: Data = undefined;
  /** The live organisation, its keys the file's. */
  liveRoot: Obj = {};
  /** Export's key → the file's key, per list (`sites`) and per site's list (`<site>/sections`). */
  private readonly keys = new Map<string, Map<string, string>>();

  constructor(
    private readonly doc: Document.Parsed,
    private readonly text: string,
    private readonly opts: PlanOptions,
    private readonly userId: (user: string) => string,
  ) {}

  /** The pairs of file and live items of a list, and the items of each side left alone. */
  private pair(fileItems: Data[], liveItems: Data[], renames: boolean): { pairs: [number, number][]; fileLeft: number[]; liveLeft: number[] } {
    const pairs: [number, number][] = [];
    const taken = new Set<number>();
    const fileLeft: number[] = [];
    fileItems.forEach((f, i) => {
      const j = liveItems.findIndex((l, j) => !taken.has(j) && this.same(f, l));
      if (j < 0) return fileLeft.push(i);
      taken.add(j);
      pairs.push([i, j]);
    });
    let liveLeft = liveItems.map((_, j) => j).filter((j) => !taken.has(j));
    // One object left on each side of a top-level keyed list (a site, a team): the same object renamed on
    // the platform, not one removed and one added (which would make the next up delete it). Inside an
    // object the identity is a path, a source or a name, and one gone and one new is what happened.
    if (renames && fileLeft.length === 1 && liveLeft.length === 1 && isObj(fileItems[fileLeft[0]!]) && "key" in (fileItems[fileLeft[0]!] as Obj)) {
      pairs.push([fileLeft[0]!, liveLeft[0]!]);
      fileLeft.length = 0;
      liveLeft = [];
    }
    return { pairs, fileLeft, liveLeft };
  }

  /** Whether a file item and a live item are the same object: by the first identity field both give. */
  private same(f: Data, l: Data): boolean {
    if (!isObj(f) || !isObj(l)) return f === l;
    // Export derives keys from natural keys (a section's from its path): the same key is the same object,
    // also where the file leaves the natural key to its default.
    if (typeof f.key === "string" && f.key === l.key) return true;
    for (const field of IDENTITY) {
      if (f[field] === undefined || l[field] === undefined) continue;
      if (field === "user") return this.userId(String(f[field])) === this.userId(String(l[field]));
      return JSON.stringify(f[field]) === JSON.stringify(l[field]);
    }
    return false;
  }

  /** Pairs keyed entries throughout, giving each live one the file's key; records export's key → the file's. */
  matchKeys(file: Data, live: Data, scope: string): void {
    if (!isObj(file) || !isObj(live)) return;
    for (const [field, f] of Object.entries(file)) {
      const l = live[field];
      if (!Array.isArray(f) || !Array.isArray(l)) {
        if (isObj(f) && isObj(l)) this.matchKeys(f, l, scope);
        continue;
      }
      const { pairs } = this.pair(f, l, scope === "" && file === this.root);
      for (const [i, j] of pairs) {
        const fi = f[i];
        const lj = l[j];
        if (!isObj(fi) || !isObj(lj)) continue;
        if (typeof fi.key === "string" && typeof lj.key === "string") {
          const list = scope === "" ? field : `${scope}/${field}`;
          if (!this.keys.has(list)) this.keys.set(list, new Map());
          this.keys.get(list)!.set(lj.key, fi.key);
          lj.key = fi.key;
        }
        this.matchKeys(fi, lj, scope === "" && typeof fi.key === "string" ? fi.key : scope);
      }
    }
  }

  /** The live data's references spelled with the file's keys (a site's own lists scoped to the site). */
  renameReferences(live: Data, scope: string): void {
    if (Array.isArray(live)) return live.forEach((v) => this.renameReferences(v, scope));
    if (!isObj(live)) return;
    const here = scope === "" && typeof live.key === "string" ? live.key : scope;
    for (const [field, v] of Object.entries(live)) {
      const list = REFERENCE[field];
      const rename = (s: unknown): unknown => {
        if (typeof s !== "string" || list === undefined) return s;
        return this.keys.get(`${here}/${list}`)?.get(s) ?? this.keys.get(list)?.get(s) ?? s;
      };
      if (typeof v === "string") live[field] = rename(v);
      else if (Array.isArray(v) && v.every((x) => typeof x === "string")) live[field] = v.map(rename);
      else this.renameReferences(v, here);
    }
  }

  /** Compares the file's value at `node` with the live one, editing where they differ. */
  compare(node: Node | null, file: Data, live: Data, path: string, depth: number, kind?: AnyKind): void {
    if (isSource(file) || node === null) return;
    if (typeof live === "string" && this.opts.placeholders?.includes(live)) return;
    if (isAlias(node)) {
      if (!equal(file, live)) this.notes.push(`${path}: changed on the platform, but the file takes it from an anchor (${node.source}); edit the anchor if every use should change`);
      return;
    }
    if (isMap(node) && isObj(file) && isObj(live)) return this.compareMap(node, file, live, path, depth, kind);
    if (isSeq(node) && Array.isArray(file) && Array.isArray(live)) return this.compareList(node, file, live, path, depth, kind);
    if (equal(file, live) || live === undefined) return;
    if (file !== null && typeof file === "object" && Array.isArray(file) && Array.isArray(live) && sameSet(file, live)) return;
    this.edits.push(isScalar(node) ? setScalar(this.text, node, live) : replaceValue(this.text, node, live));
    this.changes.push(`${path}: ${show(file)} → ${show(live)}`);
  }

  private compareMap(node: YAMLMap, file: Obj, live: Obj, path: string, depth: number, kind: AnyKind | undefined): void {
    const remove: Pair[] = [];
    const at = (k: string): string => (path === "" ? k : `${path}.${k}`);
    for (const pair of node.items) {
      const k = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (k === undefined || k === "<<" || this.fileOnly.has(k)) continue;
      if (!(k in live)) {
        // Export leaves out a field at what its absence means: declared here, it was cleared or reset on the platform.
        const spec = fieldOf(kind, k);
        if (spec !== undefined && absenceManaged(spec) && !isAbsentValue(spec, file[k]) && !isSource(file[k])) {
          remove.push(pair);
          this.changes.push(`${at(k)}: ${show(file[k])} → left out (cleared on the platform)`);
        }
        continue;
      }
      if (this.sameValue(k, file[k], live[k])) continue;
      // The organisation's lists and blocks, a site's lists and a section's site spaces have kinds of their own.
      const listKind = depth === 0 || kind === siteKind || kind === siteSectionKind ? LIST_KIND.get(k) : undefined;
      this.compare(pair.value as Node | null, file[k], live[k], at(k), depth + 1, listKind);
    }
    // A value set on the platform for a field the file leaves out, where leaving it out is managed (drift otherwise).
    const add: Obj = {};
    for (const [k, v] of Object.entries(live)) {
      if (k in file || this.fileOnly.has(k) || !absenceManaged(fieldOf(kind, k))) continue;
      add[k] = v;
      this.changes.push(`${at(k)}: added ${show(v)} (set on the platform)`);
    }
    if (remove.length === 0 && Object.keys(add).length === 0) return;
    const whole: Obj = { ...Object.fromEntries(Object.entries(file).filter(([k]) => !remove.some((p) => isScalar(p.key) && String(p.key.value) === k))), ...add };
    this.edits.push(...changePairs(this.text, node, remove, add, whole));
  }

  /**
   * Values equal as the platform sees them though spelled apart: a user by ID or e-mail address, an
   * object by `{id}` or by the key export gives it, text with or without its final line break.
   */
  private sameValue(field: string, file: Data, live: Data): boolean {
    if (field === "user" && typeof file === "string" && typeof live === "string") return this.userId(file) === this.userId(live);
    if (typeof file === "string" && typeof live === "string") return file.replace(/\n+$/, "") === live.replace(/\n+$/, "");
    const list = REFERENCE[field];
    if (list !== undefined && isObj(file) && typeof file.id === "string" && typeof live === "string") {
      const entries = this.liveRoot[list];
      const entry = Array.isArray(entries) ? entries.find((e) => isObj(e) && e.key === live) : undefined;
      return !isObj(entry) || entry.id === undefined || entry.id === file.id;
    }
    return false;
  }

  private compareList(node: Node & { items: unknown[]; flow?: boolean }, file: Data[], live: Data[], path: string, depth: number, kind: AnyKind | undefined): void {
    if (file.every((v) => !isObj(v)) && live.every((v) => !isObj(v))) {
      if (!sameSet(file, live)) {
        this.edits.push(replaceValue(this.text, node, live));
        this.changes.push(`${path}: ${show(file)} → ${show(live)}`);
      }
      return;
    }
    const { pairs, fileLeft, liveLeft } = this.pair(file, live, depth === 1);
    for (const [i, j] of pairs) this.compare(node.items[i] as Node, file[i], live[j], `${path}[${label(file[i])}]`, depth + 1, kind);
    const topLevel = depth === 1;
    const added = topLevel && !this.opts.includeNew ? [] : liveLeft;
    // At the top level, objects missing on each side may be renames the platform does not tell apart
    // (two or more): removing the file's would make the next up delete live objects, so nothing moves.
    if (topLevel && fileLeft.length > 0 && liveLeft.length > 0) {
      for (const i of fileLeft) this.notes.push(`${path}: ${label(file[i])} was not found on the platform by its ${identityOf(file[i])}, and other objects were; renamed there? left as it is, and nothing added to this list`);
      return;
    }
    for (const j of liveLeft) {
      if (added.includes(j)) {
        this.changes.push(`${path}: added ${label(live[j])} (as on the platform)`);
        for (const [at, source] of sourcesIn(live[j], `${path}[${label(live[j])}]`)) this.sources.push(`${at} is written as ${show(source)}: set it before the next up (the value is never written)`);
      }
      else this.notes.push(`${path}: ${label(live[j])} is on the platform but not in the file; left out (--include-new adds it)`);
    }
    for (const i of fileLeft) this.changes.push(`${path}: removed ${label(file[i])} (gone from the platform)`);
    if (added.length === 0 && fileLeft.length === 0) return;
    const whole = [...file.filter((_, i) => !fileLeft.includes(i)), ...added.map((j) => live[j])];
    this.edits.push(...changeItems(this.text, node as never, new Set(fileLeft), added.map((j) => live[j]), whole));
  }
}

/** The field an object is recognised by, for a note. */
function identityOf(v: Data): string {
  return (isObj(v) && IDENTITY.find((f) => v[f] !== undefined)) || "key";
}

/** Every secret source in a value, with its path. */
function sourcesIn(v: Data, path: string): [string, Data][] {
  if (isSource(v)) return [[path, v]];
  if (Array.isArray(v)) return v.flatMap((x, i) => sourcesIn(x, `${path}[${i}]`));
  if (isObj(v)) return Object.entries(v).flatMap(([k, x]) => sourcesIn(x, `${path}.${k}`));
  return [];
}

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Lists of plain values equal but for their order (an e-mail domain list, a group's members). */
function sameSet(a: unknown[], b: unknown[]): boolean {
  const s = (l: unknown[]) => l.map((v) => JSON.stringify(v)).sort();
  return equal(s(a), s(b));
}

/** How a list item is named in a change: its key, else its first identity field. */
function label(v: Data): string {
  if (!isObj(v)) return show(v);
  if (typeof v.key === "string") return v.key;
  for (const f of IDENTITY) if (v[f] !== undefined) return `${f}=${show(v[f])}`;
  return "item";
}

function show(v: unknown): string {
  const s = JSON.stringify(v) ?? "nothing";
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
