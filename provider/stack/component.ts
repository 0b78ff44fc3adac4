/**
 * The component that turns a stack file into resources: `new DocsPlatform("handbook", { file: "docs.yaml" })`
 * loads and validates the file, then declares one resource per object of it, named from the keys.
 *
 * Names: `<component>/<key>` for top-level objects, `<component>/<site key>/<key>` for the objects of a
 * site (sections, section groups, site spaces, share links), `<component>/<site key>` for the site and its
 * per-site resources (adaptive schema, structure order), `<component>/member/<user>` for member roles.
 * Keys cannot contain `/`, so names never collide, and they do not depend on the order of the file: moving
 * an entry keeps its URN. Renaming a key changes the URN, which replaces the object unless the old key is
 * kept in `previousKeys` (it becomes a Pulumi alias).
 *
 * Dependencies come from data: a child takes its parent's ID as an Output (a section its site's ID and
 * its space's, a SAML provider its default team's, organisation settings the default site's), so the
 * engine creates parents first and deletes children first. Siblings are independent and created in
 * parallel; one SiteStructureOrder per site, which depends on every section, group and site space of the
 * site, then restores the declared order.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { collectionKind } from "../resources/collection";
import type { KindDefinition, RefSpelling, ResourceArgs } from "../resources/kind";
import { listedKinds, type ListedKind } from "../resources/kinds";
import {
  classOf,
  Collection,
  MemberRole,
  OrganizationSettings,
  ShareLink,
  Site,
  SiteAdaptiveSchema,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  SiteStructureOrder,
  Space,
  Team,
  TeamMembers,
  type KindResource,
} from "../classes";
import { memberRoleKind } from "../resources/memberRole";
import { organizationSettingsKind } from "../resources/organizationSettings";
import { shareLinkKind } from "../resources/shareLink";
import { siteKind } from "../resources/site";
import { type SiteAdaptiveSchemaInputs } from "../resources/siteAdaptiveSchema";
import { siteSectionKind } from "../resources/siteSection";
import { siteSectionGroupKind } from "../resources/siteSectionGroup";
import { siteSpaceKind } from "../resources/siteSpace";
import { ROOT_LEVEL } from "../resources/siteStructureOrder";
import { spaceKind } from "../resources/space";
import { teamKind } from "../resources/team";
import { declaredInputs, type DeclaredSources } from "./declared";
import { runtimeSources, secretSourceIssues, type SecretLookup } from "./sources";
import { formatProblem, loadStackFile, type Problem } from "./load";
import { declareQuietly } from "./registration";
import {
  isIdRef,
  listEntries,
  sectionSiteSpaces,
  type Keyed,
  type Ref,
  type StackCollection,
  type StackFile,
  type StackSection,
  type StackSite,
  type StackSiteSpace,
} from "./model";

/** Pulumi type token of the component. */
export const DOCS_PLATFORM_TYPE = "docsplatform:index:DocsPlatform";

/** Arguments of a {@link DocsPlatform}. */
export interface DocsPlatformArgs {
  /** Path of the stack file, relative to the program's folder (the working directory of `pulumi up`). */
  file: string;
  /** Organisation to manage instead of the file's `organization` (e.g. one per Pulumi stack). */
  organizationId?: string;
}

/** A stack file that failed to load: every problem, as `file:line:col: message`. */
export class StackFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly Problem[],
  ) {
    const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
    super(`${file} is not a valid stack file (${count}):\n${problems.map(formatProblem).join("\n")}`);
    this.name = "StackFileError";
  }
}

/** The resources of one site, by key. */
export interface SiteResources {
  site: Site;
  /** Sections by key. */
  sections: Record<string, SiteSection>;
  /** Section groups by key. */
  sectionGroups: Record<string, SiteSectionGroup>;
  /** Site spaces by key: the root-level ones and those of every section (including each section's first). */
  siteSpaces: Record<string, SiteSpace>;
  /** Share links by key. */
  shareLinks: Record<string, ShareLink>;
  adaptiveSchema?: SiteAdaptiveSchema;
  /** Restores the declared order of sections, groups and site spaces; absent for a site without structure. */
  order?: SiteStructureOrder;
}

