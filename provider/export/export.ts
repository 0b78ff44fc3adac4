/**
 * Export: reads an organisation's live objects through the client and builds a stack file that takes
 * every one of them over (`adopt: true`), so `pulumi up` on it creates nothing and duplicates nothing.
 *
 * What cannot be adopted unambiguously (two sites with one title, a share link without a name, …) is
 * left out and reported as a note, never exported in a form that would create a second object.
 * Secrets stay out: share-link URLs carry a token and are never read into the file.
 */
import { exportGitSync } from "../gitSync/export";
import { ApiError, type ApiClient, type Organization, type Site } from "../client";
import { explainRefusedToken, TOKEN_SETTINGS } from "../refusedToken";
import { listedKinds } from "../resources/kinds";
import { markdownOf } from "../resources/markdownDocument";
import { listEntries, type StackFile } from "../file/model";
import { Builder, naturalOrder, type SiteData } from "./builder";

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
  /**
   * The user the API token acts as (user ID or e-mail address), written as the file's `caller:` so the
   * lock-out guard keeps their access. The API does not say whose token it is, so it is given; it must
   * be a member of the organisation.
   */
  caller?: string;
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

export { placeholderPath } from "./builder";
import { readAccess } from "../access/export";
import { readAssistant } from "../assistant/export";

/** Reads the organisation and builds its stack file. API errors propagate as `ApiError`. */
export async function exportOrganization(client: ApiClient, opts: ExportOptions): Promise<ExportResult> {
  const reader = new Reader(client, opts);
  // The organisation first: a wrong token or an unknown organisation fails here, before anything else.
  let organization: Organization;
  try {
    organization = await reader.one(client.orgs.get(opts.organizationId));
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) throw new ExportError(`organization '${opts.organizationId}' not found`);
    throw e;
  }
  const live = await reader.organization();
  if (opts.caller !== undefined) assertMember(opts.caller, live.members, opts.organizationId);
  const notes: string[] = [];
  const emails = new Map<string, string>();
  const placeholders: string[] = [];
  const supply: string[] = [];
  const builder = new Builder(opts.organizationId, notes, emails);
  const stack = buildStack(builder, opts.organizationId, organization, live);
  if (opts.caller !== undefined) stack.caller = opts.caller;
  for (const [i, entries] of (await live.listed).entries()) {
    const kind = live.kinds[i]!;
    const listed = builder.listed(kind, entries, placeholders, supply);
    if (listed.length > 0) (stack as unknown as Record<string, unknown>)[kind.list.property] = listed;
  }
  attachStyleGuides(stack, live.sites.map((d) => d.site), builder.keys.sites);
  const instructions = markdownOf((await reader.one(client.styleGuides.agentInstructions(opts.organizationId))).instructions);
  if (instructions !== "") stack.agentInstructions = { markdown: instructions };
  await exportAccess(client, opts.organizationId, stack, builder.keys, live.sites.map((d) => d.site), reader.tick, supply);
  await exportGitSync(client, opts.organizationId, stack, builder.keys.sites, builder.keys.spaces, reader.tick, notes, supply);
  await exportAssistant(client, opts.organizationId, stack, builder.keys, reader.tick, supply);
  return { stack, organization, notes, progress: reader.done(), emails, placeholders, supply };
}

/** Each exported site's attached style guide: the key of the exported guide with that space, else `{id}`. */
function attachStyleGuides(stack: StackFile, sites: Site[], siteKeys: Map<string, string>): void {
  const guideKeys = new Map(listEntries(stack, "styleGuides").map((e) => [String(e.id), e.key]));
  for (const site of sites) {
    const space = site.styleguide?.space;
    const entry = stack.sites?.find((e) => e.key === siteKeys.get(site.id));
    if (space === undefined || entry === undefined) continue;
    entry.styleGuide = guideKeys.get(space) ?? { id: space };
  }
}

/** The caller named for the file is a member of the organisation (by user ID, or case-insensitively by e-mail address). */
function assertMember(caller: string, members: LiveOrganization["members"], org: string): void {
  const c = caller.toLowerCase();
  if (members.some((m) => m.user.id === caller || (m.user.email ?? "").toLowerCase() === c)) return;
  throw new ExportError(`--caller ${caller}: no member of organization ${org} has this ${caller.includes("@") ? "e-mail address" : "user ID"}; give the user the API token acts as`);
}

