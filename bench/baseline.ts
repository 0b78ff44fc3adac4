/**
 * The baseline: the raw typed client making exactly the minimal calls of each phase, at the same
 * concurrency (the client's process-wide bound), against its own emulator with the same latency.
 * Each object waits only for what it needs (a section for its site and its first site space's space,
 * a site space for its section and space, a group for its sections, a link for its group, an override
 * for its site space, a style guide for the site it is made for, a site's attached guide for that
 * guide), as the engine's dependency graph allows; everything else runs at once under the bound.
 */
import { ApiClient, type MovePosition, type SiteCustomizationSettings, type SiteSpaceCustomizationBody, type SiteStructure, type StructurePointer } from "../provider/client";
import { desiredSettings } from "../provider/resources/siteCustomization";
import { planMoves, applyMove } from "../provider/resources/siteStructureOrder";
import { siteModels, type GroupChild, type SiteModel, type TopEntry } from "../provider/site";
import { isExternalLink, isIdRef, sectionsOf, type Ref, type StackFile, type StackSite } from "../provider/file/model";
import { instructionsDocument } from "../provider/resources/siteAgentSettings";
import { canonicalMarkdown, documentOf, markdownOf } from "../provider/resources/markdownDocument";
import type { Edit } from "./generate";
import { BENCH_ENV, BENCH_FILES, CHANGED_COMMIT_TEMPLATE, CHANGED_CONDITION } from "./generate";

/** IDs of what the baseline created, by the stack's keys. */
interface Created {
  sites: Map<string, string>;
  teams: Map<string, string>;
  /** Spaces the file creates, by key (a promise: site spaces wait for theirs). */
  spaces: Map<string, Promise<string>>;
  /** `<site>/<key>` → ID, for sections, site spaces, share links, section groups and external links. */
  sections: Map<string, string>;
  siteSpaces: Map<string, string>;
  shareLinks: Map<string, string>;
  groups: Map<string, string>;
  links: Map<string, string>;
  /** Each customized site's look before the file (what its customization's updates merge over and destroy restores). */
  recorded: Map<string, Record<string, unknown>>;
  /** `<site>/<key>` → ID, for MCP servers, channels and context connections. */
  servers: Map<string, string>;
  channels: Map<string, string>;
  connections: Map<string, string>;
  /** Site key → its Git Sync installation's ID. */
  gitSyncs: Map<string, string>;
  /** Style guides by key: the guide space's ID, once its site's POST made it (a site's attached guide waits for it). */
  guides: Map<string, Deferred<string>>;
}

/** A promise resolved from outside: what waits on an object made elsewhere in the run. */
interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The stack's OpenAPI specs as the generator declares them: each a slug and a file of {@link BENCH_FILES}. */
function specsOf(stack: StackFile): { key: string; slug: string; file: string }[] {
  return (stack.openapi ?? []) as unknown as { key: string; slug: string; file: string }[];
}

/** The declared guides a stack's style guides are made for: `{key, site}`. */
function guidesOf(stack: StackFile): { key: string; site: string; template?: string }[] {
  return (stack.styleGuides ?? []) as unknown as { key: string; site: string; template?: string }[];
}

/** Calls one baseline phase made (writes and reads, moves apart). */
export interface BaselineCalls {
  writes: number;
  reads: number;
  moves: number;
}

/** Runs the minimal calls of each phase for one stack. */
export class Baseline {
  private readonly client: ApiClient;
  private readonly ids: Created = {
    sites: new Map(),
    teams: new Map(),
    spaces: new Map(),
    sections: new Map(),
    siteSpaces: new Map(),
    shareLinks: new Map(),
    groups: new Map(),
    links: new Map(),
    recorded: new Map(),
    servers: new Map(),
    channels: new Map(),
    connections: new Map(),
    gitSyncs: new Map(),
    guides: new Map(),
  };
  private calls: BaselineCalls = { writes: 0, reads: 0, moves: 0 };

