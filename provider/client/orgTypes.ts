import type { Space } from "./spaceTypes";
import type { Role, TeamRole } from "./baseTypes";

/** Types of the /v1 API for the organisation: users, the organisation and its search, members, teams and collections. */

export interface User {
  object: "user";
  id: string;
  displayName: string;
  email?: string;
  photoURL?: string;
  urls?: { location?: string };
}

export interface Organization {
  object: "organization";
  id: string;
  title: string;
  createdAt: string;
  emailDomains: string[];
  hostname?: string;
  type: string;
  useCase?: string;
  communityType?: string;
  defaultRole?: Role | null;
  defaultContent?: { type: "site"; site: string } | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks: boolean;
  plan: string;
  customHostname?: string;
  billing?: { interval?: string; endDate?: string; hasPaymentFailed?: boolean; isScheduledToCancel?: boolean };
  urls?: { location?: string; app?: string; logo?: string };
  trial?: { status?: string; endDate?: string; decision?: string };
  blocked?: { reason?: string };
  permissions?: Partial<
    Record<
      | "view"
      | "admin"
      | "ownTeam"
      | "createContent"
      | "createOpenAPISpec"
      | "ingestConversations"
      | "viewBilling"
      | "listMembers"
      | "listTeams"
      | "listIntegrations",
      boolean
    >
  >;
}

export interface UpdateOrganizationBody {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: Role | null;
  defaultContent?: { type: "site"; site: string } | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
}

/** An item of the organisation content search. */
export interface SearchResultItem {
  id: string;
  title: string;
  pages: {
    id: string;
    title: string;
    path: string;
    sections?: { id: string; title: string; path: string; body: string; urls?: { app?: string } }[];
    urls?: { app?: string };
  }[];
}

export interface Member {
  object: "member";
  id: string;
  /** null for guests. */
  role: Role | null;
  user: User;
  disabled?: boolean;
  joinedAt?: string;
  lastSeenAt?: string;
  sso?: boolean;
  spaces?: number;
  teams?: number;
}

export interface ListMembersQuery {
  order?: "asc" | "desc";
  role?: Role;
  search?: string;
  sort?: "joinedAt" | "lastSeenAt";
}

export interface UpdateMemberBody {
  role?: Role | null;
}

export interface MemberSpaceItem {
  permission: string;
  space: Space;
}

export interface MemberTeamItem {
  team: Team;
  member: { role: TeamRole };
}

export interface Team {
  object: "team";
  id: string;
  title?: string;
  members?: number;
  spaces?: number;
  createdAt?: string;
  permissions?: { admin?: boolean; view?: boolean };
}

export interface CreateTeamBody {
  title: string;
  /** Member user IDs or e-mail addresses. */
  members?: string[];
}

export interface UpdateTeamBody {
  title: string;
}

/** An item of a team's member list. */
export interface TeamMemberItem {
  organization: Member;
  team: { role: TeamRole };
  permissions?: { view?: boolean };
}

export interface UpdateTeamMembersBody {
  /** User IDs or e-mail addresses. A user in both add and remove is removed. */
  add?: string[];
  remove?: string[];
  memberships?: Record<string, { role: TeamRole }>;
}

export interface PutTeamMemberBody {
  role?: TeamRole;
}

export interface Collection {
  object: "collection";
  id: string;
  title: string;
  description?: string;
  organization: string;
  parent?: string;
  defaultLevel: Role | null;
  urls?: { location?: string; app?: string };
  permissions?: Partial<Record<"view" | "admin" | "viewInviteLinks" | "create", boolean>>;
}

export interface CreateCollectionBody {
  title?: string;
  parent?: string;
}

export interface UpdateCollectionBody {
  title?: string;
  description?: string;
  defaultLevel?: Role | null;
}

/** Position of a moved space or collection among spaces. */
