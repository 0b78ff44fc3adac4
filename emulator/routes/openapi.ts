/** OpenAPI specs and their versions: POST creates (409 on an existing slug), PUT creates or updates; each new source URL adds a version. */
import { conflict, notFound, patternRefused } from "../errors";
import { limit, listQuery, obj, type Schema } from "../schema";
import { paginate, type ListQuery } from "../paging";
import { requireOrg, view } from "../access";
import type { Ctx, Route } from "../context";
import { newId } from "../seed";
import type { OpenApiSpecRow, OrgRow } from "../model";
import { presentOpenApiSpec, presentOpenApiVersion } from "../present";
import { registerOrgCollection, requireOrgFor, type Need } from "./orgCollection";

type OrgP = { organizationId: string };
type SpecP = OrgP & { specSlug: string };
type VersionP = SpecP & { versionId: string };
type AnyCtx = Ctx<unknown, unknown, unknown>;

const MANAGE: Need = { role: "create", action: "manage OpenAPI specs" };
/** Exactly one of `url` (fetched) and `text` (the specification itself, inline). */
const SOURCE: Schema = { oneOf: [{ ...obj({ url: limit("openapiSourceURL") }, ["url"]), additionalProperties: false }, { ...obj({ text: { type: "string", minLength: 1 } }, ["text"]), additionalProperties: false }] };
type Source = { url: string; text?: undefined } | { text: string; url?: undefined };

/** Where a text spec's content is served from: its raw-content route (a text spec has no source URL). */
const rawLocation = (ctx: AnyCtx, spec: OpenApiSpecRow) => `${ctx.base}/v1/orgs/${spec.org}/openapi/${spec.slug}/versions/latest/content/raw`;

/**
 * Records a new source as a new version (processing starts over); the same URL, or the same text, adds
 * nothing. A text source clears the source URL and a URL source the text.
 */
function submitSource(ctx: AnyCtx, spec: OpenApiSpecRow, source: Source): void {
  const now = ctx.store.nowIso();
  spec.updatedAt = now;
  const same = source.text !== undefined ? spec.text === source.text : spec.sourceURL === source.url && !spec.text;
  if (same && spec.versions.length > 0) return;
  spec.sourceURL = source.url ?? null;
  spec.text = source.text ?? null;
  spec.processingStartedAt = now;
  spec.versions.push({ id: newId("ver_"), createdAt: now, url: source.url ?? rawLocation(ctx, spec) });
}

function versionContent(url: string): { filesystem: Record<string, unknown>; url: string } {
  return { filesystem: { "openapi.yaml": { url } }, url };
}

/** The format of a text spec: JSON when it parses as JSON, else YAML. */
function formatOf(text: string): "json" | "yaml" {
  try {
    JSON.parse(text);
    return "json";
  } catch {
    return "yaml";
  }
}

