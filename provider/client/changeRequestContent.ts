import { changeRequestSegment, type ChangeRequestRef, type PageSize } from "./changeRequests";
import type { RequestCore } from "./core";
import { path } from "./path";
import type { Backlink, ContentQuery, ImportContentBody, ImportContentResult, Page, PageLinkList, PageQuery, Revision, RevisionFile } from "./contentTypes";
import type { LinkItem } from "./types";

/** The content of a change request: its revision, pages, files and links, and imports into it. */
export class ChangeRequestContentApi {
  constructor(private readonly core: RequestCore) {}

  #base(spaceId: string, ref: ChangeRequestRef): string {
    return path`/v1/spaces/${spaceId}/change-requests/${changeRequestSegment(ref)}/content`;
  }

  /** The change request's current revision (pages as a tree, files). */
  get(spaceId: string, ref: ChangeRequestRef, query: ContentQuery = {}): Promise<Revision> {
    return this.core.request("GET", this.#base(spaceId, ref), { query: { ...query } });
  }
  /**
   * Imports the content at a URL into a new revision of the change request. Never retried once sent
   * (a repeated import adds the pages again): on an outcome-unknown error, read `get` before retrying.
   */
  import(spaceId: string, ref: ChangeRequestRef, body: ImportContentBody): Promise<ImportContentResult> {
    return this.core.request("POST", `${this.#base(spaceId, ref)}/import`, { body });
  }
  /** The page tree (without page content). */
  async pages(spaceId: string, ref: ChangeRequestRef, query: ContentQuery = {}): Promise<Page[]> {
    const answer = await this.core.request<{ pages: Page[] }>("GET", `${this.#base(spaceId, ref)}/pages`, { query: { ...query } });
    return answer.pages;
  }
  /** One page with its content: `format: "markdown"` adds `markdown`, the default `document` adds `document`. */
  page(spaceId: string, ref: ChangeRequestRef, pageId: string, query: PageQuery = {}): Promise<Page> {
    return this.core.request("GET", `${this.#base(spaceId, ref)}${path`/page/${pageId}`}`, { query: { ...query } });
  }
  /** One page of a page's links with `stats` over all of them. */
  pageLinks(spaceId: string, ref: ChangeRequestRef, pageId: string, query: { page?: string; limit?: number } = {}): Promise<PageLinkList> {
    return this.core.request("GET", `${this.#base(spaceId, ref)}${path`/page/${pageId}`}/links`, { query: { limit: 1000, ...query } });
  }
  /** Every link of a page, across pages of the list. */
  iteratePageLinks(spaceId: string, ref: ChangeRequestRef, pageId: string, query: PageSize = {}): AsyncIterableIterator<LinkItem> {
    return this.core.paginate(`${this.#base(spaceId, ref)}${path`/page/${pageId}`}/links`, { ...query });
  }
  listFiles(spaceId: string, ref: ChangeRequestRef, query: ContentQuery & PageSize = {}): Promise<RevisionFile[]> {
    return this.core.listAll(`${this.#base(spaceId, ref)}/files`, { ...query });
  }
  iterateFiles(spaceId: string, ref: ChangeRequestRef, query: ContentQuery & PageSize = {}): AsyncIterableIterator<RevisionFile> {
    return this.core.paginate(`${this.#base(spaceId, ref)}/files`, { ...query });
  }
  file(spaceId: string, ref: ChangeRequestRef, fileId: string, query: ContentQuery = {}): Promise<RevisionFile> {
    return this.core.request("GET", `${this.#base(spaceId, ref)}${path`/files/${fileId}`}`, { query: { ...query } });
  }
  /** The places (pages) that reference a file. */
  listBacklinks(spaceId: string, ref: ChangeRequestRef, fileId: string, query: PageSize = {}): Promise<Backlink[]> {
    return this.core.listAll(`${this.#base(spaceId, ref)}${path`/files/${fileId}`}/backlinks`, { ...query });
  }
  iterateBacklinks(spaceId: string, ref: ChangeRequestRef, fileId: string, query: PageSize = {}): AsyncIterableIterator<Backlink> {
    return this.core.paginate(`${this.#base(spaceId, ref)}${path`/files/${fileId}`}/backlinks`, { ...query });
  }
}
