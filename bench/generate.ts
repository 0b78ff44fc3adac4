/**
 * Deterministic stack files for the benchmark: N objects across a few sites — mostly sections and site
 * spaces, plus every other kind a site's structure and look has (each site customized, a section group
 * or two per site, external links at the root and inside a group, overrides of some site spaces, a few
 * drafts), share links, teams, spaces the file creates for some site spaces to publish, and each site's
 * assistant (MCP servers, agent settings on some sites, channels, context connections; their secrets
 * from the environment, {@link BENCH_ENV}) and Git Sync on one site; the organisation's style guide
 * (made for the first site, attached by every site), its agent instructions and an OpenAPI spec sent
 * from a file beside the stack file ({@link BENCH_FILES}); some site spaces hidden. The same N
 * always gives the same file, byte for byte, so runs compare. Existing spaces are referred to by
 * platform ID (`{id}`) and seeded into the emulator beside the default fixture: a space appears at most
 * once per site, so a site with 180 site spaces needs 180.
 */
import { stringify as toYaml } from "yaml";
import type { SeedSpace } from "../emulator";
import {
  type StackExternalLink,
  type StackFile,
  type StackSection,
  type StackSectionGroup,
  type StackShareLink,
  type StackSite,
  type StackSiteSpace,
  type StackSpace,
  type StackTeam,
  isExternalLink,
  sectionsOf,
} from "../provider/file/model";
import { resolveStack } from "../provider/stack/resolve";
import { countObjects } from "../provider/stack/summary";

/** Organisation of the default emulator fixture. */
export const BENCH_ORG = "demo-org";

/** The condition the change phase puts on site spaces. */
export const CHANGED_CONDITION = "visitor.claims.beta == true";

/** The commit message template the change phase gives a Git Sync installation. */
export const CHANGED_COMMIT_TEMPLATE = "docs(bench): {{message}}";

/** The primary colour the change phase gives site customizations and site-space overrides. */
export const CHANGED_COLOR = { light: "#B42318", dark: "#F97066" } as const;

/**
 * The smallest N: one object of every kind (the assistant's two context connections, one without
 * secrets and one with a secret), and one section with its site space (hidden, overriding the site's
 * look, publishing the space the file creates).
 */
export const MIN_N = 20;

/**
 * The environment the bench's program runs with: the secret sources its MCP servers' headers and its
 * context connections' secret members name (`{env: ...}`); the values are placeholders.
 */
export const BENCH_ENV = { BENCH_MCP_TOKEN: "Bearer bench-mcp-token-0001", BENCH_GITHUB_TOKEN: "ghp_benchgithubtoken0001" } as const;

/** The OpenAPI spec files every generated stack's folder holds (path beside the stack file → text): the spec, and the edited copy the change phase points it at. */
export const BENCH_FILES: Readonly<Record<string, string>> = {
  "openapi/bench-api.yaml": openApiText("1.0"),
  "openapi/bench-api-v2.yaml": openApiText("2.0"),
};

/** The spec file the change phase points the OpenAPI spec at. */
export const CHANGED_OPENAPI_FILE = "openapi/bench-api-v2.yaml";

/** The agent instructions the change phase declares. */
export const CHANGED_INSTRUCTIONS = "# Tone\n\nWrite for the reader in plain English.\n\nLink to the page that answers a question.";

/** A small OpenAPI document of this version. */
function openApiText(version: string): string {
  return ["openapi: 3.1.0", "info:", "  title: Bench API", `  version: "${version}"`, "paths:", "  /items:", "    get:", "      summary: List items", "      responses:", '        "200":', "          description: The items", ""].join("\n");
}

/** The channel types a generated site uses, in order, with the one setup member each takes. */
const CHANNEL_TYPES: readonly { type: string; setupSettings: Record<string, string[]> }[] = [
  { type: "builtin:slack", setupSettings: { allowedChannels: ["docs-*", "support"] } },
  { type: "builtin:github", setupSettings: { allowedRepositories: ["demo-org/*"] } },
];

