import type { RequestCore } from "./core";
import { path } from "./path";
import type { LinkList, MoveBody, Space, TransferBody, UpdateSpaceBody } from "./types";

/** Spaces (containers of content). */
export class SpacesApi {
  constructor(private readonly core: RequestCore) {}

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
  /** One page of the space's links with their statistics (`stats` describes the whole list). */
  links(spaceId: string, query: { status?: "ok" | "broken" | "in-app"; page?: string; limit?: number } = {}): Promise<LinkList> {
    return this.core.request("GET", path`/v1/spaces/${spaceId}/links`, { query: { limit: 1000, ...query } });
  }
}