/** Adds every grant, each visitor-auth site's settings and the installations to the exported file (see access.ts). */
async function exportAccess(client: ApiClient, org: string, stack: StackFile, keys: Builder["keys"], sites: { id: string; visibility?: string }[], count: (n: number) => void, supply: string[]): Promise<void> {
  const exported = (ids: Map<string, string>) => [...ids.keys()];
  const access = await readAccess(
    client,
    org,
    { sites: sites.filter((s) => keys.sites.has(s.id)), spaces: exported(keys.spaces), collections: exported(keys.collections) },
    { team: (id) => keys.teams.get(id), site: (id) => keys.sites.get(id), space: (id) => keys.spaces.get(id) },
    count,
  );
  const attach = (list: { key: string; permissions?: unknown }[] | undefined, on: string, ids: Map<string, string>) => {
    for (const [id, key] of ids) {
      const grants = access.permissions.get(`${on}:${id}`);
      const entry = list?.find((e) => e.key === key);
      if (grants !== undefined && entry !== undefined) entry.permissions = grants;
    }
  };
  attach(stack.sites, "site", keys.sites);
  attach(stack.spaces, "space", keys.spaces);
  attach(stack.collections, "collection", keys.collections);
  for (const [id, auth] of access.visitorAuth) {
    const entry = stack.sites?.find((e) => e.key === keys.sites.get(id));
    if (entry !== undefined) entry.visitorAuth = auth;
  }
  if (access.installations.length > 0) stack.installations = access.installations;
  supply.push(...access.supply.map((v) => `set ${v}: the installation's configuration values are written as sources, never as values`));
}

/** Adds each exported site's assistant (servers, agent settings, channels, connections), secrets as sources to fill in. */
async function exportAssistant(client: ApiClient, org: string, stack: StackFile, keys: Builder["keys"], count: (n: number) => void, supply: string[]): Promise<void> {
  const read = await Promise.all([...keys.sites].map(([id, key]) => readAssistant(client, org, { id, key }, count)));
  read.forEach(({ assistant, supply: variables }, i) => {
    const entry = stack.sites?.find((e) => e.key === [...keys.sites.values()][i]);
    if (entry !== undefined) Object.assign(entry, assistant);
    supply.push(...variables.map((v) => `set ${v}: the site assistant's secrets are written as sources, never as values`));
  });
}

/** Everything an export reads after the organisation itself. */
interface LiveOrganization {
  members: Awaited<ReturnType<ApiClient["members"]["list"]>>;
  teams: Awaited<ReturnType<ApiClient["teams"]["list"]>>;
  teamMembers: Awaited<ReturnType<ApiClient["teams"]["listMembers"]>>[];
  collections: Awaited<ReturnType<ApiClient["collections"]["list"]>>;
  collectionSpaces: Awaited<ReturnType<ApiClient["collections"]["listSpaces"]>>[];
  sites: SiteData[];
  /** The kinds without structure of their own, and their live objects (awaited last). */
  kinds: ReturnType<typeof listedKinds>;
  listed: Promise<object[][]>;
}

/** Reads through the client, counting objects and requests for the progress report. */
class Reader {
  private readonly startRequests: number;
  private readonly progress: ExportProgress = { objects: 0, requests: 0 };

  constructor(
    private readonly client: ApiClient,
    private readonly opts: ExportOptions,
  ) {
    this.startRequests = client.stats.requests;
  }

  readonly tick = (n: number): void => {
    this.progress.objects += n;
    this.progress.requests = this.client.stats.requests - this.startRequests;
    this.opts.onProgress?.({ ...this.progress });
  };

  async many<T>(p: Promise<T[]>): Promise<T[]> {
    const items = await p;
    this.tick(items.length);
    return items;
  }

  async one<T>(p: Promise<T>): Promise<T> {
    const item = await p;
    this.tick(1);
    return item;
  }

  /** Final counts. */
  done(): ExportProgress {
    this.progress.requests = this.client.stats.requests - this.startRequests;
    return { ...this.progress };
  }