/** What one generated stack declares, by kind (each counts toward N). */
export interface Composition {
  sites: number;
  /** Sites' customizations (every site has one). */
  customizations: number;
  teams: number;
  shareLinks: number;
  sections: number;
  /** Every site space, including the first of each section (created with the section). */
  siteSpaces: number;
  /** Site spaces' overrides of their site's customization. */
  overrides: number;
  sectionGroups: number;
  externalLinks: number;
  /** Spaces the file creates (`spaces:` entries without `id`), each published by one site space. */
  spaces: number;
  /** The sites' MCP servers (each with a header from the environment). */
  mcpServers: number;
  /** Sites' `agent` blocks (agent settings). */
  agentSettings: number;
  agentChannels: number;
  contextConnections: number;
  /** Sites' Git Sync installations. */
  gitSyncs: number;
  /** The organisation's style guides (`styleGuides`), each made for a site. */
  styleGuides: number;
  /** Sites' `styleGuide` (the guide attached to the site). */
  siteStyleGuides: number;
  /** The organisation's `agentInstructions` (0 or 1). */
  agentInstructions: number;
  /** OpenAPI specs (`openapi`), each sent from a file. */
  openapiSpecs: number;
}

/** A generated stack file and what the emulator needs to accept it. */
export interface GeneratedStack {
  n: number;
  stack: StackFile;
  composition: Composition;
  /** Objects declared `draft: true` (sections, site spaces, external links; counted in their kinds). */
  drafts: number;
  /** Site spaces declared `hidden: true` (counted in site spaces). */
  hidden: number;
  /** Spaces to seed into the emulator's organisation (IDs the stack refers to). */
  spaces: SeedSpace[];
  /** Redirects declared over all sites (members of one redirect set per site; not objects of N). */
  redirects: number;
}

/** How a generated stack departs from the default shape. */
export interface StackShape {
  /** Number of sites (default: one per ~200 objects). */
  sites?: number;
  /** Each site's redirect set, this many redirects (default: none, no set). */
  redirectsPerSite?: number;
}

/**
 * The shape of issue #37's slow no-op: 20 sites with ~110 redirects each (2,200 redirects), ~780
 * resources with the 20 redirect sets.
 */
export const SCALE_CASE = { n: 760, shape: { sites: 20, redirectsPerSite: 110 } } as const satisfies { n: number; shape: StackShape };

/** One object the change phase edits in place, and the field it edits. */
export interface Edit {
  kind: "customization" | "mcpServer" | "externalLink" | "agent" | "override" | "agentChannel" | "sectionGroup" | "contextConnection" | "section" | "gitSync" | "siteSpace" | "shareLink" | "team" | "agentInstructions" | "openapiSpec";
  /** Site key (absent for the organisation's objects: teams, agent instructions, OpenAPI specs). */
  site?: string;
  /** The object's key (a customization: its site's key; an override: its site space's key; agent instructions: the organisation's). */
  key: string;
  field: "title" | "condition" | "name" | "primaryColor" | "topics" | "role" | "filter" | "commitMessageTemplate" | "markdown" | "file";
}

/** Number of sites of an N-object stack: one for small stacks, about one per 200 objects beyond. */
function siteCount(n: number): number {
  if (n < 50) return 1;
  return Math.max(2, Math.ceil(n / 200));
}

function pad(i: number, width = 4): string {
  return String(i).padStart(width, "0");
}

/** ID of the i-th benchmark space (1-based). */
export function benchSpaceId(i: number): string {
  return `bench-space-${pad(i)}`;
}

/** Key of the i-th space the file creates (1-based). */
export function createdSpaceKey(i: number): string {
  return `new-space-${pad(i)}`;
}

/** A colour of the generated looks: `#` and six hex digits from `i`. */
function color(i: number, salt: number): string {
  return `#${(((i + 1) * 2654435761 + salt * 40503) >>> 0).toString(16).padStart(8, "0").slice(0, 6).toUpperCase()}`;
}

