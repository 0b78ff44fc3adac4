/**
 * References checked before any write, in a preview: the members, spaces and teams a new or changed
 * declaration names, the pages redirects name by their path inside a space (one read of each space's
 * page tree), and the integration a visitor sign-in by integration needs enabled on its site,
 * looked up with read-only calls when the provider checks its inputs, so a mistyped
 * e-mail or a wrong space ID fails the pull request's preview, at the place in the stack file where it is
 * written, instead of main's `up` with a 400.
 *
 * The engine runs the provider's check in an update as well as in a preview and does not tell it which;
 * the program knows (`pulumi.runtime.isDryRun()`). So the lookups are asked for by one reserved input,
 * {@link REFERENCES_INPUT}, which the DocsPlatform component adds only while the program runs as a
 * preview (`pulumi preview`, and the preview `pulumi up` runs first): the stack-file location of each
 * referring property (`{"members[0].user": "docs.yaml:41:15"}`). Check looks references up only when it is
 * present, puts the location before each failure, and always returns its inputs without it, so it never
 * reaches diff, create, update or the state. An `up` makes no lookup: a bad reference there is reported by
 * the write that uses it (as it is after `pulumi up --skip-preview`).
 *
 * Only references whose value is new or changed against the previous inputs are looked up — a preview
 * with nothing changed makes no call — and each is looked up once per process (the organisation's
 * members in one walk). A refused token fails the check (told once, see refusedToken.ts); a lookup that
 * fails otherwise (the API unreachable) checks nothing: the write reports it.
 *
 * A program of one's own that uses the classes directly may pass the reserved input too (it is not in
 * the classes' TypeScript types): a well-formed one is honoured the same way (lookups, located as it
 * says; properties that are not references of the kind are ignored), and one of another shape is a check
 * failure naming it. Either way it is stripped from the checked inputs and never stored.
 */
import type { ApiClient } from "../client";
import { isNotFound } from "../client/errors";
import { isTokenRefused } from "../client/tokenRefusal";
import { containsUnknown, type KindContext } from "./kind";

/** The reserved input that asks check to look references up: referring property → `file:line:col` of its value in the stack file. */
export const REFERENCES_INPUT = "__references";

/**
 * The reserved input the component adds, in a preview, to a declaration with `adopt: true`: check then
 * looks the live object up by its natural key (read-only) and tells what the up will take over, since
 * the engine shows such a create as a plain "create". Stripped like {@link REFERENCES_INPUT}.
 */
export const ADOPTION_PREVIEW_INPUT = "__adoptionPreview";

type Target = "member" | "space" | "team" | "signInIntegration" | "page";

/** The references each kind's inputs make: where (a property, `members[].user` for each item of a list) and to what. */
const REFERENCES: Record<string, readonly { at: string; to: Target }[]> = {
  TeamMembers: [{ at: "members[].user", to: "member" }],
  MemberRole: [{ at: "userId", to: "member" }],
  Space: [{ at: "spaceId", to: "space" }],
  SiteSpace: [{ at: "spaceId", to: "space" }],
  SiteSection: [{ at: "spaceId", to: "space" }],
  SamlProvider: [{ at: "defaultTeam", to: "team" }],
  Permissions: [{ at: "grants[].user", to: "member" }],
  // A sign-in by integration needs one enabled on the site: the component asks only where the file enables none.
  VisitorAuth: [{ at: "backend", to: "signInIntegration" }],
  // A redirect to a page by its path inside a space (`{kind: path, spaceId, path}`): the page must be there.
  SiteRedirects: [{ at: "redirects[].destination", to: "page" }],
};

/** Whether `property` (`spaceId`, `members[2].user`) of a kind's inputs refers to a member, space or team. */
export function isReference(kindName: string, property: string): boolean {
  return (REFERENCES[kindName] ?? []).some((r) => r.at === property.replace(/\[\d+\]\./, "[]."));
}

/**
 * `news` without the reserved input, and what it asked: `at` (the locations by property) when it is
 * present, so references are to be looked up; a failure when it is not an object of strings.
 */
