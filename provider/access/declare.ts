/** The access resources of a stack file: Permissions, VisitorAuth and IntegrationInstallation, from the file's entries. */
import * as pulumi from "@pulumi/pulumi";
import { IntegrationInstallation, Permissions, VisitorAuth } from "../classes";
import { permissionsKind } from "../resources/permissions";
import { visitorAuthKind } from "../resources/visitorAuth";
import { ACCESS_LISTS, callerTeamKeys, type Ref, type StackAccess, type StackInstallation, type StackVisitorAuth } from "./model";
import { locatedReferences, type LocatedReferences } from "../declare/referenceLocations";
import type { Role } from "../file/model";
import { adoptOf } from "../declare/names";

/** What the component hands over to declare the access resources. */
export interface AccessDeclaration {
  /** The component's name: resource names start with it. */
  name: string;
  org: string;
  stack: {
    caller?: string;
    teams?: { key: string; title?: string; members?: { user: string }[] }[];
    sites?: (StackAccess & { key: string; previousKeys?: string[]; adopt?: boolean; visitorAuth?: StackVisitorAuth })[];
    spaces?: (StackAccess & { key: string; previousKeys?: string[] })[];
    collections?: (StackAccess & { key: string; previousKeys?: string[] })[];
    integrations?: { key: string; name: string }[];
    installations?: StackInstallation[];
  };
  opts: pulumi.CustomResourceOptions;
  /** The declared resources by key. */
  teams: Record<string, pulumi.CustomResource>;
  sites: Record<string, pulumi.CustomResource>;
  spaces: Record<string, pulumi.CustomResource>;
  collections: Record<string, pulumi.CustomResource>;
  integrations: Record<string, pulumi.CustomResource>;
  /** The secret values of a map of secret sources (resolved when the program runs). */
  secrets(sources: Record<string, unknown>): unknown;
  /** `file:line:col` of a JSON pointer of the file. */
  locate(pointer: string): string;
}

/** The access resources a stack file declares. */
export interface AccessResources {
  /** By `<site|space|collection>/<key>`. */
  permissions: Record<string, Permissions>;
  /** By site key. */
  visitorAuth: Record<string, VisitorAuth>;
  /** By key. */
  installations: Record<string, IntegrationInstallation>;
}

const idOf = (ref: Ref, resources: Record<string, pulumi.CustomResource>): pulumi.Input<string> => {
  if (typeof ref !== "string") return ref.id;
  const r = resources[ref];
  if (r === undefined) throw new Error(`internal error: reference to undeclared key ${JSON.stringify(ref)}`);
  return r.id;
};

const aliases = (name: string, prefix: string[], obj: { key: string; previousKeys?: string[] }, suffix: string[] = []) =>
  (obj.previousKeys ?? []).map((k) => ({ name: [name, ...prefix, k, ...suffix].join("/") }));

