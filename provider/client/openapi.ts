import type { RequestCore } from "./core";
import { path } from "./path";
import type { CreateOpenAPISpecBody, OpenAPISpec, OpenAPISpecContent, OpenAPISpecRawContent, OpenAPISpecVersion, OpenAPIVisibilityBody, PutOpenAPISpecBody } from "./types";

/** Stored OpenAPI specifications (addressed by slug) and their versions. */
export class OpenAPIApi {
  constructor(private readonly core: RequestCore) {}

  list(orgId: string): Promise<OpenAPISpec[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/openapi`);
  }
  iterate(orgId: string): AsyncIterableIterator<OpenAPISpec> {
    return this.core.paginate(path`/v1/orgs/${orgId}/openapi`);
  }
  get(orgId: string, slug: string): Promise<OpenAPISpec> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/openapi/${slug}`);
  }
  /** Creates a spec; an existing slug is a 409. */
  create(orgId: string, body: CreateOpenAPISpecBody): Promise<OpenAPISpec> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/openapi`, { body });
  }
  /** Creates or updates the spec of `slug` (idempotent). */
  put(orgId: string, slug: string, body: PutOpenAPISpecBody): Promise<OpenAPISpec> {
    return this.core.request("PUT", path`/v1/orgs/${orgId}/openapi/${slug}`, { body });
  }
  /** Sets who can read the spec (the one thing POST and PUT cannot set). */
  setVisibility(orgId: string, slug: string, body: OpenAPIVisibilityBody): Promise<OpenAPISpec> {
    return this.core.request("PATCH", path`/v1/orgs/${orgId}/openapi/${slug}`, { body });
  }
  /** The latest version's entry file as submitted: a spec sent as text (a 404 for one fetched from a URL). */
  rawContent(orgId: string, slug: string): Promise<OpenAPISpecRawContent> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/openapi/${slug}/versions/latest/content/raw`);
  }
  delete(orgId: string, slug: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/openapi/${slug}`);
  }
  listVersions(orgId: string, slug: string): Promise<OpenAPISpecVersion[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/openapi/${slug}/versions`);
  }
  iterateVersions(orgId: string, slug: string): AsyncIterableIterator<OpenAPISpecVersion> {
    return this.core.paginate(path`/v1/orgs/${orgId}/openapi/${slug}/versions`);
  }
  latestVersion(orgId: string, slug: string): Promise<OpenAPISpecVersion> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/openapi/${slug}/versions/latest`);
  }
  getVersion(orgId: string, slug: string, versionId: string): Promise<OpenAPISpecVersion> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/openapi/${slug}/versions/${versionId}`);
  }
  /** Content of a version; `versionId` omitted: the latest. */
  versionContent(orgId: string, slug: string, versionId?: string): Promise<OpenAPISpecContent> {
    const p =
      versionId === undefined
        ? path`/v1/orgs/${orgId}/openapi/${slug}/versions/latest/content`
        : path`/v1/orgs/${orgId}/openapi/${slug}/versions/${versionId}/content`;
    return this.core.request("GET", p);
  }
}
