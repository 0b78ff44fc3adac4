/**
 * References checked before any write: the members, spaces and teams a new or changed declaration
 * names, looked up with read-only calls when the provider checks its inputs (which the engine does in
 * `pulumi preview` as in `up`), so a mistyped e-mail or a wrong space ID fails the pull request's preview
 * instead of main's `up` with a 400. Only references whose value is new or changed against the previous
 * inputs are looked up — a preview with nothing changed makes no call — and each is looked up once per
 * process (the organisation's members in one walk). A refused token fails the check (told once, see
 * refusedToken.ts); a lookup that fails otherwise (the API unreachable) checks nothing: the write reports it.
 */
import { isNotFound, isTokenRefused, type ApiClient } from "../client";
import { containsUnknown, type KindContext } from "./kind";

type Target = "member" | "space" | "team";

/** The references each kind's inputs make: where (a property, `members[].user` for each item of a list) and to what. */
const REFERENCES: Record<string, readonly { at: string; to: Target }[]> = {
  TeamMembers: [{ at: "members[].user", to: "member" }],
  MemberRole: [{ at: "userId", to: "member" }],
  Space: [{ at: "spaceId", to: "space" }],
  SiteSpace: [{ at: "spaceId", to: "space" }],
  SiteSection: [{ at: "spaceId", to: "space" }],
  SamlProvider: [{ at: "defaultTeam", to: "team" }],
};

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
  /** Spaces and teams by `<target>:<org>:<id>`. */
  objects: Map<string, Promise<boolean | undefined>>;
}
const lookups = new WeakMap<ApiClient, Lookups>();

/** Whether the target exists: true, false (404), or undefined when the lookup could not tell. */
async function exists(client: ApiClient, organizationId: string, to: Target, value: string): Promise<boolean | undefined> {
  let l = lookups.get(client);
  if (!l) lookups.set(client, (l = { members: new Map(), objects: new Map() }));
  if (to === "member") {
    let members = l.members.get(organizationId);
    if (!members) l.members.set(organizationId, (members = client.members.list(organizationId).catch(unlessRefused(undefined))));
    const all = await members;
    if (all === undefined) return undefined;
    const v = value.toLowerCase();
    return all.some((m) => m.id === value || m.user?.id === value || (m.user?.email ?? "").toLowerCase() === v);
  }
  const key = `${to}:${organizationId}:${value}`;
  let found = l.objects.get(key);
  if (!found) {
    const lookup: Promise<unknown> = to === "space" ? client.spaces.get(value) : client.teams.get(organizationId, value);
    found = lookup.then(
      () => true as boolean | undefined,
      (e: unknown) => (isNotFound(e) ? false : unlessRefused(undefined)(e)),
    );
    l.objects.set(key, found);
  }
  return found;
}

/** `value` for a failed lookup, except a refused token, which stops the run (the check reports it). */
function unlessRefused<T>(value: T): (e: unknown) => T {
  return (e) => {
    if (isTokenRefused(e)) throw e;
    return value;
  };
}

const WORDS: Record<Target, (value: string, org: string) => string> = {
  member: (v, org) => `${JSON.stringify(v)} is not a member of organization ${org} (no member has this ${v.includes("@") ? "e-mail address" : "user ID"})`,
  space: (v) => `no space ${JSON.stringify(v)} exists (or the token cannot read it)`,
  team: (v, org) => `no team ${JSON.stringify(v)} in organization ${org}`,
};

/**
 * The check failures of a kind's references: each new or changed reference (against `olds`) to a
 * member, space or team that does not exist. No call when nothing referred to changed.
 */
export async function missingReferences(kindName: string, context: () => KindContext, olds: object, news: object): Promise<{ property: string; reason: string }[]> {
  const refs = REFERENCES[kindName];
  if (!refs) return [];
  const n = news as Record<string, unknown>;
  const o = (olds ?? {}) as Record<string, unknown>;
  const organizationId = n["organizationId"];
  if (typeof organizationId !== "string") return [];
  const before = new Set(refs.flatMap((r) => valuesAt(o, r.at).map((x) => `${r.to}:${String(x.value)}`)));
  const wanted = refs.flatMap((r) =>
    valuesAt(n, r.at)
      .filter((x) => typeof x.value === "string" && !containsUnknown(x.value) && !before.has(`${r.to}:${x.value}`))
      .map((x) => ({ ...x, value: x.value as string, to: r.to })),
  );
  if (wanted.length === 0) return [];
  let client: ApiClient;
  try {
    client = context().client;
  } catch {
    return []; // no API configured: nothing to look up with (the write will say so)
  }
  const found = await Promise.all(wanted.map((w) => exists(client, organizationId, w.to, w.value)));
  return wanted.filter((_, i) => found[i] === false).map((w) => ({ property: w.property.replace(/\[\d+\]\.\w+$/, ""), reason: `${w.property}: ${WORDS[w.to](w.value, organizationId)}` }));
}
