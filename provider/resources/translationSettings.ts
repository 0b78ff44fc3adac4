import type { TranslationSettings as ApiTranslationSettings, TranslationSettingsBody } from "../client";
import { type FieldSpec, type InputsOf, type KindDefinition, type ResourceArgs, type StoredOf, limit, ORGANIZATION_FIELD, reported } from "./kind";
import { organizationObject } from "./organizationObject";
import { makeProvider } from "./provider";

/** The fields of TranslationSettings: its one declaration, from which its types, schema and request bodies derive. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  title: { schema: limit("translationTitle"), doc: "Title of the translation settings, 1 to 100 characters.", required: true, patched: true },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of TranslationSettings (`title` is the natural key `adopt` looks up by: exactly one must have it). */
export type TranslationSettingsInputs = InputsOf<typeof fields>;

/** Outputs of TranslationSettings: its fields as stored, and what the API adds. */
export type TranslationSettingsOutputs = StoredOf<typeof fields> & {
  /** Languages the platform translates into (e.g. language codes). */
  languages: string[];
  url: string | null;
  createdAt: string | null;
  updatedAt: string | null;
};

function toOutputs(organizationId: string, t: ApiTranslationSettings): TranslationSettingsOutputs {
  return { organizationId, ...reported(t, ["title", "createdAt", "updatedAt"]), languages: t.languages ?? [], url: t.urls?.location ?? null };
}

/** The TranslationSettings kind: POST `{title}`, PUT `{title}`. */
export const translationSettingsKind = {
  name: "TranslationSettings",
  noun: { one: "translation setting", many: "translation settings" },
  doc: "Translation settings of the organisation.",
  list: {
    property: "translations",
    after: "spaces",
    definition: "translation",
    name: "translation",
    doc: "Translation settings of the organisation.",
    entryDoc: "Translation settings.",
    readAll: (client, org) => client.translations.list(org),
  } as const,
  outputs: ["languages", "url"],
  fields,

  ...organizationObject<TranslationSettingsInputs, TranslationSettingsOutputs, ApiTranslationSettings, TranslationSettingsBody>({
    kind: "TranslationSettings",
    area: (client) => client.translations,
    toOutputs,
    fields,
    naturalKey: { field: "title" },
    objects: "translation settings",
    verb: "are titled",
  }),
} satisfies KindDefinition<TranslationSettingsInputs, TranslationSettingsOutputs>;

/** The dynamic provider of TranslationSettings (serialised through `provider/providers/translationSettings`). */
export const translationSettingsProvider = makeProvider<TranslationSettingsInputs, TranslationSettingsOutputs>(translationSettingsKind);

/** Arguments of TranslationSettings. */
export type TranslationSettingsArgs = ResourceArgs<TranslationSettingsInputs>;
