import type { EditMode, Role, Space as ApiSpace, UpdateSpaceBody } from "../client";
import { type KindContext, type KindDefinition, type ResourceArgs, orGone, limit, ORGANIZATION_FIELD, declaredAmong } from "./kind";
import { makeProvider } from "./provider";

/** What a Space resource may set on an existing space. */
export interface SpaceSettings {
  /** At most 50 characters. */
  title?: string;
  /** At most 50 characters. */
  emoji?: string;
  /** `live`: direct edits; `locked`: all edits locked. */
  editMode?: EditMode;
  /** Default level for content (null: no default). */
  defaultLevel?: Role | null;
  /** ID of the parent collection (null: top level). */
  parent?: string | null;
}

/** Inputs of a Space: an existing space's settings, or a space the file creates. */
export interface SpaceInputs extends SpaceSettings {
  /** The organization that owns the space; when declared it must match. Required to create one. */
  organizationId?: string;
  /** ID of an existing space to take over; omitted: the resource creates the space. */
  spaceId?: string;
  /** Content language, set when the space is created. */
  language?: string;
  /**
   * On delete: `restore` (default) patches a taken-over space's previous values back and leaves a space
   * the file created in place (the component declares it with `retainOnDelete`); `delete` soft-deletes
   * the space (restorable for 7 days).
   */
  deletionPolicy?: "restore" | "delete";
}

/** Outputs of a Space: its live settings, what they were before this resource changed them, and its URLs. */
export interface SpaceOutputs {
  organizationId: string;
  spaceId: string;
  title: string;
  emoji: string;
  editMode: EditMode | null;
  defaultLevel: Role | null;
  parent: string | null;
  visibility: string | null;
  deletionPolicy: "restore" | "delete";
  /** True when this resource created the space (then nothing is restored on delete: it is left in place). */
  created: boolean;
  language: string | null;
  /** The values of the managed settings before this resource first set them: restored on delete. */
  previous: SpaceSettings;
  url: string | null;
  appUrl: string | null;
  publishedUrl: string | null;
  updatedAt: string | null;
}

/** Settings patched with `PATCH /spaces/{id}`; `parent` goes through `move`. */
const PATCHED = ["title", "emoji", "editMode", "defaultLevel"] as const;
const MANAGED = [...PATCHED, "parent"] as const;
type Managed = (typeof MANAGED)[number];

/** The managed settings as the space has them (`editMode` may be absent: null). */
interface LiveSettings {
  title: string;
  emoji: string;
  editMode: EditMode | null;
  defaultLevel: Role | null;
  parent: string | null;
}

function liveSettings(space: ApiSpace): LiveSettings {
  return {
    title: space.title,
    emoji: space.emoji ?? "",
    editMode: space.editMode ?? null,
    defaultLevel: space.defaultLevel ?? null,
    parent: space.parent ?? null,
  };
}

function toOutputs(space: ApiSpace, deletionPolicy: "restore" | "delete", previous: SpaceSettings, created = false): SpaceOutputs {
  const live = liveSettings(space);
  return {
    organizationId: space.organization,
    spaceId: space.id,
    ...live,
    visibility: space.visibility ?? null,
    deletionPolicy,
    created,
    language: space.language ?? null,
    previous,
    url: space.urls?.location ?? null,
    appUrl: space.urls?.app ?? null,
    publishedUrl: space.urls?.published ?? null,
    updatedAt: space.updatedAt ?? null,
  };
}

/** The space, or undefined when it is gone or soft-deleted. */
async function getLive(ctx: KindContext, spaceId: string): Promise<ApiSpace | undefined> {
  const space = await orGone(ctx.client.spaces.get(spaceId));
  return space && !space.deletedAt ? space : undefined;
}

/**
 * Sets `wanted` on the space `id`: one PATCH of its settings and a move for its parent. Given the live
 * space, only what differs from it is sent. Without it (an update: `wanted` holds what diff found
 * changed from the state) nothing is read first: a PATCH or move to a value the space already has by
 * hand changes nothing. The space as the last call answers it, read only when nothing could be sent
 * (an `editMode` removed from the file: it cannot be unset).
 */
