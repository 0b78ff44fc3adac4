/**
 * Declares the resources of a stack file, each named from its key (see names.ts), in an order where
 * every reference resolves to a resource already declared: teams, collections (parents first),
 * spaces, the listed kinds, then each site from its resolved model (siteDeclarer.ts), then the
 * organisation's settings.
 */
import * as pulumi from "@pulumi/pulumi";
import { AgentInstructions, classOf, Collection, MemberRole, OrganizationSettings, SiteStyleGuide, Space, Team, TeamMembers, type KindResource, type Site, type StyleGuide } from "../classes";
import { agentInstructionsKind } from "../resources/agentInstructions";
import { collectionKind } from "../resources/collection";
import { retention, type KindDefinition, type RefSpelling, type ResourceArgs } from "../resources/kind";
import { listedKinds, type ListedKind } from "../resources/kinds";
import { memberRoleKind } from "../resources/memberRole";
import { organizationSettingsKind } from "../resources/organizationSettings";
import { spaceKind } from "../resources/space";
import { teamKind } from "../resources/team";
import { teamMembersKind } from "../resources/teamMembers";
import type { ResolvedStack } from "../stack/resolve";
import { declaredInputs, type DeclaredSources } from "../stack/declared";
import { locatedReferences, type LocatedReferences, type Written } from "./referenceLocations";
import { stackFields } from "../stack/stackSchema";
import { isIdRef, listEntries, type Keyed, type Ref, type StackCollection, type StackGitSync, type StackSite } from "../file/model";
import { adoptOf, aliasesFor, join } from "./names";
import { declareSite, type SiteResources, type SiteScope } from "./siteDeclarer";
import { declareAccess, type AccessResources } from "../access/declare";
import { declareSiteGitSync, gitOwned } from "../gitSync/declare";
import type { SiteGitSync } from "../classes";
import { siteGitSyncKind } from "../resources/siteGitSync";
import { declareAssistant, type AssistantResources } from "../assistant/declare";

export type { SiteResources } from "./siteDeclarer";

/** The outputs of a kind, as its declaration's `read` gives them. */
type OutputsOf<K> = K extends { read(ctx: never, id: string, state: never): Promise<infer O> } ? Exclude<O, undefined> : never;

/** The resources of each listed kind (see `StackList`) by key, under its property in the stack file. */
export type ListedResources = { [K in ListedKind as K["list"]["property"]]: Record<string, KindResource<OutputsOf<K>>> };

/** Every resource a {@link DocsPlatform} declared, by key. */
export interface DocsPlatformResources extends ListedResources {
  settings?: OrganizationSettings;
  agentInstructions?: AgentInstructions;
  /** Member roles by user (as written in the file). */
  members: Record<string, MemberRole>;
  teams: Record<string, Team>;
  /** Team memberships by team key (teams that list `members`). */
  teamMembers: Record<string, TeamMembers>;
  collections: Record<string, Collection>;
  spaces: Record<string, Space>;
  sites: Record<string, SiteResources>;
  /** Permissions, visitor authentication and installations. */
  access: AccessResources;
  /** Each site's Git Sync installation, by site key. */
  gitSync: Record<string, SiteGitSync>;
  /** Each site's assistant (MCP servers, agent settings, channels, context connections), by site key. */
  assistant: Record<string, AssistantResources>;
}

/** Walks a stack file once and declares its resources. */
export class Declarer implements SiteScope {
  private readonly opts: pulumi.CustomResourceOptions;
  private readonly teams: Record<string, Team> = {};
  private readonly collections: Record<string, Collection> = {};
  private readonly spaces: Record<string, Space> = {};
  private readonly sites: Record<string, SiteResources> = {};
  private readonly gitSync: Record<string, SiteGitSync> = {};

  constructor(
    readonly name: string,
    parent: pulumi.Resource,
    readonly org: string,
    private readonly resolved: ResolvedStack,
    private readonly sources?: DeclaredSources,
    private readonly locate: (pointer: string) => string = () => "",
  ) {
    this.opts = { parent };
  }

