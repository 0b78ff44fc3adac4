/**
 * Export: reads an organisation's live objects through the client and builds a stack file that takes
 * every one of them over (`adopt: true`), so `pulumi up` on it creates nothing and duplicates nothing.
 *
 * What cannot be adopted unambiguously (two sites with one title, a share link without a name, …) is
 * left out and reported as a note, never exported in a form that would create a second object.
 * Secrets stay out: share-link URLs carry a token and are never read into the file.
 */
import { ApiError, ROLES, type ApiClient, type Collection, type Member, type Organization, type Role, type Site, type SiteSection, type SiteSectionGroup, type SiteSpace, type Space, type Team } from "../client";
import { explainRefusedToken, TOKEN_SETTINGS } from "../refusedToken";
import { collectionKind } from "../resources/collection";
import type { AnyKind, KindDefinition, RefSpelling, StackList } from "../resources/kind";
import { listedKinds } from "../resources/kinds";
import { memberRoleKind } from "../resources/memberRole";
import { organizationSettingsKind } from "../resources/organizationSettings";
import { shareLinkKind } from "../resources/shareLink";
import { siteKind } from "../resources/site";
import { siteSectionKind } from "../resources/siteSection";
import { siteSectionGroupKind } from "../resources/siteSectionGroup";
import { siteSpaceKind } from "../resources/siteSpace";
import { spaceKind } from "../resources/space";
import { teamKind } from "../resources/team";
import { derivePath } from "../rules";
import { declaredEntry } from "../stack/declared";
import { fileOf, naturalField, stackFields } from "../stack/stackSchema";
import type {
  Ref,
  StackAdaptiveSchema,
  StackCollection,
  StackFile,
  StackMember,
  StackOrganizationSettings,
  StackSection,
  StackSectionGroup,
  StackShareLink,
  StackSite,
  StackSiteSpace,
  StackSpace,
  StackTeam,
  StackTeamMember,
} from "../stack/model";
import { schemaIssues } from "../stack/schema";
import { KeyAllocator } from "./keys";

/** Progress of an export, reported while it reads. */
export interface ExportProgress {
  /** Objects read so far (every item of every list and every single object). */
  objects: number;
  /** Requests sent so far (list pages and single objects; retries count again). */
  requests: number;
}

/** Options of {@link exportOrganization}. */
export interface ExportOptions {
  /** ID of the organisation to export. */
  organizationId: string;
  /** Called after every list or object read; throttling is the caller's business. */
  onProgress?: (progress: ExportProgress) => void;
}

/** What an export produced. */
export interface ExportResult {
  /** The stack file, ready to render. */
  stack: StackFile;
  /** The organisation as read (its title goes into the header). */
  organization: Organization;
  /** Live objects left out of the file, one sentence each. */
  notes: string[];
  /** Final counts. */
  progress: ExportProgress;
  /** E-mail address of each exported member and team member, by user ID (shown as comments). */
  emails: Map<string, string>;
  /** Paths written for files that cannot be read back (an integration's script): to be supplied before `pulumi up`. */
  placeholders: string[];
  /** What to supply or declare before `pulumi up`, one sentence each. */
  supply: string[];
}

/** A failure the command reports as one sentence (never carrying the token). */
export class ExportError extends Error {
  override readonly name = "ExportError";
}

/** The one sentence for an API failure of an export of `organizationId`. */
export function explainApiError(e: unknown, organizationId: string): string {
  if (!(e instanceof ApiError)) return e instanceof Error ? e.message : String(e);
  const refused = explainRefusedToken(e, organizationId, TOKEN_SETTINGS.command);
  if (refused !== undefined) return refused;
  if (e.status === 429) {
    const wait = e.retryAfterMs === undefined ? "" : ` (the API asked to wait ${Math.ceil(e.retryAfterMs / 1000)} s more)`;
    return `the API kept rate-limiting the export (429) and the limit did not clear${wait}; try again later or lower DOCSPLATFORM_MAX_CONCURRENCY`;
  }
  if (e.status === 403) return `the API token may not read organization '${organizationId}' (403): ${e.message}`;
  if (e.status === 0) return `could not reach the API (${e.code}): ${e.message}`;
  return e.message;
}