/** The look of site `s` (1-based): a primary colour of its own (never the platform's default). */
function siteLook(s: number): NonNullable<StackSite["customization"]> {
  return { styling: { primaryColor: { light: color(s, 1), dark: color(s, 2) } } } as NonNullable<StackSite["customization"]>;
}

/** `count` indexes spread evenly over `0 … length − 1` (the same ones for the same arguments). */
function spread(length: number, count: number): number[] {
  if (length === 0 || count === 0) return [];
  const stride = length / Math.min(count, length);
  return Array.from({ length: Math.min(count, length) }, (_, i) => Math.floor(i * stride + stride / 2));
}

/** How many of each kind an N-object stack declares besides its sections and site spaces. */
function plan(n: number, shape: StackShape) {
  const sites = shape.sites ?? siteCount(n);
  return {
    sites,
    customizations: sites,
    teams: Math.max(1, Math.round(n * 0.03)),
    shareLinks: Math.max(1, Math.round(n * 0.07)),
    /** Per site: one group per ~100 objects of the site. */
    groupsPerSite: Math.max(1, Math.round(n / sites / 100)),
    /** Per site: one inside its first group; from N = 50 also one at the root. */
    linksPerSite: n < 50 ? 1 : 2,
    spaces: Math.max(1, Math.round(n * 0.02)),
    overrides: Math.max(1, Math.round(n * 0.02)),
    drafts: Math.max(1, Math.round(n * 0.02)),
    /** Site spaces left out of the navigation (a flag, not an object: each costs its PATCH after creation). */
    hidden: Math.max(1, Math.round(n * 0.01)),
    /**
     * Dealt round-robin over the sites; from N = 50 at least two per site, so each list's one shared walk
     * per site is measured against a list of several.
     */
    mcpServers: Math.max(n < 50 ? sites : 2 * sites, Math.round(n * 0.02)),
    /** On every other site, from the first. */
    agentSettings: Math.ceil(sites / 2),
    /** Dealt round-robin over the sites, one per type (at most {@link CHANNEL_TYPES} per site); from N = 50 two per site. */
    agentChannels: n < 50 ? sites : sites * CHANNEL_TYPES.length,
    /** Dealt round-robin over the sites, each site's in turn a website (no secrets) and GitHub issues (a token from the environment); from N = 50 at least two per site. */
    contextConnections: Math.max(n < 50 ? 2 : 2 * sites, Math.round(n * 0.02)),
    /** On the first site. */
    gitSyncs: 1,
    /** One, made for the first site. */
    styleGuides: 1,
    /** Every site attaches the organisation's guide. */
    siteStyleGuides: sites,
    agentInstructions: 1,
    /** One, sent from a file. */
    openapiSpecs: 1,
  };
}

/** Sizes (site spaces per section, pattern 2, 1, 3, …) filling `rest` objects, a section counting 1 plus its site spaces. */
function sectionSizes(rest: number): number[] {
  const pattern = [2, 1, 3];
  const sizes: number[] = [];
  for (let i = 0; rest > 0; i++) {
    let size = pattern[i % pattern.length]!;
    if (rest - (size + 1) === 1) size += 1; // never leave one object over: a section needs two
    size = Math.min(size, rest - 1);
    sizes.push(size);
    rest -= size + 1;
  }
  return sizes;
}

/**
 * A stack of exactly `n` objects (N ≥ {@link MIN_N}; the kinds of {@link Composition}): `siteCount(n)`
 * sites with `visibility: share-link`, each customized (a primary colour of its own) with one section
 * group per ~100 of its objects holding three sections and an external link, and from N = 50 a second
 * link at the root; ~3% teams, ~7% share links, ~2% spaces created by the file (each published by one
 * site space in place of a seeded space), ~2% site spaces with an override (a primary colour), ~2% drafts
 * (external links, later site spaces of a section, sections; flags, not objects), ~1% site spaces hidden
 * (a flag); the organisation's style guide (made for the first site, attached by every site), agent
 * instructions and one OpenAPI spec from a file; the rest sections holding 1 to 3 site spaces (pattern
 * 2, 1, 3, 2, …). Nothing else is declared that the API only takes in a follow-up PATCH (a draft goes
 * with its POST; a group's sections with the group's): creating each object costs one write, a hidden
 * site space's PATCH and the reads bench/statistics.ts `minimumCalls` names aside.
 */
