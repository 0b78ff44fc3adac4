/**
 * Access in the stack file: who may read and edit each site, space and collection (`permissions`, with
 * `allowLockout`), a site's visitor authentication (`visitorAuth`) and the organisation's integration
 * installations (`installations`), as the file writes them. The checks are in `checks.ts`, the resources
 * in `declare.ts`, export's reading in `export.ts`, the reviewers' words in `view.ts`.
 */
import type { Role } from "../client";
import type { Ref } from "../file/refs";

export type { Ref };

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

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** How a grant names its subject, for finding one named twice. */
export function subjectKey(g: Record<string, unknown>): string | undefined {
  if (typeof g.team === "string") return `team:${g.team}`;
  if (isObject(g.team) && typeof g.team.id === "string") return `team-id:${g.team.id}`;
  if (typeof g.user === "string") return `user:${g.user.includes("@") ? g.user.toLowerCase() : g.user}`;
  return undefined;
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
