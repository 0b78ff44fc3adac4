/**
 * The routes every list a site owns has alike (MCP servers, channels, context connections, share links):
 * list in creation order, create, read one, update, delete. A list is one row; what is its own (the row a
 * create makes, how an update changes it, who may read) are the row's hooks.
 */
import { listQuery, type Schema } from "../schema";
import { ownedRow, requireSite, view } from "../access";
import { paginate, type ListQuery } from "../paging";
import type { Ctx, Route } from "../context";
import type { Role, SiteRow, TableName, TableRows } from "../model";
import { siteLocation, type View } from "../present";

type AnyCtx = Ctx<unknown, unknown, unknown>;
type SiteP = { organizationId: string; siteId: string };
type OneP = SiteP & Record<string, string>;

const SITES = "/v1/orgs/:organizationId/sites/:siteId";

/** Tables whose rows belong to one site (`site`). */
export type SiteTable = { [K in TableName]: TableRows[K] extends { site: string } ? K : never }[TableName];

/** How one list of a site is served. Writes need an admin of the organisation; a delete answers 205. */
export interface SiteCollection<K extends SiteTable, Create, Update> {
  /** The list's path segment under `/v1/orgs/:organizationId/sites/:siteId/`, also its name in page cursors. */
  path: string;
  /** The path parameter naming one row. */
  param: string;
  table: K;
  /** What a 404 calls a row. */
  what: string;
  /** Who may list and read one, and the action a 403 names. */
  read: { role: Role; action?: string };
  /** Whether a row has a GET of its own (default true; a share link is read through the list). */
  get?: boolean;
  present(v: View, site: SiteRow, row: TableRows[K]): Record<string, unknown>;
  /** The create's body, and the row it makes (with its ID, site and creation time). */
  create: { body: Schema; row(ctx: Ctx<SiteP, Record<string, never>, Create>, site: SiteRow): TableRows[K] };
  /** The update's body, and how it changes the row (a body member left out keeps its value). */
  update: { body: Schema; apply(row: TableRows[K], body: Partial<Update>): void };
}

/** A registered list: one row's URL and its lookup. */
export interface SiteCollectionRoutes<K extends SiteTable> {
  /** `/v1/orgs/:organizationId/sites/:siteId/<path>/:<param>` */
  one: string;
  /** The site's row a request names, or a 404. */
  find(ctx: AnyCtx, site: SiteRow, id: string): TableRows[K];
}

/** Registers GET and POST `<path>`, and GET (unless `get` is false), PATCH and DELETE `<path>/:<param>`. */
export function registerSiteCollection<K extends SiteTable, Create, Update>(route: Route, c: SiteCollection<K, Create, Update>): SiteCollectionRoutes<K> {
  const base = `${SITES}/${c.path}`;
  const one = `${base}/:${c.param}`;
  const find = (ctx: AnyCtx, site: SiteRow, id: string): TableRows[K] => ownedRow(ctx, c.table, id, "site", site.id, c.what);
  const reading = (ctx: Ctx<SiteP, unknown, unknown>) => requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, c.read.role, c.read.action);
  const writing = (ctx: Ctx<SiteP, unknown, unknown>) => requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "admin");

  route<SiteP, ListQuery>({
    method: "GET",
    url: base,
    query: listQuery(),
    handler: (ctx) => {
      const { site, role } = reading(ctx);
      const v = view(ctx, role);
      const items = [...ctx.store.all(c.table)].filter((row) => row.site === site.id);
      return { status: 200, body: paginate(items, ctx.query, `${c.path}:${site.id}`, (row) => c.present(v, site, row)) };
    },
  });

  route<SiteP, Record<string, never>, Create>({
    method: "POST",
    url: base,
    body: c.create.body,
    handler: (ctx) => {
      const { site, role } = writing(ctx);
      const row = ctx.store.put(c.table, c.create.row(ctx, site));
      const v = view(ctx, role);
      return { status: 201, body: c.present(v, site, row), location: `${siteLocation(v, site)}/${c.path}/${row.id}` };
    },
  });

  if (c.get !== false) {
    route<OneP>({
      method: "GET",
      url: one,
      handler: (ctx) => {
        const { site, role } = reading(ctx);
        return { status: 200, body: c.present(view(ctx, role), site, find(ctx, site, ctx.params[c.param]!)) };
      },
    });
  }

  route<OneP, Record<string, never>, Partial<Update>>({
    method: "PATCH",
    url: one,
    body: c.update.body,
    handler: (ctx) => {
      const { site, role } = writing(ctx);
      const row = find(ctx, site, ctx.params[c.param]!);
      c.update.apply(row, ctx.body ?? {});
      ctx.store.touch(c.table, row);
      return { status: 200, body: c.present(view(ctx, role), site, row) };
    },
  });

  route<OneP>({
    method: "DELETE",
    url: one,
    handler: (ctx) => {
      const { site } = writing(ctx);
      ctx.store.del(c.table, find(ctx, site, ctx.params[c.param]!).id);
      return { status: 205 };
    },
  });

  return { one, find };
}