  constructor(
    baseUrl: string,
    token: string,
    private readonly org: string,
    concurrency: number,
  ) {
    this.client = new ApiClient({ baseUrl, token, maxConcurrency: concurrency });
  }

  /** Counts of the last phase. */
  private take(): BaselineCalls {
    const c = this.calls;
    this.calls = { writes: 0, reads: 0, moves: 0 };
    return c;
  }

  private write<T>(p: () => Promise<T>): Promise<T> {
    this.calls.writes++;
    return p();
  }

  private read<T>(p: () => Promise<T>): Promise<T> {
    this.calls.reads++;
    return p();
  }

  /** The platform ID of the space a site space publishes: a seeded one's, or (once made) a created one's. */
  private spaceId(ref: Ref | undefined): Promise<string> {
    if (ref === undefined) throw new Error("baseline: a site space without a space");
    return isIdRef(ref) ? Promise.resolve(ref.id) : this.ids.spaces.get(ref)!;
  }

  /**
   * One write per object (a section's first site space comes with its section; a customization's is
   * its PUT, after the one read of the look it records), one lookup of each site by title before its
   * POST (what keeps a re-run after a crash from making a second site), then the declared order
   * restored with the fewest moves: one structure read per site, then moves within each level in
   * sequence (levels in parallel). Returns the counts; moves are reported apart from writes.
   */
  async create(stack: StackFile): Promise<BaselineCalls> {
    const { client, org, ids } = this;
    const jobs: Promise<unknown>[] = [];
    for (const t of stack.teams ?? []) {
      jobs.push(this.write(() => client.teams.create(org, { title: t.title })).then((team) => ids.teams.set(t.key, team.id)));
    }
    for (const s of stack.spaces ?? []) {
      if (s.id !== undefined) continue;
      const made = this.write(() => client.spaces.create(org, { ...(s.title === undefined ? {} : { title: s.title }) })).then((space) => space.id);
      ids.spaces.set(s.key, made);
      jobs.push(made);
    }
    jobs.push(this.createOrganisationObjects(stack));
    for (const g of guidesOf(stack)) ids.guides.set(g.key, deferred());
    const models = new Map(siteModels(stack).map((m) => [m.key, m]));
    for (const s of stack.sites ?? []) jobs.push(this.createSite(s, models.get(s.key)!, guidesOf(stack).filter((g) => g.site === s.key)));
    await Promise.all(jobs);
    await Promise.all((stack.sites ?? []).map((s) => this.order(s, models.get(s.key)!)));
    return this.take();
  }

  /**
   * The organisation's agent instructions (one read, then the PUT: they differ from the platform's) and
   * OpenAPI specs (one POST each, the file's text inline).
   */
  private async createOrganisationObjects(stack: StackFile): Promise<void> {
    const { client, org } = this;
    const jobs: Promise<unknown>[] = specsOf(stack).map((spec) => this.write(() => client.openapi.create(org, { slug: spec.slug, source: { text: BENCH_FILES[spec.file]! } })));
    const instructions = stack.agentInstructions;
    if (instructions) {
      jobs.push(
        this.read(() => client.styleGuides.agentInstructions(org)).then((live) => {
          if (canonicalMarkdown(markdownOf(live.instructions)) !== canonicalMarkdown(instructions.markdown)) return this.write(() => client.styleGuides.setAgentInstructions(org, documentOf(instructions.markdown)));
        }),
      );
    }
    await Promise.all(jobs);
  }

