/** A site's Git Sync installation as a resource: one SiteGitSync per site entry with a `gitSync` block. */
import * as pulumi from "@pulumi/pulumi";
import { SiteGitSync } from "../classes";
import type { ResourceArgs } from "../resources/kind";
import type { SiteGitSyncInputs } from "../resources/siteGitSync";
import type { Keyed, Ref, StackFile, StackGitSync } from "../file/model";
import { join } from "../declare/names";

/** What declaring a site's installation needs of the component. */
export interface GitSyncScope {
  name: string;
  org: string;
  /** The site resources by key. */
  site(key: string): Site;
  /** The entry's inputs as the kind declares them (the token's source resolved, as a secret). */
  inputs(entry: StackGitSync): ResourceArgs<SiteGitSyncInputs>;
  /** Options of an object of the site's entry (its former keys become aliases). */
  with(site: Keyed): pulumi.CustomResourceOptions;
  /** The ID of a space the file names (a key of its spaces, or `{id}`). */
  space(ref: Ref): pulumi.Input<string>;
}

type Site = pulumi.CustomResource;

/** One SiteGitSync per site with a `gitSync` block, named as the site. */
export function declareGitSync(scope: GitSyncScope, stack: StackFile): Record<string, SiteGitSync> {
  const out: Record<string, SiteGitSync> = {};
  for (const site of stack.sites ?? []) {
    if (site.gitSync === undefined) continue;
    const { spaces, ...block } = site.gitSync;
    // Space ID → folder: an Output, as a space the file creates has its ID only once it exists.
    const childDirectories = pulumi.all((spaces ?? []).map((c) => pulumi.all([scope.space(c.space), c.projectDirectory]))).apply((pairs) => Object.fromEntries(pairs));
    const inputs = { ...scope.inputs(block), organizationId: scope.org, siteId: scope.site(site.key).id, childDirectories };
    out[site.key] = new SiteGitSync(join(scope.name, site.key), inputs, scope.with(site));
  }
  return out;
}
