import type { RequestCore } from "./core";
import { type InOrganization, OwnedItems } from "./ownedList";
import { path } from "./path";
import type { CreateSamlProviderBody, SamlProvider, SsoLoginInfo, UpdateSamlProviderBody } from "./types";

/** SAML providers of an organisation and its SSO login info. */
export class SamlApi extends OwnedItems<InOrganization, SamlProvider, CreateSamlProviderBody, UpdateSamlProviderBody> {
  constructor(core: RequestCore) {
    super(core, { collection: "/v1/orgs/{}/saml" });
  }

  /** SSO login entries (`GET /orgs/{org}/sso`). */
  async ssoInfo(orgId: string): Promise<SsoLoginInfo[]> {
    const res = await this.core.request<{ items: SsoLoginInfo[] }>("GET", path`/v1/orgs/${orgId}/sso`);
    return res.items;
  }
}