/** The outputs of a kind, as its declaration's `read` gives them. */
type OutputsOf<K> = K extends { read(ctx: never, id: string, state: never): Promise<infer O> } ? Exclude<O, undefined> : never;

/** The resources of each listed kind (see `StackList`) by key, under its property in the stack file. */
export type ListedResources = { [K in ListedKind as K["list"]["property"]]: Record<string, KindResource<OutputsOf<K>>> };

/** Every resource a {@link DocsPlatform} declared, by key. */
export interface DocsPlatformResources extends ListedResources {
  settings?: OrganizationSettings;
  /** Member roles by user (as written in the file). */
  members: Record<string, MemberRole>;
  teams: Record<string, Team>;
  /** Team memberships by team key (teams that list `members`). */
  teamMembers: Record<string, TeamMembers>;
  collections: Record<string, Collection>;
  spaces: Record<string, Space>;
  sites: Record<string, SiteResources>;
}

/**
 * Loads a stack file for the component: the typed model, or a {@link StackFileError} listing every
 * problem. Warnings are returned for the caller to report.
 */
export function loadForComponent(file: string): { stack: StackFile; warnings: Problem[]; sources: DeclaredSources } {
  const result = loadStackFile(file);
  if (!result.ok) throw new StackFileError(file, result.problems);
  return { stack: result.stack, warnings: result.warnings, sources: sourcesFor(file, result.stack, result.problemAt) };
}

/**
 * What the file names rather than holds, read as the program runs: files next to it, and secret
 * values from Pulumi config or the environment. A secret whose source is not set is a problem of the
 * stack file, reported before any resource is registered.
 */
function sourcesFor(file: string, stack: StackFile, problemAt?: (pointer: string, message: string) => Problem): DeclaredSources {
  const lookup: SecretLookup = {
    config(key) {
      const at = key.indexOf(":");
      return at < 0 ? new pulumi.Config().get(key) : new pulumi.Config(key.slice(0, at)).get(key.slice(at + 1));
    },
    env: (name) => process.env[name],
  };
  const unset = secretSourceIssues(stack, lookup);
  if (unset.length > 0) {
    const located = unset.map((i) => problemAt?.(i.pointer, i.reason) ?? { file, line: 1, col: 1, path: i.pointer, message: i.reason });
    throw new StackFileError(file, located);
  }
  return runtimeSources(path.dirname(file), lookup, (values) => pulumi.secret(values));
}

/** `a/b/c`: the resource name of an object from its component name and keys. */
function join(...parts: string[]): string {
  return parts.join("/");
}

/** Current and former keys of an object: the current one first. */
function keysOf(obj: Keyed): string[] {
  return [obj.key, ...(obj.previousKeys ?? [])];
}

/**
 * Aliases for a renamed object: every name it had under a former key of itself or of its site.
 * `scopes` are the key lists of the enclosing objects (the site), outermost first.
 */
function aliasesFor(component: string, scopes: string[][], obj: Keyed, suffix: string[] = []): pulumi.Alias[] {
  const current = join(component, ...scopes.map((s) => s[0]!), obj.key, ...suffix);
  const names = new Set<string>();
  const combine = (prefix: string[], rest: string[][]): void => {
    if (rest.length === 0) {
      names.add(join(component, ...prefix, ...suffix));
      return;
    }
    for (const k of rest[0]!) combine([...prefix, k], rest.slice(1));
  };
  combine([], [...scopes, keysOf(obj)]);
  names.delete(current);
  return [...names].sort().map((name) => ({ name }));
}

/** The object declares `adopt: true`: pass it on; otherwise leave the input out. */
function adoptOf(obj: { adopt?: boolean }): { adopt?: boolean } {
  return obj.adopt === true ? { adopt: true } : {};
}

