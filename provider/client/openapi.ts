import type { RequestCore } from "./core";
import { type InOrganization, OwnedItems } from "./ownedList";
import { path } from "./path";
import type { CreateOpenAPISpecBody, OpenAPISpec, OpenAPISpecContent, OpenAPISpecRawContent, OpenAPISpecVersion, OpenAPIVisibilityBody, PutOpenAPISpecBody } from "./types";

/** Stored OpenAPI specifications (addressed by slug: a create of an existing slug is a 409) and their versions. */
export class OpenAPIApi extends OwnedItems<InOrganization, OpenAPISpec, CreateOpenAPISpecBody, OpenAPIVisibilityBody> {
  constructor(core: RequestCore) {
    super(core, { collection: "/v1/orgs/{}/openapi" });
  }

  /** Creates or updates the spec of `slug` (idempotent). */
  put(orgId: string, slug: string, body: PutOpenAPISpecBody): Promise<OpenAPISpec> {
    return this.core.request("PUT", path`/v1/orgs/${orgId}/openapi/${slug}`, { body });
  }
  /** Sets who can read the spec (the one thing POST and PUT cannot set). */
  setVisibility(orgId: string, slug: string, body: OpenAPIVisibilityBody): Promise<OpenAPISpec> {
    return this.update(orgId, slug, body);
  }
  /** The latest version's entry file as submitted: a spec sent as text (a 404 for one fetched from a URL). */
  rawContent(orgId: string, slug: string): Promise<OpenAPISpecRawContent> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/openapi/${slug}/versions/latest/content/raw`);
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
