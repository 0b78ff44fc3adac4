import type { ApiClient, MovePosition, SiteSection, SiteSectionGroup, SiteSpace, SiteStructure, SiteStructureItem, StructurePointer } from "../client";
import { isNotFound } from "../client/errors";
import { type FieldSpec, type InputsOf, type KindContext, type KindDefinition, type LiveOf, type ResourceArgs, type ValueSchema, orGone, limit, ORGANIZATION_FIELD, SITE_FIELD } from "./kind";
import { siteLists, siteReads, throughLag } from "./lists";
import { makeProvider } from "./provider";
import { longestIncreasing } from "../sequence";

/**
 * SiteStructureOrder keeps the declared display order of a site's sections, section groups and
 * site spaces. Siblings are created in parallel, so their order on the site is whatever the API
 * made of it; this kind (one per site, declared after all children) restores the declared order
 * with the fewest of the API's move operations: the longest subsequence already in order stays,
 * every other object moves next to its declared neighbour. Read reports the live order of the
 * declared objects, so an out-of-band reorder shows as drift.
 */

/** Key of the site's root level in `siteSpaces`. */
export const ROOT_LEVEL = "root";

/** The fields of a SiteStructureOrder: its one declaration, from which its types and schema derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  siteId: SITE_FIELD,
  sections: { schema: {"type": "array", "uniqueItems": true, "items": limit("id")} as ValueSchema<string[]>, doc: "Section IDs in display order (sections of a group stay together).", absent: "unmanaged", stack: "context" },
  sectionGroups: { schema: {"type": "array", "uniqueItems": true, "items": limit("id")} as ValueSchema<string[]>, doc: "Section group IDs in display order.", absent: "unmanaged", stack: "context" },
  siteSpaces: { schema: {"type": "object", "additionalProperties": {"type": "array", "uniqueItems": true, "items": limit("id")}} as ValueSchema<Record<string, string[]>>, doc: "Site space IDs in display order, per level: a section ID, or \"root\".", absent: "unmanaged", stack: "context" },
  // Adding a section to a group moves it in the display order: a membership change reorders the site.
  groups: { schema: { type: "object", additionalProperties: { type: "array", uniqueItems: true, items: limit("id") } } as ValueSchema<Record<string, string[]>>, doc: "Section IDs of each section group (group ID → section IDs): a change of membership moves sections, so the order is restored after it.", absent: "unmanaged", stack: "context", addedLater: true },
  navigation: {
    schema: { type: "object", additionalProperties: { type: "array", items: { type: "object", additionalProperties: false, required: ["type", "id"], properties: { type: { type: "string", enum: ["site-section", "site-section-group", "site-external-link"] }, id: limit("id") } } } } as ValueSchema<Record<string, StructurePointer[]>>,
    doc: "The navigation per level (\"root\" or a section group's ID): its sections, section groups and external links in display order, ordered with the structure sort.",
    absent: "unmanaged",
    stack: "context",
    addedLater: true,
  },
  undeclared: {
    schema: {
      type: "array",
      items: { type: "object", required: ["id", "list"], properties: { id: limit("id"), list: { type: "string" }, name: { type: ["string", "null"] } } },
    } as ValueSchema<UndeclaredStructure[]>,
    doc: "Sections, site spaces, section groups (where the group order is declared) and external links (where the navigation is) on the site that the file does not declare: found by a refresh; the next up deletes an external link and refuses the others (they hold what readers reach).",
    absent: { reset: [] },
    stack: "context",
    addedLater: true,
    normalize: (v: unknown) => (Array.isArray(v) ? [...(v as UndeclaredStructure[])].sort((a, b) => a.id.localeCompare(b.id)) : v),
  },
} as const satisfies Record<string, FieldSpec>;

/** An object of the site's structure the file does not declare. */
export interface UndeclaredStructure {
  id: string;
  list: "sections" | "siteSpaces" | "sectionGroups" | "externalLinks";
  name: string | null;
}

/** How each list of the structure is named in words, and whether `up` deletes an object of it made by hand. */
const STRUCTURE_LISTS = {
  sections: { one: "section", deleted: false },
  siteSpaces: { one: "site space", deleted: false },
  sectionGroups: { one: "section group", deleted: false },
  externalLinks: { one: "external link", deleted: true },
} as const;