  /**
   * A site's style guides (each its site's POST of the guide) and its attached guide: once the guide
   * exists, one read of the site and the PATCH of its `styleguide` when it differs.
   */
  private async createGuides(s: StackSite, siteId: string, made: { key: string; template?: string }[]): Promise<void> {
    const { client, org, ids } = this;
    const jobs: Promise<unknown>[] = made.map(async (g) => {
      const space = await this.write(() => client.styleGuides.ensure(org, siteId, g.template === undefined ? {} : { template: g.template }));
      ids.guides.get(g.key)!.resolve(space.id);
    });
    const attached = s.styleGuide;
    if (attached !== undefined) {
      jobs.push(
        (async () => {
          const guideId = isIdRef(attached) ? attached.id : await ids.guides.get(attached)!.promise;
          const live = await this.read(() => client.sites.get(org, siteId));
          if (live.styleguide?.space !== guideId) await this.write(() => client.sites.update(org, siteId, { styleguide: guideId }));
        })(),
      );
    }
    await Promise.all(jobs);
  }

  /** A site and everything in it, each object as soon as what it needs exists. */
  private async createSite(s: StackSite, model: SiteModel, guides: { key: string; template?: string }[]): Promise<void> {
    const { client, org, ids } = this;
    await this.read(() => client.sites.list(org, { title: s.title }));
    const site = await this.write(() => client.sites.create(org, { title: s.title, ...(s.visibility ? { visibility: s.visibility } : {}) }));
    ids.sites.set(s.key, site.id);
    const at = (key: string) => `${s.key}/${key}`;
    const look = s.customization
      ? (async () => {
          const live = await this.read(() => client.customization.get(org, site.id));
          const { updatedAt: _updatedAt, ...recorded } = live as unknown as Record<string, unknown>;
          ids.recorded.set(s.key, recorded);
          await this.write(() => client.customization.put(org, site.id, desiredSettings(recorded, s.customization as Record<string, unknown>) as unknown as SiteCustomizationSettings));
        })()
      : Promise.resolve();
    const sectionsMade = new Map<string, Promise<void>>();
    for (const section of sectionsOf(s)) {
      const [first, ...rest] = section.siteSpaces ?? [];
      const made = (async () => {
        const spaceId = await this.spaceId(first!.space);
        const created = await this.write(() => client.sections.create(org, site.id, { spaceId, title: section.title, ...(section.draft === undefined ? {} : { draft: section.draft }) }));
        ids.sections.set(at(section.key), created.id);
        ids.siteSpaces.set(at(first!.key), created.siteSpaces![0]!.id);
        // The create bodies take no `hidden`: a hidden site space is hidden by a PATCH once it exists.
        const hide = async (ss: typeof first) => {
          if (ss!.hidden === true) await this.write(() => client.siteSpaces.update(org, site.id, ids.siteSpaces.get(at(ss!.key))!, { hidden: true }));
        };
        await Promise.all([
          hide(first),
          ...rest.map(async (ss) => {
            const spaceId = await this.spaceId(ss.space);
            const body = { spaceId, sectionId: created.id, ...(ss.draft === undefined ? {} : { draft: ss.draft }) };
            ids.siteSpaces.set(at(ss.key), (await this.write(() => client.siteSpaces.create(org, site.id, body))).id);
            await hide(ss);
          }),
        ]);
      })();
      sectionsMade.set(section.key, made);
    }
    const children: Promise<unknown>[] = [look, ...sectionsMade.values()];
    // Overrides: once their site space and the site's look exist (as the provider orders them).
    for (const section of sectionsOf(s)) {
      for (const ss of section.siteSpaces ?? []) {
        if (ss.customization === undefined) continue;
        children.push(
          Promise.all([sectionsMade.get(section.key), look]).then(() =>
            this.write(() => client.customization.override(org, site.id, ids.siteSpaces.get(at(ss.key))!, ss.customization as SiteSpaceCustomizationBody)),
          ),
        );
      }
    }
    // Groups once their sections exist; links once their group does.
    const groupsMade = new Map<string, Promise<void>>();
    for (const g of model.groupList) {
      const made = Promise.all(g.sections.map((x) => sectionsMade.get(x.key))).then(async () => {
        const body = { title: g.title, sections: g.sections.map((x) => ids.sections.get(at(x.key))!), ...(g.draft === undefined ? {} : { draft: g.draft }) };
        ids.groups.set(at(g.key), (await this.write(() => client.sectionGroups.create(org, site.id, body))).id);
      });
      groupsMade.set(g.key, made);
      children.push(made);
    }
    for (const l of model.linkList) {
      children.push(
        (l.group === undefined ? Promise.resolve() : groupsMade.get(l.group)!).then(async () => {
          const body = { title: l.title, url: l.target, ...(l.group === undefined ? {} : { parent: ids.groups.get(at(l.group))! }), ...(l.draft === undefined ? {} : { draft: l.draft }) };
          ids.links.set(at(l.key), (await this.write(() => client.navigation.createLink(org, site.id, body))).id);
        }),
      );
    }
    for (const l of s.shareLinks ?? []) {
      children.push(this.write(() => client.shareLinks.create(org, site.id, { name: l.name })).then((link) => ids.shareLinks.set(at(l.key), link.id)));
    }
    children.push(this.createAssistant(s, site.id));
    children.push(this.createGuides(s, site.id, guides));
    await Promise.all(children);
  }