/** Declares the Permissions of every object with a `permissions` block, each site's VisitorAuth and every installation. */
export function declareAccess(d: AccessDeclaration): AccessResources {
  const out: AccessResources = { permissions: {}, visitorAuth: {}, installations: {} };
  const { name, org, stack } = d;
  const callerTeams = callerTeamKeys(stack, stack.caller);
  // Key → ID of every team of the file, for the guard to name a team as the file does. An object of
  // Outputs rather than one Output: in a preview, a team not created yet leaves only its own entry unknown.
  const teamIds = Object.fromEntries(Object.entries(d.teams).map(([key, team]) => [key, team.id])) as unknown as pulumi.Input<Record<string, string>>;
  const hasTeams = Object.keys(d.teams).length > 0;
  const targets = { site: d.sites, space: d.spaces, collection: d.collections };
  for (const { property, on } of ACCESS_LISTS) {
    (stack[property] ?? []).forEach((entry, i) => {
      if (entry.permissions === undefined) return;
      const grants = entry.permissions.map((g) =>
        g.team !== undefined ? { team: idOf(g.team, d.teams), role: g.role ?? null } : { user: g.user!, role: g.role ?? null },
      );
      const location = `${d.locate(`/${property}/${i}/permissions`)}: ${on} ${entry.key}`;
      out.permissions[`${on}/${entry.key}`] = new Permissions(
        [name, on, entry.key].join("/"),
        {
          organizationId: org,
          on,
          targetId: targets[on][entry.key]!.id,
          grants: pulumi.output(grants) as pulumi.Output<{ team?: string; user?: string; role: Role | null }[]>,
          ...(entry.allowLockout === undefined ? {} : { allowLockout: entry.allowLockout }),
          ...(stack.caller === undefined ? {} : { caller: stack.caller }),
          ...(callerTeams.length > 0 ? { callerTeams: pulumi.all(callerTeams.map((k) => d.teams[k]!.id)) } : {}),
          ...(hasTeams ? { teamIds } : {}),
          location,
          // In a preview, each user granted is looked up among the organisation's members (references.ts).
          ...locatedReferences(permissionsKind.name, () => Object.fromEntries(entry.permissions!.map((g, j) => [`grants[${j}].user`, { pointer: `/${property}/${i}/permissions/${j}/user`, value: g.user }])), d.locate),
        },
        { ...d.opts, aliases: aliases(name, [on], entry) },
      );
    });
  }
  for (const inst of stack.installations ?? []) {
    // The organisation's own integration, declared in the file: installed after it is published.
    const own = (stack.integrations ?? []).find((g) => g.name === inst.integration);
    out.installations[inst.key] = new IntegrationInstallation(
      [name, inst.key].join("/"),
      {
        organizationId: org,
        integration: inst.integration,
        ...(inst.configuration === undefined ? {} : { configuration: inst.configuration }),
        ...(inst.secretConfiguration === undefined ? {} : { secretConfiguration: d.secrets(inst.secretConfiguration) as Record<string, string> }),
        ...(inst.sites === undefined ? {} : { sites: pulumi.all(inst.sites.map((r) => idOf(r, d.sites))) }),
        ...(inst.spaces === undefined ? {} : { spaces: pulumi.all(inst.spaces.map((r) => idOf(r, d.spaces))) }),
        ...(inst.siteSelection === undefined ? {} : { siteSelection: inst.siteSelection }),
        ...(inst.spaceSelection === undefined ? {} : { spaceSelection: inst.spaceSelection }),
        ...adoptOf(inst),
      },
      { ...d.opts, aliases: aliases(name, [], inst), ...(own ? { dependsOn: [d.integrations[own.key]!] } : {}) },
    );
  }
  (stack.sites ?? []).forEach((site, i) => {
    if (site.visitorAuth === undefined) return;
    // The installations the file enables on the site come first: a sign-in by integration needs one there.
    const enabling = (stack.installations ?? []).filter((inst) => enablesOn(inst, site.key)).map((inst) => out.installations[inst.key]!);
    out.visitorAuth[site.key] = new VisitorAuth(
      [name, site.key].join("/"),
      { organizationId: org, siteId: d.sites[site.key]!.id, ...site.visitorAuth, ...signInLookup(d, site, i, enabling.length > 0) },
      { ...d.opts, aliases: aliases(name, [], site), ...(enabling.length > 0 ? { dependsOn: enabling } : {}) },
    );
  });
  return out;
}

/** The installation is enabled on the site of that key: listed in its sites, or on every site. */
function enablesOn(inst: StackInstallation, siteKey: string): boolean {
  return inst.siteSelection === "all" || (inst.sites ?? []).includes(siteKey);
}

/**
 * In a preview, a sign-in by integration on a site where the file enables none asks check to look the
 * site's integration up (references.ts), located at the site and naming its key. Not for a site taken
 * over (`adopt`): while it is not yet in the state its ID is unknown, and one enabled outside the file
 * cannot be told from none.
 */
function signInLookup(d: AccessDeclaration, site: { key: string; adopt?: boolean; visitorAuth?: StackVisitorAuth }, i: number, enabledByFile: boolean): LocatedReferences {
  if (site.visitorAuth?.backend !== "integration" || enabledByFile || site.adopt === true) return {};
  return locatedReferences(visitorAuthKind.name, () => ({ backend: { pointer: `/sites/${i}`, value: "integration", label: `site ${site.key}` } }), d.locate);
}
