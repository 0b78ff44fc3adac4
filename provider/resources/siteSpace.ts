import type { SiteSpace as ApiSiteSpace, UpdateSiteSpaceBody } from "../client";
import { type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type ResourceArgs, type StoredOf, type ValueSchema, boolean, exactlyOne, isDerivedPath, limit, ORGANIZATION_FIELD, patchBody, SITE_FIELD } from "./kind";
import { readListed, writtenSiteSpaces } from "./lists";
import { makeProvider } from "./provider";
import { declaredDefault, PATH_AT_LEVEL, siteObject, type SiteWhere } from "./siteObject";
import { PATH_SEGMENT_PATTERN, PATH_SEGMENT_WORDS } from "../identifiers";

/** The fields of a SiteSpace: its one declaration, from which its types, schema and patch body derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  siteId: SITE_FIELD,
  spaceId: { schema: limit("id"), doc: "The space shown: a space key of this file or {id: \"<space ID>\"}.", required: true, stack: { ref: "spaces", as: "space" }, patched: true },
  sectionId: { schema: limit("id"), doc: "The section holding the site space; null or omitted: the site's root level. Set on creation only: moving a site space to another level replaces it.", createOnly: true, absent: { reset: null }, stack: "context" },
  path: { schema: { ...limit("siteSpacePath"), pattern: PATH_SEGMENT_PATTERN, "x-patternWords": PATH_SEGMENT_WORDS }, doc: "URL path of the site space, 1 to 100 characters, unique at its level (site root or section). A new site space's path is derived from the space title by the platform; the API cannot remove a path.", absent: "unmanaged", patched: true },
  condition: { schema: limit("condition"), doc: "Adaptive-content expression deciding whether a visitor sees the site space, 1 to 1024 characters.", absent: "clear", patched: true },
  draft: { schema: boolean(), doc: "Draft: staged and not live (true), or live (false). Not managed when omitted, so removing the line never publishes a staged site space.", absent: "unmanaged", initial: false, addedLater: true, patched: true },
  hidden: { schema: boolean(), doc: "Hidden: left out of the site's navigation (true), or shown (false). Only site spaces can be hidden (not sections or section groups). The platform sets it after creation only, so a hidden site space is created, then hidden (two calls).", absent: { reset: false }, addedLater: true, patched: true },
  default: { schema: boolean(), doc: "false: not the default (another object of its level is declared the default and takes it; the API cannot unset a default, so this makes no call). true makes this the default site space of its level (the declared defaultSiteSpace, else the level's first).", absent: "unmanaged", stack: "context" },
  // How create finds the object, not a property of it: never a change.
  existingId: { schema: { anyOf: [limit("id"), { type: "null" }] } as ValueSchema<string | null>, doc: "An existing site space to take over by ID instead of creating one (the one created with its section).", absent: "unmanaged", normalize: () => null, stack: "context", internal: true },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a SiteSpace (its declared fields). */
export type SiteSpaceInputs = InputsOf<typeof fields>;

/** Outputs of a SiteSpace: its fields as stored (the space as the API answers it: null when gone), and what the API adds. */
export type SiteSpaceOutputs = Omit<StoredOf<typeof fields>, "spaceId" | "existingId"> & {
  spaceId: string | null;
  /** The space's title. */
  title: string;
  url: string | null;
};

/** A live site space's outputs besides its site. */
function siteSpaceOutputs(ss: ApiSiteSpace) {
  return {
    // The API answers with the Space object; the input is its ID.
    spaceId: ss.space?.id ?? null,
    sectionId: ss.section ?? null,
    path: ss.path,
    condition: ss.condition ?? null,
    default: ss.default === true,
    draft: ss.draft === true,
    hidden: ss.hidden === true,
    title: ss.title,
    url: ss.urls?.published ?? null,
  };
}

/** Read from the site's site-space list, PATCH the changed fields (adopt is the site space's own). */
const crud = siteObject({ list: "siteSpaces", outputs: siteSpaceOutputs, fields });
const toOutputs = (where: SiteWhere, ss: ApiSiteSpace): SiteSpaceOutputs => crud.outputsOf(ss, where);

/** Makes the site space its level's default (its section's, or the site's root) when declared so and it is not yet. */
function applyDefault(ctx: KindContext, inputs: SiteSpaceInputs, outs: SiteSpaceOutputs, id: string): Promise<boolean> {
  const { organizationId, siteId } = inputs;
  return declaredDefault(inputs.default, outs.default, () =>
    outs.sectionId !== null
      ? ctx.client.sections.update(organizationId, siteId, outs.sectionId, { defaultSiteSpace: id })
      : ctx.client.sites.update(organizationId, siteId, { defaultSiteSpace: id }),
  );
}

