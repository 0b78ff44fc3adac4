import type { EditMode, ListEnvelope, Role, SpaceVisibility } from "./baseTypes";

/** Types of the /v1 API for spaces: spaces, their moves and transfers, and their links. */

export interface SpacePosition {
  before?: { type: "space"; space: string };
  after?: { type: "space"; space: string };
}

export interface MoveBody {
  parent?: string | null;
  position?: SpacePosition;
}

export interface TransferBody {
  organization: string;
}

export interface Space {
  object: "space";
  id: string;
  title: string;
  emoji: string;
  visibility: SpaceVisibility;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  editMode?: EditMode;
  /** Content language. */
  language?: string;
  /** `styleguide` on a style guide space (extensions §15); absent on other spaces. */
  type?: "styleguide";
  urls?: { location?: string; app?: string; published?: string; public?: string; icon?: string };
  organization: string;
  parent?: string;
  gitSync?: { repoName?: string; installationProvider?: string; integration?: string; url?: string; updatedAt?: string };
  visitorAuth?: { backend?: string };
  revision: string;
  defaultLevel: Role | null;
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  permissions?: Partial<
    Record<"view" | "access" | "admin" | "viewInviteLinks" | "edit" | "triggerGitSync" | "comment" | "merge" | "review", boolean>
  >;
}

/** A reference from a link item (`kind` such as `file`, `url`, `page`). */
export interface ContentReference {
  kind: string;
  organization?: string;
  space?: string;
  file?: string;
  [key: string]: unknown;
}

/** An item of a space's link list. */
export interface LinkItem {
  status: "ok" | "broken" | "in-app";
  relation?: string;
  targetReference: ContentReference;
  locationReferences?: ContentReference[];
}

/** The link list: the envelope plus link statistics. */
export interface LinkList extends ListEnvelope<LinkItem> {
  stats: { total: number; broken: { total: number; changeRequest: number } };
}

export interface UpdateSpaceBody {
  editMode?: EditMode;
  title?: string;
  defaultLevel?: Role | null;
  emoji?: string;
}
