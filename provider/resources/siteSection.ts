import type { SiteSection as ApiSection, UpdateSectionBody } from "../client";
import { type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type ResourceArgs, type StoredOf, boolean, exactlyOne, isDerivedPath, limit, ORGANIZATION_FIELD, patchBody, patchedFields, reported, SITE_FIELD } from "./kind";
import { writtenSiteSpaces } from "./lists";
import { makeProvider } from "./provider";
import { declaredDefault, PATH_AT_LEVEL, siteObject } from "./siteObject";
import { PATH_SEGMENT_PATTERN, PATH_SEGMENT_WORDS } from "../identifiers";

/** The fields of a SiteSection: its one declaration, from which its types, schema and patch body derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  siteId: SITE_FIELD,
  spaceId: { schema: limit("id"), doc: "The space of the site space the section is created with (its first site space). Set on creation only.", required: true, createOnly: true, stack: "context" },
  title: { schema: limit("sectionTitle"), doc: "Section title, 2 to 128 characters.", absent: "unmanaged", stackRequired: true, patched: true },
  path: { schema: { ...limit("sectionPath"), pattern: PATH_SEGMENT_PATTERN, "x-patternWords": PATH_SEGMENT_WORDS }, doc: "URL path of the section, 1 to 100 characters, unique among the sections of the site. A new section's path is derived from its title by the platform (lowercase, other characters replaced by '-'); the API cannot remove a path.", absent: "unmanaged", patched: true },
  description: { schema: limit("sectionDescription"), doc: "Section description, at most 256 characters.", absent: "clear", patched: true, show: { label: "description", bare: true, quoted: true } },
  icon: { schema: limit("icon"), doc: "Icon name, at most 50 characters.", absent: "clear", patched: true, show: { label: "icon" } },
  localizedTitle: { schema: limit<Record<string, string>>("loc128"), doc: "Title per language (non-default languages), each at most 128 characters.", absent: "clear", addedLater: true, patched: true, show: { label: "localized title", words: (v: Record<string, string>) => Object.entries(v).map(([language, title]) => `${language} ${JSON.stringify(title)}`).join(", ") } },
  condition: { schema: limit("condition"), doc: "Adaptive-content expression deciding whether a visitor sees the section (e.g. visitor.claims.beta), 1 to 1024 characters.", absent: "clear", patched: true },
  draft: { schema: boolean(), doc: "Draft: staged and not live (true), or live (false). Not managed when omitted, so removing the line never publishes a staged section.", absent: "unmanaged", initial: false, addedLater: true, patched: true },
  default: { schema: boolean(), doc: "false: not the default (another object of its level is declared the default and takes it; the API cannot unset a default, so this makes no call). true makes this the site's default section (the stack file's defaultSiteSection, else its first section). A default moves by declaring it on another section.", absent: "unmanaged", stack: "context" },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of a SiteSection (its declared fields). */
export type SiteSectionInputs = InputsOf<typeof fields>;

/** Outputs of a SiteSection: its fields as stored, and what the API adds. */
export type SiteSectionOutputs = StoredOf<typeof fields> & {
  /** The section group holding the section, if any. */
  sectionGroupId: string | null;
  /** The site space created with the section (for its space). */
  siteSpaceId: string | null;
  siteSpacePath: string | null;
  /** Site spaces in the section. */
  siteSpaceCount: number;
  url: string | null;
};

/** Where a section is: its site, and the space (and site space, once known) it was created with. */
interface SectionWhere {
  organizationId: string;
  siteId: string;
  spaceId: string;
  siteSpaceId?: string | null;
}

/** A live section's outputs besides its site. */
function sectionOutputs(section: ApiSection, parent: SectionWhere) {
  const spaces = section.siteSpaces ?? [];
  // The section's own site space: the one recorded at creation, else the one for its space.
  const own =
    spaces.find((s) => s.id === parent.siteSpaceId) ?? spaces.find((s) => s.space?.id === parent.spaceId) ?? null;
  return {
    spaceId: parent.spaceId,
    ...reported(section, ["title", "icon", "path", "description", "condition", "localizedTitle"]),
    default: section.default === true,
    sectionGroupId: section.sectionGroup ?? null,
    draft: section.draft === true,
    siteSpaceId: own?.id ?? parent.siteSpaceId ?? null,
    siteSpacePath: own?.path ?? null,
    siteSpaceCount: spaces.length,
    url: section.urls?.published ?? null,
  };
}

/** Read from the site's section list, PATCH the changed fields (adopt and recover are the section's own). */
const crud = siteObject({ list: "sections", outputs: sectionOutputs, fields });
const toOutputs = (where: SectionWhere, section: ApiSection): SiteSectionOutputs => crud.outputsOf(section, where);

/** Makes the section the site's default when declared so and it is not yet. */
function applyDefault(ctx: KindContext, inputs: SiteSectionInputs, id: string, isDefault: boolean): Promise<boolean> {
  return declaredDefault(inputs.default, isDefault, () => ctx.client.sites.update(inputs.organizationId, inputs.siteId, { defaultSiteSection: id }));
}

async function adopt(ctx: KindContext, inputs: SiteSectionInputs) {
  // A fresh walk: a coalesced one begun before an uncertain create may miss its result.
  const sections = await ctx.client.sections.list(inputs.organizationId, inputs.siteId);
  const matches =
    inputs.path !== undefined
      ? sections.filter((s) => s.path === inputs.path)
      : sections.filter((s) => (inputs.title !== undefined ? s.title === inputs.title : s.siteSpaces?.some((ss) => ss.space?.id === inputs.spaceId)));
  const found = exactlyOne(
    "SiteSection",
    `sections of site ${inputs.siteId} match ${inputs.path !== undefined ? `path ${JSON.stringify(inputs.path)}` : `title ${JSON.stringify(inputs.title)}`}`,
    matches,
    "declare its path",
  );
  return found ? { id: found.id, outs: toOutputs(inputs, found) } : undefined;
}