  /**
   * A site's assistant and Git Sync: one POST per MCP server, channel and context connection (the
   * secrets from the bench's environment), the agent settings' one read and one PUT, and Git Sync's
   * install and the PATCH of its setup.
   */
  private async createAssistant(s: StackSite, siteId: string): Promise<void> {
    const { client, org, ids } = this;
    const at = (key: string) => `${s.key}/${key}`;
    const jobs: Promise<unknown>[] = [];
    for (const m of s.mcpServers ?? []) {
      const body = { name: m.name, url: m.url, headers: envValues(m.headers), ...(m.condition ? { condition: m.condition as string } : {}) };
      jobs.push(this.write(() => client.mcpServers.create(org, siteId, body)).then((x) => ids.servers.set(at(m.key), x.id)));
    }
    for (const c of s.agentChannels ?? []) {
      const body = { type: c.type, setupSettings: c.setupSettings ?? {}, role: c.role ?? "support" } as Parameters<typeof client.channels.create>[2];
      jobs.push(this.write(() => client.channels.create(org, siteId, body)).then((x) => ids.channels.set(at(c.key), x.id)));
    }
    for (const c of s.contextConnections ?? []) {
      const body = { connector: c.connector, setupSettings: { ...(c.setupSettings ?? {}), ...envValues(c.secretSettings) } };
      jobs.push(this.write(() => client.contextConnections.create(org, siteId, body)).then((x) => ids.connections.set(at(c.key), x.id)));
    }
    if (s.agent) {
      jobs.push(this.read(() => client.agentSettings.get(org, siteId)).then(() => this.write(() => client.agentSettings.put(org, siteId, agentBody(s.agent!)))));
    }
    const g = s.gitSync;
    if (g) {
      jobs.push(
        (async () => {
          const installed = await this.write(() => client.gitSync.install("github", { type: "site", siteId }));
          ids.gitSyncs.set(s.key, installed.id);
          await this.write(() => client.gitSync.update(installed.id, gitSyncSetup(g)));
        })(),
      );
    }
    await Promise.all(jobs);
  }

