import type { RequestCore } from "./core";
import { path } from "./path";

/** A repository host Git Sync connects to. */
export type GitProvider = "github" | "gitlab";

/** Which side is the source of truth: the repository (`git`) or the platform (`gitbook`). */
export type GitSyncPriority = "git" | "gitbook";

/** What an installation sits on: a site, or a space (managed by a site's installation when `siteId` is set). */
export type GitSyncTarget = { type: "site"; siteId: string } | { type: "space"; spaceId: string; siteId?: string };

/**
 * The repository a Git Sync installation syncs with. GitHub: `repositoryId`, `branch`. GitLab: `projectId`,
 * `accessToken` (a secret, sent only, never answered), `customInstanceURL` (null clears it), `branch`.
 */
export interface GitProviderConfiguration {
  repositoryId?: number;
  projectId?: number;
  accessToken?: string;
  customInstanceURL?: string | null;
  /** A full ref: `refs/heads/<name>`. */
  branch?: string;
}

/** The setup a PATCH sends (and an answer carries): `provider` and `providerConfiguration` every time. */
export interface GitSyncSetup {
  provider: GitProvider;
  providerConfiguration: GitProviderConfiguration;
  projectDirectory?: string;
  commitMessageTemplate?: string;
  previewExternalBranches?: boolean;
  agentInstructions?: ("agents" | "claude")[];
  priority?: GitSyncPriority;
}

/** A Git Sync installation as the API answers it. */
export interface GitSyncInstallation extends Partial<GitSyncSetup> {
  object: "git-sync-installation";
  id: string;
  target: GitSyncTarget;
  status: "unauthenticated" | "active" | "pending";
  provider: GitProvider;
  providerConfiguration: GitProviderConfiguration;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  urls: { location: string };
  parentInstallationId?: string;
  repositoryConnection?: { repositoryId: string; repositoryName: string; repositoryUrl: string; authState: string };
  repositoryRef?: { name: string; type: string };
}

/** The error type of a PATCH that asks a site import without the site file. */
export const MISSING_SITE_FILE = "missing_site_git_sync_config";

/** Git Sync installations (user tokens only). Creating, changing and deleting them needs an admin. */
export class GitSyncApi {
  constructor(private readonly core: RequestCore) {}

  /** A POST, never retried blindly: an outcome-unknown answer is looked up in the site's list. */
  install(provider: GitProvider, target: GitSyncTarget): Promise<GitSyncInstallation> {
    return this.core.request("POST", "/v1/git/installations", { body: { provider, target } });
  }
  get(installationId: string): Promise<GitSyncInstallation> {
    return this.core.request("GET", path`/v1/git/installations/${installationId}`);
  }
  /**
   * Saves the setup and queues a sync (priority `git`: an import). A site import without the site file is
   * a 409 whose ApiError has `type` {@link MISSING_SITE_FILE} and `details.path`, `details.branch`.
   */
  update(installationId: string, body: GitSyncSetup & { childInstallationProjectDirectories?: Record<string, string> }): Promise<GitSyncInstallation> {
    return this.core.request("PATCH", path`/v1/git/installations/${installationId}`, { body });
  }
  /** 205; a 404 (already gone) is the caller's to treat as done. */
  async uninstall(installationId: string): Promise<void> {
    await this.core.request("DELETE", path`/v1/git/installations/${installationId}`);
  }
  /** The site's installation and its spaces' (one answer, no paging). */
  async listForSite(orgId: string, siteId: string): Promise<GitSyncInstallation[]> {
    const r = await this.core.request<{ items: GitSyncInstallation[] }>("GET", path`/v1/orgs/${orgId}/sites/${siteId}/spaces/git/installations`);
    return r.items;
  }
}