/**
 * The section a create whose outcome is unknown made. Its POST set the title (the space's when not
 * declared), the icon and the section's one site space; the declared path, description and condition
 * only come with the follow-up PATCH, and the path is derived from the title until then. So: the
 * section with the declared path when there is one (as adopt), else the one section still as a POST
 * leaves it — outside any group, the declared title and icon, no description or condition, and a
 * single site space publishing the declared space. Two such sections cannot be told apart: an error
 * naming both, rather than taking over one that another declaration may hold.
 */
async function recover(ctx: KindContext, inputs: SiteSectionInputs) {
  if (inputs.path !== undefined) {
    const byPath = await adopt(ctx, inputs);
    if (byPath) return byPath;
  }
  const sections = await ctx.client.sections.list(inputs.organizationId, inputs.siteId);
  const asPosted = sections.filter(
    (s) =>
      (inputs.title === undefined || s.title === inputs.title) &&
      (inputs.icon === undefined || s.icon === inputs.icon) &&
      (s.sectionGroup ?? null) === null &&
      (s.description ?? null) === null &&
      (s.condition ?? null) === null &&
      s.siteSpaces?.length === 1 &&
      s.siteSpaces[0]!.space?.id === inputs.spaceId,
  );
  if (asPosted.length > 1) {
    throw new Error(
      `SiteSection: the outcome of creating a section in site ${inputs.siteId} is unknown, and ${asPosted.length} sections match what its POST set ` +
        `(${inputs.title === undefined ? "" : `title ${JSON.stringify(inputs.title)}, `}one site space for space ${inputs.spaceId})` +
        `${inputs.path === undefined ? "" : ` with no section at path ${JSON.stringify(inputs.path)}`}: ids ${asPosted.map((s) => s.id).join(", ")}; ` +
        `delete the one that is not wanted and run again`,
    );
  }
  const found = asPosted[0];
  return found ? { id: found.id, outs: toOutputs(inputs, found) } : undefined;
}

/** The SiteSection kind: POST `{spaceId, title, icon}`, then a PATCH for path, description and condition when declared. */
export const siteSectionKind = {
  name: "SiteSection",
  noun: { one: "section", many: "sections" },
  doc: "A section of a site, created with its first site space.",
  outputs: ["title", "path", "default", "sectionGroupId", "siteSpaceId", "siteSpacePath", "url"],
  fields,

  ...crud,
  ...PATH_AT_LEVEL,

  async create(ctx, inputs) {
    const { organizationId, siteId } = inputs;
    let section = await ctx.client.sections.create(organizationId, siteId, {
      spaceId: inputs.spaceId,
      ...(inputs.title === undefined ? {} : { title: inputs.title }),
      ...(inputs.icon === undefined ? {} : { icon: inputs.icon }),
      ...(inputs.draft === undefined ? {} : { draft: inputs.draft }),
    });
    const siteSpaceId = section.siteSpaces?.[0]?.id ?? null;
    ctx.created?.(section.id, toOutputs({ ...inputs, siteSpaceId }, section));
    // The SiteSpace declared for it takes this one over without reading the list (SiteSpace `existingId`).
    if (section.siteSpaces?.[0]) writtenSiteSpaces.remember(ctx.client, organizationId, siteId, section.siteSpaces[0]);
    // What the POST did not set (the path, description and condition): one PATCH.
    const pending = patchedFields(fields).filter((f) => {
      const declared = (inputs as Record<string, unknown>)[f];
      return declared !== undefined && declared !== ((section as unknown as Record<string, unknown>)[f] ?? null);
    });
    if (pending.length > 0) {
      section = await ctx.client.sections.update(organizationId, siteId, section.id, patchBody<UpdateSectionBody>(fields, inputs, pending));
      ctx.created?.(section.id, toOutputs({ ...inputs, siteSpaceId }, section));
    }
    const isDefault = await applyDefault(ctx, inputs, section.id, section.default === true);
    return { id: section.id, outs: { ...toOutputs({ ...inputs, siteSpaceId }, section), default: isDefault } };
  },

  async update(ctx, id, olds, news, changed) {
    let outs = await crud.update(ctx, id, olds, news, changed);
    if (changed.includes("default")) outs = { ...outs, default: await applyDefault(ctx, news, id, outs.default) };
    return outs;
  },

  outputsOf: (section: ApiSection, where: { organizationId: string; siteId: string }) => toOutputs({ ...where, spaceId: section.siteSpaces?.[0]?.space?.id ?? "" }, section),

  adopt,
  recover,
  // The POST sets the title, icon and draft and makes the one site space; the PATCH the rest.
  asPosted: (outs, inputs) =>
    outs.title === inputs.title &&
    (inputs.icon === undefined || outs.icon === inputs.icon) &&
    outs.sectionGroupId === null &&
    outs.description === null &&
    outs.condition === null &&
    outs.siteSpaceCount === 1 &&
    outs.siteSpaceId !== null &&
    isDerivedPath(outs.path, outs.title),
} satisfies KindDefinition<SiteSectionInputs, SiteSectionOutputs>;

/** The dynamic provider of SiteSection (serialised through `provider/providers/siteSection`). */
export const siteSectionProvider = makeProvider<SiteSectionInputs, SiteSectionOutputs>(siteSectionKind);

/** Arguments of a SiteSection. */
export type SiteSectionArgs = ResourceArgs<SiteSectionInputs>;
