import type { TranslationSettings as ApiTranslationSettings, TranslationSettingsBody } from "../client";
import { type KindDefinition, type ResourceArgs, limit, ORGANIZATION_FIELD } from "./kind";
import { organizationObject } from "./organizationObject";
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

const crud = organizationObject<TranslationSettingsInputs, TranslationSettingsOutputs, ApiTranslationSettings, TranslationSettingsBody>({
  kind: "TranslationSettings",
  area: (client) => client.translations,
  toOutputs,
  body: ["title"],
  key: "title",
  objects: "translation settings",
  verb: "are titled",
});

/** The TranslationSettings kind: POST `{title}`, PUT `{title}`. */
export const translationSettingsKind = {
  name: "TranslationSettings",
  doc: "Translation settings of the organisation.",
  list: {
    property: "translations",
    after: "spaces",
    definition: "translation",
    name: "translation",
    one: "translation setting",
    many: "translation settings",
    doc: "Translation settings of the organisation.",
    entryDoc: "Translation settings.",
    readAll: (client, org) => client.translations.list(org),
  } as const,
  outputs: ["languages", "url", "createdAt", "updatedAt"],
  fields: {
    organizationId: ORGANIZATION_FIELD,
    title: { schema: limit("translationTitle"), doc: "Title of the translation settings, 1 to 100 characters.", required: true },
  },

  naturalKey: { field: "title", scope: "organization" },

  ...crud,
} satisfies KindDefinition<TranslationSettingsInputs, TranslationSettingsOutputs>;

/** The dynamic provider of TranslationSettings (serialised through `provider/providers/translationSettings`). */
export const translationSettingsProvider = makeProvider<TranslationSettingsInputs, TranslationSettingsOutputs>(translationSettingsKind);

/** Arguments of TranslationSettings. */
export type TranslationSettingsArgs = ResourceArgs<TranslationSettingsInputs>;
