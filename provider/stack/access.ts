/**
 * Access in the stack file: who may read and edit each site, space and collection (`permissions`, with
 * `allowLockout`), a site's visitor authentication (`visitorAuth`) and the organisation's integration
 * installations (`installations`). The checks a schema cannot express, and the inputs of the
 * Permissions, VisitorAuth and IntegrationInstallation kinds from the file's entries.
 */
import type { Role } from "./model";

/** A reference as the stack file writes it: a key of the file, or `{id}`. */
export type Ref = string | { id: string };

/** One grant: a team (by key or `{id}`) or a user (by e-mail address or user ID) with a role (`null`: guest). */
export interface StackGrant {
  team?: Ref;
  user?: string;
  role: Role | null;
}

/** What a site, a space or a collection may declare about its access. */
export interface StackAccess {
  /** Every direct grant on the object; absent: not managed. */
  permissions?: StackGrant[];
  /** Allows a plan that leaves the object with no admin or removes the caller's access. */
  allowLockout?: boolean;
}

/** The objects that carry `permissions`, as the stack file lists them. */
export const ACCESS_LISTS = [
  { property: "sites", on: "site" },
  { property: "spaces", on: "space" },
  { property: "collections", on: "collection" },
] as const;

export type AccessTarget = (typeof ACCESS_LISTS)[number]["on"];