export function generateStack(n: number, shape: StackShape = {}): GeneratedStack {
  if (!Number.isInteger(n) || n < MIN_N) throw new Error(`N must be an integer of at least ${MIN_N} (one object of every kind, and a section with its site space), got ${n}`);
  const p = plan(n, shape);
  const groups = p.sites * p.groupsPerSite;
  const links = p.sites * p.linksPerSite;
  const assistant = p.mcpServers + p.agentSettings + p.agentChannels + p.contextConnections + p.gitSyncs;
  const organisation = p.styleGuides + p.siteStyleGuides + p.agentInstructions + p.openapiSpecs;
  const rest = n - p.sites - p.customizations - p.teams - p.shareLinks - groups - links - p.spaces - p.overrides - assistant - organisation;

  const siteList: StackSite[] = [];
  for (let s = 0; s < p.sites; s++) {
    siteList.push({ key: `site-${s + 1}`, title: `Bench site ${s + 1}`, visibility: "share-link", customization: siteLook(s + 1), sections: [], shareLinks: [] });
  }
  // Sections and their site spaces, dealt round-robin over the sites.
  const spaceUse = new Array<number>(p.sites).fill(0);
  sectionSizes(rest).forEach((size, i) => {
    const s = i % p.sites;
    const site = siteList[s]!;
    const number = site.sections!.length + 1;
    const siteSpaces: StackSiteSpace[] = [];
    for (let k = 0; k < size; k++) {
      spaceUse[s]! += 1;
      siteSpaces.push({ key: `ss-${pad(number)}-${k + 1}`, space: { id: benchSpaceId(spaceUse[s]!) } });
    }
    const section: StackSection = { key: `sec-${pad(number)}`, title: `Section ${pad(number)}`, siteSpaces };
    site.sections!.push(section);
  });
  for (const [s, site] of siteList.entries()) addNavigation(site, s, p.groupsPerSite, p.linksPerSite);
  for (let i = 0; i < p.shareLinks; i++) {
    const site = siteList[i % p.sites]!;
    const link: StackShareLink = { key: `link-${pad(site.shareLinks!.length + 1)}`, name: `Partner ${pad(i + 1)}` };
    site.shareLinks!.push(link);
  }
  const teamList: StackTeam[] = [];
  for (let i = 0; i < p.teams; i++) teamList.push({ key: `team-${pad(i + 1)}`, title: `Bench team ${pad(i + 1)}` });

  const allSiteSpaces = siteList.flatMap((site) => sectionsOf(site).flatMap((section) => section.siteSpaces ?? []));
  // Spaces the file creates, each published by one site space (spread over the sites) instead of a seeded one.
  const spaceList: StackSpace[] = [];
  spread(allSiteSpaces.length, p.spaces).forEach((at, i) => {
    spaceList.push({ key: createdSpaceKey(i + 1), title: `Bench new space ${pad(i + 1)}` });
    allSiteSpaces[at]!.space = createdSpaceKey(i + 1);
  });
  // Some site spaces override their site's look: a primary colour of their own.
  spread(allSiteSpaces.length, p.overrides).forEach((at, i) => {
    allSiteSpaces[at]!.customization = { styling: { primaryColor: { light: color(i + 1, 3), dark: color(i + 1, 4) } } } as StackSiteSpace["customization"];
  });
  // Some site spaces are left out of the navigation.
  const hiddenAt = spread(allSiteSpaces.length, p.hidden);
  for (const at of hiddenAt) allSiteSpaces[at]!.hidden = true;
  const drafts = markDrafts(siteList, p.drafts);
  addAssistant(siteList, p);
  const redirects = shape.redirectsPerSite === undefined ? 0 : siteList.reduce((k, site) => k + addRedirects(site, shape.redirectsPerSite!), 0);

  const stack: StackFile = { organization: BENCH_ORG, teams: teamList, spaces: spaceList, sites: siteList, ...organisationObjects(siteList) };
  const composition = compositionOf(stack);
  const total = Object.values(composition).reduce((a, b) => a + b, 0);
  if (total !== n) throw new Error(`generated ${total} objects for N = ${n}`);
  const spaces: SeedSpace[] = [];
  for (let i = 1; i <= Math.max(...spaceUse); i++) spaces.push({ id: benchSpaceId(i), title: `Bench space ${pad(i)}` });
  return { n, stack, composition, drafts, hidden: hiddenAt.length, spaces, redirects };
}