/**
 * A whole docs platform declared by one stack file. Construction loads and validates the file
 * synchronously: an invalid file throws a {@link StackFileError} before any resource is registered.
 */
export class DocsPlatform extends pulumi.ComponentResource {
  /** The loaded stack file. */
  readonly stack: StackFile;
  /** The organisation the resources belong to. */
  readonly organizationId: string;
  /** Every declared resource, by key. */
  readonly resources: DocsPlatformResources;
  /** Site key → site ID. */
  readonly siteIds: pulumi.Output<Record<string, string>>;
  /** Site key → published URL (null while a site is unpublished). */
  readonly siteUrls: pulumi.Output<Record<string, string | null>>;
  /** Site key → section key → section ID. */
  readonly sectionIds: pulumi.Output<Record<string, Record<string, string>>>;
  /** Team key → team ID. */
  readonly teamIds: pulumi.Output<Record<string, string>>;
  /** Site key → share-link key → URL with the link's token: a secret. */
  readonly shareLinkUrls: pulumi.Output<Record<string, Record<string, string | null>>>;

  constructor(name: string, args: DocsPlatformArgs, opts?: pulumi.ComponentResourceOptions) {
    // Load before registering anything: a bad file must not reach the API.
    const { stack, warnings, sources } = loadForComponent(args.file);
    super(DOCS_PLATFORM_TYPE, name, { file: args.file }, opts);
    for (const w of warnings) void pulumi.log.warn(formatProblem(w), this);

    this.stack = stack;
    this.organizationId = args.organizationId ?? stack.organization;
    // The SDK's promise stacks formatted short while declaring; restored before any other code runs (registration.ts).
    this.resources = declareQuietly(() => new Declarer(name, this, this.organizationId, stack, sources).declare());

    const sites = Object.entries(this.resources.sites);
    this.siteIds = record(sites.map(([k, r]) => [k, r.site.id]));
    this.siteUrls = record(sites.map(([k, r]) => [k, r.site.urls.apply((u) => u?.published ?? null)]));
    this.sectionIds = record(sites.map(([k, r]) => [k, record(Object.entries(r.sections).map(([sk, s]) => [sk, s.id]))]));
    this.teamIds = record(Object.entries(this.resources.teams).map(([k, t]) => [k, t.id]));
    this.shareLinkUrls = record(
      sites.map(([k, r]) => [k, record(Object.entries(r.shareLinks).map(([lk, l]) => [lk, l.url.apply((u) => u ?? null)]))]),
    );
    this.registerOutputs({
      file: args.file,
      organizationId: this.organizationId,
      siteIds: this.siteIds,
      siteUrls: this.siteUrls,
      sectionIds: this.sectionIds,
      teamIds: this.teamIds,
      shareLinkUrls: this.shareLinkUrls,
    });
  }
}

/** An Output of a record from entries whose values are Outputs. */
function record<T>(entries: [string, pulumi.Input<T>][]): pulumi.Output<Record<string, T>> {
  const keys = entries.map(([k]) => k);
  return pulumi.all(entries.map(([, v]) => v)).apply((values) => {
    const out: Record<string, T> = {};
    keys.forEach((k, i) => (out[k] = values[i] as T));
    return out;
  });
}

/** Walks a stack file once and declares its resources. */
class Declarer {
  private readonly opts: pulumi.CustomResourceOptions;
  private readonly teams: Record<string, Team> = {};
  private readonly collections: Record<string, Collection> = {};
  private readonly spaces: Record<string, Space> = {};
  private readonly sites: Record<string, SiteResources> = {};

  constructor(
    private readonly name: string,
    parent: pulumi.Resource,
    private readonly org: string,
    private readonly stack: StackFile,
    private readonly sources?: DeclaredSources,
  ) {
    this.opts = { parent };
  }

