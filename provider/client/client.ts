import { createHash } from "node:crypto";
import { AgentSettingsApi, ChannelsApi, ContextConnectionsApi, McpServersApi } from "./assistant";
import { baseKey, checkBaseUrl } from "./baseUrl";
import { ChangeRequestContentApi } from "./changeRequestContent";
import { ChangeRequestsApi } from "./changeRequests";
import { CollectionsApi } from "./collections";
import { CommentsApi } from "./comments";
import { CustomizationApi } from "./customization";
import { RequestCore, type ClientOptions } from "./core";
import { GitSyncApi } from "./gitSync";
import { InstallationsApi } from "./installations";
import { IntegrationsApi } from "./integrations";
import { MembersApi } from "./members";
import { NavigationApi } from "./navigation";
import { OpenAPIApi } from "./openapi";
import { OrgsApi } from "./orgs";
import { PermissionsApi } from "./permissions";
import { PublishingAuthApi } from "./publishingAuth";
import { RedirectsApi } from "./redirects";
import { SamlApi } from "./saml";
import { SectionGroupsApi } from "./sectionGroups";
import { SectionsApi } from "./sections";
import { ShareLinksApi } from "./shareLinks";
import { SitesApi } from "./sites";
import { SiteSpacesApi } from "./siteSpaces";
import { SpacesApi } from "./spaces";
import { StyleGuidesApi } from "./styleGuides";
import { TeamsApi } from "./teams";
import { TranslationsApi } from "./translations";

/** The typed /v1 client: the request core plus one object per API area. */
export class ApiClient extends RequestCore {
  readonly orgs = new OrgsApi(this);
  readonly members = new MembersApi(this);
  readonly teams = new TeamsApi(this);
  readonly collections = new CollectionsApi(this);
  readonly spaces = new SpacesApi(this);
  readonly sites = new SitesApi(this);
  readonly sectionGroups = new SectionGroupsApi(this);
  readonly sections = new SectionsApi(this);
  readonly siteSpaces = new SiteSpacesApi(this);
  readonly shareLinks = new ShareLinksApi(this);
  readonly navigation = new NavigationApi(this);
  readonly customization = new CustomizationApi(this);
  readonly redirects = new RedirectsApi(this);
  readonly saml = new SamlApi(this);
  readonly openapi = new OpenAPIApi(this);
  readonly styleGuides = new StyleGuidesApi(this);
  readonly translations = new TranslationsApi(this);
  readonly integrations = new IntegrationsApi(this);
  readonly installations = new InstallationsApi(this);
  readonly permissions = new PermissionsApi(this);
  readonly publishingAuth = new PublishingAuthApi(this);
  readonly gitSync = new GitSyncApi(this);
  readonly mcpServers = new McpServersApi(this);
  readonly agentSettings = new AgentSettingsApi(this);
  readonly channels = new ChannelsApi(this);
  readonly contextConnections = new ContextConnectionsApi(this);
  readonly comments = new CommentsApi(this);
  readonly changeRequests = new ChangeRequestsApi(this);
  readonly changeRequestContent = new ChangeRequestContentApi(this);

  constructor(opts: ClientOptions) {
    super(opts);
  }
}

const shared = new Map<string, ApiClient>();

/**
 * The process-wide client of a base URL, token and options. The cache key is the base URL, a hash
 * of the token (never the token itself) and the options; clients of one base URL share its
 * connection pool, concurrency bound and rate-limit state.
 */
export function sharedClient(opts: Pick<ClientOptions, "baseUrl" | "token" | "maxConcurrency" | "timeouts" | "maxResponseBytes" | "maxListPages" | "retry" | "debug">): ApiClient {
  const { baseUrl, token, ...tuning } = opts;
  const key = `${baseKey(checkBaseUrl(baseUrl))}#${createHash("sha256").update(token).digest("hex").slice(0, 16)}#${JSON.stringify(tuning)}`;
  const cached = shared.get(key);
  if (cached && !cached.closed) return cached;
  const client = new ApiClient(opts);
  shared.set(key, client);
  return client;
}

/** Closes every client made by `sharedClient` (end of a command, test cleanup). */
export async function closeSharedClients(): Promise<void> {
  const clients = [...shared.values()];
  shared.clear();
  await Promise.all(clients.map((c) => c.close()));
}
