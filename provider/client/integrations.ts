import type { RequestCore } from "./core";
import { path } from "./path";
import type { Integration, IntegrationInstallation, ListIntegrationsQuery, PublishIntegrationBody } from "./types";

/** Integrations: listing, publishing, installations. */
export class IntegrationsApi {
  constructor(private readonly core: RequestCore) {}

  list(query: ListIntegrationsQuery = {}): Promise<Integration[]> {
    return this.core.listAll("/v1/integrations", { ...query });
  }
  iterate(query: ListIntegrationsQuery = {}): AsyncIterableIterator<Integration> {
    return this.core.paginate("/v1/integrations", { ...query });
  }
  get(name: string): Promise<Integration> {
    return this.core.request("GET", path`/v1/integrations/${name}`);
  }
  /** Publishes (creates or replaces) an integration; a POST, so never retried blindly. */
  publish(name: string, body: PublishIntegrationBody): Promise<Integration> {
    return this.core.request("POST", path`/v1/integrations/${name}`, { body });
  }
  unpublish(name: string): Promise<void> {
    return this.core.request("DELETE", path`/v1/integrations/${name}`);
  }
  listInstallations(name: string, query: { externalId?: string } = {}): Promise<IntegrationInstallation[]> {
    return this.core.listAll(path`/v1/integrations/${name}/installations`, { ...query });
  }
}