/** Inputs of a SiteStructureOrder (its declared fields; the resource ID is the site ID). */
export type SiteStructureOrderInputs = InputsOf<typeof fields>;

/** Outputs of a SiteStructureOrder: the live order of the declared objects (null where nothing is declared). */
export type SiteStructureOrderOutputs = Omit<LiveOf<typeof fields>, "organizationId" | "siteId" | "navigation" | "undeclared"> & {
  organizationId: string;
  siteId: string;
  navigation?: Record<string, StructurePointer[]> | null;
  /** What a refresh found on the site that the file does not declare (none kept: none found). */
  undeclared?: UndeclaredStructure[] | null;
};

/** The ID lists a declaration (or the outputs stored for it) holds. */
type DeclaredLists = { [K in "sections" | "sectionGroups" | "siteSpaces" | "groups" | "navigation"]?: SiteStructureOrderInputs[K] | null };

/** One move: put `id` right after or right before a sibling. */
export interface Move {
  id: string;
  position: MovePosition;
}

/**
 * The fewest moves that put the items of `desired` into that relative order within `live`. Items
 * of either list missing from the other are ignored (they are not ours to order, or are gone).
 */
export function planMoves(live: readonly string[], desired: readonly string[]): Move[] {
  const inLive = new Set(live);
  const target = desired.filter((id, i) => inLive.has(id) && desired.indexOf(id) === i);
  const rank = new Map(target.map((id, i) => [id, i]));
  const liveOrder = live.filter((id) => rank.has(id));
  const kept = new Set<string>();
  for (const i of longestIncreasing(liveOrder.map((id) => rank.get(id)!))) kept.add(liveOrder[i]!);
  const moves: Move[] = [];
  for (let i = 0; i < target.length; i++) {
    const id = target[i]!;
    if (kept.has(id)) continue;
    if (i > 0) moves.push({ id, position: { after: target[i - 1]! } });
    else moves.push({ id, position: { before: target.find((t) => kept.has(t))! } });
  }
  return moves;
}

/** Applies a move to a local copy of a level's order. */
export function applyMove(order: string[], move: Move): void {
  const from = order.indexOf(move.id);
  if (from !== -1) order.splice(from, 1);
  const anchor = move.position.after ?? move.position.before!;
  const at = order.indexOf(anchor);
  order.splice(move.position.after !== undefined ? at + 1 : at, 0, move.id);
}

/** The live structure of a site. */
interface LiveStructure {
  sections: SiteSection[];
  groups: SiteSectionGroup[];
  siteSpaces: SiteSpace[];
}

/**
 * Reads the site's sections and site spaces, and its section groups only when `withGroups`: the
 * section order alone is known from the sections (each names its group); the group list only
 * places empty groups, which matters only for a declared group order.
 */
async function fetchLive(client: ApiClient, org: string, site: string, coalesce: boolean, withGroups: boolean): Promise<LiveStructure> {
  const noGroups = Promise.resolve([] as SiteSectionGroup[]);
  const [sections, groups, siteSpaces] = coalesce
    ? await Promise.all([
        siteLists.sections(client, org, site),
        withGroups ? siteLists.sectionGroups(client, org, site) : noGroups,
        siteLists.siteSpaces(client, org, site),
      ])
    : await Promise.all([client.sections.list(org, site), withGroups ? client.sectionGroups.list(org, site) : noGroups, client.siteSpaces.list(org, site)]);
  return { sections: [...sections], groups: [...groups], siteSpaces: [...siteSpaces] };
}

/**
 * The live structure as the site's structure read shows it: its sections (each with its site spaces)
 * and its groups, at any depth, in display order. A site that declares external links is ordered from
 * this one read (it is the only read that shows links), so its lists are not read as well.
 */
function liveOf(structure: SiteStructure): LiveStructure {
  const live: LiveStructure = { sections: [], groups: [], siteSpaces: [] };
  const walk = (items: readonly SiteStructureItem[]) => {
    for (const item of items) {
      if (item.object === "site-section") {
        live.sections.push(item);
        for (const ss of item.siteSpaces ?? []) live.siteSpaces.push(ss.section === undefined ? { ...ss, section: item.id } : ss);
      } else if (item.object === "site-section-group") {
        live.groups.push(item);
        walk((item.children ?? []) as unknown as SiteStructureItem[]);
      }
    }
  };
  if (structure.type === "sections") walk(structure.structure);
  else live.siteSpaces.push(...structure.structure);
  return live;
}