/**
 * The organisation's objects: its agent instructions, an OpenAPI spec sent from a file of the project
 * ({@link BENCH_FILES}), and a style guide made for the first site from a built-in template, which every
 * site attaches (its `styleGuide`).
 */
function organisationObjects(sites: StackSite[]): Pick<StackFile, "agentInstructions" | "openapi" | "styleGuides"> {
  for (const site of sites) site.styleGuide = "house-style";
  return {
    agentInstructions: { markdown: "# Tone\n\nAnswer in plain English, in the second person." } as StackFile["agentInstructions"],
    openapi: [{ key: "bench-api", slug: "bench-api", file: "openapi/bench-api.yaml" }] as unknown as StackFile["openapi"],
    styleGuides: [{ key: "house-style", site: sites[0]!.key, template: "technical-writing" }] as unknown as StackFile["styleGuides"],
  };
}

/**
 * The sites' assistants and Git Sync: MCP servers (a header from the environment, every other one a
 * condition), agent settings on every other site (unlike the platform's defaults, so the create writes
 * them), channels (one per type in a site), context connections (a website, then GitHub issues with its
 * token from the environment; no `label`, which the API takes only in a follow-up PATCH), and Git Sync
 * on the first site with `priority: gitbook` (the platform keeps the structure: no site file needed).
 */
function addAssistant(sites: StackSite[], p: ReturnType<typeof plan>): void {
  for (let i = 0; i < p.mcpServers; i++) {
    const site = sites[i % sites.length]!;
    const servers = (site.mcpServers ??= []);
    const number = servers.length + 1;
    servers.push({
      key: `mcp-${pad(number)}`,
      name: `Tools ${pad(number)}`,
      url: `https://mcp.bench.test/${site.key}/${pad(number)}`,
      headers: { Authorization: { env: "BENCH_MCP_TOKEN" } },
      ...(i % 2 === 1 ? { condition: "visitor.claims.staff == true" } : {}),
    } as NonNullable<StackSite["mcpServers"]>[number]);
  }
  for (let s = 0; s < p.agentSettings; s++) {
    sites[s * 2]!.agent = { scans: { topics: "auto" }, findings: { changeRequests: "auto-fixable" }, editing: { customInstructions: `Write for ${sites[s * 2]!.title} in plain English.` } } as StackSite["agent"];
  }
  for (let i = 0; i < p.agentChannels; i++) {
    const site = sites[i % sites.length]!;
    const channels = (site.agentChannels ??= []);
    const type = CHANNEL_TYPES[channels.length]!;
    channels.push({ key: `channel-${pad(channels.length + 1)}`, type: type.type, setupSettings: structuredClone(type.setupSettings) } as unknown as NonNullable<StackSite["agentChannels"]>[number]);
  }
  for (let i = 0; i < p.contextConnections; i++) {
    const site = sites[i % sites.length]!;
    const connections = (site.contextConnections ??= []);
    const number = connections.length + 1;
    connections.push(
      (number % 2 === 1
        ? { key: `context-${pad(number)}`, connector: "builtin:website", setupSettings: { url: `https://www.bench.test/${site.key}/${pad(number)}` } }
        : { key: `context-${pad(number)}`, connector: "builtin:github-issues", setupSettings: { repository: `demo-org/product-${pad(number)}` }, secretSettings: { token: { env: "BENCH_GITHUB_TOKEN" } } }) as NonNullable<StackSite["contextConnections"]>[number],
    );
  }
  sites[0]!.gitSync = { provider: "github", repository: 4242, branch: "refs/heads/main", projectDirectory: "docs", priority: "gitbook", commitMessageTemplate: "docs: {{message}}" } as StackSite["gitSync"];
}