  declare(): DocsPlatformResources {
    const { name, org, stack } = this;
    const members: Record<string, MemberRole> = {};
    for (const m of stack.members ?? []) {
      members[m.user] = new MemberRole(join(name, "member", m.user), { ...this.inputs(memberRoleKind, m), organizationId: org }, this.opts);
    }

    const teamMembers: Record<string, TeamMembers> = {};
    for (const t of stack.teams ?? []) {
      const team = new Team(join(name, t.key), { ...this.inputs(teamKind, t), organizationId: org, ...adoptOf(t) }, this.with(t));
      this.teams[t.key] = team;
      if (t.members !== undefined) {
        const memberships = t.members.map((m) => ({ user: m.user, role: m.role ?? "member" }));
        teamMembers[t.key] = new TeamMembers(
          join(name, t.key, "members"),
          { organizationId: org, teamId: team.id, members: memberships },
          this.with(t, [], {}, ["members"]),
        );
      }
    }

    const byKey = new Map((stack.collections ?? []).map((c) => [c.key, c]));
    for (const c of stack.collections ?? []) this.collection(c, byKey);

    for (const s of stack.spaces ?? []) {
      this.spaces[s.key] = new Space(
        join(name, s.key),
        { ...this.inputs(spaceKind, s), organizationId: org },
        this.with(s),
      );
    }

    // The kinds without structure of their own: one resource per entry of their list, as the kind declares it.
    const listed: Record<string, Record<string, pulumi.CustomResource>> = {};
    for (const kind of listedKinds()) {
      const Kind = classOf(kind);
      const resources: Record<string, pulumi.CustomResource> = (listed[kind.list.property] = {});
      for (const e of listEntries(stack, kind.list.property)) {
        resources[e.key] = new Kind(join(name, e.key), { ...this.inputs(kind, e), organizationId: org, ...adoptOf(e) }, this.with(e));
      }
    }

    for (const site of stack.sites ?? []) this.sites[site.key] = this.site(site);

    let settings: OrganizationSettings | undefined;
    if (stack.settings !== undefined) {
      settings = new OrganizationSettings(join(name, "settings"), { ...this.inputs(organizationSettingsKind, stack.settings), organizationId: org }, this.opts);
    }

    return {
      ...(settings === undefined ? {} : { settings }),
      members,
      teams: this.teams,
      teamMembers,
      collections: this.collections,
      spaces: this.spaces,
      ...(listed as unknown as ListedResources),
      sites: this.sites,
    };
  }

  /** Options of a top-level keyed object: parent and aliases for its former keys. */
  private with(obj: Keyed, scopes: string[][] = [], extra: pulumi.CustomResourceOptions = {}, suffix: string[] = []): pulumi.CustomResourceOptions {
    const aliases = aliasesFor(this.name, scopes, obj, suffix);
    return { ...this.opts, ...extra, ...(aliases.length > 0 ? { aliases } : {}) };
  }

  /**
   * The inputs a stack-file entry declares for a kind (see `declaredInputs`), references resolved to
   * IDs. The loader has checked the entry against the schema derived from the same declaration.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any kind's outputs
  private inputs<I extends object>(kind: KindDefinition<I, any>, entry: object): ResourceArgs<I> {
    return declaredInputs(kind, entry, (list, ref) => this.ref(ref, this.refTargets(list)), this.sources) as ResourceArgs<I>;
  }

  /** The resources a list of references names, by key. */
  private refTargets(list: RefSpelling["ref"]): Record<string, pulumi.CustomResource> {
    switch (list) {
      case "teams":
        return this.teams;
      case "collections":
        return this.collections;
      case "spaces":
        return this.spaces;
      case "sites":
        return this.siteResources();
    }
  }

  /** The ID a reference resolves to: the resource of that key, or the given platform ID. */
  private ref(ref: Ref, resources: Record<string, pulumi.CustomResource>): pulumi.Input<string> {
    if (isIdRef(ref)) return ref.id;
    const r = resources[ref];
    // The loader's checks guarantee references resolve; a miss here is a bug, not a user error.
    if (r === undefined) throw new Error(`internal error: reference to undeclared key ${JSON.stringify(ref)}`);
    return r.id;
  }