/** Whether the lists show every section, group and site space `inputs` declares an order for (each in its own list, as `observe` reads them). */
function listsAll(live: LiveStructure, inputs: Partial<SiteStructureOrderInputs>): boolean {
  const shows = (items: readonly { id: string }[], ids: readonly string[] | undefined) => {
    const listed = new Set(items.map((x) => x.id));
    return (ids ?? []).every((id) => listed.has(id));
  };
  return shows(live.sections, inputs.sections) && shows(live.groups, inputs.sectionGroups) && shows(live.siteSpaces, Object.values(inputs.siteSpaces ?? {}).flat());
}

/** IDs of the site's groups: those listed plus those its sections name (the list is not read without a declared group order). */
function groupIds(live: LiveStructure): string[] {
  const ids = new Set(live.groups.map((g) => g.id));
  for (const s of live.sections) if (s.sectionGroup) ids.add(s.sectionGroup);
  return [...ids];
}

/** Root-level entries in display order: ungrouped sections and groups (a group where its first section is). */
function rootEntries(live: LiveStructure): string[] {
  const out: string[] = [];
  for (const s of live.sections) {
    const entry = s.sectionGroup ?? s.id;
    if (!out.includes(entry)) out.push(entry);
  }
  // Empty groups do not show in the section order: keep them next to the group listed before them.
  live.groups.forEach((g, i) => {
    if (out.includes(g.id)) return;
    const before = live.groups.slice(0, i).reverse().find((p) => out.includes(p.id));
    out.splice(before ? out.indexOf(before.id) + 1 : 0, 0, g.id);
  });
  return out;
}

function levelOf(ss: SiteSpace): string {
  return ss.section ?? ROOT_LEVEL;
}

function observe(live: LiveStructure, declared: Partial<SiteStructureOrderInputs>, organizationId: string, siteId: string): SiteStructureOrderOutputs {
  const only = (order: string[], wanted: readonly string[]) => order.filter((id) => wanted.includes(id));
  let siteSpaces: Record<string, string[]> | null = null;
  if (declared.siteSpaces) {
    siteSpaces = {};
    for (const [level, ids] of Object.entries(declared.siteSpaces)) {
      siteSpaces[level] = only(live.siteSpaces.filter((ss) => levelOf(ss) === level).map((ss) => ss.id), ids);
    }
  }
  return {
    organizationId,
    siteId,
    sections: declared.sections ? only(live.sections.map((s) => s.id), declared.sections) : null,
    sectionGroups: declared.sectionGroups ? only(live.groups.map((g) => g.id), declared.sectionGroups) : null,
    siteSpaces,
    // Membership belongs to the groups (their own drift); kept as declared, it only triggers a reorder.
    groups: declared.groups ?? null,
  };
}

/** `items` in the order of `ids` (items whose ID is not listed keep their place after the listed ones). */
function inOrder<T extends { id: string }>(items: readonly T[], ids: readonly string[]): T[] {
  const rank = new Map(ids.map((id, i) => [id, i]));
  return [...items].sort((a, b) => (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity));
}

/**
 * The live order `inputs` is applied to, read afresh: with a declared navigation, the site's structure
 * alone (the one read that shows external links, and it holds every section, group and site space);
 * otherwise the lists. The declared objects exist (they are this order's dependencies): a read missing
 * one may be lagging, so it is looked at again through the list lag.
 */
async function readLive(client: ApiClient, inputs: SiteStructureOrderInputs): Promise<{ live: LiveStructure; structure?: SiteStructure }> {
  const { organizationId: org, siteId: site, navigation } = inputs;
  if (navigation) {
    const structure = await throughLag(() => client.navigation.structure(org, site), (s) => listsAll(liveOf(s), inputs) && showsNavigation(s, navigation));
    return { live: liveOf(structure), structure };
  }
  return { live: await throughLag(() => fetchLive(client, org, site, false, inputs.sectionGroups !== undefined), (l) => listsAll(l, inputs)) };
}