async function apply(ctx: KindContext, id: string, wanted: SpaceSettings, live?: ApiSpace): Promise<ApiSpace> {
  const has = live === undefined ? undefined : liveSettings(live);
  const patch: Record<string, unknown> = {};
  for (const f of PATCHED) {
    const v = wanted[f];
    if (v === undefined || (has !== undefined && v === has[f])) continue;
    if (f === "editMode" && v === null) continue; // editMode cannot be unset
    patch[f] = v;
  }
  let current = live;
  if (Object.keys(patch).length > 0) current = await ctx.client.spaces.update(id, patch as UpdateSpaceBody);
  if (wanted.parent !== undefined && (current === undefined || (wanted.parent ?? null) !== (current.parent ?? null))) {
    current = await ctx.client.spaces.move(id, { parent: wanted.parent ?? null });
  }
  return current ?? (await ctx.client.spaces.get(id));
}

function declaredSettings(inputs: SpaceSettings, names: readonly string[] = MANAGED): SpaceSettings {
  return declaredAmong(inputs, MANAGED, names);
}

/** Creates the space the inputs describe (one POST; a parent collection is given in it). */
async function createSpace(ctx: KindContext, inputs: SpaceInputs) {
  if (inputs.organizationId === undefined) throw new Error("Space: creating a space needs organizationId");
  const space = await ctx.client.spaces.create(inputs.organizationId, {
    ...(inputs.title === undefined ? {} : { title: inputs.title }),
    ...(inputs.emoji === undefined ? {} : { emoji: inputs.emoji }),
    ...(inputs.editMode === undefined ? {} : { editMode: inputs.editMode }),
    ...(inputs.language === undefined ? {} : { language: inputs.language }),
    ...(inputs.parent ? { parent: inputs.parent } : {}),
  });
  ctx.created?.(space.id, toOutputs(space, inputs.deletionPolicy ?? "restore", {}, true));
  // The default level is not part of the create: one PATCH when declared.
  const updated = inputs.defaultLevel ? await apply(ctx, space.id, { defaultLevel: inputs.defaultLevel }, space) : space;
  return { id: space.id, outs: toOutputs(updated, inputs.deletionPolicy ?? "restore", {}, true) };
}

/**
 * The Space kind: takes over an existing space and sets its declared settings, remembering the
 * values it replaced, or creates one. Delete restores them, or soft-deletes the space with
 * `deletionPolicy: delete`. A space it created is retained on delete (`retainedOnDelete`) unless
 * its policy is `delete`. A soft-deleted space reads as gone.
 */
