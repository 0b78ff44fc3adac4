import type { RequestCore } from "./core";
import { path } from "./path";
import type { Collection, CreateCollectionBody, MoveBody, Space, TransferBody, UpdateCollectionBody } from "./types";

/** Collections: nestable groups of spaces. */
export class CollectionsApi {
  constructor(private readonly core: RequestCore) {}

  /** Collections of an organisation; `nested` (default true) includes nested ones. */
  list(orgId: string, query: { nested?: boolean } = {}): Promise<Collection[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/collections`, { ...query });
  }
  iterate(orgId: string, query: { nested?: boolean } = {}): AsyncIterableIterator<Collection> {
    return this.core.paginate(path`/v1/orgs/${orgId}/collections`, { ...query });
  }
  get(collectionId: string): Promise<Collection> {
    return this.core.request("GET", path`/v1/collections/${collectionId}`);
  }
  create(orgId: string, body: CreateCollectionBody): Promise<Collection> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/collections`, { body });
  }
  update(collectionId: string, body: UpdateCollectionBody): Promise<Collection> {
    return this.core.request("PATCH", path`/v1/collections/${collectionId}`, { body });
  }
  delete(collectionId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/collections/${collectionId}`);
  }
  listSpaces(collectionId: string): Promise<Space[]> {
    return this.core.listAll(path`/v1/collections/${collectionId}/spaces`);
  }
  /** Moves under another parent (null: the root) and/or among spaces; repeating it is harmless. */
  move(collectionId: string, body: MoveBody): Promise<Collection> {
    return this.core.request("POST", path`/v1/collections/${collectionId}/move`, { body, idempotent: true });
  }
  transfer(collectionId: string, body: TransferBody): Promise<Collection> {
    return this.core.request("POST", path`/v1/collections/${collectionId}/transfer`, { body, idempotent: true });
  }
}