export function registerOpenApi(route: Route): void {
  const { base, find: findSpec } = registerOrgCollection(route, {
    path: "openapi",
    param: "specSlug",
    table: "openapiSpecs",
    what: "OpenAPI spec",
    key: "slug",
    read: { role: "read" },
    change: MANAGE,
    present: presentOpenApiSpec,
    deleted: 205,
  });

  route<OrgP, Record<string, never>, { slug: string; source: Source }>({
    method: "POST",
    url: base,
    body: obj({ slug: limit("openapiSlug"), source: SOURCE }, ["slug", "source"]),
    handler: (ctx) => {
      const { org, role } = requireOrgFor(ctx, ctx.params.organizationId, MANAGE);
      for (const s of ctx.store.all("openapiSpecs")) {
        if (s.org === org.id && s.slug === ctx.body.slug) throw conflict(`an OpenAPI spec with slug '${ctx.body.slug}' already exists in organization '${org.id}'`);
      }
      const spec = createSpec(ctx, org, ctx.body.slug, ctx.body.source);
      return { status: 201, body: presentOpenApiSpec(view(ctx, role), spec), location: `${ctx.base}/v1/orgs/${org.id}/openapi/${spec.slug}` };
    },
  });

  route<SpecP, Record<string, never>, { source: Source }>({
    method: "PUT",
    url: `${base}/:specSlug`,
    body: obj({ source: SOURCE }, ["source"]),
    handler: (ctx) => {
      const { org, role } = requireOrgFor(ctx, ctx.params.organizationId, MANAGE);
      const slug = ctx.params.specSlug;
      let spec = [...ctx.store.all("openapiSpecs")].find((s) => s.org === org.id && s.slug === slug);
      if (spec) {
        submitSource(ctx, spec, ctx.body.source);
        ctx.store.touch("openapiSpecs", spec);
      } else {
        if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) || slug.length > 100) {
          throw patternRefused("params/specSlug", "openapiSlug", "1 to 100 characters");
        }
        spec = createSpec(ctx, org, slug, ctx.body.source);
      }
      return { status: 200, body: presentOpenApiSpec(view(ctx, role), spec) };
    },
  });

  registerVisibilityAndRaw(route, base, findSpec);

  route<SpecP, ListQuery>({
    method: "GET",
    url: `${base}/:specSlug/versions`,
    query: listQuery(),
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      const spec = findSpec(ctx, org, ctx.params.specSlug);
      return { status: 200, body: paginate(spec.versions, ctx.query, `openapi-versions:${spec.id}`, (ver) => presentOpenApiVersion(view(ctx, role), spec, ver)) };
    },
  });

  const latest = (ctx: AnyCtx, spec: OpenApiSpecRow) => {
    const ver = spec.versions[spec.versions.length - 1];
    if (!ver) throw notFound("version of OpenAPI spec", spec.slug);
    return ver;
  };
  const byId = (spec: OpenApiSpecRow, id: string) => {
    const ver = spec.versions.find((x) => x.id === id);
    if (!ver) throw notFound("OpenAPI spec version", id);
    return ver;
  };

  route<SpecP>({
    method: "GET",
    url: `${base}/:specSlug/versions/latest`,
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      const spec = findSpec(ctx, org, ctx.params.specSlug);
      return { status: 200, body: presentOpenApiVersion(view(ctx, role), spec, latest(ctx, spec)) };
    },
  });
  route<SpecP>({
    method: "GET",
    url: `${base}/:specSlug/versions/latest/content`,
    handler: (ctx) => {
      const { org } = requireOrg(ctx, ctx.params.organizationId, "read");
      return { status: 200, body: versionContent(latest(ctx, findSpec(ctx, org, ctx.params.specSlug)).url) };
    },
  });
  route<VersionP>({
    method: "GET",
    url: `${base}/:specSlug/versions/:versionId`,
    handler: (ctx) => {
      const { org, role } = requireOrg(ctx, ctx.params.organizationId, "read");
      const spec = findSpec(ctx, org, ctx.params.specSlug);
      return { status: 200, body: presentOpenApiVersion(view(ctx, role), spec, byId(spec, ctx.params.versionId)) };
    },
  });
  route<VersionP>({
    method: "GET",
    url: `${base}/:specSlug/versions/:versionId/content`,
    handler: (ctx) => {
      const { org } = requireOrg(ctx, ctx.params.organizationId, "read");
      return { status: 200, body: versionContent(byId(findSpec(ctx, org, ctx.params.specSlug), ctx.params.versionId).url) };
    },
  });
}

function createSpec(ctx: AnyCtx, org: OrgRow, slug: string, source: Source): OpenApiSpecRow {
  const now = ctx.store.nowIso();
  const spec: OpenApiSpecRow = { id: newId("oas_"), org: org.id, slug, createdAt: now, updatedAt: now, sourceURL: null, text: null, visibility: "private", processingStartedAt: now, versions: [] };
  submitSource(ctx, spec, source);
  ctx.store.put("openapiSpecs", spec);
  return spec;
}

/** Extensions §13: a spec's visibility (PATCH) and a text spec's raw content. */
function registerVisibilityAndRaw(route: Route, base: string, findSpec: (ctx: AnyCtx, org: OrgRow, slug: string) => OpenApiSpecRow): void {
  // Visibility is set here only (POST and PUT cannot); a new spec is private.
  route<SpecP, Record<string, never>, { visibility: "private" | "public" }>({
    method: "PATCH",
    url: `${base}/:specSlug`,
    body: obj({ visibility: limit("openapiVisibility") }, ["visibility"]),
    handler: (ctx) => {
      const { org, role } = requireOrgFor(ctx, ctx.params.organizationId, MANAGE);
      const spec = findSpec(ctx, org, ctx.params.specSlug);
      spec.visibility = ctx.body.visibility;
      spec.updatedAt = ctx.store.nowIso();
      ctx.store.touch("openapiSpecs", spec);
      return { status: 200, body: presentOpenApiSpec(view(ctx, role), spec) };
    },
  });

  // The entry file exactly as submitted: a text spec's text; a spec fetched from a URL has none here (404).
  route<SpecP>({
    method: "GET",
    url: `${base}/:specSlug/versions/latest/content/raw`,
    handler: (ctx) => {
      const { org } = requireOrg(ctx, ctx.params.organizationId, "read");
      const spec = findSpec(ctx, org, ctx.params.specSlug);
      if (!spec.text) throw notFound("raw content of OpenAPI spec", spec.slug);
      return { status: 200, body: { text: spec.text, format: formatOf(spec.text) } };
    },
  });
}