  /**
   * Restores the declared order of a site with the fewest moves from one read of its structure (it
   * holds every section with its site spaces, every group and every external link): each section's
   * site spaces with their move operation, each navigation level (the root, each group) with the
   * structure sort, the one operation that places a link.
   */
  private async order(s: StackSite, model: SiteModel): Promise<void> {
    const { client, org, ids } = this;
    const siteId = ids.sites.get(s.key)!;
    if (sectionsOf(s).length === 0) return;
    const at = (key: string) => `${s.key}/${key}`;
    const structure = await this.read(() => client.navigation.structure(org, siteId));
    const live = liveLevels(structure);
    const runLevel = async (order: string[], desired: string[], move: (id: string, to: MovePosition) => Promise<unknown>) => {
      for (const m of planMoves(order, desired)) {
        this.calls.moves++;
        await move(m.id, m.position);
        applyMove(order, m);
      }
    };
    const levels: Promise<void>[] = [];
    for (const section of sectionsOf(s)) {
      const sectionId = ids.sections.get(at(section.key))!;
      const desired = (section.siteSpaces ?? []).map((x) => ids.siteSpaces.get(at(x.key))!);
      levels.push(runLevel(live.siteSpaces.get(sectionId) ?? [], desired, (id, to) => client.siteSpaces.move(org, siteId, id, to)));
    }
    const idOf = (e: TopEntry | GroupChild) => (e.kind === "section" ? ids.sections.get(at(e.section.key))! : e.kind === "link" ? ids.links.get(at(e.link.key))! : ids.groups.get(at(e.group.key))!);
    const sort = (id: string, to: MovePosition) => {
      const pointer = (x: string): StructurePointer => ({ type: live.types.get(x)!, id: x });
      return client.navigation.sort(org, siteId, pointer(id), to.after !== undefined ? { after: pointer(to.after) } : { before: pointer(to.before!) });
    };
    levels.push(runLevel(live.navigation.get("root") ?? [], model.entries.map(idOf), sort));
    for (const g of model.groups) {
      const groupId = ids.groups.get(at(g.key))!;
      levels.push(runLevel(live.navigation.get(groupId) ?? [], g.children.map(idOf), sort));
    }
    await Promise.all(levels);
  }

  /** One write per edited object: a look's whole settings in one PUT (merged over the recorded look, no read first), an override's colour in one PATCH. */
  async change(edits: readonly Edit[], changed: StackFile): Promise<BaselineCalls> {
    const { client, org, ids } = this;
    const siteOf = (e: Edit) => ids.sites.get(e.site!)!;
    const at = (e: Edit) => `${e.site}/${e.key}`;
    const site = (e: Edit) => (changed.sites ?? []).find((s) => s.key === e.site)!;
    await Promise.all(
      edits.map((e) => {
        switch (e.kind) {
          case "customization": {
            const desired = desiredSettings(ids.recorded.get(e.site!)!, site(e).customization as Record<string, unknown>);
            return this.write(() => client.customization.put(org, siteOf(e), desired as unknown as SiteCustomizationSettings));
          }
          case "override": {
            const ss = sectionsOf(site(e)).flatMap((x) => x.siteSpaces ?? []).find((x) => x.key === e.key)!;
            const styling = (ss.customization as { styling: Record<string, unknown> }).styling;
            return this.write(() => client.customization.override(org, siteOf(e), ids.siteSpaces.get(at(e))!, { styling: { primaryColor: styling.primaryColor } } as SiteSpaceCustomizationBody));
          }
          case "externalLink": {
            const link = (site(e).sections ?? []).filter(isExternalLink).find((x) => x.key === e.key)!;
            return this.write(() => client.navigation.updateLink(org, siteOf(e), ids.links.get(at(e))!, { title: link.title }));
          }
          case "sectionGroup": {
            const group = (site(e).sectionGroups ?? []).find((x) => x.key === e.key)!;
            return this.write(() => client.sectionGroups.update(org, siteOf(e), ids.groups.get(at(e))!, { title: group.title }));
          }
          case "section": {
            const section = sectionsOf(site(e)).find((x) => x.key === e.key)!;
            return this.write(() => client.sections.update(org, siteOf(e), ids.sections.get(at(e))!, { title: section.title }));
          }
          case "siteSpace":
            return this.write(() => client.siteSpaces.update(org, siteOf(e), ids.siteSpaces.get(at(e))!, { condition: CHANGED_CONDITION }));
          case "shareLink": {
            const link = site(e).shareLinks!.find((x) => x.key === e.key)!;
            return this.write(() => client.shareLinks.update(org, siteOf(e), ids.shareLinks.get(at(e))!, { name: link.name }));
          }
          case "team": {
            const team = (changed.teams ?? []).find((t) => t.key === e.key)!;
            return this.write(() => client.teams.update(org, ids.teams.get(e.key)!, { title: team.title }));
          }
          case "mcpServer":
            return this.write(() => client.mcpServers.update(org, siteOf(e), ids.servers.get(at(e))!, { condition: CHANGED_CONDITION }));
          case "agent":
            return this.write(() => client.agentSettings.put(org, siteOf(e), agentBody(site(e).agent!)));
          case "agentChannel":
            return this.write(() => client.channels.update(org, siteOf(e), ids.channels.get(at(e))!, { role: "collaborator" }));
          case "contextConnection":
            return this.write(() => client.contextConnections.update(org, siteOf(e), ids.connections.get(at(e))!, { filter: "label:docs" }));
          case "gitSync":
            return this.write(() => client.gitSync.update(ids.gitSyncs.get(e.site!)!, { ...gitSyncSetup(site(e).gitSync!, []), commitMessageTemplate: CHANGED_COMMIT_TEMPLATE }));
          case "agentInstructions":
            return this.write(() => client.styleGuides.setAgentInstructions(org, documentOf(changed.agentInstructions!.markdown)));
          case "openapiSpec": {
            const spec = specsOf(changed).find((x) => x.key === e.key)!;
            return this.write(() => client.openapi.put(org, spec.slug, { source: { text: BENCH_FILES[spec.file]! } }));
          }
        }
      }),
    );
    return this.take();
  }

