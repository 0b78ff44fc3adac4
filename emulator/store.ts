/** The emulator's data: typed tables, write tracking with durable commits, the clock, and snapshots for tests. */
import { Journal, type JournalChange, type TableData } from "./journal";
import { TABLE_NAMES, type OrgSettings, type Role, type TableName, type TableRows, type JsonObject, type TeamRole } from "./model";
import { seedRows, type Seed } from "./seed";

/** How long a deleted space stays restorable (and readable by ID). */
export const SPACE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

type Tables = { [K in TableName]: Map<string, TableRows[K]> };

export interface SnapshotSiteSpace {
  id: string;
  path: string;
  space: string;
  condition: string | null;
  default: boolean;
  /** Left out of the site's navigation. */
  hidden: boolean;
}
export interface SnapshotSection {
  id: string;
  title: string;
  path: string;
  description: string | null;
  condition: string | null;
  icon: string | null;
  default: boolean;
  draft: boolean;
  siteSpaces: SnapshotSiteSpace[];
}
export interface SnapshotSectionGroup {
  id: string;
  title: string;
  icon: string | null;
  /** Paths of the group's sections, in display order. */
  sections: string[];
  draft: boolean;
}

export interface SnapshotExternalLink {
  id: string;
  title: string;
  url: string;
  /** ID of the group holding it; null at the root. */
  group: string | null;
  draft: boolean;
}
export interface SnapshotShareLink {
  id: string;
  name: string | null;
  active: boolean;
  createdAt: string;
}
export interface SnapshotSite {
  id: string;
  title: string;
  type: string;
  visibility: string;
  published: boolean;
  hostname: string | null;
  basename: string | null;
  proxy: string | null;
  adaptiveContent: { enabled: boolean };
  agentsContext: string;
  /** A role, null (guests) or `inherit`. */
  defaultLevel: string | null;
  /** The attached style guide's space; null when none is. */
  styleguide: string | null;
  createdAt: string;
  /** Root-level site spaces in display order. */
  siteSpaces: SnapshotSiteSpace[];
  /** All sections in display order (groups expanded in place). */
  sections: SnapshotSection[];
  sectionGroups: SnapshotSectionGroup[];
  shareLinks: SnapshotShareLink[];
  adaptiveSchema: JsonObject | null;
  /** External links in display order (groups expanded in place). */
  externalLinks: SnapshotExternalLink[];
  /** Titles of the navigation's entries per level (`root`, or a group's title), in display order. */
  navigation: Record<string, string[]>;
  /** The customization settings as last written; null while the site has its defaults. */
  customization: JsonObject | null;
  /** Customization overrides per site-space ID (only site spaces that have some). */
  overrides: Record<string, JsonObject>;
}
export interface SnapshotMember {
  user: string;
  email: string;
  displayName: string;
  role: Role | null;
  disabled: boolean;
  sso: boolean;
  joinedAt: string;
}
export interface SnapshotTeam {
  id: string;
  title: string;
  createdAt: string;
  members: { user: string; role: TeamRole }[];
}
export interface SnapshotOrg extends OrgSettings {
  id: string;
  createdAt: string;
  members: SnapshotMember[];
  teams: SnapshotTeam[];
  collections: TableRows["collections"][];
  /** Includes deleted spaces still inside the restore window (`deletedAt` set). */
  spaces: TableRows["spaces"][];
  sites: SnapshotSite[];
  samlProviders: TableRows["samlProviders"][];
  openapiSpecs: TableRows["openapiSpecs"][];
  translations: TableRows["translations"][];
  /** Integrations this organization published. */
  integrations: TableRows["integrations"][];
  installations: TableRows["installations"][];
}
/** A plain, JSON-able deep copy of all live data. */
export interface Snapshot {
  organizations: SnapshotOrg[];
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

export interface StoreOptions {
  seed: Seed;
  dataFile?: string;
  now?: () => Date;
}

/** Live data of the emulator. Routes mutate rows through `put`/`touch`/`del`; `commit` makes a write durable. */
export class Store {
  private tables!: Tables;
  private seed: Seed;
  private tokenUsers = new Map<string, string>();
  private dirty = new Map<string, [TableName, string]>();
  private journal: Journal | null = null;
  private clockOffsetMs = 0;
  private readonly baseNow: () => Date;
  /** Wall time (performance.now()) each row ID was first written in this process: what a lagging list leaves out. */
  private readonly born = new Map<string, number>();

