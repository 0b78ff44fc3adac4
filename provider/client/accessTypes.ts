/**
 * Types of permissions (sites, spaces, collections), a site's visitor authentication settings and
 * integration installations. Fields the API marks optional are optional.
 */
import type { Role, Site, Space, Team, User } from "./types";

/** A role, or `null` for a guest. */
export type RoleOrGuest = Role | null;

/** Grants `role` to every listed team and user (at least one of the two lists, each at least one ID). */
export interface InviteBody {
  role: RoleOrGuest;
  teams?: string[];
  users?: string[];
}

/** A team's direct grant on a site, space or collection. */
export interface TeamPermission {
  permission: RoleOrGuest;
  team: Team;
}

/** A user's direct grant on a site, space or collection. */
export interface UserPermission {
  permission: RoleOrGuest;
  user: User;
}

/** What set a user's effective level on a site. */
export type SitePermissionOrigin =
  | { type: "space"; space: string }
  | { type: "organization"; organization: string }
  | { type: "site"; site: string; reason: "member" | "team" | "default"; team?: string };

/** One user who can reach a site, with the effective level and what set it. */
export interface UserSitePermission {
  permission: RoleOrGuest;
  user: User;
  origin: SitePermissionOrigin;
  disabled: boolean;
  lastSeenAt?: string;
}

/** Filters and order of a site's aggregate list. */
export interface SiteAggregateQuery {
  order?: "asc" | "desc";
  /** A role, or `guest`. */
  role?: Role | "guest";
  /** Matches display names and e-mail addresses. */
  search?: string;
  sort?: "joinedAt" | "lastSeenAt" | "name";
  /** Only members of this team. */
  team?: string;
}

/** Who authenticates a site's visitors. */
export type PublishingAuthBackend = "custom" | "integration";

/** A site's visitor authentication settings. `privateKey` is a secret. */
export interface PublishingAuth {
  object: "publishing-auth";
  backend: PublishingAuthBackend;
  /** Secret: signs visitor tokens; changed only by regenerate. */
  privateKey: string;
  fallbackURL?: string;
  logoutURL?: string;
  /** Name of the integration enabled on the site that authenticates visitors, if any. */
  integration?: string;
}

/** Changes to the settings: a URL omitted stays, `null` unsets it. */
export interface UpdatePublishingAuthBody {
  backend: PublishingAuthBackend;
  fallbackURL?: string | null;
  logoutURL?: string | null;
}

export type InstallationStatus = "active" | "pending" | "paused";
export type InstallationSelection = "all" | "selected";

/** An integration installed on an organisation. `configuration` may hold credentials: treat it as secret. */
export interface Installation {
  id: string;
  status: InstallationStatus;
  space_selection: InstallationSelection;
  site_selection: InstallationSelection;
  spaces: number;
  configuration: Record<string, unknown>;
  externalIds: string[];
  target: { organization: string };
  network?: { proxy?: boolean };
  createdAt: string;
  updatedAt: string;
  urls: { location: string; app: string; publicEndpoint: string; publicContentEndpoint: string };
}

export interface UpdateInstallationBody {
  externalIds?: string[];
  configuration?: Record<string, unknown>;
  space_selection?: InstallationSelection;
  site_selection?: InstallationSelection;
}

/** What the site and space installations share. */
interface TargetInstallation {
  integration: string;
  installation: string;
  status: InstallationStatus;
  configuration: Record<string, unknown>;
  externalIds: string[];
  urls: { location: string; publicEndpoint: string; publicContentEndpoint: string };
}

/** An installation enabled on a site: `site` is its ID, or the Site with `extended`. */
export interface SiteInstallation extends TargetInstallation {
  site: string | Site;
}

/** An installation enabled on a space: `space` is its ID, or the Space with `extended`. */
export interface SpaceInstallation extends TargetInstallation {
  space: string | Space;
}

export interface UpdateTargetInstallationBody {
  externalIds?: string[];
  configuration?: Record<string, unknown>;
}

/** An item of an organisation's installations. */
export interface OrgInstallationItem {
  integration: import("./types").Integration;
  installation: Installation;
}