  private siteResources(): Record<string, Site> {
    return Object.fromEntries(Object.entries(this.sites).map(([k, r]) => [k, r.site]));
  }

  /** Declares a collection after its parent (the loader rules out cycles). */
  private collection(c: StackCollection, byKey: Map<string, StackCollection>): Collection {
    const existing = this.collections[c.key];
    if (existing) return existing;
    // The parent first, so that the reference resolves to a declared resource.
    if (typeof c.parent === "string") this.collection(byKey.get(c.parent)!, byKey);
    const created = new Collection(join(this.name, c.key), { ...this.inputs(collectionKind, c), organizationId: this.org, ...adoptOf(c) }, this.with(c));
    this.collections[c.key] = created;
    return created;
  }

  /** The space a site space publishes: a Space resource of the file (so its settings apply first) or an ID. */
  private spaceId(ref: Ref): pulumi.Input<string> {
    return this.ref(ref, this.spaces);
  }

  private site(s: StackSite): SiteResources {
    const { name, org } = this;
    const scope = [keysOf(s)];
    const site = new Site(
      join(name, s.key),
      { ...this.inputs(siteKind, s), organizationId: org, ...adoptOf(s) },
      this.with(s),
    );
    const siteId = site.id;
    const out: SiteResources = { site, sections: {}, sectionGroups: {}, siteSpaces: {}, shareLinks: {} };

    // `createdWith`: the section whose POST created this site space (a section's first one).
    // `after`: the level's default, created first so that the API makes it the default with no extra call.
    const siteSpace = (ss: StackSiteSpace, sectionId: pulumi.Input<string> | undefined, isDefault: boolean, createdWith?: SiteSection, after?: SiteSpace): SiteSpace =>
      new SiteSpace(
        join(name, s.key, ss.key),
        {
          ...this.inputs(siteSpaceKind, ss),
          organizationId: org,
          siteId,
          ...(sectionId === undefined ? {} : { sectionId }),
          default: isDefault,
          // A section is created with its first site space: that one is taken over by ID, not created again.
          ...(createdWith ? { existingId: createdWith.siteSpaceId } : {}),
          ...adoptOf(ss),
        },
        this.with(ss, scope, after ? { dependsOn: [after] } : {}),
      );

    // The default of each level is the declared one, else the first in the file. The API makes the
    // first object created at a level its default, so the default is created before its siblings.
    const sections = s.sections ?? [];
    const defaultSection = s.defaultSiteSection ?? sections[0]?.key;
    const levels: [string, pulumi.Input<string>][] = [];
    const levelOrder: pulumi.Output<string>[][] = [];
    const first = sections.find((section) => section.key === defaultSection);
    const firstCreated = first ? this.section(s, first, siteId, scope, true) : undefined;
    for (const section of sections) {
      const created = section === first ? firstCreated! : this.section(s, section, siteId, scope, false, firstCreated);
      out.sections[section.key] = created;
      const spaces = sectionSiteSpaces(section);
      const defaultKey = section.defaultSiteSpace ?? spaces[0]?.key;
      // The section's POST creates its first site space: another declared default is created next, then the rest.
      const defaultSpace = spaces.find((ss, i) => i > 0 && ss.key === defaultKey);
      const defaultCreated = defaultSpace ? siteSpace(defaultSpace, created.id, true) : undefined;
      const ids = spaces.map((ss, i) => {
        const r = ss === defaultSpace ? defaultCreated! : siteSpace(ss, created.id, defaultKey === ss.key, i === 0 ? created : undefined, i === 0 ? undefined : defaultCreated);
        out.siteSpaces[ss.key] = r;
        return r.id;
      });
      levels.push([section.key, created.id]);
      levelOrder.push(ids);
    }
    const roots = s.siteSpaces ?? [];
    const defaultRootKey = s.defaultSiteSpace ?? roots[0]?.key;
    const defaultRoot = roots.find((ss) => ss.key === defaultRootKey);
    const defaultRootCreated = defaultRoot ? siteSpace(defaultRoot, undefined, true) : undefined;
    const rootIds = roots.map((ss) => {
      const r = ss === defaultRoot ? defaultRootCreated! : siteSpace(ss, undefined, false, undefined, defaultRootCreated);
      out.siteSpaces[ss.key] = r;
      return r.id;
    });

    for (const g of s.sectionGroups ?? []) {
      out.sectionGroups[g.key] = new SiteSectionGroup(
        join(name, s.key, g.key),
        {
          ...this.inputs(siteSectionGroupKind, g),
          organizationId: org,
          siteId,
          sections: pulumi.all(g.sections.map((k) => out.sections[k]!.id)),
          ...adoptOf(g),
        },
        this.with(g, scope),
      );
    }

    for (const l of s.shareLinks ?? []) {
      out.shareLinks[l.key] = new ShareLink(
        join(name, s.key, l.key),
        { ...this.inputs(shareLinkKind, l), organizationId: org, siteId, ...adoptOf(l) },
        this.with(l, scope),
      );
    }

    if (s.adaptiveSchema !== undefined) {
      out.adaptiveSchema = new SiteAdaptiveSchema(
        join(name, s.key),
        { organizationId: org, siteId, jsonSchema: s.adaptiveSchema as SiteAdaptiveSchemaInputs["jsonSchema"] },
        this.with(s),
      );
    }

    // One order per site, after every structural child: siblings are created in parallel.
    const sectionIds = Object.values(out.sections).map((r) => r.id);
    const groupIds = Object.values(out.sectionGroups).map((r) => r.id);
    if (sectionIds.length > 0 || rootIds.length > 0) {
      const siteSpaces = pulumi
        .all([pulumi.all(levels.map(([, id]) => id)), pulumi.all(levelOrder.map((ids) => pulumi.all(ids))), pulumi.all(rootIds)])
        .apply(([sectionLevelIds, orders, root]) => {
          const byLevel: Record<string, string[]> = {};
          sectionLevelIds.forEach((id, i) => (byLevel[id] = orders[i]!));
          if (root.length > 0) byLevel[ROOT_LEVEL] = root;
          return byLevel;
        });
      // Declared membership (known in preview): a section moving into or out of a group moves in the order.
      const groupMembers = pulumi
        .all((s.sectionGroups ?? []).map((g) => pulumi.all([out.sectionGroups[g.key]!.id, pulumi.all(g.sections.map((k) => out.sections[k]!.id))])))
        .apply((entries) => Object.fromEntries(entries));
      out.order = new SiteStructureOrder(
        join(name, s.key),
        {
          organizationId: org,
          siteId,
          ...(sectionIds.length > 0 ? { sections: pulumi.all(sectionIds) } : {}),
          ...(groupIds.length > 0 ? { sectionGroups: pulumi.all(groupIds), groups: groupMembers } : {}),
          siteSpaces,
        },
        this.with(s, [], {
          dependsOn: [...Object.values(out.sections), ...Object.values(out.sectionGroups), ...Object.values(out.siteSpaces)],
        }),
      );
    }
    return out;
  }

  private section(s: StackSite, section: StackSection, siteId: pulumi.Output<string>, scope: string[][], isDefault: boolean, after?: SiteSection): SiteSection {
    const [first] = sectionSiteSpaces(section);
    return new SiteSection(
      join(this.name, s.key, section.key),
      {
        ...this.inputs(siteSectionKind, section),
        organizationId: this.org,
        siteId,
        // The space of the site space the section is created with. Afterwards that site space is its own
        // resource (its space changes in place there), so a different first space does not replace the section.
        spaceId: this.spaceId(first!.space),
        default: isDefault,
        ...adoptOf(section),
      },
      this.with(section, scope, { ignoreChanges: ["spaceId"], ...(after ? { dependsOn: [after] } : {}) }),
    );
  }
}
