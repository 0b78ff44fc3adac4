/**
 * A list a site's entry declares is the whole truth of that list: with its entries, the site gets a
 * `SiteUndeclared` of the list (resources/siteUndeclared.ts), which a refresh fills with what the platform
 * holds there beyond them and `up` deletes.
 */
import * as pulumi from "@pulumi/pulumi";
import { SiteUndeclared } from "../classes";
import type { Keyed } from "../file/model";
import type { OwnedListName } from "../resources/siteUndeclared";
import { join, keysOf } from "./names";

/** What declaring it needs of the site's scope (siteDeclarer.ts `SiteScope`). */
interface UndeclaredScope {
  name: string;
  org: string;
  with(obj: Keyed, scopes?: string[][], extra?: pulumi.CustomResourceOptions): pulumi.CustomResourceOptions;
}

/**
 * Declares the `SiteUndeclared` of the list `list` of the site `site` (resource ID `siteId`), whose declared
 * objects are `entries`: named `<component>/<site key>/<list>` (the site's former keys as aliases), after them.
 */
export function declareUndeclared(scope: UndeclaredScope, site: Keyed, siteId: pulumi.Input<string>, list: OwnedListName, entries: readonly pulumi.CustomResource[]): SiteUndeclared {
  return new SiteUndeclared(
    join(scope.name, site.key, list),
    { organizationId: scope.org, siteId, list, declared: pulumi.all(entries.map((e) => e.id)) },
    scope.with({ key: list }, [keysOf(site)], { dependsOn: [...entries] }),
  );
}