/**
 * Reorders the site to the declared order with the fewest moves; returns the resulting live order.
 * The site is read once (`readLive`): every move is applied to a local copy of its level as the API
 * applies it (`applyMove`), so the order after the moves is known without reading again.
 */
async function applyOrder(ctx: KindContext, inputs: SiteStructureOrderInputs): Promise<SiteStructureOrderOutputs> {
  const { organizationId: org, siteId: site } = inputs;
  const client = ctx.client;
  const { live, structure } = await readLive(client, inputs);
  const groupOf = new Map(live.sections.map((s) => [s.id, s.sectionGroup ?? null]));
  const isGroup = new Set(groupIds(live));
  let moved = false;

  const moveRoot = async (m: Move) => {
    if (isGroup.has(m.id)) await client.sectionGroups.move(org, site, m.id, m.position);
    else await client.sections.move(org, site, m.id, m.position);
    moved = true;
  };

  // Root level: ungrouped sections and groups, in the order the declared sections imply.
  const root = rootEntries(live);
  // The sections of each group, in their order inside it.
  const inGroup = new Map<string, string[]>();
  for (const g of isGroup) inGroup.set(g, live.sections.filter((s) => s.sectionGroup === g).map((s) => s.id));
  if (inputs.sections) {
    const desiredRoot: string[] = [];
    for (const id of inputs.sections) {
      if (!groupOf.has(id)) continue;
      const entry = groupOf.get(id) ?? id;
      if (!desiredRoot.includes(entry)) desiredRoot.push(entry);
    }
    for (const m of planMoves(root, desiredRoot)) {
      await moveRoot(m);
      applyMove(root, m);
    }
    // Inside each group: the declared relative order of its sections.
    for (const [, order] of inGroup) {
      for (const m of planMoves(order, inputs.sections)) {
        await client.sections.move(org, site, m.id, m.position);
        applyMove(order, m);
        moved = true;
      }
    }
  }
  // Groups among themselves (only moves what the section order left out of place).
  if (inputs.sectionGroups) {
    const groupsInRoot = root.filter((id) => isGroup.has(id));
    for (const m of planMoves(groupsInRoot, inputs.sectionGroups)) {
      await client.sectionGroups.move(org, site, m.id, m.position);
      applyMove(root, m);
      moved = true;
    }
  }
  // Site spaces, level by level.
  const levels = new Map<string, string[]>();
  for (const ss of live.siteSpaces) {
    const level = levels.get(levelOf(ss));
    if (level) level.push(ss.id);
    else levels.set(levelOf(ss), [ss.id]);
  }
  for (const [level, ids] of Object.entries(inputs.siteSpaces ?? {})) {
    const atLevel = levels.get(level) ?? [];
    for (const m of planMoves(atLevel, ids)) {
      await client.siteSpaces.move(org, site, m.id, m.position);
      applyMove(atLevel, m);
      moved = true;
    }
  }
  const navigation = structure ? await applyNavigation(client, org, site, inputs.navigation!, structure) : undefined;
  if (!moved) return { ...observe(live, inputs, org, site), navigation: navigation ?? null };
  // The order the moves produced: a group's sections stand together where the group stands.
  const sectionOrder = root.flatMap((entry) => (isGroup.has(entry) ? (inGroup.get(entry) ?? []) : [entry]));
  const after: LiveStructure = {
    sections: inOrder(live.sections, sectionOrder),
    groups: inOrder(live.groups, root),
    siteSpaces: inOrder(live.siteSpaces, [...levels.values()].flat()),
  };
  return { ...observe(after, inputs, org, site), navigation: navigation ?? null };
}

/** The IDs of each level of a sections site's navigation (`"root"` and each group), in display order, with each item's pointer type. */
function navigationLevels(structure: SiteStructure): { levels: Map<string, string[]>; types: Map<string, StructurePointer["type"]> } {
  const levels = new Map<string, string[]>();
  const types = new Map<string, StructurePointer["type"]>();
  const walk = (level: string, items: readonly { object: string; id: string; children?: unknown }[]) => {
    levels.set(level, items.map((i) => i.id));
    for (const item of items) {
      types.set(item.id, item.object as StructurePointer["type"]);
      if (item.object === "site-section-group") walk(item.id, (item.children ?? []) as { object: string; id: string }[]);
    }
  };
  if (structure.type === "sections") walk(ROOT_LEVEL, structure.structure);
  return { levels, types };
}