  constructor(opts: StoreOptions) {
    this.seed = opts.seed;
    this.baseNow = opts.now ?? (() => new Date());
    this.setTokens(opts.seed);
    if (opts.dataFile) {
      const { journal, data } = Journal.open(opts.dataFile);
      this.journal = journal;
      this.load(data ?? seedRows(opts.seed, this.nowIso()));
      // Start from a clean single-snapshot file: drops a torn tail and bounds replay time.
      journal.compact(this.tableData());
    } else {
      this.load(seedRows(opts.seed, this.nowIso()));
    }
  }

  private setTokens(seed: Seed): void {
    this.tokenUsers = new Map(Object.entries(seed.tokens));
  }

  private load(data: TableData): void {
    const tables = {} as Record<TableName, Map<string, unknown>>;
    for (const t of TABLE_NAMES) {
      // A table an older data file did not have starts empty.
      tables[t] = new Map(((data[t] ?? []) as { id: string }[]).map((r) => [r.id, r]));
    }
    // Section groups written before groups held every kind of child listed their sections only.
    for (const g of tables.sectionGroups.values() as IterableIterator<{ children?: string[]; sections?: string[] }>) {
      if (g.children === undefined) {
        g.children = g.sections ?? [];
        delete g.sections;
      }
    }
    this.tables = tables as Tables;
    this.dirty.clear();
    this.born.clear();
  }

  private tableData(): TableData {
    const data = {} as Record<TableName, unknown[]>;
    for (const t of TABLE_NAMES) data[t] = [...this.tables[t].values()];
    return data as TableData;
  }

  /** Back to the seed (the given one, or the current one), durably when persisting. */
  reset(seed?: Seed): void {
    if (seed) this.seed = seed;
    this.setTokens(this.seed);
    this.load(seedRows(this.seed, this.nowIso()));
    this.journal?.compact(this.tableData());
  }

  /**
   * A copy of every row (tests: one deployment made once, then restored before each row that starts from it).
   * Opaque to callers: hand it back to {@link restoreRows} of the same process.
   */
  saveRows(): TableData {
    return clone(this.tableData());
  }

  /** Back to rows {@link saveRows} copied (the seed's tokens and the clock stay as they are), durably when persisting. */
  restoreRows(rows: TableData): void {
    this.load(clone(rows));
    this.journal?.compact(this.tableData());
  }

  /** The user a token acts as, or undefined. */
  userForToken(token: string): string | undefined {
    return this.tokenUsers.get(token);
  }

  /** Tokens of the seed with the user each acts as (for the CLI banner). */
  tokens(): { token: string; user: string }[] {
    return [...this.tokenUsers].map(([token, user]) => ({ token, user }));
  }

  // ---- clock ----

  now(): Date {
    return new Date(this.baseNow().getTime() + this.clockOffsetMs);
  }
  nowIso(): string {
    return this.now().toISOString();
  }
  advanceClock(ms: number): void {
    this.clockOffsetMs += ms;
  }

  // ---- rows ----

