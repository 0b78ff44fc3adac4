import type { RequestCore } from "./core";
import { path } from "./path";
import type {
  ChangeRequest,
  ChangeRequestRevisionResult,
  CreateChangeRequestBody,
  ListChangeRequestsQuery,
  UpdateChangeRequestBody,
} from "./contentTypes";

/** A change request named by its ID or by its number within the space. */
export type ChangeRequestRef = string | number;

/** The path segment of a change request reference (a number is sent as its decimal form). */
export function changeRequestSegment(ref: ChangeRequestRef): string {
  if (typeof ref === "number") {
    if (!Number.isInteger(ref) || ref < 1) throw new Error(`a change request number must be a positive integer, got ${ref}`);
    return String(ref);
  }
  return ref;
}

/** Page size of each request of a list (default 1000). */
export interface PageSize {
  limit?: number;
}

/** Change requests of a space: proposed edits, their status, merging and pulling main into them. */
export class ChangeRequestsApi {
  constructor(private readonly core: RequestCore) {}

  /** Change requests with the given status (default `open`), in creation order. */
  list(spaceId: string, query: ListChangeRequestsQuery & PageSize = {}): Promise<ChangeRequest[]> {
    return this.core.listAll(path`/v1/spaces/${spaceId}/change-requests`, { ...query });
  }
  iterate(spaceId: string, query: ListChangeRequestsQuery & PageSize = {}): AsyncIterableIterator<ChangeRequest> {
    return this.core.paginate(path`/v1/spaces/${spaceId}/change-requests`, { ...query });
  }
  /**
   * Opens a change request from the space's current revision. Never retried once sent: on an
   * outcome-unknown error, look it up (`list` with its status, by subject) before creating another.
   */
  create(spaceId: string, body: CreateChangeRequestBody = {}): Promise<ChangeRequest> {
    return this.core.request("POST", path`/v1/spaces/${spaceId}/change-requests`, { body });
  }
  get(spaceId: string, ref: ChangeRequestRef): Promise<ChangeRequest> {
    return this.core.request("GET", path`/v1/spaces/${spaceId}/change-requests/${changeRequestSegment(ref)}`);
  }
  /** Changes the subject or the status (`draft`, `open`, `archived`; merging is `merge`). */
  update(spaceId: string, ref: ChangeRequestRef, body: UpdateChangeRequestBody): Promise<ChangeRequest> {
    return this.core.request("PATCH", path`/v1/spaces/${spaceId}/change-requests/${changeRequestSegment(ref)}`, { body });
  }
  /**
   * Merges into the space's main content; `revision` is the space's new revision. Not retried once
   * sent (a second merge is refused): on an outcome-unknown error, `get` it and check `status`.
   */
  merge(spaceId: string, ref: ChangeRequestRef): Promise<ChangeRequestRevisionResult> {
    return this.core.request("POST", path`/v1/spaces/${spaceId}/change-requests/${changeRequestSegment(ref)}/merge`);
  }
  /** Pulls the space's main content into the change request. Repeating it is harmless, so it is retried. */
  updateFromMain(spaceId: string, ref: ChangeRequestRef): Promise<ChangeRequestRevisionResult> {
    return this.core.request("POST", path`/v1/spaces/${spaceId}/change-requests/${changeRequestSegment(ref)}/update`, { idempotent: true });
  }
  /** The URL of a PDF of the change request (or of one page with `only`). */
  pdf(spaceId: string, ref: ChangeRequestRef, query: { only?: boolean; page?: string } = {}): Promise<{ url: string }> {
    return this.core.request("GET", path`/v1/spaces/${spaceId}/change-requests/${changeRequestSegment(ref)}/pdf`, { query: { ...query } });
  }
}
