/**
 * Resource names and aliases: `<component>/<key>` for top-level objects, `<component>/<site key>/<key>`
 * for the objects of a site; a renamed object keeps its former names as aliases.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Keyed } from "../file/model";
import { adoptionPreview } from "./referenceLocations";

/** `a/b/c`: the resource name of an object from its component name and keys. */
export function join(...parts: string[]): string {
  return parts.join("/");
}

/** Current and former keys of an object: the current one first. */
export function keysOf(obj: Keyed): string[] {
  return [obj.key, ...(obj.previousKeys ?? [])];
}

/**
 * Aliases for a renamed object: every name it had under a former key of itself or of its site.
 * `scopes` are the key lists of the enclosing objects (the site), outermost first.
 */
export function aliasesFor(component: string, scopes: string[][], obj: Keyed, suffix: string[] = []): pulumi.Alias[] {
  const current = join(component, ...scopes.map((s) => s[0]!), obj.key, ...suffix);
  const names = new Set<string>();
  const combine = (prefix: string[], rest: string[][]): void => {
    if (rest.length === 0) {
      names.add(join(component, ...prefix, ...suffix));
      return;
    }
    for (const k of rest[0]!) combine([...prefix, k], rest.slice(1));
  };
  combine([], [...scopes, keysOf(obj)]);
  names.delete(current);
  return [...names].sort().map((name) => ({ name }));
}

/**
 * The object declares `adopt: true`: pass it on (in a preview with the reserved input asking check to
 * say what it will take over, see referenceLocations.ts); otherwise leave the input out.
 */
export function adoptOf(obj: { adopt?: boolean }): { adopt?: boolean } {
  return obj.adopt === true ? { adopt: true, ...adoptionPreview() } : {};
}
