/**
 * An emulator organisation for a stack file: what the file takes as already existing, made to exist, so
 * that one's own `docs.yaml` (written by hand, or `docsplatform export`'s output with `adopt: true`
 * entries) validates its references and runs against a local emulator before the live platform.
 *
 * The file says which objects exist outside it: its `organization`, the users it names (members, team
 * members, grants, `caller`), everything it refers to by `{id: …}` (spaces, collections, teams, sites),
 * the integrations it installs without publishing them, and the pages its redirects send readers to.
 * Everything else the file declares is created (or, with `adopt: true`, looked up and then created) by
 * `pulumi up`, as on the live platform.
 *
 * This lives beside the stack model rather than in the emulator, which follows the API's contract and
 * reads no stack file: the emulator takes the plain {@link Seed} this returns.
 */
import type { Seed, SeedIntegration, SeedOrganization, SeedPage, SeedSpace, SeedUser } from "../../emulator/seed";
import type { SiteModel } from "../site";
import type { ResolvedStack } from "../stack/resolve";
import { ACCESS_LISTS, type StackGrant } from "../access/model";
import { formatProblem, loadStackFile } from "../stack/load";
import { isIdRef, type Ref, type StackFile } from "../file/model";

/** The token the seeded emulator prints, acting as the file's caller (an admin): the default fixture's. */
export const SEED_TOKEN = "dev-token";

/** Role of a user the file names without declaring one: the least, so the file's grants and teams give what more it means. */
const NAMED_USER_ROLE = "read";

/** The objects of a seed made from a file, counted, for the line the emulator prints. */
export interface SeedSummary {
  organization: string;
  members: number;
  spaces: number;
  collections: number;
  teams: number;
  sites: number;
  integrations: number;
}

/** The seed for a stack file; `caller` overrides the file's `caller:` as the user the token acts as. */
export function seedFromStack({ stack, sites }: ResolvedStack, opts: { caller?: string } = {}): Seed {
  const org = stack.organization;
  const users = new Users(emailDomain(stack));
  const caller = users.named(opts.caller ?? stack.caller ?? `admin@${users.domain}`);
  const roles = memberRoles(stack, users, caller);
  const spaces = seededSpaces(stack, sites);
  const organization: SeedOrganization = {
    id: org,
    title: typeof stack.settings?.title === "string" ? stack.settings.title : org,
    emailDomains: [users.domain],
    members: [...roles].map(([user, role]) => ({ user, role })),
    spaces: [...spaces.values()],
    collections: [...idRefs(stack, sites, "collections")].map((id) => ({ id, title: clip(id, 100) })),
    teams: [...idRefs(stack, sites, "teams")].map((id) => ({ id, title: clip(id, 64) })),
    sites: [...idRefs(stack, sites, "sites")].map((id) => ({ id, title: id.length >= 2 ? clip(id, 128) : `Site ${id}` })),
  };
  return {
    users: users.all(),
    tokens: { [SEED_TOKEN]: caller },
    organizations: [organization],
    integrations: installedIntegrations(stack),
  };
}

/**
 * The seed for a stack file on disk, or its problems as `file:line:col: message` lines: a file that does
 * not validate would not run either, and its references could not be read.
 */
export function seedFromStackFile(file: string): { ok: true; seed: Seed } | { ok: false; problems: string[] } {
  const result = loadStackFile(file);
  if (!result.ok) return { ok: false, problems: result.problems.map(formatProblem) };
  return { ok: true, seed: seedFromStack(result) };
}

/** What a seed holds, counted. */
export function summarizeSeed(seed: Seed): SeedSummary {
  const org = seed.organizations[0]!;
  return {
    organization: org.id,
    members: org.members.length,
    spaces: org.spaces?.length ?? 0,
    collections: org.collections?.length ?? 0,
    teams: org.teams?.length ?? 0,
    sites: org.sites?.length ?? 0,
    integrations: seed.integrations?.length ?? 0,
  };
}