  get<K extends TableName>(table: K, id: string): TableRows[K] | undefined {
    return this.tables[table].get(id);
  }
  /** Rows of a table in creation order. */
  all<K extends TableName>(table: K): IterableIterator<TableRows[K]> {
    return this.tables[table].values();
  }
  /** Inserts or replaces a row and marks it written. */
  put<K extends TableName>(table: K, row: TableRows[K]): TableRows[K] {
    if (!this.tables[table].has(row.id)) this.born.set(row.id, performance.now());
    this.tables[table].set(row.id, row);
    this.dirty.set(`${table}\u0000${row.id}`, [table, row.id]);
    return row;
  }
  /** Marks a row changed in place. */
  touch<K extends TableName>(table: K, row: TableRows[K]): void {
    this.dirty.set(`${table}\u0000${row.id}`, [table, row.id]);
  }
  del(table: TableName, id: string): void {
    this.tables[table].delete(id);
    this.born.delete(id);
    this.dirty.set(`${table}\u0000${id}`, [table, id]);
  }

  /** True when the row with this ID was created in this process less than `ms` ago (wall time). */
  createdWithin(id: string, ms: number): boolean {
    const at = this.born.get(id);
    return at !== undefined && performance.now() - at < ms;
  }

  /** True when a space exists (and is not past its restore window). */
  spaceGone(space: TableRows["spaces"]): boolean {
    return space.deletedAt !== null && Date.parse(space.deletedAt) + SPACE_RETENTION_MS <= this.now().getTime();
  }

  /** Makes the writes since the last commit durable (fsync'd) when persisting; a no-op otherwise. */
  commit(): void {
    if (this.dirty.size === 0) return;
    const change: JournalChange = {};
    for (const [table, id] of this.dirty.values()) {
      const row = this.tables[table].get(id);
      if (row) (change.p ??= []).push([table, row]);
      else (change.d ??= []).push([table, id]);
    }
    this.dirty.clear();
    this.journal?.append(change, () => this.tableData());
  }

  close(): void {
    this.commit();
    this.journal?.close();
    this.journal = null;
  }

  // ---- views for tests ----

  /** Number of live rows per table (deleted spaces past the window excluded). */
  counts(): Record<TableName, number> {
    const out = {} as Record<TableName, number>;
    for (const t of TABLE_NAMES) out[t] = this.tables[t].size;
    out.spaces = [...this.tables.spaces.values()].filter((s) => !this.spaceGone(s)).length;
    return out;
  }

  /** A deep copy of all live data, deterministic in order (display order for site structure, creation order otherwise). */
  snapshot(): Snapshot {
    return { organizations: [...this.tables.orgs.values()].map((o) => this.orgSnapshot(o.id)) };
  }

  /** One organization's data; throws when it does not exist. */
  org(id: string): SnapshotOrg {
    if (!this.tables.orgs.has(id)) throw new Error(`no organization '${id}' in the emulator`);
    return this.orgSnapshot(id);
  }

  private orgSnapshot(id: string): SnapshotOrg {
    const o = this.tables.orgs.get(id)!;
    const inOrg = <K extends "teams" | "collections" | "spaces" | "samlProviders" | "openapiSpecs" | "translations" | "installations">(t: K) =>
      [...this.tables[t].values()].filter((r) => (r as { org: string }).org === id).map((r) => clone(r)) as TableRows[K][];
    return {
      id: o.id,
      title: o.title,
      createdAt: o.createdAt,
      emailDomains: [...o.emailDomains],
      hostname: o.hostname,
      defaultRole: o.defaultRole,
      defaultContent: o.defaultContent ? { ...o.defaultContent } : null,
      logo: o.logo,
      sso: o.sso,
      ai: o.ai,
      inviteLinks: o.inviteLinks,
      members: [...this.tables.members.values()]
        .filter((m) => m.org === id)
        .map((m) => {
          const u = this.tables.users.get(m.user)!;
          return { user: m.user, email: u.email, displayName: u.displayName, role: m.role, disabled: m.disabled, sso: m.sso, joinedAt: m.joinedAt };
        }),
      teams: inOrg("teams").map((t) => ({ id: t.id, title: t.title, createdAt: t.createdAt, members: t.members })),
      collections: inOrg("collections"),
      spaces: inOrg("spaces").filter((s) => !this.spaceGone(s)),
      sites: [...this.tables.sites.values()].filter((s) => s.org === id).map((s) => this.siteSnapshot(s)),
      samlProviders: inOrg("samlProviders"),
      openapiSpecs: inOrg("openapiSpecs"),
      translations: inOrg("translations"),
      integrations: [...this.tables.integrations.values()].filter((g) => g.owner === id).map((g) => clone(g)),
      installations: inOrg("installations"),
    };
  }

