/** What a route handler gets (caller, store, request parts) and the helpers every area shares: access rules, paging, schemas. */
import { badRequest, forbidden, notFound } from "./errors";
import { roleAtLeast, type MemberRow, type OrgRow, type Role, type SiteRow, type SpaceRow, type TableName, type TableRows } from "./model";
import type { View } from "./present";
import type { Store } from "./store";

/** A handler's view of one request. */
export interface Ctx<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  store: Store;
  /** Base URL of the emulator (for `urls.location`). */
  base: string;
  /** The user the token acts as. */
  user: string;
  /** The request's `Prefer` header, if any. */
  prefer?: string;
}

/** What a handler answers: status, optional JSON body and `Location`. */
export interface Result {
  status: number;
  body?: unknown;
  location?: string;
  /** Further response headers. */
  headers?: Record<string, string>;
}

/** The answer to an operation marked (Prefer): 204 with `Preference-Applied` when the caller asked for `return=minimal`, else 200 with `body`. */
export function preferred(ctx: Ctx<unknown, unknown, unknown>, body: unknown): Result {
  if (ctx.prefer !== undefined && /(^|[,;\s])return=minimal($|[,;\s])/.test(ctx.prefer)) return { status: 204, headers: { "preference-applied": "return=minimal" } };
  return { status: 200, body };
}

/** A JSON Schema fragment (validated with ajv against `schemas/limits.json`). */
export type Schema = Record<string, unknown>;

export interface RouteSpec<P, Q, B> {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  query?: Schema;
  body?: Schema;
  handler: (ctx: Ctx<P, Q, B>) => Result;
}

/** Registers one /v1 route; each area module exports `register(route)`. */
export type Route = <P = Record<string, string>, Q = Record<string, never>, B = undefined>(spec: RouteSpec<P, Q, B>) => void;

// ---- schemas ----

const LIMITS = "https://docsplatform.dev/schemas/limits.json#/definitions/";

/** A reference to a definition of `schemas/limits.json`. */
export function limit(name: string): Schema {
  return { $ref: LIMITS + name };
}
/** The schema, or null. */
export function nullable(schema: Schema): Schema {
  return { anyOf: [schema, { type: "null" }] };
}
/** An object schema with the given properties and required names. */
export function obj(properties: Record<string, Schema>, required: string[] = []): Schema {
  return { type: "object", properties, required };
}
export const STRING: Schema = { type: "string" };
export const BOOLEAN: Schema = { type: "boolean" };
export const ID: Schema = limit("id");

/** The query of a list operation, plus extra parameters. */
export function listQuery(extra: Record<string, Schema> = {}): Schema {
  return obj({ page: { type: "string" }, limit: limit("limit"), ...extra });
}

// ---- access ----

/** The caller's membership in an organization, or a 404 (unknown org) / 403 (not a member). */
export function membership(ctx: Ctx<unknown, unknown, unknown>, orgId: string): { org: OrgRow; member: MemberRow } {
  const org = ctx.store.get("orgs", orgId);
  if (!org) throw notFound("organization", orgId);
  const member = ctx.store.get("members", `${orgId}:${ctx.user}`);
  if (!member || member.disabled) throw forbidden(`not a member of organization '${orgId}'`);
  return { org, member };
}

const ROLE_WORDS: Record<Role, string> = {
  admin: "an admin",
  create: "a member with role create or above",
  review: "a member with role review or above",
  edit: "a member with role edit or above",
  comment: "a member with role comment or above",
  read: "a member",
};

/** Requires the caller's role in the organization to be at least `need`; returns the org and the caller's role. */
export function requireOrg(ctx: Ctx<unknown, unknown, unknown>, orgId: string, need: Role, action = "do this"): { org: OrgRow; role: Role | null } {
  const { org, member } = membership(ctx, orgId);
  if (!roleAtLeast(member.role, need)) throw forbidden(`only ${ROLE_WORDS[need]} of organization '${orgId}' may ${action}`);
  return { org, role: member.role };
}

/** Finds a site of an organization after checking the caller's role. */
export function requireSite(ctx: Ctx<unknown, unknown, unknown>, orgId: string, siteId: string, need: Role, action = "manage sites"): { org: OrgRow; site: SiteRow; role: Role | null } {
  const { org, role } = requireOrg(ctx, orgId, "read");
  const site = ownedRow(ctx, "sites", siteId, "org", orgId, "site");
  if (!roleAtLeast(role, need)) throw forbidden(`only ${ROLE_WORDS[need]} of organization '${orgId}' may ${action}`);
  return { org, site, role };
}