  /**
   * One GET per single-GET object (sites, teams, created spaces, each override's effective look), one
   * GET of each site's look (shared by its customization and its overrides), one paged list walk per
   * parent for each list-read kind, and one structure read per site with external links (shared by
   * the links and the site's order); one GET of each style guide's space and of the agent
   * instructions; an OpenAPI spec's GET and its raw text's. A site's attached guide is read with the
   * site (its `styleguide`): no call of its own.
   */
  async refresh(stack: StackFile): Promise<BaselineCalls> {
    const { client, org, ids } = this;
    const jobs: Promise<unknown>[] = [];
    for (const g of guidesOf(stack)) jobs.push(ids.guides.get(g.key)!.promise.then((id) => this.read(() => client.spaces.get(id))));
    if (stack.agentInstructions) jobs.push(this.read(() => client.styleGuides.agentInstructions(org)));
    for (const spec of specsOf(stack)) {
      jobs.push(this.read(() => client.openapi.get(org, spec.slug)));
      jobs.push(this.read(() => client.openapi.rawContent(org, spec.slug)));
    }
    for (const t of stack.teams ?? []) jobs.push(this.read(() => client.teams.get(org, ids.teams.get(t.key)!)));
    for (const s of stack.spaces ?? []) if (s.id === undefined) jobs.push(ids.spaces.get(s.key)!.then((id) => this.read(() => client.spaces.get(id))));
    for (const s of stack.sites ?? []) {
      const siteId = ids.sites.get(s.key)!;
      const siteSpaces = sectionsOf(s).flatMap((x) => x.siteSpaces ?? []);
      const overrides = siteSpaces.filter((ss) => ss.customization !== undefined);
      jobs.push(this.read(() => client.sites.get(org, siteId)));
      if (s.customization !== undefined || overrides.length > 0) jobs.push(this.read(() => client.customization.get(org, siteId)));
      for (const ss of overrides) jobs.push(this.read(() => client.customization.getSiteSpace(org, siteId, ids.siteSpaces.get(`${s.key}/${ss.key}`)!)));
      if (sectionsOf(s).length > 0) {
        jobs.push(this.read(() => client.sections.list(org, siteId)));
        jobs.push(this.read(() => client.siteSpaces.list(org, siteId)));
      }
      if ((s.sectionGroups ?? []).length > 0) jobs.push(this.read(() => client.sectionGroups.list(org, siteId)));
      if ((s.sections ?? []).some(isExternalLink)) jobs.push(this.read(() => client.navigation.structure(org, siteId)));
      if ((s.shareLinks ?? []).length > 0) jobs.push(this.read(() => client.shareLinks.list(org, siteId)));
      if ((s.mcpServers ?? []).length > 0) jobs.push(this.read(() => client.mcpServers.list(org, siteId)));
      if ((s.agentChannels ?? []).length > 0) jobs.push(this.read(() => client.channels.list(org, siteId)));
      if ((s.contextConnections ?? []).length > 0) jobs.push(this.read(() => client.contextConnections.list(org, siteId)));
      if (s.agent) jobs.push(this.read(() => client.agentSettings.get(org, siteId)));
      if (s.gitSync) jobs.push(this.read(() => client.gitSync.listForSite(org, siteId)));
    }
    await Promise.all(jobs);
    return this.take();
  }

