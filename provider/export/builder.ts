/**
 * Export's builder: the parts of the stack file from the live objects read, each through its kind's
 * declaration (see `declaredEntry`), with stable keys; a site through the site model (live → model →
 * file). What cannot be adopted unambiguously is left out, with a note.
 */
import { exportRedirects } from "../redirects/forms";
import type { SiteRedirect } from "../client";
import type { SiteModel } from "../site";
import { ROLES, type SiteCustomizationSettings, type SiteSpaceCustomizationSettings, type Collection, type Member, type Organization, type Role, type Site, type Space, type Team } from "../client";
import { collectionKind } from "../resources/collection";
import type { AnyKind, KindDefinition, RefSpelling, StackList } from "../resources/kind";
import { memberRoleKind } from "../resources/memberRole";
import { organizationSettingsKind } from "../resources/organizationSettings";
import { shareLinkKind } from "../resources/shareLink";
import { siteKind } from "../resources/site";
import { siteSectionKind } from "../resources/siteSection";
import { siteSectionGroupKind } from "../resources/siteSectionGroup";
import { siteSpaceKind } from "../resources/siteSpace";
import { siteExternalLinkKind } from "../resources/siteExternalLink";
import { spaceKind } from "../resources/space";
import { teamKind } from "../resources/team";
import { duplicatesBy, liveSiteModel, type LiveSite } from "../site/live";
import { differing, OVERRIDE_SETTINGS } from "../resources/look";
import { OVERRIDE_MEMBERS } from "../resources/siteSpaceCustomization";
import { declaredEntry } from "../stack/declared";
import { fileOf, naturalField, stackFields } from "../stack/stackSchema";
import type { Ref, StackAdaptiveSchema, StackCollection, StackMember, StackOrganizationSettings, StackSite, StackSpace, StackTeam, StackTeamMember } from "../file/model";
import { schemaIssues } from "../stack/schema";
import { KeyAllocator } from "../keys";
import { siteFileEntry } from "./siteFile";

/** Where a file that cannot be read back is to be supplied: `supply/<key>/<field>`. */
export function placeholderPath(key: string, field: string): string {
  return `supply/${key}/${field}`;
}

/** Team role written when it differs from the stack file's default. */
const DEFAULT_TEAM_ROLE = "member";

/** Everything read about one site. */
export interface SiteData extends LiveSite {
  adaptiveSchema: unknown;
  /** Its live and draft redirects. */
  redirects: SiteRedirect[];
  /** The site's look as the platform answers it. */
  customization?: SiteCustomizationSettings;
  /** The effective look of each site space that has overrides, by site-space ID. */
  overrides?: Map<string, SiteSpaceCustomizationSettings>;
}

/** Objects with the fields the stable order uses. */
interface Dated {
  id: string;
  createdAt?: string;
}