/** Finds a space by ID (deleted ones too while restorable) after checking the caller's role in its organization. */
export function requireSpace(ctx: Ctx<unknown, unknown, unknown>, spaceId: string, need: Role, action = "change this space"): { space: SpaceRow; role: Role | null } {
  const space = ctx.store.get("spaces", spaceId);
  if (!space || ctx.store.spaceGone(space)) throw notFound("space", spaceId);
  const member = ctx.store.get("members", `${space.org}:${ctx.user}`);
  if (!member || member.disabled) throw notFound("space", spaceId);
  if (!roleAtLeast(member.role, need)) throw forbidden(`only ${ROLE_WORDS[need]} of organization '${space.org}' may ${action}`);
  return { space, role: member.role };
}

/** What the presenters need for this request, for a caller with `role`. */
export function view(ctx: Ctx<unknown, unknown, unknown>, role: Role | null): View {
  return { store: ctx.store, base: ctx.base, role };
}

/** The row `id` of `table` whose `owner` field (its organization or site) is `ownerId`, else a 404 naming `what`. */
export function ownedRow<K extends TableName>(
  ctx: Ctx<unknown, unknown, unknown>,
  table: K,
  id: string,
  owner: keyof TableRows[K],
  ownerId: string,
  what: string,
): TableRows[K] {
  const row = ctx.store.get(table, id);
  if (!row || row[owner] !== ownerId) throw notFound(what, id);
  return row;
}

/** The caller's role in an organization (null when not a member). */
export function roleIn(ctx: Ctx<unknown, unknown, unknown>, orgId: string): Role | null {
  return ctx.store.get("members", `${orgId}:${ctx.user}`)?.role ?? null;
}

// ---- lists ----

export interface ListQuery {
  page?: string;
  limit?: number;
}

/** A list envelope. */
export interface Page<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

const DEFAULT_PAGE_SIZE = 20;

/**
 * Pages `items` with an opaque cursor: base64url of the offset and the list's identity (route and filters),
 * so a cursor built by a client, or taken from another list, is a 400.
 */
export function paginate<T, U>(items: T[], query: ListQuery, listKey: string, present: (item: T) => U): Page<U> {
  const size = query.limit ?? DEFAULT_PAGE_SIZE;
  let offset = 0;
  if (query.page !== undefined) offset = decodeCursor(query.page, listKey);
  const slice = items.slice(offset, offset + size).map(present);
  const page: Page<U> = { items: slice, count: slice.length };
  if (offset + size < items.length) page.next = { page: encodeCursor(offset + size, listKey) };
  return page;
}

function listHash(listKey: string): string {
  let h = 2166136261;
  for (let i = 0; i < listKey.length; i++) {
    h ^= listKey.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return (h >>> 0).toString(36);
}

function encodeCursor(offset: number, listKey: string): string {
  return Buffer.from(`c1.${offset}.${listHash(listKey)}`).toString("base64url");
}

function decodeCursor(cursor: string, listKey: string): number {
  const text = Buffer.from(cursor, "base64url").toString();
  const m = /^c1\.(\d{1,9})\.([0-9a-z]+)$/.exec(text);
  if (!m || m[2] !== listHash(listKey)) throw badRequest("querystring/page", "is not a page cursor of this list (pass the `next.page` value of the previous page)");
  return Number(m[1]);
}

/** Removes keys whose value is undefined, so responses and snapshots never carry `undefined`. */
export function compact<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/** Copies onto `row` each of `fields` the body sets; a field the body leaves out keeps its value. */
export function applyPatch<T, K extends keyof T>(row: T, body: { [F in K]?: T[F] }, fields: readonly K[]): void {
  for (const f of fields) {
    const value = body[f];
    if (value !== undefined) row[f] = value as T[K];
  }
}

/** Longest path the emulator derives, so that a numeric suffix still fits the 100 characters of a path. */
const DERIVED_PATH_MAX = 90;

/**
 * The path of an object created without one, from its title: lowercase, accents dropped, each run of
 * characters other than `a`–`z` and `0`–`9` one `-`, none at either end, at most 90 characters;
 * `fallback` when nothing is left (a title of emoji).
 */
export function slugify(title: string, fallback = ""): string {
  const plain = title.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  const words = plain.split(/[^a-z0-9]+/).filter((w) => w !== "");
  const path = words.join("-").slice(0, DERIVED_PATH_MAX).replace(/-+$/, "");
  return path === "" ? fallback : path;
}

/** `base`, or `base-2`, `base-3`… whichever is not in `taken`. */
export function uniquePath(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