export const spaceKind = {
  name: "Space",
  noun: { one: "space", many: "spaces" },
  doc: "A space: an existing one's settings (by ID), or a space the file creates.",
  outputs: ["organizationId", "spaceId", "title", "emoji", "editMode", "defaultLevel", "parent", "visibility", "deletionPolicy", "created", "language", "previous", "url", "appUrl", "publishedUrl"],
  fields: {
    organizationId: { ...ORGANIZATION_FIELD, required: false, absent: "unmanaged" },
    spaceId: { schema: limit("id"), doc: "Platform ID of an existing space to take over (e.g. space-guides). Omitted: the space is created (title, emoji, parent, edit mode, language).", absent: "unmanaged", createOnly: true, stack: { as: "id" as const } },
    language: { schema: limit("language"), doc: "Content language of a space the file creates (en, fr, de, …). Set on creation only.", absent: "unmanaged", createOnly: true, addedLater: true },
    title: { schema: limit("spaceTitle"), doc: "Space title, at most 50 characters. A space always has a title: not managed when omitted.", absent: "unmanaged" },
    emoji: { schema: limit("spaceEmoji"), doc: "Space emoji, at most 50 characters.", absent: "unmanaged", initial: "" },
    editMode: { schema: limit("spaceEditMode"), doc: "live: direct edits allowed; locked: all edits locked.", absent: { reset: "live" } },
    defaultLevel: { schema: limit("roleNonNull"), doc: "Default level of access to the space: admin, create, review, edit, comment or read.", absent: "clear" },
    parent: { schema: limit("id"), doc: "Collection the space belongs to: a collection key of this file or {id: \"<collection ID>\"}; null or omitted: the top level.", absent: "clear", stack: { ref: "collections" } },
    deletionPolicy: {
      schema: { type: "string", enum: ["restore", "delete"] },
      doc:
        "What removing the entry (or pulumi destroy) does to the space. restore: a space taken over by id gets its previous settings back; a space the file created is left in place with its content and no longer managed (its resource has retainOnDelete, so the preview shows delete[retain]). delete: the space is deleted (restorable for 7 days). The removal follows the policy the last up applied: set delete and run up before removing the entry.",
      absent: { reset: "restore" },
    },
  },

  // A space the file created holds people's work: the engine leaves it in place unless the entry asks for deletion.
  retainedOnDelete: (inputs) => inputs.spaceId === undefined && inputs.deletionPolicy !== "delete",

  naturalKey: { field: "spaceId", scope: "organization", enforced: "two entries would manage the same space" },

  /**
   * A created space has no natural key. When a create's answer was lost, the one live space with what
   * the POST set (title, parent, and emoji when declared) is the one it made; none or several: the
   * create is reported as not known, never repeated.
   */
  async recover(ctx, inputs) {
    if (inputs.spaceId !== undefined || inputs.organizationId === undefined) return undefined;
    const matching = (await ctx.client.spaces.list(inputs.organizationId)).filter(
      (s) => s.title === inputs.title && (s.parent ?? null) === (inputs.parent ?? null) && (inputs.emoji === undefined || s.emoji === inputs.emoji),
    );
    if (matching.length !== 1) return undefined;
    const space = await ctx.client.spaces.get(matching[0]!.id);
    const updated = inputs.defaultLevel ? await apply(ctx, space.id, { defaultLevel: inputs.defaultLevel }, space) : space;
    return { id: space.id, outs: toOutputs(updated, inputs.deletionPolicy ?? "restore", {}, true) };
  },

  async create(ctx, inputs) {
    if (inputs.spaceId === undefined) return createSpace(ctx, inputs);
    const space = await getLive(ctx, inputs.spaceId);
    if (!space) throw new Error(`Space: space ${inputs.spaceId} does not exist (or is deleted); a Space resource manages an existing space`);
    if (inputs.organizationId !== undefined && space.organization !== inputs.organizationId) {
      throw new Error(
        `Space: space ${inputs.spaceId} belongs to organization ${space.organization}, not ${inputs.organizationId} as declared`,
      );
    }
    const wanted = declaredSettings(inputs);
    const live = liveSettings(space);
    const previous: Record<string, unknown> = {};
    for (const f of Object.keys(wanted) as Managed[]) previous[f] = live[f];
    // Held from here on: if a change fails, the values to restore on delete are already recorded.
    ctx.created?.(space.id, toOutputs(space, inputs.deletionPolicy ?? "restore", previous as SpaceSettings));
    const updated = await apply(ctx, space.id, wanted, space);
    return { id: space.id, outs: toOutputs(updated, inputs.deletionPolicy ?? "restore", previous as SpaceSettings) };
  },

  async read(ctx, id, state) {
    const space = await getLive(ctx, id);
    return space ? toOutputs(space, state.deletionPolicy ?? "restore", state.previous ?? {}, state.created === true) : undefined;
  },

  async update(ctx, id, olds, news, changed) {
    const wanted = declaredSettings(news, changed);
    // A setting managed for the first time: remember the value it had before.
    const previous: Record<string, unknown> = { ...olds.previous };
    for (const f of Object.keys(wanted) as Managed[]) if (!(f in previous)) previous[f] = olds[f];
    const deletionPolicy = changed.includes("deletionPolicy") ? (news.deletionPolicy ?? "restore") : olds.deletionPolicy;
    if (olds.created === true) for (const f of Object.keys(previous)) delete previous[f];
    if (Object.keys(wanted).length === 0) return { ...olds, previous: previous as SpaceSettings, deletionPolicy };
    return toOutputs(await apply(ctx, id, wanted), deletionPolicy, previous as SpaceSettings, olds.created === true);
  },

  outputsOf: (space: ApiSpace) => toOutputs(space, "restore", {}),

  async delete(ctx, id, olds) {
    if (olds.deletionPolicy === "delete") {
      await ctx.client.spaces.delete(id);
      return;
    }
    // A space the file created is left in place (its content is people's work): nothing to restore.
    if (olds.created === true) return;
    const space = await getLive(ctx, id);
    if (space) await apply(ctx, space.id, olds.previous ?? {}, space);
  },
} satisfies KindDefinition<SpaceInputs, SpaceOutputs>;

/** The dynamic provider of Space (serialised through `provider/providers/space`). */
export const spaceProvider = makeProvider<SpaceInputs, SpaceOutputs>(spaceKind);

/** Arguments of a Space. */
export type SpaceArgs = ResourceArgs<SpaceInputs>;