/** Where a file that cannot be read back is to be supplied: `supply/<key>/<field>`. */
export function placeholderPath(key: string, field: string): string {
  return `supply/${key}/${field}`;
}

/** Team role written when it differs from the stack file's default. */
const DEFAULT_TEAM_ROLE = "member";
/** Reads the organisation and builds its stack file. API errors propagate as `ApiError`. */
export async function exportOrganization(client: ApiClient, opts: ExportOptions): Promise<ExportResult> {
  const org = opts.organizationId;
  const startRequests = client.stats.requests;
  const progress: ExportProgress = { objects: 0, requests: 0 };
  const tick = (n: number): void => {
    progress.objects += n;
    progress.requests = client.stats.requests - startRequests;
    opts.onProgress?.({ ...progress });
  };
  const many = async <T>(p: Promise<T[]>): Promise<T[]> => {
    const items = await p;
    tick(items.length);
    return items;
  };
  const one = async <T>(p: Promise<T>): Promise<T> => {
    const item = await p;
    tick(1);
    return item;
  };

  // The organisation first: a wrong token or an unknown organisation fails here, before anything else.
  let organization: Organization;
  try {
    organization = await one(client.orgs.get(org));
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) throw new ExportError(`organization '${org}' not found`);
    throw e;
  }

  // The kinds without structure of their own, each read as its declaration says, alongside the rest.
  const listed = listedKinds();
  const listedRead = Promise.all(listed.map((k) => many(k.list.readAll(client, org, tick))));
  // Awaited below; when another read fails first, its own failure must not go unhandled.
  listedRead.catch(() => undefined);
  const [members, teams, collections, sites] = await Promise.all([
    many(client.members.list(org)),
    many(client.teams.list(org)),
    many(client.collections.list(org, { nested: true })),
    many(client.sites.list(org)),
  ]);
  const [teamMembers, collectionSpaces, siteData] = await Promise.all([
    Promise.all(teams.map((t) => many(client.teams.listMembers(org, t.id)))),
    Promise.all(collections.map((c) => many(client.collections.listSpaces(c.id)))),
    Promise.all(
      sites.map(async (site): Promise<SiteData> => {
        const [sections, groups, siteSpaces, shareLinks, schema] = await Promise.all([
          many(client.sections.list(org, site.id)),
          many(client.sectionGroups.list(org, site.id)),
          many(client.siteSpaces.list(org, site.id)),
          many(client.shareLinks.list(org, site.id)),
          one(client.sites.getAdaptiveSchema(org, site.id)),
        ]);
        // Only the names and states of share links are kept: their URLs carry a secret token.
        const links = shareLinks.map((l) => ({ id: l.id, name: l.name, active: l.active }));
        return { site, sections, groups, siteSpaces, shareLinks: links, adaptiveSchema: schema.jsonSchema };
      }),
    ),
  ]);

  const notes: string[] = [];
  const emails = new Map<string, string>();
  const builder = new Builder(org, notes, emails);
  const stack: StackFile = { organization: org };

  // Keys of top-level objects are assigned in a stable order: sorted by natural key, then creation, then ID.
  const siteKeys = builder.siteKeys(sites);
  const teamKeys = builder.teamKeys(teams);
  const collectionKeys = builder.collectionKeys(collections);
  const spaces = builder.spaces(siteData, collectionSpaces.flat());
  builder.keys = { teams: teamKeys, collections: collectionKeys, spaces: spaces.keys, sites: siteKeys };

  const settings = builder.settings(organization);
  if (Object.keys(settings).length > 0) stack.settings = settings;
  const memberList = builder.members(members);
  if (memberList.length > 0) stack.members = memberList;
  const teamList = teams
    .map((t, i) => ({ t, members: teamMembers[i] ?? [] }))
    .filter(({ t }) => teamKeys.has(t.id))
    .sort((a, b) => naturalOrder(a.t.title ?? "", a.t, b.t.title ?? "", b.t))
    .map(({ t, members: m }) => builder.team(t, teamKeys, m));
  if (teamList.length > 0) stack.teams = teamList;
  const collectionList = builder.collections(collections, collectionKeys);
  if (collectionList.length > 0) stack.collections = collectionList;
  const spaceList = spaces.list();
  if (spaceList.length > 0) stack.spaces = spaceList;
  const siteList = siteData
    .filter((d) => siteKeys.has(d.site.id))
    .sort((a, b) => naturalOrder(a.site.title, a.site, b.site.title, b.site))
    .map((d) => builder.site(d, siteKeys.get(d.site.id) as string, spaces.keys));
  if (siteList.length > 0) stack.sites = siteList;
  const placeholders: string[] = [];
  const supply: string[] = [];
  for (const [i, live] of (await listedRead).entries()) {
    const kind = listed[i]!;
    const entries = builder.listed(kind, live, placeholders, supply);
    if (entries.length > 0) (stack as unknown as Record<string, unknown>)[kind.list.property] = entries;
  }

  progress.requests = client.stats.requests - startRequests;
  return { stack, organization, notes, progress: { ...progress }, emails, placeholders, supply };
}

