import type { RequestCore } from "./core";
import { type InOrganization, OwnedItems } from "./ownedList";
import type { TranslationSettings, TranslationSettingsBody } from "./types";

/** Translation settings of an organisation (an update replaces the whole). */
export class TranslationsApi extends OwnedItems<InOrganization, TranslationSettings, TranslationSettingsBody> {
  constructor(core: RequestCore) {
    super(core, { collection: "/v1/orgs/{}/translations", update: "PUT" });
  }
}