/** Brings a taken-over site space to the declared space, path and condition (one PATCH, only when one differs). */
async function settleTaken(ctx: KindContext, inputs: SiteSpaceInputs, found: ApiSiteSpace) {
  ctx.created?.(found.id, toOutputs(inputs, found));
  const pending: string[] = [];
  if (inputs.spaceId !== (found.space?.id ?? null)) pending.push("spaceId");
  for (const f of ["path", "condition"] as const) if (inputs[f] !== undefined && inputs[f] !== (found[f] ?? null)) pending.push(f);
  if (inputs.draft !== undefined && inputs.draft !== (found.draft === true)) pending.push("draft");
  if ((inputs.hidden ?? false) !== (found.hidden === true)) pending.push("hidden");
  const ss =
    pending.length > 0 ? await ctx.client.siteSpaces.update(inputs.organizationId, inputs.siteId, found.id, patchBody<UpdateSiteSpaceBody>(fields, inputs, pending)) : found;
  const outs = toOutputs(inputs, ss);
  ctx.created?.(ss.id, outs);
  return { id: ss.id, outs: { ...outs, default: await applyDefault(ctx, inputs, outs, ss.id) } };
}

/**
 * The site space `id` (see `existingId`): as this process received it from the section's POST, else
 * from the site's list (the current view, then a fresh walk, since a view taken before the section's
 * POST may miss it). Undefined when it is gone.
 */
async function existing(ctx: KindContext, inputs: SiteSpaceInputs, id: string): Promise<ApiSiteSpace | undefined> {
  const { organizationId, siteId } = inputs;
  const written = writtenSiteSpaces.take(ctx.client, organizationId, siteId, id);
  if (written) return written;
  // The section's POST named it, so it exists: a list that does not show it yet may be lagging.
  return readListed("siteSpaces", ctx.client, organizationId, siteId, id);
}

async function adopt(ctx: KindContext, inputs: SiteSpaceInputs) {
  // A fresh walk: a coalesced one begun before an uncertain create may miss its result.
  const all = await ctx.client.siteSpaces.list(inputs.organizationId, inputs.siteId);
  // Paths are unique per level: only the site space's own level (its section, or the root) is looked at.
  const atLevel = all.filter((ss) => (ss.section ?? null) === (inputs.sectionId ?? null));
  const byPath = inputs.path !== undefined ? atLevel.filter((ss) => ss.path === inputs.path) : [];
  // No site space has the declared path yet: the one publishing the declared space is taken over and its
  // path set (a section is created with a site space whose path the platform derived from the space title).
  const matches = byPath.length > 0 ? byPath : atLevel.filter((ss) => ss.space?.id === inputs.spaceId);
  const found = exactlyOne(
    "SiteSpace",
    `site spaces of site ${inputs.siteId} match ${byPath.length > 0 ? `path ${JSON.stringify(inputs.path)}` : `space ${inputs.spaceId}`}`,
    matches,
    "declare sectionId and path",
  );
  return found ? { id: found.id, outs: toOutputs(inputs, found) } : undefined;
}

/** The SiteSpace kind: POST `{spaceId, sectionId}`, then a PATCH for path, condition and hidden when declared. */
export const siteSpaceKind = {
  name: "SiteSpace",
  noun: { one: "site space", many: "site spaces" },
  doc: "A site space: a space published at a level of a site (its root or a section).",
  outputs: ["sectionId", "path", "default", "title", "url"],
  fields,

  ...crud,
  ...PATH_AT_LEVEL,

  async create(ctx, inputs) {
    const { organizationId, siteId } = inputs;
    if (inputs.existingId) {
      const found = await existing(ctx, inputs, inputs.existingId);
      if (found) return settleTaken(ctx, inputs, found);
    }
    let ss = await ctx.client.siteSpaces.create(organizationId, siteId, {
      spaceId: inputs.spaceId,
      ...(inputs.sectionId === undefined ? {} : { sectionId: inputs.sectionId as string }),
      ...(inputs.draft === undefined ? {} : { draft: inputs.draft }),
    });
    ctx.created?.(ss.id, toOutputs(inputs, ss));
    const pending: string[] = (["path", "condition"] as const).filter((f) => inputs[f] !== undefined && inputs[f] !== (ss[f] ?? null));
    // The create body has no `hidden`: a hidden site space is hidden by the same PATCH.
    if (inputs.hidden === true) pending.push("hidden");
    if (pending.length > 0) ss = await ctx.client.siteSpaces.update(organizationId, siteId, ss.id, patchBody<UpdateSiteSpaceBody>(fields, inputs, pending));
    const outs = toOutputs(inputs, ss);
    ctx.created?.(ss.id, outs);
    return { id: ss.id, outs: { ...outs, default: await applyDefault(ctx, inputs, outs, ss.id) } };
  },

  async update(ctx, id, olds, news, changed) {
    let outs = await crud.update(ctx, id, olds, news, changed);
    if (changed.includes("default")) outs = { ...outs, default: await applyDefault(ctx, news, outs, id) };
    return outs;
  },

  adopt,
  // The POST sets the space, the level and draft; the PATCH the path, condition and hidden.
  asPosted: (outs, inputs) => outs.spaceId === inputs.spaceId && outs.condition === null && outs.hidden !== true && isDerivedPath(outs.path, outs.title),
} satisfies KindDefinition<SiteSpaceInputs, SiteSpaceOutputs>;

/** The dynamic provider of SiteSpace (serialised through `provider/providers/siteSpace`). */
export const siteSpaceProvider = makeProvider<SiteSpaceInputs, SiteSpaceOutputs>(siteSpaceKind);

/** Arguments of a SiteSpace. */
export type SiteSpaceArgs = ResourceArgs<SiteSpaceInputs>;