/** Everything read about one site. */
interface SiteData {
  site: Site;
  sections: SiteSection[];
  groups: SiteSectionGroup[];
  siteSpaces: SiteSpace[];
  shareLinks: { id: string; name?: string; active?: boolean }[];
  adaptiveSchema: unknown;
}

/** Objects with the fields the stable order uses. */
interface Dated {
  id: string;
  createdAt?: string;
}

/** Stable order: natural key (code-point order), then creation time, then ID. */
function naturalOrder(ka: string, a: Dated, kb: string, b: Dated): number {
  return cmp(ka, kb) || cmp(a.createdAt ?? "", b.createdAt ?? "") || cmp(a.id, b.id);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Groups objects by natural key; those sharing one are ambiguous for adopt. */
function duplicatesBy<T>(items: T[], natural: (t: T) => string): Set<string> {
  const counts = new Map<string, number>();
  for (const t of items) counts.set(natural(t), (counts.get(natural(t)) ?? 0) + 1);
  return new Set([...counts].filter(([, n]) => n > 1).map(([k]) => k));
}

function isRole(v: unknown): v is Role {
  return typeof v === "string" && (ROLES as readonly string[]).includes(v);
}

/** The proxy as a stack file declares it: the response's origin without its scheme (as the Site kind reads it). */
/** The spaces of the organisation the export found, with their keys. */
interface SpaceIndex {
  /** Space ID → key in `spaces:`. */
  keys: Map<string, string>;
  /** The `spaces:` entries. */
  list(): StackSpace[];
}

/** Builds the parts of the stack file; collects notes about what it leaves out. */
class Builder {
  constructor(
    private readonly organizationId: string,
    private readonly notes: string[],
    private readonly emails: Map<string, string>,
  ) {}

  /** Unique keys for the objects of a kind whose natural key is unique; ambiguous ones are noted and get none. */
  private keyed<T extends Dated>(items: T[], natural: (t: T) => string, what: string, fallback: string): Map<string, string> {
    const dup = duplicatesBy(items, natural);
    const keys = new Map<string, string>();
    const alloc = new KeyAllocator();
    for (const item of [...items].sort((a, b) => naturalOrder(natural(a), a, natural(b), b))) {
      const value = natural(item);
      if (dup.has(value)) continue;
      keys.set(item.id, alloc.from(value, fallback));
    }
    for (const value of [...dup].sort(cmp)) {
      const ids = items.filter((i) => natural(i) === value).map((i) => i.id);
      this.notes.push(`${ids.length} ${what} share ${JSON.stringify(value)} (${ids.join(", ")}); adopt needs a unique one, so none of them is exported`);
    }
    return keys;
  }

  siteKeys(sites: Site[]): Map<string, string> {
    return this.keyed(sites, (s) => s.title, "sites", "site");
  }

  teamKeys(teams: Team[]): Map<string, string> {
    const untitled = teams.filter((t) => t.title === undefined || t.title === "");
    for (const t of untitled) this.notes.push(`team ${t.id} has no title; adopt finds teams by title, so it is not exported`);
    return this.keyed(
      teams.filter((t) => !untitled.includes(t)),
      (t) => t.title ?? "",
      "teams",
      "team",
    );
  }

  collectionKeys(collections: Collection[]): Map<string, string> {
    return this.keyed(collections, (c) => c.title, "collections", "collection");
  }

  /** Keys of the file's objects by platform ID, for references; set once the keys are assigned. */
  keys: Record<RefSpelling["ref"], Map<string, string>> = { teams: new Map(), collections: new Map(), spaces: new Map(), sites: new Map() };

  /** The entry of a live object, through its kind's declaration (see `declaredEntry`); `extra` adds the structure. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any kind
  entry<T>(kind: KindDefinition<any, any>, live: unknown, extra: object = {}): T {
    const outputs = kind.outputsOf!(live as never, { organizationId: this.organizationId, siteId: "" });
    return { ...declaredEntry(kind, outputs, this.unresolve), ...extra } as T;
  }

  /** The stack file's reference to a live ID: the key of the object in the file, or `{id}`. */
  private readonly unresolve = (list: RefSpelling["ref"], id: string): Ref => this.keys[list].get(id) ?? { id };

  settings(org: Organization): StackOrganizationSettings {
    return this.entry(organizationSettingsKind, org);
  }

  members(members: Member[]): StackMember[] {
    const out: StackMember[] = [];
    const unexpressible: string[] = [];
    for (const m of [...members].sort((a, b) => cmp(userOf(a), userOf(b)))) {
      const role: unknown = m.role;
      if (role !== null && !isRole(role)) {
        unexpressible.push(`${userOf(m)} (${String(role)})`);
        continue;
      }
      if (m.user.email) this.emails.set(userOf(m), m.user.email);
      out.push(this.entry(memberRoleKind, m, { adopt: true }));
    }
    if (unexpressible.length > 0) {
      this.notes.push(`members whose role a stack file cannot express are left alone: ${unexpressible.join(", ")}`);
    }
    return out;
  }

  team(team: Team, keys: Map<string, string>, members: { organization: Member; team: { role: string } }[]): StackTeam {
    const list: StackTeamMember[] = [...members]
      .sort((a, b) => cmp(userOf(a.organization), userOf(b.organization)))
      .map((m) => {
        const user = userOf(m.organization);
        if (m.organization.user.email) this.emails.set(user, m.organization.user.email);
        return m.team.role === DEFAULT_TEAM_ROLE || (m.team.role !== "owner" && m.team.role !== "member")
          ? { user }
          : { user, role: m.team.role };
      });
    return { key: keys.get(team.id) as string, ...this.entry<{ title: string }>(teamKind, team), ...(list.length > 0 ? { members: list } : {}), adopt: true };
  }

  collections(collections: Collection[], keys: Map<string, string>): StackCollection[] {
    // Parents before their children, siblings in key order: the file reads top-down.
    const byParent = new Map<string, Collection[]>();
    const exported = collections.filter((c) => keys.has(c.id));
    const ids = new Set(exported.map((c) => c.id));
    for (const c of exported) {
      const parent = c.parent !== undefined && ids.has(c.parent) ? c.parent : "";
      byParent.set(parent, [...(byParent.get(parent) ?? []), c]);
    }
    const out: StackCollection[] = [];
    const walk = (parent: string): void => {
      const children = (byParent.get(parent) ?? []).sort((a, b) => cmp(keys.get(a.id) as string, keys.get(b.id) as string));
      for (const c of children) {
        out.push({ key: keys.get(c.id) as string, ...this.entry<Omit<StackCollection, "key">>(collectionKind, c), adopt: true });
        walk(c.id);
      }
    };
    walk("");
    return out;
  }

  /** The spaces seen in site spaces and collections (the API has no list of an organisation's spaces). */
  spaces(sites: SiteData[], inCollections: Space[]): SpaceIndex {
    const found = new Map<string, Space>();
    for (const s of inCollections) if (!s.deletedAt) found.set(s.id, s);
    for (const d of sites) {
      for (const ss of d.siteSpaces) if (ss.space && !ss.space.deletedAt && !found.has(ss.space.id)) found.set(ss.space.id, ss.space);
    }
    const spaces = [...found.values()].sort((a, b) => naturalOrder(a.title, a, b.title, b));
    const alloc = new KeyAllocator();
    const keys = new Map<string, string>();
    for (const s of spaces) keys.set(s.id, alloc.from(s.title, "space"));
    return {
      keys,
      list: () => spaces.map((s) => ({ key: keys.get(s.id) as string, ...this.entry<Omit<StackSpace, "key">>(spaceKind, s), adopt: true })),
    };
  }

  /**
   * The entries of a kind the stack file lists as plain keyed entries (see `StackList`), each adopting
   * its live object, keyed by its natural key; objects sharing one are left out (noted). What cannot be
   * read back is not exported: a required file gets a placeholder path (added to `placeholders`) and,
   * with optional files and secrets, a sentence in `supply`. An object without a value for a field the
   * stack file requires is left out (noted).
   */
  listed(kind: AnyKind & { list: StackList }, live: readonly object[], placeholders: string[], supply: string[]): Record<string, unknown>[] {
    const { one, many, name } = kind.list;
    const fields = stackFields(kind);
    const natural = naturalField(kind)!;
    const items = live.map((l) => {
      const outputs = kind.outputsOf!(l as never, { organizationId: this.organizationId, siteId: "" }) as Record<string, unknown>;
      const value = String(outputs[natural.name] ?? "");
      const dated = l as { id?: string; createdAt?: string };
      return { id: dated.id ?? value, ...(dated.createdAt === undefined ? {} : { createdAt: dated.createdAt }), value, outputs };
    });
    const keys = this.keyed(items, (item) => item.value, many, name);
    const files = fields.filter((f) => fileOf(f.spec) !== undefined);
    const required = files.filter((f) => f.spec.required).map((f) => f.as);
    const unread = [...files.filter((f) => !f.spec.required), ...fields.filter((f) => f.spec.stack === "secretSources")].map((f) => f.as);
    const out: Record<string, unknown>[] = [];
    for (const item of [...items].filter((i) => keys.has(i.id)).sort((a, b) => naturalOrder(a.value, a, b.value, b))) {
      const key = keys.get(item.id) as string;
      const entry: Record<string, unknown> = { key, ...declaredEntry(kind, item.outputs, this.unresolve) };
      const missing = fields.find((f) => (f.spec.required || f.spec.stackRequired) && !fileOf(f.spec) && entry[f.as] === undefined);
      if (missing) {
        this.notes.push(`${one} '${item.value}' has no ${missing.as} to declare; it is not exported`);
        continue;
      }
      for (const field of required) {
        entry[field] = placeholderPath(key, field);
        placeholders.push(entry[field] as string);
      }
      entry.adopt = true;
      out.push(entry);
      if (required.length + unread.length === 0) continue;
      const plural = required.length > 1 ? "s" : "";
      const parts = [
        ...(required.length > 0 ? [`its ${required.join(" and ")} cannot be read back; supply the file${plural} at the placeholder path${plural} before \`pulumi up\`, or it fails as a missing file`] : []),
        ...(unread.length > 0 ? [`${unread.join(", ")} are not exported: declare them (secrets by their source), or the first up publishes without them`] : []),
      ];
      supply.push(`${one} '${item.value}': ${parts.join("; ")}`);
    }
    return out;
  }

  site(d: SiteData, key: string, spaceKeys: Map<string, string>): StackSite {
    const { site } = d;
    const out: StackSite = { key, ...this.entry<Omit<StackSite, "key">>(siteKind, site) };

    const where = `site ${JSON.stringify(site.title)}`;
    const spaceRef = (ss: SiteSpace): Ref | undefined => {
      const id = ss.space?.id;
      if (!id) return undefined;
      return spaceKeys.get(id) ?? { id };
    };
    const siteSpaceKeys = new KeyAllocator();
    const siteSpaceEntry = (ss: SiteSpace, k: string): StackSiteSpace => ({ key: k, ...this.entry<Omit<StackSiteSpace, "key">>(siteSpaceKind, ss), adopt: true });

    // Sections in display order, each with its site spaces in display order.
    const sectionKeys = new KeyAllocator();
    const sectionKeyOf = new Map<string, string>();
    const sections: StackSection[] = [];
    let defaultSection: string | undefined;
    for (const section of d.sections) {
      const own = d.siteSpaces.filter((ss) => ss.section === section.id);
      const spaced = own.filter((ss) => spaceRef(ss) !== undefined);
      if (spaced.length < own.length) {
        this.notes.push(`${where}: ${own.length - spaced.length} site space(s) of section '${section.path}' show no space and are not exported`);
      }
      if (spaced.length === 0) {
        this.notes.push(`${where}: section '${section.path}' has no site space, and a section is declared with its first one; it is not exported`);
        continue;
      }
      const sk = sectionKeys.from(section.path, "section");
      sectionKeyOf.set(section.id, sk);
      if (section.default) defaultSection = sk;
      const entry: StackSection = { key: sk, title: section.title };
      const [first] = spaced;
      // The `space` shorthand only when the platform would give its site space the same path on its own.
      const shorthand =
        spaced.length === 1 &&
        first !== undefined &&
        !first.condition &&
        first.space !== undefined &&
        first.path === derivePath(first.space.title, "space") &&
        siteSpaceKeys.claim(sk);
      if (shorthand && first) {
        entry.space = spaceRef(first) as Ref;
      } else {
        entry.siteSpaces = spaced.map((ss) => siteSpaceEntry(ss, siteSpaceKeys.next(`${sk}-${slugPart(ss.path)}`.slice(0, 63).replace(/[-_]+$/, ""))));
        const def = spaced.findIndex((ss) => ss.default);
        if (spaced.length > 1 && def >= 0) entry.defaultSiteSpace = entry.siteSpaces[def]?.key;
      }
      sections.push({ ...entry, ...this.entry<Omit<StackSection, "key">>(siteSectionKind, section), adopt: true });
    }
    if (sections.length > 1 && defaultSection !== undefined) out.defaultSiteSection = defaultSection;

    // Root-level site spaces: only for a site without sections.
    const roots = d.siteSpaces.filter((ss) => ss.section === undefined || ss.section === null);
    const rootSpaces: StackSiteSpace[] = [];
    if (roots.length > 0 && sections.length > 0) {
      this.notes.push(`${where}: ${roots.length} root-level site space(s) beside sections cannot be declared in a stack file and are not exported`);
    } else {
      let defaultRoot: string | undefined;
      for (const ss of roots) {
        const ref = spaceRef(ss);
        if (ref === undefined) {
          this.notes.push(`${where}: root-level site space '${ss.path}' shows no space and is not exported`);
          continue;
        }
        const entry = siteSpaceEntry(ss, siteSpaceKeys.from(ss.path, "site-space"));
        if (ss.default) defaultRoot = entry.key;
        rootSpaces.push(entry);
      }
      if (rootSpaces.length > 1 && defaultRoot !== undefined) out.defaultSiteSpace = defaultRoot;
    }

    const schema = adaptiveSchemaOf(d.adaptiveSchema);
    if (schema === "unexpressible") {
      this.notes.push(`${where}: its adaptive-content schema uses features a stack file cannot express; it is not exported`);
    } else if (schema !== undefined) {
      out.adaptiveSchema = schema;
    }
    if (sections.length > 0) out.sections = sections;

    // Section groups in display order, listing their sections by key.
    const groupDup = duplicatesBy(d.groups, (g) => g.title);
    const groupKeys = new KeyAllocator();
    const groups: StackSectionGroup[] = [];
    for (const g of d.groups) {
      if (groupDup.has(g.title)) continue;
      const members = d.sections.filter((s) => s.sectionGroup === g.id).map((s) => sectionKeyOf.get(s.id));
      groups.push({
        key: groupKeys.from(g.title, "group"),
        ...this.entry<Omit<StackSectionGroup, "key" | "sections">>(siteSectionGroupKind, g),
        sections: members.filter((k): k is string => k !== undefined),
        adopt: true,
      });
    }
    for (const title of [...groupDup].sort(cmp)) {
      this.notes.push(`${where}: several section groups are titled ${JSON.stringify(title)}; adopt needs a unique title, so none of them is exported`);
    }
    if (groups.length > 0) out.sectionGroups = groups;
    if (rootSpaces.length > 0) out.siteSpaces = rootSpaces;

    // Share links by name; their URLs (which carry the secret token) are never written.
    const named = d.shareLinks.filter((l): l is { id: string; name: string; active?: boolean } => typeof l.name === "string" && l.name !== "");
    if (named.length < d.shareLinks.length) {
      this.notes.push(`${where}: ${d.shareLinks.length - named.length} share link(s) without a name cannot be adopted and are not exported`);
    }
    const linkDup = duplicatesBy(named, (l) => l.name);
    for (const name of [...linkDup].sort(cmp)) {
      this.notes.push(`${where}: several share links are named ${JSON.stringify(name)}; adopt needs a unique name, so none of them is exported`);
    }
    const linkKeys = new KeyAllocator();
    const links: StackShareLink[] = [...named]
      .filter((l) => !linkDup.has(l.name))
      .sort((a, b) => cmp(a.name, b.name) || cmp(a.id, b.id))
      .map((l) => ({ key: linkKeys.from(l.name, "link"), ...this.entry<Omit<StackShareLink, "key">>(shareLinkKind, l), adopt: true }));
    if (links.length > 0) out.shareLinks = links;
    out.adopt = true;
    return out;
  }
}

function userOf(m: Member): string {
  return m.user?.id ?? m.id;
}

/** A path as the tail of a site-space key (`api` + `v1` → `api-v1`). */
function slugPart(path: string): string {
  return (
    path
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^a-z0-9_]+/g, "-")
      .replace(/^[-_]+|[-_]+$/g, "") || "space"
  );
}

/**
 * The adaptive schema as a stack file declares it; undefined for the empty default schema (nothing
 * declared), "unexpressible" when the stack schema cannot hold it.
 */
function adaptiveSchemaOf(jsonSchema: unknown): StackAdaptiveSchema | undefined | "unexpressible" {
  if (typeof jsonSchema !== "object" || jsonSchema === null) return undefined;
  const props = (jsonSchema as { properties?: unknown }).properties;
  if (typeof props !== "object" || props === null || Object.keys(props).length === 0) return undefined;
  // Checked with the stack schema itself, inside a minimal file.
  const probe = { organization: "probe", sites: [{ key: "probe", title: "probe", adaptiveSchema: jsonSchema }] };
  return schemaIssues(probe).length === 0 ? (structuredClone(jsonSchema) as StackAdaptiveSchema) : "unexpressible";
}