/** Stable order: natural key (code-point order), then creation time, then ID. */
export function naturalOrder(ka: string, a: Dated, kb: string, b: Dated): number {
  return cmp(ka, kb) || cmp(a.createdAt ?? "", b.createdAt ?? "") || cmp(a.id, b.id);
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isRole(v: unknown): v is Role {
  return typeof v === "string" && (ROLES as readonly string[]).includes(v);
}

/** The spaces of the organisation the export found, with their keys. */
interface SpaceIndex {
  /** Space ID → key in `spaces:`. */
  keys: Map<string, string>;
  /** The `spaces:` entries. */
  list(): StackSpace[];
}

/** Builds the parts of the stack file; collects notes about what it leaves out. */
export class Builder {
  constructor(
    private readonly organizationId: string,
    private readonly notes: string[],
    private readonly emails: Map<string, string>,
  ) {}

  /** Unique keys for the objects of a kind whose natural key is unique; ambiguous ones are noted and get none. */
  private keyed<T extends Dated>(items: T[], natural: (t: T) => string, what: string, fallback: string, keyOf: (t: T) => string = natural): Map<string, string> {
    const dup = duplicatesBy(items, natural);
    const keys = new Map<string, string>();
    const alloc = new KeyAllocator();
    for (const item of [...items].sort((a, b) => naturalOrder(natural(a), a, natural(b), b))) {
      const value = natural(item);
      if (dup.has(value)) continue;
      keys.set(item.id, alloc.from(keyOf(item), fallback));
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
    const { name } = kind.list;
    const { one, many } = kind.noun;
    const fields = stackFields(kind);
    const natural = naturalField(kind)!;
    const items = live.map((l) => {
      const outputs = kind.outputsOf!(l as never, { organizationId: this.organizationId, siteId: "" }) as Record<string, unknown>;
      const value = String(outputs[natural.name] ?? "");
      const dated = l as { id?: string; createdAt?: string };
      return { id: dated.id ?? value, ...(dated.createdAt === undefined ? {} : { createdAt: dated.createdAt }), value, outputs };
    });
    const keyFrom = kind.list.keyFrom;
    const keys = this.keyed(items, (item) => item.value, many, name, keyFrom === undefined ? undefined : (item) => String(item.outputs[keyFrom] ?? ""));
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
      // A file is needed where the stack file requires it, or where it is the one of two fields (an OpenAPI
      // spec's file beside its source URL) the entry can give, the other not read back.
      const needed = [...required, ...alternativeFile(kind, files, entry)];
      for (const field of needed) {
        entry[field] = placeholderPath(key, field);
        placeholders.push(entry[field] as string);
      }
      entry.adopt = true;
      out.push(entry);
      const pair: readonly string[] = kind.list.exactlyOne ?? [];
      const unreadHere = unread.filter((f) => !needed.includes(f) && !pair.includes(f));
      if (needed.length + unreadHere.length === 0) continue;
      const plural = needed.length > 1 ? "s" : "";
      const parts = [
        ...(needed.length > 0 ? [`its ${needed.join(" and ")} cannot be read back; supply the file${plural} at the placeholder path${plural} before \`pulumi up\`, or it fails as a missing file`] : []),
        ...(unreadHere.length > 0 ? [`${unreadHere.join(", ")} are not exported: declare them (secrets by their source), or the first up publishes without them`] : []),
      ];
      supply.push(`${one} '${item.value}': ${parts.join("; ")}`);
    }
    return out;
  }

  /** A site's entry: its live structure read into the site model, then written as the file declares it. */
  site(d: SiteData, key: string, at: string, spaceKeys: Map<string, string>): StackSite {
    const kinds = { site: siteKind, section: siteSectionKind, group: siteSectionGroupKind, siteSpace: siteSpaceKind, shareLink: shareLinkKind, link: siteExternalLinkKind };
    const model = liveSiteModel(d, key, at, {
      fieldsOf: (what, live) => this.entry<Record<string, unknown>>(kinds[what], live),
      spaceRef: (id) => spaceKeys.get(id) ?? { id },
      note: (text) => this.notes.push(text),
      adaptiveSchema: () => {
        const schema = adaptiveSchemaOf(d.adaptiveSchema);
        if (schema !== "unexpressible") return schema;
        this.notes.push(`site ${JSON.stringify(d.site.title)}: its adaptive-content schema uses features a stack file cannot express; it is not exported`);
        return undefined;
      },
    });
    lookOf(d, model);
    return this.withRedirects(siteFileEntry(model), model, d);
  }

  /** A site's entry with its redirects, destinations turned back into the keys the entry gives its sections and site spaces. */
  private withRedirects(entry: StackSite, model: SiteModel, d: SiteData): StackSite {
    if (d.redirects.length === 0) return entry;
    // Paths are unique per level: a live object's key is the one of the entry at its level with its path.
    const sectionKey = new Map(d.sections.map((s) => [s.id, model.sections.find((e) => e.path.value === s.path)?.key]));
    const siteSpaceKey = new Map(d.siteSpaces.map((ss) => [ss.id, model.siteSpaces.find((e) => e.section === (ss.section ? sectionKey.get(ss.section) : undefined) && e.path.value === ss.path)?.key]));
    const { redirects, skipped } = exportRedirects(d.redirects, { section: (id) => sectionKey.get(id), siteSpace: (id) => siteSpaceKey.get(id), siteUrl: d.site.urls?.published ?? undefined });
    for (const s of skipped) this.notes.push(`site ${JSON.stringify(d.site.title)}: redirect ${s}; it is not exported`);
    const { adopt, ...rest } = entry;
    return { ...rest, redirects, adopt };
  }
}

/**
 * The site's look and its site spaces' overrides, written into the model's entries. The platform does
 * not publish its defaults, so the site's look is written only when it was ever changed (`updatedAt`),
 * and then whole; a site space's override is the members where its look differs from the site's.
 */
function lookOf(d: SiteData, model: SiteModel): void {
  const site = d.customization as unknown as Record<string, unknown> | undefined;
  if (site !== undefined && site.updatedAt !== undefined) {
    const { updatedAt: _updatedAt, ...members } = site;
    void _updatedAt;
    (model.entry as { customization?: unknown }).customization = members;
  }
  if (site === undefined) return;
  for (const ss of model.siteSpaces) {
    const effective = d.overrides?.get(ss.entry === undefined ? "" : (d.siteSpaces.find((x) => x.path === ss.path.value && (x.section ?? undefined) === sectionIdOf(d, ss.section, model))?.id ?? ""));
    if (effective === undefined) continue;
    const eff = effective as unknown as Record<string, unknown>;
    const override: Record<string, unknown> = {};
    for (const m of OVERRIDE_MEMBERS) {
      const diff = differing(eff[m], site[m], OVERRIDE_SETTINGS.properties[m]);
      if (diff !== undefined) override[m] = diff;
    }
    if (Object.keys(override).length > 0) (ss.entry as { customization?: unknown }).customization = override;
  }
}

/** The live ID of the section a model's section key stands for (undefined: the root). */
function sectionIdOf(d: SiteData, key: string | undefined, model: SiteModel): string | undefined {
  if (key === undefined) return undefined;
  const section = model.sectionList.find((s) => s.key === key);
  return d.sections.find((s) => s.path === section?.path.value)?.id;
}

function userOf(m: Member): string {
  return m.user?.id ?? m.id;
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

/** The file field of a kind's `exactlyOne` pair when the exported entry has not the other field. */
function alternativeFile(kind: AnyKind & { list: StackList }, files: readonly { as: string }[], entry: Record<string, unknown>): string[] {
  const pair = kind.list.exactlyOne;
  if (pair === undefined) return [];
  const [a, b] = pair;
  const file = files.find((f) => f.as === a || f.as === b)?.as;
  const other = file === a ? b : a;
  return file !== undefined && entry[other] === undefined ? [file] : [];
}
