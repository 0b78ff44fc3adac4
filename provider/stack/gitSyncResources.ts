/** A site's Git Sync installation as a resource: one SiteGitSync per site entry with a `gitSync` block. */
import type * as pulumi from "@pulumi/pulumi";
import { SiteGitSync } from "../classes";
import type { ResourceArgs } from "../resources/kind";
import type { SiteGitSyncInputs } from "../resources/siteGitSync";
import type { Keyed, StackFile, StackGitSync } from "./model";
import { join } from "./names";

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
}

type Site = pulumi.CustomResource;

/** One SiteGitSync per site with a `gitSync` block, named as the site. */
export function declareGitSync(scope: GitSyncScope, stack: StackFile): Record<string, SiteGitSync> {
  const out: Record<string, SiteGitSync> = {};
  for (const site of stack.sites ?? []) {
    if (site.gitSync === undefined) continue;
    out[site.key] = new SiteGitSync(join(scope.name, site.key), { ...scope.inputs(site.gitSync), organizationId: scope.org, siteId: scope.site(site.key).id }, scope.with(site));
  }
  return out;
}