  /** The organisation's objects, the lists of each parent read in parallel. */
  async organization(): Promise<LiveOrganization> {
    const { client } = this;
    const org = this.opts.organizationId;
    // The kinds without structure of their own, each read as its declaration says, alongside the rest.
    const kinds = listedKinds();
    const listed = Promise.all(kinds.map((k) => this.many(k.list.readAll(client, org, this.tick))));
    // Awaited by the caller; when another read fails first, its own failure must not go unhandled.
    listed.catch(() => undefined);
    const [members, teams, collections, sites] = await Promise.all([
      this.many(client.members.list(org)),
      this.many(client.teams.list(org)),
      this.many(client.collections.list(org, { nested: true })),
      this.many(client.sites.list(org)),
    ]);
    const [teamMembers, collectionSpaces, siteData] = await Promise.all([
      Promise.all(teams.map((t) => this.many(client.teams.listMembers(org, t.id)))),
      Promise.all(collections.map((c) => this.many(client.collections.listSpaces(c.id)))),
      Promise.all(sites.map((site) => this.site(site))),
    ]);
    return { members, teams, teamMembers, collections, collectionSpaces, sites: siteData, kinds, listed };
  }

  private async site(site: SiteData["site"]): Promise<SiteData> {
    const { client } = this;
    const org = this.opts.organizationId;
    const [sections, groups, siteSpaces, shareLinks, schema, redirects, draftRedirects, structure, customization] = await Promise.all([
      this.many(client.sections.list(org, site.id)),
      this.many(client.sectionGroups.list(org, site.id)),
      this.many(client.siteSpaces.list(org, site.id)),
      this.many(client.shareLinks.list(org, site.id)),
      this.one(client.sites.getAdaptiveSchema(org, site.id)),
      this.many(client.redirects.list(org, site.id)),
      this.many(client.redirects.list(org, site.id, { draft: true })),
      this.one(client.navigation.structure(org, site.id)),
      this.one(client.customization.get(org, site.id)),
    ]);
    // Each site space's effective look: its overrides are where it differs from the site's.
    const looks = await Promise.all(siteSpaces.map((ss) => this.one(client.customization.getSiteSpace(org, site.id, ss.id))));
    const overrides = new Map(siteSpaces.flatMap((ss, i) => (looks[i]?.hasOverrides ? [[ss.id, looks[i]!] as const] : [])));
    // Only the names and states of share links are kept: their URLs carry a secret token.
    const links = shareLinks.map((l) => ({ id: l.id, name: l.name, active: l.active }));
    return { site, sections, groups, siteSpaces, shareLinks: links, adaptiveSchema: schema.jsonSchema, redirects: [...redirects, ...draftRedirects], structure, customization, overrides };
  }
}

/** The stack file of the organisation's objects (the listed kinds aside). Keys of top-level objects are assigned in a stable order: sorted by natural key, then creation, then ID. */
function buildStack(builder: Builder, org: string, organization: Organization, live: LiveOrganization): StackFile {
  const stack: StackFile = { organization: org };
  const siteKeys = builder.siteKeys(live.sites.map((d) => d.site));
  const teamKeys = builder.teamKeys(live.teams);
  const collectionKeys = builder.collectionKeys(live.collections);
  const spaces = builder.spaces(live.sites, live.collectionSpaces.flat());
  builder.keys = { teams: teamKeys, collections: collectionKeys, spaces: spaces.keys, sites: siteKeys };

  const settings = builder.settings(organization);
  if (Object.keys(settings).length > 0) stack.settings = settings;
  const memberList = builder.members(live.members);
  if (memberList.length > 0) stack.members = memberList;
  const teamList = live.teams
    .map((t, i) => ({ t, members: live.teamMembers[i] ?? [] }))
    .filter(({ t }) => teamKeys.has(t.id))
    .sort((a, b) => naturalOrder(a.t.title ?? "", a.t, b.t.title ?? "", b.t))
    .map(({ t, members: m }) => builder.team(t, teamKeys, m));
  if (teamList.length > 0) stack.teams = teamList;
  const collectionList = builder.collections(live.collections, collectionKeys);
  if (collectionList.length > 0) stack.collections = collectionList;
  const spaceList = spaces.list();
  if (spaceList.length > 0) stack.spaces = spaceList;
  const siteList = live.sites
    .filter((d) => siteKeys.has(d.site.id))
    .sort((a, b) => naturalOrder(a.site.title, a.site, b.site.title, b.site))
    .map((d, i) => builder.site(d, siteKeys.get(d.site.id) as string, `/sites/${i}`, spaces.keys));
  if (siteList.length > 0) stack.sites = siteList;
  return stack;
}
