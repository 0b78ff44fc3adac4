/** Spaces of an organization: the list of all of them and the creation of a new one. */
import { badRequest } from "../errors";
import { ID, STRING, limit, listQuery, obj, type Schema } from "../schema";
import { paginate, type ListQuery } from "../paging";
import { requireOrg, view } from "../access";
import type { Route } from "../context";
import { newId } from "../seed";
import type { SpaceRow } from "../model";
import { presentSpace } from "../present";

type OrgP = { organizationId: string };

interface CreateSpace {
  title?: string;
  emoji?: string;
  parent?: string;
  language?: string;
  editMode?: SpaceRow["editMode"];
  template?: { id: string; params?: Record<string, unknown> };
  computedSource?: Record<string, unknown>;
  empty?: true;
}

const CREATE_SPACE: Schema = {
  ...obj({
    title: limit("spaceTitle"),
    emoji: limit("emoji"),
    parent: ID,
    language: limit("language"),
    editMode: limit("spaceEditMode"),
    template: obj({ id: STRING, params: obj({ contentRefs: { type: "object", additionalProperties: limit("contentRef") } }) }, ["id"]),
    computedSource: obj({ type: STRING, props: { type: "object" }, dependencies: { type: "object" } }, ["type"]),
    empty: { const: true },
  }),
  additionalProperties: false,
};

export function registerSpaceCreation(route: Route): void {
  const base = "/v1/orgs/:organizationId/spaces";

  route<OrgP, ListQuery>({
    method: "GET",
    url: base,
    query: listQuery(),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      const v = view(ctx, role);
      // Deleted spaces are not listed (they stay readable by ID while restorable).
      const items = [...ctx.store.all("spaces")].filter((s) => s.org === org.id && s.deletedAt === null);
      return { status: 200, body: paginate(items, ctx.query, `spaces:${org.id}`, (s) => presentSpace(v, s)) };
    },
  });

  route<OrgP, Record<string, never>, CreateSpace>({
    method: "POST",
    url: base,
    body: CREATE_SPACE,
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "create", "create spaces");
      const b = ctx.body ?? {};
      const sources = (["template", "computedSource", "empty"] as const).filter((k) => b[k] !== undefined);
      if (sources.length > 1) throw badRequest("body", `takes at most one of 'template', 'computedSource' and 'empty', not ${sources.join(" and ")}`);
      // No templates or computed sources exist here: naming one is naming something unknown.
      if (b.template) throw badRequest("body/template/id", `names no space template: '${b.template.id}'`);
      if (b.computedSource) throw badRequest("body/computedSource/type", `names no content source that can compute a space: '${String(b.computedSource.type)}'`);
      if (b.parent !== undefined) {
        const c = ctx.store.get("collections", b.parent);
        if (!c || c.org !== org.id) throw badRequest("body/parent", `names no collection of organization '${org.id}': '${b.parent}'`);
      }
      const now = ctx.store.nowIso();
      const space: SpaceRow = {
        id: newId("space_"), org: org.id, title: b.title ?? "Untitled", emoji: b.emoji ?? "", visibility: b.parent ? "in-collection" : "private",
        createdAt: now, updatedAt: now, deletedAt: null, editMode: b.editMode ?? "live", parent: b.parent ?? null, defaultLevel: null,
        language: b.language ?? null, revision: newId("rev_"), comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0,
      };
      ctx.store.put("spaces", space);
      return { status: 201, body: presentSpace(view(ctx, role), space), location: `${ctx.base}/v1/spaces/${space.id}` };
    },
  });
}