export function takeReferences<T extends object>(news: T): { inputs: T; at?: Record<string, string>; adoptionPreview?: true; failures: { property: string; reason: string }[] } {
  const { [ADOPTION_PREVIEW_INPUT]: adoption, ...others } = news as Record<string, unknown>;
  const adoptionPreview = adoption === true ? { adoptionPreview: true as const } : {};
  if (!Object.prototype.hasOwnProperty.call(others, REFERENCES_INPUT)) return { inputs: (adoption === undefined ? news : others) as T, ...adoptionPreview, failures: [] };
  const { [REFERENCES_INPUT]: value, ...rest } = others;
  const inputs = rest as T;
  if (value === undefined || value === null) return { inputs, ...adoptionPreview, failures: [] };
  // Unknown in a preview (only a program of one's own can pass an Output here): looked up, unlocated.
  if (containsUnknown(value)) return { inputs, at: {}, ...adoptionPreview, failures: [] };
  if (typeof value === "object" && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "string")) {
    return { inputs, at: value as Record<string, string>, ...adoptionPreview, failures: [] };
  }
  const reason = `${REFERENCES_INPUT}: is reserved for the DocsPlatform component's previews (an object of property → "file:line:col"), not ${JSON.stringify(value)}`;
  return { inputs, ...adoptionPreview, failures: [{ property: REFERENCES_INPUT, reason }] };
}

/** The values at `at` in `inputs`, each with its property path (`members[1].user`). */
function valuesAt(inputs: Record<string, unknown>, at: string): { property: string; value: unknown }[] {
  const m = /^(\w+)\[\]\.(\w+)$/.exec(at);
  if (!m) return [{ property: at, value: inputs[at] }];
  const items = inputs[m[1]!];
  if (!Array.isArray(items)) return [];
  return items.map((item, i) => ({ property: `${m[1]}[${i}].${m[2]}`, value: (item as Record<string, unknown> | null)?.[m[2]!] }));
}

interface Lookups {
  /** The organisation's members, one walk per organisation (undefined: the walk failed). */
  members: Map<string, Promise<readonly { id: string; user?: { id?: string; email?: string } }[] | undefined>>;
  /** Spaces, teams and sites' sign-in integrations by `<target>:<org>:<id>`. */
  objects: Map<string, Promise<boolean | undefined>>;
  /** The page paths of each space's current content (undefined: the read failed). */
  pages: Map<string, Promise<Set<string> | undefined>>;
}
const lookups = new WeakMap<ApiClient, Lookups>();

/** One read per target and ID in a process: true, false, or undefined when the read could not tell. */
function once(client: ApiClient, key: string, read: () => Promise<boolean>): Promise<boolean | undefined> {
  const l = lookupsOf(client);
  let found = l.objects.get(key);
  if (!found) {
    found = read().then(
      (v) => v as boolean | undefined,
      (e: unknown) => (isNotFound(e) ? false : unlessRefused(undefined)(e)),
    );
    l.objects.set(key, found);
  }
  return found;
}

function lookupsOf(client: ApiClient): Lookups {
  let l = lookups.get(client);
  if (!l) lookups.set(client, (l = { members: new Map(), objects: new Map(), pages: new Map() }));
  return l;
}

/** A redirect destination by a page's path inside a space. */
interface PathDestination {
  kind: "path";
  spaceId: string;
  path: string;
}
const isPathDestination = (v: unknown): v is PathDestination => {
  const d = v as Partial<PathDestination> | null;
  return typeof d === "object" && d !== null && d.kind === "path" && typeof d.spaceId === "string" && typeof d.path === "string";
};
/** A page path as the platform resolves it: slugs joined by `/`, no slash at either end. */
const pagePath = (p: string): string => p.replace(/^\/+|\/+$/g, "");

/** The paths of every page of a tree. */
function pagePaths(pages: readonly { path?: unknown; pages?: unknown }[] | undefined, into = new Set<string>()): Set<string> {
  for (const p of pages ?? []) {
    if (typeof p.path === "string") into.add(pagePath(p.path));
    if (Array.isArray(p.pages)) pagePaths(p.pages as { path?: unknown; pages?: unknown }[], into);
  }
  return into;
}