  private siteSpaceSnapshot(id: string, defaultId: string | null): SnapshotSiteSpace {
    const ss = this.tables.siteSpaces.get(id)!;
    return { id: ss.id, path: ss.path, space: ss.space, condition: ss.condition, default: ss.id === defaultId, hidden: ss.hidden === true };
  }

  private siteSnapshot(s: TableRows["sites"]): SnapshotSite {
    const sections: SnapshotSection[] = [];
    const groups: SnapshotSectionGroup[] = [];
    const addSection = (sid: string) => {
      const sec = this.tables.sections.get(sid)!;
      sections.push({
        id: sec.id, title: sec.title, path: sec.path, description: sec.description, condition: sec.condition, icon: sec.icon,
        default: s.defaultSection === sec.id,
        draft: sec.draft ?? false,
        siteSpaces: sec.siteSpaces.map((ssid) => this.siteSpaceSnapshot(ssid, sec.defaultSiteSpace)),
      });
    };
    const visit = (item: string): void => {
      const group = this.tables.sectionGroups.get(item);
      if (group) {
        const sectionIds = group.children.filter((id) => this.tables.sections.has(id));
        groups.push({ id: group.id, title: group.title, icon: group.icon, sections: sectionIds.map((sid) => this.tables.sections.get(sid)!.path), draft: group.draft ?? false });
        navigation[group.title] = group.children.map(titleOf);
        group.children.forEach(visit);
      } else if (this.tables.sections.has(item)) addSection(item);
      else {
        const l = this.tables.externalLinks.get(item);
        if (l) links.push({ id: l.id, title: l.title, url: l.url, group: l.group, draft: l.draft });
      }
    };
    const links: SnapshotExternalLink[] = [];
    const navigation: Record<string, string[]> = {};
    const titleOf = (id: string) => (this.tables.sections.get(id) ?? this.tables.sectionGroups.get(id) ?? this.tables.externalLinks.get(id))?.title ?? id;
    navigation.root = s.structure.map(titleOf);
    s.structure.forEach(visit);
    const overrides: Record<string, JsonObject> = {};
    for (const ss of this.tables.siteSpaces.values()) if (ss.site === s.id && ss.overrides && Object.keys(ss.overrides).length > 0) overrides[ss.id] = clone(ss.overrides);
    return {
      id: s.id, title: s.title, type: s.type, visibility: s.visibility, published: s.published, hostname: s.hostname,
      basename: s.basename, proxy: s.proxy, adaptiveContent: { ...s.adaptiveContent }, agentsContext: s.agentsContext,
      defaultLevel: s.defaultLevel === undefined ? "inherit" : s.defaultLevel, styleguide: s.styleguide ?? null, createdAt: s.createdAt,
      siteSpaces: s.rootSiteSpaces.map((id) => this.siteSpaceSnapshot(id, s.defaultSiteSpace)),
      sections,
      sectionGroups: groups,
      shareLinks: [...this.tables.shareLinks.values()]
        .filter((l) => l.site === s.id)
        .map((l) => ({ id: l.id, name: l.name, active: l.active, createdAt: l.createdAt })),
      adaptiveSchema: s.adaptiveSchema ? clone(s.adaptiveSchema.jsonSchema) : null,
      externalLinks: links,
      navigation,
      customization: s.customization ? clone(s.customization.settings) : null,
      overrides,
    };
  }
}