/** A finding of the access checks, at a JSON pointer of the file. */
export interface AccessIssue {
  pointer: string;
  reason: string;
  warning?: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const show = (v: unknown): string => JSON.stringify(v);

/** How a grant names its subject, for finding one named twice. */
function subjectKey(g: Record<string, unknown>): string | undefined {
  if (typeof g.team === "string") return `team:${g.team}`;
  if (isObject(g.team) && typeof g.team.id === "string") return `team-id:${g.team.id}`;
  if (typeof g.user === "string") return `user:${g.user.includes("@") ? g.user.toLowerCase() : g.user}`;
  return undefined;
}

/** The keys of a top-level list. */
function keysOf(stack: Record<string, unknown>, property: string): Set<string> {
  return new Set(list(stack[property]).flatMap((e) => (isObject(e) && typeof e.key === "string" ? [e.key] : [])));
}

/**
 * The access checks: team keys in grants name a team of the file; a team or user at most once per
 * object; a visitor-auth block on a site whose visibility is not `visitor-auth` (a warning), and none on a
 * site whose visibility is (refused: see signInMissing); installed
 * sites and spaces name sites and spaces of the file; the file's own integration installed by its name, not
 * its key; an integration installed once.
 */
export function accessIssues(stack: unknown): AccessIssue[] {
  const issues: AccessIssue[] = [];
  if (!isObject(stack)) return issues;
  const teams = keysOf(stack, "teams");
  for (const { property, on } of ACCESS_LISTS) {
    list(stack[property]).forEach((entry, i) => {
      if (!isObject(entry)) return;
      const at = `/${property}/${i}`;
      const seen = new Map<string, number>();
      list(entry.permissions).forEach((g, j) => {
        if (!isObject(g)) return;
        if (typeof g.team === "string" && !teams.has(g.team)) {
          issues.push({ pointer: `${at}/permissions/${j}/team`, reason: `names no team of this file: ${show(g.team)} (a key of \`teams\`, or {id: ...} for a team outside the file)` });
        }
        const key = subjectKey(g);
        if (key === undefined) return;
        const first = seen.get(key);
        if (first !== undefined) issues.push({ pointer: `${at}/permissions/${j}`, reason: `repeats permissions[${first}] of this ${on}: each team and user is granted one role` });
        else seen.set(key, j);
      });
      if (on === "site" && entry.visitorAuth !== undefined && entry.visibility !== "visitor-auth") {
        issues.push({ pointer: `${at}/visitorAuth`, reason: `visitor authentication applies to a site whose visibility is visitor-auth; this site's is ${show(entry.visibility ?? "public")}`, warning: true });
      }
      if (on === "site" && entry.visibility === "visitor-auth" && entry.visitorAuth === undefined) issues.push(signInMissing(at, entry.key));
    });
  }
  const sites = keysOf(stack, "sites");
  const spaces = keysOf(stack, "spaces");
  const integrations = list(stack.integrations).filter(isObject);
  list(stack.installations).forEach((entry, i) => {
    if (!isObject(entry)) return;
    // An integration is installed by its name: the file's own integration written by its key names none.
    const byKey = integrations.find((g) => g.key === entry.integration && g.name !== entry.integration);
    if (byKey !== undefined && typeof byKey.name === "string") {
      issues.push({ pointer: `/installations/${i}/integration`, reason: `${show(entry.integration)} is the key of an integration of this file; an installation names an integration by its name: ${show(byKey.name)}` });
    }
    for (const [field, keys] of [["sites", sites], ["spaces", spaces]] as const) {
      list(entry[field]).forEach((ref, j) => {
        if (typeof ref === "string" && !keys.has(ref)) {
          issues.push({ pointer: `/installations/${i}/${field}/${j}`, reason: `names no ${field.slice(0, -1)} of this file: ${show(ref)} (a key of \`${field}\`, or {id: ...})` });
        }
      });
    }
  });
  return issues;
}

/**
 * A visitor-auth site lets in only visitors who bring a token its sign-in backend made: with no
 * `visitorAuth` block nothing in the file sets that backend up (a new site has only the platform's
 * defaults: a custom backend nobody was given the key of, no sign-in page), so readers are locked out.
 * Refused rather than warned: the platform accepts the visibility and the site goes dark without a word.
 */
function signInMissing(at: string, key: unknown): AccessIssue {
  const site = typeof key === "string" ? `site ${key}` : "this site";
  return {
    pointer: `${at}/visibility`,
    reason:
      `${site} is visitor-auth but declares no visitorAuth block: no reader could sign in. Add one — ` +
      "`visitorAuth: { fallbackURL: <your sign-in page> }` for your own backend (it signs visitors' tokens with the site's private key, a secret output), " +
      "or `visitorAuth: { backend: integration }` with an installation enabled on the site — or choose another visibility",
  };
}

/**
 * The teams the caller belongs to among the file's teams: those whose declared members name the
 * caller (by user ID or, case-insensitively, e-mail address).
 */
export function callerTeamKeys(stack: { teams?: { key: string; members?: { user: string }[] }[] }, caller: string | undefined): string[] {
  if (caller === undefined) return [];
  const c = caller.toLowerCase();
  return (stack.teams ?? []).filter((t) => (t.members ?? []).some((m) => m.user === caller || m.user.toLowerCase() === c)).map((t) => t.key);
}

/** A grant's subject as a reviewer reads it: `team <title>` or `user <e-mail or ID>`. */
export function grantSubject(g: StackGrant, teamTitle: (key: string) => string | undefined): string {
  if (g.team !== undefined) return typeof g.team === "string" ? `team ${teamTitle(g.team) ?? g.team}` : `team {id: ${g.team.id}}`;
  return `user ${g.user}`;
}

const roleWord = (role: Role | null): string => role ?? "guest";

/** The grants of one object in the order readers of a review think of them: most powerful role first. */
const ROLE_ORDER: readonly (Role | null)[] = ["admin", "create", "review", "edit", "comment", "read", null];

/**
 * Who can reach an object through its declared grants, one line per role, most powerful first: teams by
 * name, users counted (`edit: team Writers, 2 users`). Access the organisation role gives is not shown.
 */
export function accessSummary(grants: readonly StackGrant[], teamTitle: (key: string) => string | undefined): string[] {
  const out: string[] = [];
  for (const role of ROLE_ORDER) {
    const of = grants.filter((g) => (g.role ?? null) === role);
    if (of.length === 0) continue;
    const teams = of.filter((g) => g.team !== undefined).map((g) => grantSubject(g, teamTitle));
    const users = of.filter((g) => g.user !== undefined).length;
    out.push(`${roleWord(role)}: ${[...teams, ...(users > 0 ? [`${users} user${users === 1 ? "" : "s"}`] : [])].join(", ")}`);
  }
  return out;
}

/** How one grant changed between two versions of the file. */
export interface GrantChange {
  change: "added" | "removed" | "changed";
  subject: string;
  from?: Role | null;
  to?: Role | null;
}

/** Every grant added, removed or whose role changed between two versions of one object's `permissions`. */
export function grantChanges(before: readonly StackGrant[], after: readonly StackGrant[], teamTitle: (key: string) => string | undefined): GrantChange[] {
  const key = (g: StackGrant) => subjectKey(g as unknown as Record<string, unknown>) ?? "";
  const out: GrantChange[] = [];
  for (const g of before) {
    const next = after.find((a) => key(a) === key(g));
    if (!next) out.push({ change: "removed", subject: grantSubject(g, teamTitle), from: g.role ?? null });
    else if ((next.role ?? null) !== (g.role ?? null)) out.push({ change: "changed", subject: grantSubject(g, teamTitle), from: g.role ?? null, to: next.role ?? null });
  }
  for (const g of after) if (!before.some((b) => key(b) === key(g))) out.push({ change: "added", subject: grantSubject(g, teamTitle), to: g.role ?? null });
  return out;
}

/** A grant change in words: `grant removed: user a@x.test (read)`, `role changed: team Writers edit → review`. */
export function grantChangeText(c: GrantChange): string {
  if (c.change === "added") return `grant added: ${c.subject} (${roleWord(c.to!)})`;
  if (c.change === "removed") return `grant removed: ${c.subject} (${roleWord(c.from!)})`;
  return `role changed: ${c.subject} ${roleWord(c.from!)} → ${roleWord(c.to!)}`;
}

/** A site's visitor authentication as the stack file writes it. */
export interface StackVisitorAuth {
  backend?: "custom" | "integration";
  fallbackURL?: string | null;
  logoutURL?: string | null;
  rotation?: number | string;
}

/** An installation as the stack file writes it. */
export interface StackInstallation {
  key: string;
  previousKeys?: string[];
  adopt?: boolean;
  integration: string;
  configuration?: Record<string, unknown>;
  secretConfiguration?: Record<string, unknown>;
  sites?: Ref[];
  spaces?: Ref[];
  siteSelection?: "all" | "selected";
  spaceSelection?: "all" | "selected";
}
