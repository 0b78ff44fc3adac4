import type { RequestCore } from "./core";
import { path } from "./path";
import type { Page } from "./contentTypes";
import type { LinkList, MoveBody, Space, TransferBody, UpdateSpaceBody } from "./types";

/** Body of `POST /orgs/{org}/spaces`; every member is optional. */
export interface CreateSpaceBody {
  /** At most 50 characters. */
  title?: string;
  emoji?: string;
  /** The collection the space goes in. */
  parent?: string;
  language?: string;
  editMode?: "live" | "locked";
  /** A completely empty space (no page). */
  empty?: true;
}

/** Spaces (containers of content). */
export class SpacesApi {
  constructor(private readonly core: RequestCore) {}

  /** Every live space of an organisation. */
  list(orgId: string): Promise<Space[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/spaces`);
  }
  /** Creates a space (never retried blindly: an unknown outcome raises ApiError.outcomeUnknown). */
  create(orgId: string, body: CreateSpaceBody = {}): Promise<Space> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/spaces`, { body });
  }
  /** A space by ID; a deleted one (within 7 days) comes back with `deletedAt` set. */
  get(spaceId: string, query: { shareKey?: string } = {}): Promise<Space> {
    return this.core.request("GET", path`/v1/spaces/${spaceId}`, { query: { ...query } });
  }
  update(spaceId: string, body: UpdateSpaceBody): Promise<Space> {
    return this.core.request("PATCH", path`/v1/spaces/${spaceId}`, { body });
  }
  /** Soft-deletes: restorable for 7 days. */
  delete(spaceId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/spaces/${spaceId}`);
  }
  /** Creates a copy (never retried blindly). */
  duplicate(spaceId: string): Promise<Space> {
    return this.core.request("POST", path`/v1/spaces/${spaceId}/duplicate`);
  }
  restore(spaceId: string): Promise<Space> {
    return this.core.request("POST", path`/v1/spaces/${spaceId}/restore`, { idempotent: true });
  }
  move(spaceId: string, body: MoveBody): Promise<Space> {
    return this.core.request("POST", path`/v1/spaces/${spaceId}/move`, { body, idempotent: true });
  }
  transfer(spaceId: string, body: TransferBody): Promise<Space> {
    return this.core.request("POST", path`/v1/spaces/${spaceId}/transfer`, { body, idempotent: true });
  }
  /**
   * The page tree of the space's current content (without page content), each page with its `path`.
   * Outside the contract, which reads pages only in a change request's content; the platform serves it.
   */
  async pages(spaceId: string): Promise<Page[]> {
    const answer = await this.core.request<{ pages: Page[] }>("GET", path`/v1/spaces/${spaceId}/content/pages`);
    return answer.pages;
  }
  /** One page of the space's links with their statistics (`stats` describes the whole list). */
  links(spaceId: string, query: { status?: "ok" | "broken" | "in-app"; page?: string; limit?: number } = {}): Promise<LinkList> {
    return this.core.request("GET", path`/v1/spaces/${spaceId}/links`, { query: { limit: 1000, ...query } });
  }
}