  declare(): DocsPlatformResources {
    const { name, org } = this;
    const { stack, sites } = this.resolved;
    const members: Record<string, MemberRole> = {};
    (stack.members ?? []).forEach((m, i) => {
      members[m.user] = new MemberRole(join(name, "member", m.user), { ...this.inputs(memberRoleKind, m, `/members/${i}`), organizationId: org }, this.opts);
    });

    const teamMembers: Record<string, TeamMembers> = {};
    (stack.teams ?? []).forEach((t, i) => {
      const team = new Team(join(name, t.key), { ...this.inputs(teamKind, t), organizationId: org, ...adoptOf(t) }, this.with(t));
      this.teams[t.key] = team;
      if (t.members !== undefined) {
        const memberships = t.members.map((m) => ({ user: m.user, role: m.role ?? "member" }));
        const written = () => Object.fromEntries(t.members!.map((m, j) => [`members[${j}].user`, { pointer: `/teams/${i}/members/${j}/user`, value: m.user }]));
        teamMembers[t.key] = new TeamMembers(
          join(name, t.key, "members"),
          { organizationId: org, teamId: team.id, members: memberships, ...this.located(teamMembersKind.name, written) },
          this.with(t, [], {}, ["members"]),
        );
      }
    });

    const byKey = new Map((stack.collections ?? []).map((c) => [c.key, c]));
    for (const c of stack.collections ?? []) this.collection(c, byKey);

    (stack.spaces ?? []).forEach((s, i) => {
      const inputs = { ...this.inputs(spaceKind, s, `/spaces/${i}`), organizationId: org };
      // A space the file created stays when its entry goes, unless it asks for deletion: the preview says `delete[retain]`.
      this.spaces[s.key] = new Space(join(name, s.key), inputs, this.with(s, [], retention(spaceKind, inputs)));
    });

    // The kinds without structure of their own: one resource per entry of their list, as the kind declares it
    // (those naming sites after the sites).
    const listed: Record<string, Record<string, pulumi.CustomResource>> = {};
    const declareListed = (afterSites: boolean) => {
      for (const kind of listedKinds()) {
        if ((kind.list.afterSites === true) !== afterSites) continue;
        const Kind = classOf(kind);
        const resources: Record<string, pulumi.CustomResource> = (listed[kind.list.property] = {});
        listEntries(stack, kind.list.property).forEach((e, i) => {
          const inputs = { ...this.inputs(kind, e, `/${kind.list.property}/${i}`), organizationId: org, ...adoptOf(e) };
          resources[e.key] = new Kind(join(name, e.key), inputs, this.with(e, [], retention(kind, inputs)));
        });
      }
    };
    declareListed(false);

    // Each site's Git Sync installation is declared with its site (withSite), before its structure.
    for (const site of sites) this.sites[site.key] = declareSite(this, site);
    const assistant: Record<string, AssistantResources> = {};
    (stack.sites ?? []).forEach((s, i) => (assistant[s.key] = declareAssistant(this, s, i, this.sites[s.key]!.site.id)));
    declareListed(true);
    for (const s of stack.sites ?? []) {
      if (s.styleGuide === undefined) continue;
      const guides = (listed.styleGuides ?? {}) as Record<string, StyleGuide>;
      const guide = isIdRef(s.styleGuide) ? s.styleGuide.id : guides[s.styleGuide]!.spaceId;
      this.sites[s.key]!.styleGuide = new SiteStyleGuide(join(name, s.key, "styleguide"), { organizationId: org, siteId: this.sites[s.key]!.site.id, styleGuideId: guide }, this.with(s, [], {}, ["styleguide"]));
    }

    let settings: OrganizationSettings | undefined;
    if (stack.settings !== undefined) {
      settings = new OrganizationSettings(join(name, "settings"), { ...this.inputs(organizationSettingsKind, stack.settings), organizationId: org }, this.opts);
    }
    // Removing the block leaves the instructions in place: the platform has no delete, and they are people's words.
    const agentInstructions =
      stack.agentInstructions === undefined
        ? undefined
        : new AgentInstructions(join(name, "agent-instructions"), { ...this.inputs(agentInstructionsKind, stack.agentInstructions), organizationId: org }, { ...this.opts, ...retention(agentInstructionsKind, {}) });

    const access = declareAccess({
      name,
      org,
      stack,
      opts: this.opts,
      teams: this.teams,
      sites: this.siteResources(),
      spaces: this.spaces,
      collections: this.collections,
      integrations: listed.integrations ?? {},
      secrets: (sources) => {
        if (!this.sources) throw new Error("internal error: installation secrets are read when the program runs, but no reader was given");
        return this.sources.secrets(sources);
      },
      locate: this.locate,
    });

    const gitSync = this.gitSync;

    return {
      ...(settings === undefined ? {} : { settings }),
      ...(agentInstructions === undefined ? {} : { agentInstructions }),
      access,
      gitSync,
      assistant,
      members,
      teams: this.teams,
      teamMembers,
      collections: this.collections,
      spaces: this.spaces,
      ...(listed as unknown as ListedResources),
      sites: this.sites,
    };
  }

  /**
   * A site's Git Sync installation, declared with its site; under priority git it is what the site's
   * structure waits for (its save imports the site file, whose objects the structure takes over).
   */
  withSite(entry: StackSite, site: pulumi.CustomResource): pulumi.Resource | undefined {
    const scope = { name: this.name, org: this.org, inputs: (e: StackGitSync) => this.inputs(siteGitSyncKind, e), with: (s: Keyed) => this.with(s), space: (ref: Ref) => this.ref(ref, this.refTargets("spaces")) };
    const installation = declareSiteGitSync(scope, entry, site);
    if (installation === undefined) return undefined;
    this.gitSync[entry.key] = installation;
    return gitOwned(entry) ? installation : undefined;
  }

  /** Options of a top-level keyed object: parent and aliases for its former keys. */
  with(obj: Keyed, scopes: string[][] = [], extra: pulumi.CustomResourceOptions = {}, suffix: string[] = []): pulumi.CustomResourceOptions {
    const aliases = aliasesFor(this.name, scopes, obj, suffix);
    return { ...this.opts, ...extra, ...(aliases.length > 0 ? { aliases } : {}) };
  }

  /**
   * The inputs a stack-file entry declares for a kind (see `declaredInputs`), references resolved to
   * IDs. The loader has checked the entry against the schema derived from the same declaration. With
   * the entry's `pointer`, a preview's inputs also locate the members, spaces and teams it names.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any kind's outputs
  inputs<I extends object>(kind: KindDefinition<I, any>, entry: object, pointer?: string): ResourceArgs<I> {
    const inputs = declaredInputs(kind, entry, (list, ref) => this.ref(ref, this.refTargets(list)), this.sources) as ResourceArgs<I>;
    if (pointer === undefined) return inputs;
    const values = entry as Record<string, unknown>;
    const written = () => Object.fromEntries(stackFields(kind).map(({ name, as }) => [name, { pointer: `${pointer}/${as}`, value: values[as] }]));
    return { ...inputs, ...this.located(kind.name, written) };
  }

  /** In a preview, the reserved input locating the references among `written()` (referenceLocations.ts; not called in an up). */
  located(kindName: string, written: () => Record<string, Written>): LocatedReferences {
    return locatedReferences(kindName, written, this.locate);
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
  spaceId(ref: Ref): pulumi.Input<string> {
    return this.ref(ref, this.spaces);
  }
}
