/**
 * "Nothing lost, nothing duplicated": the objects a stack manages, compared between the harness's state
 * file and the emulator's live data. Every live object of a kind the provider creates is in the state
 * (no orphans), every such object of the state is live (no ghosts), no natural key is held by two live
 * objects (no duplicates), and the state's key outputs equal the live values.
 */
import type { Snapshot, SnapshotOrg } from "../../emulator";
import type { StateResource } from "../harness";

/** Type token prefix of the provider's resources. */
export const TYPE_PREFIX = "pulumi-nodejs:dynamic/docsplatform:";

/** One live object of a kind the provider creates, with the natural key its kind is adopted by. */
export interface LiveObject {
  kind: string;
  id: string;
  /** Where the key must be unique (the organisation, a site, a section). */
  scope: string;
  /** The natural key (title, path, name, label, slug). */
  key: string;
  /** Other IDs the state may record it under (an OpenAPI spec's slug). */
  aliases?: string[];
  /** Live values of outputs the state also carries. */
  fields: Record<string, unknown>;
}

/** Every live object of a creatable kind in one organisation. */
export function liveObjects(snapshot: Snapshot, orgId = "demo-org"): LiveObject[] {
  const org: SnapshotOrg | undefined = snapshot.organizations.find((o) => o.id === orgId);
  if (!org) throw new Error(`the emulator has no organisation ${orgId}`);
  const out: LiveObject[] = [];
  for (const site of org.sites) {
    out.push({ kind: "Site", id: site.id, scope: orgId, key: site.title, fields: { title: site.title, visibility: site.visibility } });
    for (const ss of site.siteSpaces) out.push({ kind: "SiteSpace", id: ss.id, scope: `${site.id}/root`, key: ss.path, fields: { path: ss.path } });
    for (const section of site.sections) {
      out.push({ kind: "SiteSection", id: section.id, scope: site.id, key: section.path, fields: { title: section.title, path: section.path } });
      for (const ss of section.siteSpaces) {
        out.push({ kind: "SiteSpace", id: ss.id, scope: `${site.id}/${section.id}`, key: ss.path, fields: { path: ss.path } });
      }
    }
    for (const g of site.sectionGroups) out.push({ kind: "SiteSectionGroup", id: g.id, scope: site.id, key: g.title, fields: { title: g.title } });
    for (const l of site.shareLinks) out.push({ kind: "ShareLink", id: l.id, scope: site.id, key: l.name ?? `(unnamed ${l.id})`, fields: { name: l.name, active: l.active } });
  }
  for (const t of org.teams) out.push({ kind: "Team", id: t.id, scope: orgId, key: t.title, fields: { title: t.title } });
  for (const p of org.samlProviders) out.push({ kind: "SamlProvider", id: p.id, scope: orgId, key: p.label, fields: { label: p.label } });
  for (const s of org.openapiSpecs) out.push({ kind: "OpenAPISpec", id: s.id, scope: orgId, key: s.slug, aliases: [s.slug], fields: { slug: s.slug } });
  for (const c of org.collections) out.push({ kind: "Collection", id: c.id, scope: orgId, key: c.title, fields: { title: c.title } });
  for (const t of org.translations) out.push({ kind: "TranslationSettings", id: t.id, scope: orgId, key: t.title, fields: { title: t.title } });
  return out;
}

/** The kinds `liveObjects` covers: the ones whose objects the provider creates (the rest it adopts). */
export const CREATED_KINDS = new Set(["Site", "SiteSpace", "SiteSection", "SiteSectionGroup", "ShareLink", "Team", "SamlProvider", "OpenAPISpec", "Collection", "TranslationSettings"]);

/** `kind:id` of every object of a snapshot: the fixture's objects are not the stack's. */
export function baselineOf(snapshot: Snapshot): Set<string> {
  return new Set(liveObjects(snapshot).map((o) => `${o.kind}:${o.id}`));
}

/** What a comparison found; every list must be empty. */
export interface Comparison {
  /** Live objects of the stack that the state does not hold. */
  orphans: string[];
  /** Objects the state holds that are not live. */
  ghosts: string[];
  /** Natural keys held by more than one live object. */
  duplicates: string[];
  /** State outputs that differ from the live values. */
  mismatches: string[];
  /** Managed live objects and state resources compared. */
  counted: { live: number; state: number };
}