  /**
   * One call per object, children before parents (no reliance on cascades, as the kinds do not rely
   * on them): overrides cleared, external links, then groups, site spaces, sections, share links; the
   * site's recorded look PUT back, its attached guide detached (one read of the site first: only while
   * it still has that guide); then the site; teams and OpenAPI specs alongside. A space the file
   * created stays (the default deletion policy), and so do the style guides and the agent
   * instructions (content, retained): no call.
   */
  async destroy(stack: StackFile): Promise<BaselineCalls> {
    const { client, org, ids } = this;
    const jobs: Promise<unknown>[] = [];
    for (const spec of specsOf(stack)) jobs.push(this.write(() => client.openapi.delete(org, spec.slug)));
    for (const t of stack.teams ?? []) jobs.push(this.write(() => client.teams.delete(org, ids.teams.get(t.key)!)));
    for (const s of stack.sites ?? []) {
      const siteId = ids.sites.get(s.key)!;
      const at = (key: string) => `${s.key}/${key}`;
      jobs.push(
        (async () => {
          // Links before their groups, groups before their sections (a group names its sections).
          const groupsGone = Promise.all((s.sections ?? []).filter(isExternalLink).map((l) => this.write(() => client.navigation.deleteLink(org, siteId, ids.links.get(at(l.key))!)))).then(() =>
            Promise.all((s.sectionGroups ?? []).map((g) => this.write(() => client.sectionGroups.delete(org, siteId, ids.groups.get(at(g.key))!)))),
          );
          const children: Promise<unknown>[] = [groupsGone];
          for (const section of sectionsOf(s)) {
            children.push(
              (async () => {
                await Promise.all(
                  (section.siteSpaces ?? []).map(async (ss) => {
                    const id = ids.siteSpaces.get(at(ss.key))!;
                    if (ss.customization !== undefined) await this.write(() => client.customization.clearOverrides(org, siteId, id));
                    await this.write(() => client.siteSpaces.delete(org, siteId, id));
                  }),
                );
                await groupsGone;
                await this.write(() => client.sections.delete(org, siteId, ids.sections.get(at(section.key))!));
              })(),
            );
          }
          for (const l of s.shareLinks ?? []) children.push(this.write(() => client.shareLinks.delete(org, siteId, ids.shareLinks.get(at(l.key))!)));
          // The assistant's objects and Git Sync; agent settings are left as they are (no longer managed).
          for (const m of s.mcpServers ?? []) children.push(this.write(() => client.mcpServers.delete(org, siteId, ids.servers.get(at(m.key))!)));
          for (const c of s.agentChannels ?? []) children.push(this.write(() => client.channels.delete(org, siteId, ids.channels.get(at(c.key))!)));
          for (const c of s.contextConnections ?? []) children.push(this.write(() => client.contextConnections.delete(org, siteId, ids.connections.get(at(c.key))!)));
          if (s.gitSync) children.push(this.write(() => client.gitSync.uninstall(ids.gitSyncs.get(s.key)!)));
          const recorded = ids.recorded.get(s.key);
          if (recorded) children.push(this.write(() => client.customization.put(org, siteId, recorded as unknown as SiteCustomizationSettings)));
          const attached = s.styleGuide;
          if (attached !== undefined) {
            children.push(
              (async () => {
                const guideId = isIdRef(attached) ? attached.id : await ids.guides.get(attached)!.promise;
                const live = await this.read(() => client.sites.get(org, siteId));
                if (live.styleguide?.space === guideId) await this.write(() => client.sites.update(org, siteId, { styleguide: null }));
              })(),
            );
          }
          await Promise.all(children);
          await this.write(() => client.sites.delete(org, siteId));
        })(),
      );
    }
    await Promise.all(jobs);
    return this.take();
  }