/**
 * A site's redirect set of `count` redirects, as a site that moved its pages keeps them: old paths sent
 * in turn to a section, a site space, a path of the site and an external URL, every tenth source a
 * wildcard (`/archive/…/*`) and every fourth permanent. No source is a live URL of the site and no path
 * destination is itself redirected, so the set passes the offline checks. Returns how many it declared.
 */
function addRedirects(site: StackSite, count: number): number {
  const sections = sectionsOf(site);
  const siteSpaces = sections.flatMap((section) => section.siteSpaces ?? []);
  const redirects: NonNullable<StackSite["redirects"]> = [];
  for (let i = 0; i < count; i++) {
    const source = i % 10 === 9 ? `/archive/${pad(i)}/*` : `/moved/${pad(i)}`;
    const destination =
      i % 4 === 0
        ? { section: sections[i % sections.length]!.key }
        : i % 4 === 1
          ? { siteSpace: siteSpaces[i % siteSpaces.length]!.key }
          : i % 4 === 2
            ? { path: `/current/${pad(i)}` }
            : { url: `https://docs.bench.test/${site.key}/${pad(i)}` };
    redirects.push({ source, destination, ...(i % 4 === 3 ? { permanent: true } : {}) });
  }
  site.redirects = redirects;
  return count;
}

/**
 * A site's section groups and external links: group g holds three sections (from the second on, so
 * the default stays at the root; the one section of a one-section site otherwise), the first group
 * also an external link after them; with two links per site, the second sits at the root, last.
 */
function addNavigation(site: StackSite, s: number, groupsPerSite: number, linksPerSite: number): void {
  const sections = sectionsOf(site);
  const groupable = sections.length > 1 ? sections.slice(1) : sections;
  const per = Math.max(1, Math.min(3, Math.floor(groupable.length / groupsPerSite)));
  const groups: StackSectionGroup[] = [];
  const entries: (StackSection | StackExternalLink)[] = [...sections];
  for (let g = 0; g < groupsPerSite; g++) {
    const first = Math.floor((g * groupable.length) / groupsPerSite);
    const members = groupable.slice(first, first + per);
    const group: StackSectionGroup = { key: `group-${pad(g + 1)}`, title: `Group ${s + 1}.${g + 1}`, sections: members.map((x) => x.key) };
    if (g === 0) {
      const link: StackExternalLink = { key: "ext-0001", title: `Reference ${s + 1}`, url: `https://reference.bench.test/site-${s + 1}` };
      group.sections.push(link.key);
      entries.splice(entries.indexOf(members[members.length - 1]!) + 1, 0, link);
    }
    groups.push(group);
  }
  if (linksPerSite > 1) entries.push({ key: "ext-0002", title: `Status ${s + 1}`, url: `https://status.bench.test/site-${s + 1}` });
  site.sections = entries;
  site.sectionGroups = groups;
}

/** Marks `count` objects `draft: true`, in turn an external link, a later site space of a section, a section not in a group; returns how many. */
function markDrafts(sites: StackSite[], count: number): number {
  const links = sites.flatMap((site) => (site.sections ?? []).filter(isExternalLink));
  const siteSpaces = sites.flatMap((site) => sectionsOf(site).flatMap((section) => (section.siteSpaces ?? []).slice(1)));
  const sections = sites.flatMap((site) => {
    const grouped = new Set((site.sectionGroups ?? []).flatMap((g) => g.sections));
    return sectionsOf(site).slice(1).filter((section) => !grouped.has(section.key));
  });
  const pools: { draft?: boolean }[][] = [links, siteSpaces, sections];
  const wanted = pools.map(() => 0);
  let left = Math.min(count, pools.reduce((k, pool) => k + pool.length, 0));
  for (let i = 0; left > 0; i = (i + 1) % pools.length) {
    if (wanted[i]! < pools[i]!.length) {
      wanted[i]! += 1;
      left -= 1;
    }
  }
  let marked = 0;
  pools.forEach((pool, i) => {
    for (const at of spread(pool.length, wanted[i]!)) {
      pool[at]!.draft = true;
      marked += 1;
    }
  });
  return marked;
}