/** The live order of the declared items of each declared level. */
function observeNavigation(structure: SiteStructure, declared: Record<string, StructurePointer[]>): Record<string, StructurePointer[]> {
  const { levels, types } = navigationLevels(structure);
  const out: Record<string, StructurePointer[]> = {};
  for (const [level, items] of Object.entries(declared)) {
    const wanted = new Set(items.map((i) => i.id));
    out[level] = (levels.get(level) ?? []).filter((id) => wanted.has(id)).map((id) => ({ type: types.get(id)!, id }));
  }
  return out;
}

/** Whether the structure shows every item the declared navigation names (they are the order's dependencies: one missing may be lagging). */
function showsNavigation(structure: SiteStructure, declared: Record<string, StructurePointer[]>): boolean {
  const { types } = navigationLevels(structure);
  return Object.values(declared).every((items) => items.every((i) => types.has(i.id)));
}

/** Orders each declared level of `structure` (the site's, as read) with the fewest sorts, each applied to a local copy. */
async function applyNavigation(client: ApiClient, org: string, site: string, declared: Record<string, StructurePointer[]>, structure: SiteStructure): Promise<Record<string, StructurePointer[]>> {
  const { levels, types } = navigationLevels(structure);
  for (const [level, items] of Object.entries(declared)) {
    const order = levels.get(level) ?? [];
    for (const m of planMoves(order, items.map((i) => i.id))) {
      const pointer = (id: string): StructurePointer => ({ type: types.get(id)!, id });
      const position = m.position.after !== undefined ? { after: pointer(m.position.after) } : { before: pointer(m.position.before!) };
      await client.navigation.sort(org, site, pointer(m.id), position);
      applyMove(order, m);
    }
    levels.set(level, order);
  }
  const out: Record<string, StructurePointer[]> = {};
  for (const [level, items] of Object.entries(declared)) {
    const wanted = new Set(items.map((i) => i.id));
    out[level] = (levels.get(level) ?? []).filter((id) => wanted.has(id)).map((id) => ({ type: types.get(id)!, id }));
  }
  return out;
}

/** Every ID of the site's structure a declaration names: its sections, groups, site spaces and external links. */
function declaredIds(declared: DeclaredLists): Set<string> {
  const ids = new Set<string>([...(declared.sections ?? []), ...(declared.sectionGroups ?? []), ...Object.keys(declared.groups ?? {}), ...Object.values(declared.groups ?? {}).flat()]);
  for (const ssIds of Object.values(declared.siteSpaces ?? {})) for (const id of ssIds) ids.add(id);
  for (const [level, items] of Object.entries(declared.navigation ?? {})) {
    if (level !== ROOT_LEVEL) ids.add(level);
    for (const item of items) ids.add(item.id);
  }
  return ids;
}

/**
 * The objects of the live structure the declaration does not name: sections and site spaces always (the
 * read has them), groups where the group order is declared (the group list is read then) and external
 * links where the navigation is (the structure read, the only one that shows links, is made then).
 */
function undeclaredIn(live: LiveStructure, structure: SiteStructure | undefined, declared: DeclaredLists): UndeclaredStructure[] {
  const ids = declaredIds(declared);
  const out: UndeclaredStructure[] = [];
  const add = (list: UndeclaredStructure["list"], items: readonly { id: string; title?: string | null }[]) => {
    for (const item of items) if (!ids.has(item.id)) out.push({ id: item.id, list, name: typeof item.title === "string" && item.title !== "" ? item.title : null });
  };
  add("sections", live.sections);
  add("siteSpaces", live.siteSpaces.map((ss) => ({ id: ss.id, title: (ss as { title?: string | null }).title ?? ss.path ?? null })));
  if (declared.sectionGroups) add("sectionGroups", live.groups);
  if (structure !== undefined) add("externalLinks", linksIn(structure));
  return out;
}

/** The external links of a site's structure, at any depth. */
function linksIn(structure: SiteStructure): { id: string; title?: string | null }[] {
  const out: { id: string; title?: string | null }[] = [];
  const walk = (items: readonly SiteStructureItem[]) => {
    for (const item of items) {
      const it = item as unknown as { object?: string; id: string; title?: string | null; children?: SiteStructureItem[] };
      if (it.object === "site-external-link") out.push(it);
      else if (it.object === "site-section-group") walk(it.children ?? []);
    }
  };
  if (structure.type === "sections") walk(structure.structure);
  return out;
}

