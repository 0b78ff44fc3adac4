/** Access in the words of a review: who can reach an object, and how its grants changed (`tree`, `diff`). */
import type { Role } from "../client";
import { subjectKey, type StackGrant } from "./model";

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