/** The objects a stack declares, by the kinds of {@link Composition}. */
export function compositionOf(stack: StackFile): Composition {
  const counted = countObjects(resolveStack(stack));
  const sites = stack.sites ?? [];
  const siteSpaces = sites.flatMap((site) => sectionsOf(site).flatMap((section) => section.siteSpaces ?? []));
  return {
    sites: counted.Site,
    customizations: sites.filter((site) => site.customization !== undefined).length,
    teams: counted.Team,
    shareLinks: counted.ShareLink,
    sections: counted.SiteSection,
    siteSpaces: counted.SiteSpace,
    overrides: siteSpaces.filter((ss) => ss.customization !== undefined).length,
    sectionGroups: counted.SiteSectionGroup,
    externalLinks: sites.reduce((k, site) => k + (site.sections ?? []).filter(isExternalLink).length, 0),
    spaces: (stack.spaces ?? []).filter((space) => space.id === undefined).length,
    mcpServers: counted.SiteMcpServer,
    agentSettings: counted.SiteAgentSettings,
    agentChannels: counted.SiteAgentChannel,
    contextConnections: counted.SiteContextConnection,
    gitSyncs: counted.SiteGitSync,
    styleGuides: counted.StyleGuide,
    siteStyleGuides: counted.SiteStyleGuide,
    agentInstructions: counted.AgentInstructions,
    openapiSpecs: counted.OpenAPISpec,
  };
}

/**
 * The change phase: a copy of the stack with ~10% of its objects edited in place (rounded, at least
 * one), cycling through site customizations' primary colour, MCP servers' conditions, external links'
 * titles, agent settings' topic scans, overrides' primary colour, channels' roles, section groups'
 * titles, context connections' filters, section titles, Git Sync's commit message template, site-space
 * conditions, share-link names, team titles, the agent instructions and the OpenAPI spec's file (the
 * first kinds first, so the smallest stacks edit a
 * look). Only site spaces other than a
 * section's first get a condition: the first is created with its section.
 */
export function changeStack(stack: StackFile, fraction = 0.1): { stack: StackFile; edits: Edit[] } {
  const next = structuredClone(stack);
  const candidates = editCandidates(next);
  const total = Object.values(compositionOf(stack)).reduce((a, b) => a + b, 0);
  const wanted = Math.max(1, Math.round(total * fraction));
  // Spread the edits: every k-th candidate of each kind in turn.
  const cursors = candidates.map(() => 0);
  const edits: Edit[] = [];
  for (let round = 0; edits.length < wanted; round++) {
    const kind = round % candidates.length;
    const list = candidates[kind]!;
    if (cursors.every((c, i) => c >= candidates[i]!.length)) break;
    const stride = Math.max(1, Math.floor(list.length / Math.ceil(wanted / candidates.length)));
    const i = cursors[kind]!;
    if (i >= list.length) continue;
    list[i]!.apply();
    edits.push(list[i]!.edit);
    cursors[kind] = i + stride;
  }
  return { stack: next, edits };
}

type Candidate = { edit: Edit; apply: () => void };