  /** Releases the client's connections. */
  close(): Promise<void> {
    return this.client.close();
  }
}

/** Secret sources (`{env: NAME}`) resolved from the bench's environment. */
function envValues(sources: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, source] of Object.entries((sources ?? {}) as Record<string, { env: keyof typeof BENCH_ENV }>)) out[name] = BENCH_ENV[source.env];
  return out;
}

/** The whole agent settings a site's `agent` block stands for (the generated block declares every member). */
function agentBody(agent: NonNullable<StackSite["agent"]>): Parameters<ApiClient["agentSettings"]["put"]>[2] {
  const a = agent as unknown as { scans: { topics: "auto" | "never" }; findings: { changeRequests: string }; editing: { customInstructions: string } };
  return { scans: a.scans, findings: a.findings, editing: { customInstructions: instructionsDocument(a.editing.customInstructions) } } as Parameters<ApiClient["agentSettings"]["put"]>[2];
}

/** A GitHub installation's setup PATCH: provider and configuration always (the API requires both), the other members unless `only` narrows them. */
function gitSyncSetup(g: NonNullable<StackSite["gitSync"]>, only?: string[]): Parameters<ApiClient["gitSync"]["update"]>[1] {
  const x = g as unknown as { repository: number; branch: string; projectDirectory?: string; priority: "git" | "gitbook"; commitMessageTemplate?: string };
  const body = { provider: "github" as const, providerConfiguration: { repositoryId: x.repository, branch: x.branch } };
  if (only) return body;
  return { ...body, projectDirectory: x.projectDirectory ?? "", priority: x.priority, previewExternalBranches: false, ...(x.commitMessageTemplate ? { commitMessageTemplate: x.commitMessageTemplate } : {}) };
}

/** A sections site's levels as its structure shows them: each section's site spaces, each navigation level's items (`root`, each group), and each item's pointer type. */
function liveLevels(structure: SiteStructure): { siteSpaces: Map<string, string[]>; navigation: Map<string, string[]>; types: Map<string, StructurePointer["type"]> } {
  const out = { siteSpaces: new Map<string, string[]>(), navigation: new Map<string, string[]>(), types: new Map<string, StructurePointer["type"]>() };
  const walk = (level: string, items: readonly { object: string; id: string; children?: unknown; siteSpaces?: { id: string }[] }[]) => {
    out.navigation.set(level, items.map((i) => i.id));
    for (const item of items) {
      out.types.set(item.id, item.object as StructurePointer["type"]);
      if (item.object === "site-section") out.siteSpaces.set(item.id, (item.siteSpaces ?? []).map((ss) => ss.id));
      if (item.object === "site-section-group") walk(item.id, (item.children ?? []) as typeof items);
    }
  };
  if (structure.type === "sections") walk("root", structure.structure as unknown as Parameters<typeof walk>[1]);
  return out;
}