/** An object of the structure in words: `section "Guides" (id …)`. */
function structureWords(o: UndeclaredStructure): string {
  return `${STRUCTURE_LISTS[o.list].one} ${o.name === null ? "" : `${JSON.stringify(o.name)} `}(id ${o.id})`;
}

/** The SiteStructureOrder kind: create/update reorder with the API's move operations; delete leaves the site as it is. */
export const siteStructureOrderKind = {
  name: "SiteStructureOrder",
  noun: { one: "structure order", many: "structure orders" },
  doc: "The display order of a site's sections, section groups and site spaces.",
  outputs: ["sections", "sectionGroups", "siteSpaces"],
  fields,

  async create(ctx, inputs) {
    return { id: inputs.siteId, outs: { ...(await applyOrder(ctx, inputs)), undeclared: [] } };
  },

  async read(ctx, id, state) {
    const live = await orGone(fetchLive(ctx.client, state.organizationId, id, true, Boolean(state.sectionGroups)));
    if (!live) return undefined;
    const declared: Partial<SiteStructureOrderInputs> = {};
    if (state.sections) declared.sections = state.sections;
    if (state.sectionGroups) declared.sectionGroups = state.sectionGroups;
    if (state.siteSpaces) declared.siteSpaces = state.siteSpaces;
    if (state.groups) declared.groups = state.groups;
    const observed = { ...observe(live, declared, state.organizationId, id), navigation: null };
    if (!state.navigation) return { ...observed, undeclared: undeclaredIn(live, undefined, state) };
    // The process's one read of the site's structure, shared with its external links' reads (lists.ts).
    const structure = await orGone(siteReads.structure(ctx.client, state.organizationId, id));
    return structure ? { ...observed, navigation: observeNavigation(structure, state.navigation), undeclared: undeclaredIn(live, structure, state) } : undefined;
  },

  // Objects made by hand first: an external link is deleted, anything that holds what readers reach refuses the
  // update before any call, with the way out.
  async update(ctx, _id, olds, news) {
    const found = (olds.undeclared ?? []).filter((o) => !declaredIds(news).has(o.id));
    const kept = found.filter((o) => !STRUCTURE_LISTS[o.list].deleted);
    if (kept.length > 0) {
      throw new Error(
        `${kept.map((o) => `${structureWords(o)} on site ${olds.siteId}`).join("; ")}: made on the platform and not in the file, and it holds what readers reach, so \`up\` does not delete it. ` +
          "Declare it in the site's structure in the file (`docsplatform export` writes it as an entry), or delete it on the platform, then run `pulumi up --refresh`",
      );
    }
    for (const link of found) {
      try {
        await ctx.client.navigation.deleteLink(olds.organizationId, olds.siteId, link.id);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
    return { ...(await applyOrder(ctx, news)), undeclared: [] };
  },

  driftWords(field, live) {
    if (field !== "undeclared" || !Array.isArray(live)) return undefined;
    return (live as UndeclaredStructure[]).map((o) =>
      STRUCTURE_LISTS[o.list].deleted
        ? `drift: ${structureWords(o)} was made on the platform and is not in the file: \`pulumi up\` deletes it; to keep it, declare it in the site's structure`
        : `drift: ${structureWords(o)} was made on the platform and is not in the file: \`pulumi up\` refuses until it is declared in the file or deleted on the platform (it holds what readers reach)`,
    );
  },

  async delete() {
    // Order is a property of the site, not an object: nothing to remove.
  },
} satisfies KindDefinition<SiteStructureOrderInputs, SiteStructureOrderOutputs>;

/** The dynamic provider of SiteStructureOrder (serialised through `provider/providers/siteStructureOrder`). */
export const siteStructureOrderProvider = makeProvider<SiteStructureOrderInputs, SiteStructureOrderOutputs>(siteStructureOrderKind);

/** Arguments of a SiteStructureOrder. */
export type SiteStructureOrderArgs = ResourceArgs<SiteStructureOrderInputs>;