/** Every in-place edit of `stack` the change phase may make, one list per kind, in the order the phase takes kinds. */
function editCandidates(stack: StackFile): Candidate[][] {
  const [looks, servers, links, agents, overrides, channels, groups, connections, sections, gitSyncs, siteSpaces, shareLinks, teams, instructions, specs]: Candidate[][] = [[], [], [], [], [], [], [], [], [], [], [], [], [], [], []];
  const recolor = (look: { styling?: unknown }) => () => {
    look.styling = { ...(look.styling as object), primaryColor: { ...CHANGED_COLOR } };
  };
  for (const site of stack.sites ?? []) {
    if (site.customization) looks!.push({ edit: { kind: "customization", site: site.key, key: site.key, field: "primaryColor" }, apply: recolor(site.customization) });
    for (const server of site.mcpServers ?? []) {
      servers!.push({ edit: { kind: "mcpServer", site: site.key, key: server.key, field: "condition" }, apply: () => void (server.condition = CHANGED_CONDITION) });
    }
    for (const link of (site.sections ?? []).filter(isExternalLink)) {
      links!.push({ edit: { kind: "externalLink", site: site.key, key: link.key, field: "title" }, apply: () => void (link.title = `${link.title} (moved)`) });
    }
    const agent = site.agent;
    if (agent) agents!.push({ edit: { kind: "agent", site: site.key, key: site.key, field: "topics" }, apply: () => void (agent.scans = { topics: "never" }) });
    for (const channel of site.agentChannels ?? []) {
      channels!.push({ edit: { kind: "agentChannel", site: site.key, key: channel.key, field: "role" }, apply: () => void (channel.role = "collaborator") });
    }
    for (const group of site.sectionGroups ?? []) {
      groups!.push({ edit: { kind: "sectionGroup", site: site.key, key: group.key, field: "title" }, apply: () => void (group.title = `${group.title} v2`) });
    }
    for (const connection of site.contextConnections ?? []) {
      connections!.push({ edit: { kind: "contextConnection", site: site.key, key: connection.key, field: "filter" }, apply: () => void (connection.filter = "label:docs") });
    }
    const gitSync = site.gitSync;
    if (gitSync) gitSyncs!.push({ edit: { kind: "gitSync", site: site.key, key: site.key, field: "commitMessageTemplate" }, apply: () => void (gitSync.commitMessageTemplate = CHANGED_COMMIT_TEMPLATE) });
    for (const section of sectionsOf(site)) {
      sections!.push({ edit: { kind: "section", site: site.key, key: section.key, field: "title" }, apply: () => void (section.title = `${section.title} (revised)`) });
      for (const [k, ss] of (section.siteSpaces ?? []).entries()) {
        if (ss.customization) overrides!.push({ edit: { kind: "override", site: site.key, key: ss.key, field: "primaryColor" }, apply: recolor(ss.customization) });
        if (k > 0) siteSpaces!.push({ edit: { kind: "siteSpace", site: site.key, key: ss.key, field: "condition" }, apply: () => void (ss.condition = CHANGED_CONDITION) });
      }
    }
    for (const link of site.shareLinks ?? []) {
      shareLinks!.push({ edit: { kind: "shareLink", site: site.key, key: link.key, field: "name" }, apply: () => void (link.name = `${link.name} v2`) });
    }
  }
  for (const team of stack.teams ?? []) {
    teams!.push({ edit: { kind: "team", key: team.key, field: "title" }, apply: () => void (team.title = `${team.title} v2`) });
  }
  const agentInstructions = stack.agentInstructions;
  if (agentInstructions) instructions!.push({ edit: { kind: "agentInstructions", key: stack.organization, field: "markdown" }, apply: () => void (agentInstructions.markdown = CHANGED_INSTRUCTIONS) });
  for (const spec of (stack.openapi ?? []) as unknown as { key: string; file?: string }[]) {
    if (spec.file !== undefined) specs!.push({ edit: { kind: "openapiSpec", key: spec.key, field: "file" }, apply: () => void (spec.file = CHANGED_OPENAPI_FILE) });
  }
  return [looks!, servers!, links!, agents!, overrides!, channels!, groups!, connections!, sections!, gitSyncs!, siteSpaces!, shareLinks!, teams!, instructions!, specs!];
}

/** The stack as a YAML stack file. */
export function toStackYaml(stack: StackFile): string {
  return `# Generated by bench/generate.ts; regenerated on every run.\n${toYaml(stack, { lineWidth: 0 })}`;
}