/** The summary in words: `organisation acme: 4 members, 1 space, 1 team`. */
export function describeSeed(seed: Seed): string {
  const { organization, ...counts } = summarizeSeed(seed);
  const words: Record<keyof typeof counts, [string, string]> = {
    members: ["member", "members"],
    spaces: ["space", "spaces"],
    collections: ["collection", "collections"],
    teams: ["team", "teams"],
    sites: ["site", "sites"],
    integrations: ["integration", "integrations"],
  };
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${words[k as keyof typeof counts][n === 1 ? 0 : 1]}`);
  return `organisation ${organization}${parts.length > 0 ? `: ${parts.join(", ")}` : ""}`;
}

/**
 * The users the file names, by user ID or e-mail address as it writes them: an e-mail address becomes a
 * user with an ID from its local part, a user ID one with an address at the organisation's domain.
 */
class Users {
  private readonly byName = new Map<string, SeedUser>();
  private readonly ids = new Set<string>();

  constructor(readonly domain: string) {}

  /** The ID of the user the file means by `name`, made on first mention. */
  named(name: string): string {
    const known = this.byName.get(name.includes("@") ? name.toLowerCase() : name);
    if (known) return known.id;
    const user = name.includes("@") ? this.fromEmail(name.toLowerCase()) : { id: name, email: `${name.toLowerCase()}@${this.domain}`, displayName: name };
    this.ids.add(user.id);
    this.byName.set(name.includes("@") ? name.toLowerCase() : name, user);
    // An address the file also writes, for the same user (`writer-1` and `writer-1@acme.test`).
    if (!this.byName.has(user.email)) this.byName.set(user.email, user);
    return user.id;
  }

  all(): SeedUser[] {
    return [...new Set(this.byName.values())];
  }

  private fromEmail(email: string): SeedUser {
    const local = email.slice(0, email.indexOf("@"));
    const base = local.replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "user";
    let id = base;
    for (let n = 2; this.ids.has(id) || this.byName.has(id); n++) id = `${base}-${n}`;
    return { id, email, displayName: local };
  }
}

/** The organisation's e-mail domain: the file's own, else the one its addresses use most, else `<org>.test`. */
function emailDomain(stack: StackFile): string {
  const declared = stack.settings?.emailDomains;
  if (Array.isArray(declared) && typeof declared[0] === "string") return declared[0].toLowerCase();
  const counts = new Map<string, number>();
  for (const name of userNames(stack)) {
    const at = name.indexOf("@");
    if (at > 0) counts.set(name.slice(at + 1).toLowerCase(), (counts.get(name.slice(at + 1).toLowerCase()) ?? 0) + 1);
  }
  const [top] = [...counts].sort(([a, n], [b, m]) => m - n || a.localeCompare(b));
  return top?.[0] ?? `${stack.organization.toLowerCase().replace(/[^a-z0-9-]+/g, "-")}.test`;
}

/** Every user the file names, as it writes them: members, team members, grants. */
function userNames(stack: StackFile): string[] {
  const grants = ACCESS_LISTS.flatMap(({ property }) => (stack[property] ?? []) as { permissions?: StackGrant[] }[]).flatMap((e) => e.permissions ?? []);
  return [
    ...(stack.members ?? []).map((m) => m.user),
    ...(stack.teams ?? []).flatMap((t) => (t.members ?? []).map((m) => m.user)),
    ...grants.flatMap((g) => (g.user === undefined ? [] : [g.user])),
  ];
}

/**
 * Each member's role: the caller admin; a user of `members:` the role the file declares (as an export
 * writes the roles members have, so its first `up` changes none); every other user named the least role.
 */
function memberRoles(stack: StackFile, users: Users, caller: string): Map<string, SeedOrganization["members"][number]["role"]> {
  const roles = new Map<string, SeedOrganization["members"][number]["role"]>([[caller, "admin"]]);
  for (const m of stack.members ?? []) {
    const id = users.named(m.user);
    if (!roles.has(id)) roles.set(id, m.role);
  }
  for (const name of userNames(stack)) {
    const id = users.named(name);
    if (!roles.has(id)) roles.set(id, NAMED_USER_ROLE);
  }
  return roles;
}

/** The platform IDs the file refers to by `{id}` for one kind of object. */
function idRefs(stack: StackFile, sites: readonly SiteModel[], kind: "spaces" | "collections" | "teams" | "sites"): Set<string> {
  const ids = new Set<string>();
  const add = (ref: Ref | null | undefined) => {
    if (ref !== undefined && ref !== null && isIdRef(ref)) ids.add(ref.id);
  };
  const grants = (property: (typeof ACCESS_LISTS)[number]["property"]) =>
    ((stack[property] ?? []) as { permissions?: StackGrant[] }[]).flatMap((e) => e.permissions ?? []);
  switch (kind) {
    case "spaces":
      for (const s of stack.spaces ?? []) if (typeof s.id === "string") ids.add(s.id);
      for (const site of sites) for (const ss of site.siteSpaces) add(ss.space);
      for (const i of stack.installations ?? []) for (const s of i.spaces ?? []) add(s as Ref);
      break;
    case "collections":
      for (const c of [...(stack.collections ?? []), ...(stack.spaces ?? [])]) add(c.parent as Ref | null | undefined);
      break;
    case "teams":
      for (const { property } of ACCESS_LISTS) for (const g of grants(property)) add(g.team);
      for (const p of stack.saml ?? []) add(p.defaultTeam as Ref | undefined);
      break;
    case "sites":
      for (const i of stack.installations ?? []) for (const s of i.sites ?? []) add(s as Ref);
      add((stack.settings?.defaultContent ?? undefined) as Ref | undefined);
      break;
  }
  return ids;
}

/** The style guide spaces the file names by ID: its `styleGuides` entries with an `id`, and sites' `styleGuide: {id}`. */
function guideRefs(stack: StackFile): Set<string> {
  const ids = new Set<string>();
  for (const g of (stack.styleGuides ?? []) as { id?: unknown }[]) if (typeof g.id === "string") ids.add(g.id);
  for (const site of stack.sites ?? []) {
    const ref = (site as { styleGuide?: Ref | null }).styleGuide;
    if (ref !== undefined && ref !== null && isIdRef(ref)) ids.add(ref.id);
  }
  return ids;
}

/**
 * The spaces the file takes as existing, by ID: titled as its `spaces:` entry titles them (else by their
 * ID), with the pages its redirects send readers to (a page path, or a page ID as export writes it).
 */
function seededSpaces(stack: StackFile, sites: readonly SiteModel[]): Map<string, SeedSpace> {
  const titles = new Map((stack.spaces ?? []).flatMap((s) => (typeof s.id === "string" && typeof s.title === "string" ? [[s.id, s.title] as const] : [])));
  const spaces = new Map<string, SeedSpace>();
  for (const id of idRefs(stack, sites, "spaces")) spaces.set(id, { id, title: clip(titles.get(id) ?? id, 50) });
  // The guide spaces it takes over by ID (`styleGuides: [{id}]`, a site's `styleGuide: {id}`): style guide spaces.
  for (const id of guideRefs(stack)) spaces.set(id, { id, title: clip(`Style guide ${id}`, 50), type: "styleguide" });
  for (const site of sites) {
    const spaceOf = new Map(site.siteSpaces.map((ss) => [ss.key, ss.spaceId]));
    for (const r of site.entry.redirects ?? []) {
      const d = r.destination as { siteSpace?: string; page?: string; pageId?: string } | null;
      const space = d?.siteSpace === undefined ? undefined : spaces.get(spaceOf.get(d.siteSpace) ?? "");
      if (!space || !d) continue;
      if (d.page !== undefined) addPagePath((space.pages ??= []), d.page.split("/").filter((s) => s !== ""));
      if (d.pageId !== undefined && !(space.pages ??= []).some((p) => p.id === d.pageId)) space.pages.push({ id: d.pageId, title: `Page ${d.pageId}`, slug: `page-${space.pages.length + 1}` });
    }
  }
  return spaces;
}

/** Adds the pages of a path (slugs), each titled after its slug, to a page tree. */
function addPagePath(pages: SeedPage[], slugs: string[]): void {
  const [slug, ...rest] = slugs;
  if (slug === undefined) return;
  let page = pages.find((p) => p.slug === slug);
  if (!page) {
    const words = slug.replace(/[-_]+/g, " ").trim() || slug;
    page = { title: clip(words.charAt(0).toUpperCase() + words.slice(1), 100), slug };
    pages.push(page);
  }
  addPagePath((page.pages ??= []), rest);
}

/** Integrations the file installs without publishing them itself: published, so the organisation can install them. */
function installedIntegrations(stack: StackFile): SeedIntegration[] {
  const own = new Set((stack.integrations ?? []).map((g) => g.name as string));
  const names = new Set((stack.installations ?? []).map((i) => i.integration).filter((n) => !own.has(n)));
  return [...names].map((name) => ({ name, title: clip(name, 100), owner: stack.organization, visibility: "public" }));
}

function clip(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max);
}