/** Compares the state's resources of created kinds with the live objects that are not in the baseline. */
export function compareStateWithLive(resources: readonly StateResource[], snapshot: Snapshot, baseline: ReadonlySet<string>): Comparison {
  const live = liveObjects(snapshot);
  const managed = live.filter((o) => !baseline.has(`${o.kind}:${o.id}`));
  const state = resources.filter((r) => r.custom && r.type.startsWith(TYPE_PREFIX) && CREATED_KINDS.has(r.type.slice(TYPE_PREFIX.length)));
  const kindOf = (r: StateResource) => r.type.slice(TYPE_PREFIX.length);
  const name = (r: StateResource) => r.urn.slice(r.urn.lastIndexOf("::") + 2);

  const byId = new Map<string, LiveObject>();
  for (const o of live) for (const id of [o.id, ...(o.aliases ?? [])]) byId.set(`${o.kind}:${id}`, o);
  const stateIds = new Set(state.map((r) => `${kindOf(r)}:${r.id ?? ""}`));
  // A section's POST also creates a site space in it; until the SiteSpace declared for it takes it over,
  // the section's state holds it (output siteSpaceId): deleting the section deletes it, the next up takes
  // it over. Held only while it is still inside that section.
  const heldBySection = new Set<string>();
  for (const r of state) {
    const own = r.outputs.siteSpaceId;
    if (kindOf(r) === "SiteSection" && !r.delete && typeof own === "string") heldBySection.add(`${r.outputs.siteId as string}/${r.id ?? ""} ${own}`);
  }

  const orphans = managed
    .filter((o) => ![o.id, ...(o.aliases ?? [])].some((id) => stateIds.has(`${o.kind}:${id}`)))
    .filter((o) => !(o.kind === "SiteSpace" && heldBySection.has(`${o.scope} ${o.id}`)))
    .map((o) => `${o.kind} ${o.id} (${o.key})`);
  const ghosts: string[] = [];
  const mismatches: string[] = [];
  for (const r of state) {
    const o = byId.get(`${kindOf(r)}:${r.id ?? ""}`);
    if (!o) {
      ghosts.push(`${kindOf(r)} ${name(r)} id=${r.id ?? "(none)"}${r.delete ? " (pending delete)" : ""}`);
      continue;
    }
    if (r.delete) continue;
    for (const [field, value] of Object.entries(o.fields)) {
      if (!(field in r.outputs)) continue;
      const stored = r.outputs[field];
      if (JSON.stringify(stored) !== JSON.stringify(value)) {
        mismatches.push(`${kindOf(r)} ${name(r)}.${field}: state ${JSON.stringify(stored)}, live ${JSON.stringify(value)}`);
      }
    }
  }
  const groups = new Map<string, LiveObject[]>();
  for (const o of live) {
    const k = `${o.kind} ${o.scope} ${JSON.stringify(o.key)}`;
    groups.set(k, [...(groups.get(k) ?? []), o]);
  }
  const duplicates = [...groups.entries()].filter(([, objs]) => objs.length > 1).map(([k, objs]) => `${k}: ${objs.map((o) => o.id).join(", ")}`);
  return { orphans, ghosts, duplicates, mismatches, counted: { live: managed.length, state: state.length } };
}

/**
 * The organisation-level values the stack changes and destroy must put back. `leftInPlace` names the
 * spaces the stack file created, which destroy leaves in place (content is deleted only when the file
 * asks for it), so they are not part of the face.
 */
export function organisationFace(snapshot: Snapshot, orgId = "demo-org", leftInPlace: readonly string[] = []): unknown {
  const org = snapshot.organizations.find((o) => o.id === orgId)!;
  return {
    title: org.title,
    emailDomains: org.emailDomains,
    defaultRole: org.defaultRole,
    defaultContent: org.defaultContent,
    inviteLinks: org.inviteLinks,
    members: org.members.map((m) => [m.user, m.role]),
    // A style guide the file made is content too: it stays after destroy (checked once by the lifecycle).
    spaces: org.spaces.filter((s) => s.deletedAt === null && !leftInPlace.includes(s.title) && s.type !== "styleguide").map((s) => [s.id, s.title, s.emoji, s.parent]),
  };
}
