import type { RequestCore } from "./core";
import { path } from "./path";
import type { TranslationSettings, TranslationSettingsBody } from "./types";

/** Translation settings of an organisation. */
export class TranslationsApi {
  constructor(private readonly core: RequestCore) {}

  list(orgId: string): Promise<TranslationSettings[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/translations`);
  }
  iterate(orgId: string): AsyncIterableIterator<TranslationSettings> {
    return this.core.paginate(path`/v1/orgs/${orgId}/translations`);
  }
  get(orgId: string, translationId: string): Promise<TranslationSettings> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/translations/${translationId}`);
  }
  create(orgId: string, body: TranslationSettingsBody): Promise<TranslationSettings> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/translations`, { body });
  }
  update(orgId: string, translationId: string, body: TranslationSettingsBody): Promise<TranslationSettings> {
    return this.core.request("PUT", path`/v1/orgs/${orgId}/translations/${translationId}`, { body });
  }
  delete(orgId: string, translationId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/translations/${translationId}`);
  }
}
