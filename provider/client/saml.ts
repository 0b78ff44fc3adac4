import type { RequestCore } from "./core";
import { path } from "./path";
import type { CreateSamlProviderBody, SamlProvider, SsoLoginInfo, UpdateSamlProviderBody } from "./types";

/** SAML providers of an organisation and its SSO login info. */
export class SamlApi {
  constructor(private readonly core: RequestCore) {}

  list(orgId: string): Promise<SamlProvider[]> {
    return this.core.listAll(path`/v1/orgs/${orgId}/saml`);
  }
  iterate(orgId: string): AsyncIterableIterator<SamlProvider> {
    return this.core.paginate(path`/v1/orgs/${orgId}/saml`);
  }
  get(orgId: string, providerId: string): Promise<SamlProvider> {
    return this.core.request("GET", path`/v1/orgs/${orgId}/saml/${providerId}`);
  }
  create(orgId: string, body: CreateSamlProviderBody): Promise<SamlProvider> {
    return this.core.request("POST", path`/v1/orgs/${orgId}/saml`, { body });
  }
  update(orgId: string, providerId: string, body: UpdateSamlProviderBody): Promise<SamlProvider> {
    return this.core.request("PATCH", path`/v1/orgs/${orgId}/saml/${providerId}`, { body });
  }
  delete(orgId: string, providerId: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/orgs/${orgId}/saml/${providerId}`);
  }
  /** SSO login entries (`GET /orgs/{org}/sso`). */
  async ssoInfo(orgId: string): Promise<SsoLoginInfo[]> {
    const res = await this.core.request<{ items: SsoLoginInfo[] }>("GET", path`/v1/orgs/${orgId}/sso`);
    return res.items;
  }
}
