/** A site's Git Sync installation as a resource: one SiteGitSync per site entry with a `gitSync` block, declared with its site. */
import * as pulumi from "@pulumi/pulumi";
import { SiteGitSync } from "../classes";
import type { ResourceArgs } from "../resources/kind";
import type { SiteGitSyncInputs } from "../resources/siteGitSync";
import type { Keyed, Ref, StackGitSync, StackSite } from "../file/model";
import { join } from "../declare/names";

/** What declaring a site's installation needs of the component. */
export interface GitSyncScope {
  name: string;
  org: string;
  /** The entry's inputs as the kind declares them (the token's source resolved, as a secret). */
  inputs(entry: StackGitSync): ResourceArgs<SiteGitSyncInputs>;
  /** Options of an object of the site's entry (its former keys become aliases). */
  with(site: Keyed): pulumi.CustomResourceOptions;
  /** The ID of a space the file names (a key of its spaces, or `{id}`). */
  space(ref: Ref): pulumi.Input<string>;
}

type Site = pulumi.CustomResource;

/** The priority that makes the repository the owner of the site's structure. */
const GIT_PRIORITY = "git";

/** The SiteGitSync of one site entry, when it has a `gitSync` block. */
export function declareSiteGitSync(scope: GitSyncScope, site: StackSite, siteResource: Site): SiteGitSync | undefined {
  if (site.gitSync === undefined) return undefined;
  const { spaces, ...block } = site.gitSync;
  // Space ID → folder: an Output, as a space the file creates has its ID only once it exists.
  const childDirectories = pulumi.all((spaces ?? []).map((c) => pulumi.all([scope.space(c.space), c.projectDirectory]))).apply((pairs) => Object.fromEntries(pairs));
  const inputs = { ...scope.inputs(block), organizationId: scope.org, siteId: siteResource.id, childDirectories };
  return new SiteGitSync(join(scope.name, site.key), inputs, scope.with(site));
}

/**
 * Whether the site's repository owns its structure (priority `git`): the platform imports the site file
 * when the installation is saved and on every push, so the structure's resources take over what the
 * import made, after the installation is saved.
 */
export function gitOwned(site: { gitSync?: { priority?: string } }): boolean {
  return site.gitSync?.priority === GIT_PRIORITY;
}