/** Whether the target exists: true, false (404), or undefined when the lookup could not tell. */
async function exists(client: ApiClient, organizationId: string, to: Target, value: unknown, inputs: Record<string, unknown>): Promise<boolean | undefined> {
  if (to === "page") {
    const d = value as PathDestination;
    // One read of the space's page tree per process, whatever number of redirects point into it.
    const l = lookupsOf(client);
    let paths = l.pages.get(d.spaceId);
    if (!paths) l.pages.set(d.spaceId, (paths = client.spaces.pages(d.spaceId).then((pages) => pagePaths(pages), (e: unknown) => (isNotFound(e) ? new Set<string>() : unlessRefused(undefined)(e)))));
    const found = await paths;
    return found === undefined ? undefined : found.has(pagePath(d.path));
  }
  if (typeof value !== "string") return undefined;
  if (to === "member") {
    const l = lookupsOf(client);
    let members = l.members.get(organizationId);
    if (!members) l.members.set(organizationId, (members = client.members.list(organizationId).catch(unlessRefused(undefined))));
    const all = await members;
    if (all === undefined) return undefined;
    const v = value.toLowerCase();
    return all.some((m) => m.id === value || m.user?.id === value || (m.user?.email ?? "").toLowerCase() === v);
  }
  if (to === "signInIntegration") {
    // A site this run creates (its ID unknown in a preview) has no integration enabled on it yet, and the
    // component asks only where no installation of the file enables one there.
    const siteId = inputs["siteId"];
    if (typeof siteId !== "string" || containsUnknown(siteId)) return false;
    // The settings name the integration enabled on the site, if any: one read, never shown (it holds the key).
    return once(client, `${to}:${organizationId}:${siteId}`, async () => (await client.publishingAuth.get(organizationId, siteId)).integration !== undefined);
  }
  return once(client, `${to}:${organizationId}:${value}`, async () => {
    await (to === "space" ? client.spaces.get(value) : client.teams.get(organizationId, value));
    return true;
  });
}

/** `value` for a failed lookup, except a refused token, which stops the run (the check reports it). */
function unlessRefused<T>(value: T): (e: unknown) => T {
  return (e) => {
    if (isTokenRefused(e)) throw e;
    return value;
  };
}

/** The values of a property that refer to something; every string where not said here. */
const ACCEPTS: Partial<Record<Target, (value: unknown) => boolean>> = {
  signInIntegration: (v) => v === "integration",
  page: isPathDestination,
};

/** What a reference that is not there means, after its property (`members[0].user: …`). */
const WORDS: Record<Target, (value: string, org: string) => string> = {
  page: (v) => {
    const d = JSON.parse(v) as PathDestination;
    return `no page at ${JSON.stringify(pagePath(d.path))} in space ${d.spaceId} (a page's path is its slugs joined by "/", as in the page's URL under its site space)`;
  },
  member: (v, org) => `${JSON.stringify(v)} is not a member of organization ${org} (no member has this ${v.includes("@") ? "e-mail address" : "user ID"})`,
  space: (v) => `no space ${JSON.stringify(v)} exists (or the token cannot read it)`,
  team: (v, org) => `no team ${JSON.stringify(v)} in organization ${org}`,
  signInIntegration: () =>
    "visitors would sign in through an integration, and no integration is enabled on the site: enable one there (an installation listing the site in its sites) or use backend custom",
};

/**
 * The check failures of a kind's references: each new or changed reference (against `olds`) to a
 * member, space or team that does not exist, its reason led by its location in `at` when given
 * (`docs.yaml:41:15: members[0].user: …`). No call when nothing referred to changed.
 */
export async function missingReferences(
  kindName: string,
  context: () => Promise<KindContext>,
  olds: object,
  news: object,
  at: Readonly<Record<string, string>> = {},
): Promise<{ property: string; reason: string }[]> {
  const refs = REFERENCES[kindName];
  if (!refs) return [];
  const n = news as Record<string, unknown>;
  const o = (olds ?? {}) as Record<string, unknown>;
  const organizationId = n["organizationId"];
  if (typeof organizationId !== "string") return [];
  // A value's identity: the string, or the JSON of an object (a redirect's destination).
  const identity = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));
  const before = new Set(refs.flatMap((r) => valuesAt(o, r.at).map((x) => `${r.to}:${identity(x.value)}`)));
  const wanted = refs.flatMap((r) =>
    valuesAt(n, r.at)
      .filter((x) => !containsUnknown(x.value) && (ACCEPTS[r.to] ?? ((v: unknown) => typeof v === "string"))(x.value) && !before.has(`${r.to}:${identity(x.value)}`))
      .map((x) => ({ ...x, to: r.to })),
  );
  if (wanted.length === 0) return [];
  let client: ApiClient;
  try {
    client = (await context()).client;
  } catch {
    return []; // no API configured: nothing to look up with (the write will say so)
  }
  const found = await Promise.all(wanted.map((w) => exists(client, organizationId, w.to, w.value, n)));
  return wanted.filter((_, i) => found[i] === false).map((w) => {
    const where = Object.prototype.hasOwnProperty.call(at, w.property) ? `${at[w.property]}: ` : "";
    return { property: w.property.replace(/\[\d+\]\.\w+$/, ""), reason: `${where}${w.property}: ${WORDS[w.to](identity(w.value), organizationId)}` };
  });
}
