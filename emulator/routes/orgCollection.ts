/** The routes every collection an organization owns has alike: list, get one, delete one. */
import { notFound } from "../errors";
import { listQuery } from "../schema";
import { ownedRow, requireOrg, view } from "../access";
import { paginate, type ListQuery } from "../paging";
import type { Ctx, Route } from "../context";
import type { OrgRow, Role, TableName, TableRows } from "../model";
import type { View } from "../present";

type AnyCtx = Ctx<unknown, unknown, unknown>;

/** Tables whose rows belong to one organization (`org`). */
export type OrgTable = { [K in TableName]: TableRows[K] extends { org: string } ? K : never }[TableName];

/** The role a request needs, and the action a 403 names. */
export interface Need {
  role: Role;
  action?: string;
}

/** How one collection of an organization is served. */
export interface OrgCollection<K extends OrgTable> {
  /** The collection's path segment under `/v1/orgs/:organizationId/`, also its lists' name in page cursors. */
  path: string;
  /** The path parameter naming one row. */
  param: string;
  table: K;
  /** What a 404 calls a row. */
  what: string;
  /** The field a request names a row by (default: its ID). */
  key?: keyof TableRows[K] & string;
  /** Who may list and get. */
  read: Need;
  /** Who may delete. */
  change: Need;
  present(v: View, row: TableRows[K]): Record<string, unknown>;
  /** What a delete answers: 204, or 205 where the platform does. */
  deleted: 204 | 205;
}

/** A registered collection: its URL and its lookup. */
export interface OrgCollectionRoutes<K extends OrgTable> {
  /** `/v1/orgs/:organizationId/<path>` */
  base: string;
  /** The organization's row a request names, or a 404. */
  find(ctx: AnyCtx, org: OrgRow, ref: string): TableRows[K];
}

/** The organization and the caller's role, after checking the caller may act as `need` says. */
export function requireOrgFor(ctx: AnyCtx, orgId: string, need: Need): ReturnType<typeof requireOrg> {
  return requireOrg(ctx, orgId, need.role, need.action);
}

/** Registers GET `base` (the organization's rows in creation order, paged), GET and DELETE `base/:param`. */
export function registerOrgCollection<K extends OrgTable>(route: Route, c: OrgCollection<K>): OrgCollectionRoutes<K> {
  type OrgP = { organizationId: string };
  type OneP = OrgP & Record<string, string>;
  const base = `/v1/orgs/:organizationId/${c.path}`;
  const one = `${base}/:${c.param}`;
  const find = (ctx: AnyCtx, org: OrgRow, ref: string): TableRows[K] => {
    const key = c.key;
    if (key === undefined) return ownedRow(ctx, c.table, ref, "org", org.id, c.what);
    for (const row of ctx.store.all(c.table)) if (row.org === org.id && row[key] === ref) return row;
    throw notFound(c.what, ref);
  };

  route<OrgP, ListQuery>({
    method: "GET",
    url: base,
    query: listQuery(),
    handler: (ctx) => {
      const { org, role } = requireOrgFor(ctx, ctx.params.organizationId, c.read);
      const items = [...ctx.store.all(c.table)].filter((row) => row.org === org.id);
      return { status: 200, body: paginate(items, ctx.query, `${c.path}:${org.id}`, (row) => c.present(view(ctx, role), row)) };
    },
  });

  route<OneP>({
    method: "GET",
    url: one,
    handler: (ctx) => {
      const { org, role } = requireOrgFor(ctx, ctx.params.organizationId, c.read);
      return { status: 200, body: c.present(view(ctx, role), find(ctx, org, ctx.params[c.param]!)) };
    },
  });

  route<OneP>({
    method: "DELETE",
    url: one,
    handler: (ctx) => {
      const { org } = requireOrgFor(ctx, ctx.params.organizationId, c.change);
      ctx.store.del(c.table, find(ctx, org, ctx.params[c.param]!).id);
      return { status: c.deleted };
    },
  });

  return { base, find };
}
