import type { Organization, Team } from "./orgTypes";
import type { Role } from "./baseTypes";

/** Types of the /v1 API for the organisation's services: SAML, OpenAPI specs, translations and integrations. */

export interface SamlProvider {
  object: "saml-provider";
  id: string;
  label: string;
  ssoURL?: string;
  entityID?: string;
  certificate?: string;
  defaultTeam?: Team | null;
  defaultRole?: Role | null;
  createdAt?: string;
  status?: string;
  service?: { acsURL?: string; startURL?: string; entityID?: string };
  urls?: { location?: string };
}

export interface CreateSamlProviderBody {
  label: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  defaultTeam?: string;
  defaultRole?: Role | null;
}

export type UpdateSamlProviderBody = Partial<CreateSamlProviderBody>;

export interface SsoLoginInfo {
  id: string;
  label: string;
  startURL: string;
}

export type OpenAPIProcessingState = "pending" | "progress" | "complete" | (string & {});

export interface OpenAPISpec {
  object: "openapi-spec";
  id: string;
  createdAt?: string;
  updatedAt?: string;
  slug: string;
  sourceURL?: string;
  /** `private` or `public` (extensions §13); set only by {@link OpenAPIVisibilityBody}. */
  visibility?: OpenAPIVisibility;
  processingState: OpenAPIProcessingState;
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: string;
  permissions?: { view?: boolean; edit?: boolean };
  urls?: { location?: string; app?: string };
}

/** Where the platform takes the specification from: exactly one of a URL it fetches and the text itself. */
export type OpenAPISource = { url: string } | { text: string };

/** Who can read a stored spec. */
export type OpenAPIVisibility = "private" | "public";

/** Body of `PATCH …/openapi/{slug}`: its one member. */
export interface OpenAPIVisibilityBody {
  visibility: OpenAPIVisibility;
}

/** The latest version's entry file exactly as submitted (a text spec's). */
export interface OpenAPISpecRawContent {
  text: string;
  format: "json" | "yaml";
}

export interface CreateOpenAPISpecBody {
  slug: string;
  source: OpenAPISource;
}

export interface PutOpenAPISpecBody {
  source: OpenAPISource;
}

export interface OpenAPISpecVersion {
  object: "openapi-spec-version";
  id: string;
  createdAt?: string;
  url: string;
  urls?: { location?: string };
}

export interface OpenAPISpecContent {
  filesystem: Record<string, unknown>;
  url: string;
}

export interface TranslationSettings {
  object: "translation-settings";
  id: string;
  title: string;
  languages?: string[];
  createdAt?: string;
  updatedAt?: string;
  permissions?: { view?: boolean; edit?: boolean };
  urls?: { location?: string };
}

export interface TranslationSettingsBody {
  title: string;
}

export interface IntegrationConfigurationSchema {
  properties: Record<
    string,
    { title?: string; description?: string; type?: string; default?: unknown; completion_url?: string; enum?: string[] }
  >;
  required?: string[];
}

export interface IntegrationBlock {
  id: string;
  title: string;
  description?: string;
  icon?: string;
  urlUnfurl?: string[];
  markdown?: { codeblock: string; body: string };
}

export interface IntegrationContentSource {
  id: string;
  title: string;
  description?: string;
  icon?: string;
  configuration?: { componentId: string };
}

export interface Integration {
  object: "integration";
  name: string;
  version?: number;
  title: string;
  description?: string;
  summary?: string;
  previewImages?: string[];
  target?: string;
  verified?: boolean;
  visibility?: string;
  scopes?: string[];
  categories?: string[];
  blocks?: IntegrationBlock[];
  contentSources?: IntegrationContentSource[];
  configurations?: Partial<Record<"account" | "space" | "site", IntegrationConfigurationSchema>>;
  externalLinks?: { url: string; label: string }[];
  owner?: Organization;
  urls?: { location?: string; icon?: string; app?: string; assets?: string; publicEndpoint?: string };
  permissions?: { admin?: boolean; install?: boolean };
  contentSecurityPolicy?: string;
}

export interface ListIntegrationsQuery {
  search?: string;
  category?: string;
  blockDomain?: string;
  blocks?: boolean;
  contentSources?: boolean;
  owner?: string;
  scope?: string;
  target?: string;
}

export interface PublishIntegrationBody {
  runtime?: string;
  icon?: string;
  title: string;
  description: string;
  summary?: string;
  previewImages?: string[];
  visibility?: string;
  target?: string;
  scopes?: string[];
  categories?: string[];
  blocks?: IntegrationBlock[];
  contentSources?: IntegrationContentSource[];
  externalLinks?: { url: string; label: string }[];
  configurations?: Partial<Record<"account" | "space" | "site", IntegrationConfigurationSchema>>;
  /** Script content. */
  script: string;
  /** ID or subdomain of the publishing organisation. */
  organization: string;
  /** Secret values: never logged. */
  secrets?: Record<string, string>;
  contentSecurityPolicy?: string;
}

/** An installation of an integration; its shape is not described by the API. */
export type IntegrationInstallation = Record<string, unknown> & { id?: string };
