import type { TranslationSettings as ApiTranslationSettings } from "../client";
import { type Created, type KindContext, type KindDefinition, type ResourceArgs, exactlyOne, orGone, limit, ORGANIZATION_FIELD } from "./kind";
import { makeProvider } from "./provider";

/** Inputs of TranslationSettings. */
export interface TranslationSettingsInputs {
  organizationId: string;
  /** 1 to 100 characters; the natural key `adopt` looks up by (exactly one must have it). */
  title: string;
}

/** Outputs of TranslationSettings. */
export interface TranslationSettingsOutputs {
  organizationId: string;
  title: string;
  /** Languages the platform translates into (e.g. language codes). */
  languages: string[];
  url: string | null;
  createdAt: string | null;
  updatedAt: string | null;
}

function toOutputs(organizationId: string, t: ApiTranslationSettings): TranslationSettingsOutputs {
  return {
    organizationId,
    title: t.title,
    languages: t.languages ?? [],
    url: t.urls?.location ?? null,
    createdAt: t.createdAt ?? null,
    updatedAt: t.updatedAt ?? null,
  };
}

/** The one translation settings object with exactly this title. */
async function adopt(ctx: KindContext, inputs: TranslationSettingsInputs): Promise<Created<TranslationSettingsOutputs> | undefined> {
  const all = await ctx.client.translations.list(inputs.organizationId);
  const found = exactlyOne(
    "TranslationSettings",
    `translation settings of organization ${inputs.organizationId} are titled ${JSON.stringify(inputs.title)}`,
    all.filter((t) => t.title === inputs.title),
  );
  return found ? { id: found.id, outs: toOutputs(inputs.organizationId, found) } : undefined;
}

/** The TranslationSettings kind: POST `{title}`, PUT `{title}`. */
export const translationSettingsKind = {
  name: "TranslationSettings",
  doc: "Translation settings of the organisation.",
  outputs: ["languages", "url", "createdAt", "updatedAt"],
  fields: {
    organizationId: ORGANIZATION_FIELD,
    title: { schema: limit("translationTitle"), doc: "Title of the translation settings, 1 to 100 characters.", required: true },
  },

  naturalKey: { field: "title", scope: "organization" },

  async create(ctx, inputs) {
    const t = await ctx.client.translations.create(inputs.organizationId, { title: inputs.title });
    return { id: t.id, outs: toOutputs(inputs.organizationId, t) };
  },

  async read(ctx, id, state) {
    const t = await orGone(ctx.client.translations.get(state.organizationId, id));
    return t ? toOutputs(state.organizationId, t) : undefined;
  },

  async update(ctx, id, olds, news, changed) {
    if (!changed.includes("title")) return olds;
    return toOutputs(olds.organizationId, await ctx.client.translations.update(olds.organizationId, id, { title: news.title }));
  },

  outputsOf: (t: ApiTranslationSettings, where) => toOutputs(where.organizationId, t),

  async delete(ctx, id, olds) {
    await ctx.client.translations.delete(olds.organizationId, id);
  },

  adopt,
} satisfies KindDefinition<TranslationSettingsInputs, TranslationSettingsOutputs>;

/** The dynamic provider of TranslationSettings (serialised through `provider/providers/translationSettings`). */
export const translationSettingsProvider = makeProvider<TranslationSettingsInputs, TranslationSettingsOutputs>(translationSettingsKind);

/** Arguments of TranslationSettings. */
export type TranslationSettingsArgs = ResourceArgs<TranslationSettingsInputs>;
