/** Turns stored rows into the API's resources (`object`, `urls`, `permissions`, counts), for the caller's role. */
import { served } from "./columns";
import { compact } from "./objects";
import {
  roleAtLeast,
  type CollectionRow,
  type ExternalLinkRow,
  type IntegrationRow,
  type MemberRow,
  type OpenApiSpecRow,
  type OpenApiVersionRow,
  type OrgRow,
  type Role,
  type SamlRow,
  type SectionGroupRow,
  type SectionRow,
  type ShareLinkRow,
  type SiteRow,
  type SiteSpaceRow,
  type SpaceRow,
  type TableName,
  type TableRows,
  type TeamRow,
  type TranslationRow,
  type UserRow,
} from "./model";
import type { Store } from "./store";
import { COLLECTION, EXTERNAL_LINK, INTEGRATION, MEMBER, OPENAPI_SPEC, OPENAPI_VERSION, ORG, SAML, SECTION, SECTION_GROUP, SHARE_LINK, SITE, SITE_SPACE, SPACE, TEAM, TRANSLATION, USER } from "./tables";

/** Where app links point. */
export const APP_URL = "https://app.docsplatform.dev";

/** What every presenter needs: the store, the base URL and the caller's role in the object's organization. */
export interface View {
  store: Store;
  base: string;
  role: Role | null;
}

const at = (role: Role | null, need: Role) => roleAtLeast(role, need);

/** The row `id` of `table` (none for null) presented for the caller; undefined when it is not stored. */
export function presentRef<K extends TableName>(
  v: View,
  table: K,
  id: string | null,
  present: (v: View, row: TableRows[K]) => Record<string, unknown>,
): Record<string, unknown> | undefined {
  const row = id === null ? undefined : v.store.get(table, id);
  return row ? present(v, row) : undefined;
}

export function presentUser(v: View, u: UserRow): Record<string, unknown> {
  return { object: "user", id: u.id, ...served(USER, u), urls: { location: `${v.base}/v1/users/${u.id}` } };
}

export function presentOrg(v: View, o: OrgRow): Record<string, unknown> {
  const admin = at(v.role, "admin");
  return {
    object: "organization",
    id: o.id,
    ...served(ORG, o),
    urls: compact({ location: `${v.base}/v1/orgs/${o.id}`, app: `${APP_URL}/o/${o.id}`, logo: o.logo ?? undefined }),
    permissions: {
      view: true,
      admin,
      ownTeam: at(v.role, "create"),
      createContent: at(v.role, "create"),
      createOpenAPISpec: at(v.role, "create"),
      ingestConversations: admin,
      viewBilling: admin,
      listMembers: true,
      listTeams: true,
      listIntegrations: true,
    },
  };
}

/** Spaces a member can reach: every live space of the organization (guests reach none). */
export function memberSpaces(store: Store, m: MemberRow): SpaceRow[] {
  if (m.role === null) return [];
  return [...store.all("spaces")].filter((s) => s.org === m.org && s.deletedAt === null);
}

export function presentMember(v: View, m: MemberRow): Record<string, unknown> {
  const user = v.store.get("users", m.user)!;
  let teams = 0;
  for (const t of v.store.all("teams")) if (t.org === m.org && t.members.some((x) => x.user === m.user)) teams++;
  return { object: "member", ...served(MEMBER, m), user: presentUser(v, user), spaces: memberSpaces(v.store, m).length, teams };
}

export function presentTeam(v: View, t: TeamRow): Record<string, unknown> {
  return { object: "team", id: t.id, ...served(TEAM, t), members: t.members.length, spaces: 0, permissions: { admin: at(v.role, "admin"), view: true } };
}

export function presentCollection(v: View, c: CollectionRow): Record<string, unknown> {
  return {
    object: "collection",
    id: c.id,
    ...served(COLLECTION, c),
    urls: { location: `${v.base}/v1/collections/${c.id}`, app: `${APP_URL}/o/${c.org}/c/${c.id}` },
    permissions: { view: true, admin: at(v.role, "admin"), viewInviteLinks: at(v.role, "admin"), create: at(v.role, "create") },
  };
}

export function presentSpace(v: View, s: SpaceRow): Record<string, unknown> {
  return {
    object: "space",
    id: s.id,
    ...served(SPACE, s),
    urls: { location: `${v.base}/v1/spaces/${s.id}`, app: `${APP_URL}/s/${s.id}` },
    permissions: {
      view: true,
      access: true,
      admin: at(v.role, "admin"),
      viewInviteLinks: at(v.role, "admin"),
      edit: at(v.role, "edit") && s.editMode === "live",
      triggerGitSync: at(v.role, "edit"),
      comment: at(v.role, "comment"),
      merge: at(v.role, "review"),
      review: at(v.role, "review"),
    },
  };
}

// ---- sites ----

/** The published URL of a site: its custom hostname, or the organization's default host, plus the basename. */
export function sitePublishedUrl(store: Store, site: SiteRow): string {
  if (site.hostname) return `https://${site.hostname}/${site.basename ?? ""}`.replace(/\/$/, "");
  const org = store.get("orgs", site.org)!;
  const host = `${org.hostname ?? org.id}.docsplatform.site`;
  const path = site.basename ?? site.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return `https://${host}/${path}`.replace(/\/$/, "");
}

export function siteLocation(v: View, site: SiteRow): string {
  return `${v.base}/v1/orgs/${site.org}/sites/${site.id}`;
}

export function countSiteSpaces(store: Store, site: SiteRow): number {
  let n = site.rootSiteSpaces.length;
  for (const id of sectionIdsInOrder(store, site)) n += store.get("sections", id)!.siteSpaces.length;
  return n;
}

/** Visits every item of a site's navigation in display order, each group before its children. */
function walkStructure(store: Store, site: SiteRow, visit: (id: string, isGroup: boolean) => void): void {
  const walk = (items: string[]) => {
    for (const item of items) {
      const group = store.get("sectionGroups", item);
      visit(item, group !== undefined);
      if (group) walk(group.children);
    }
  };
  walk(site.structure);
}

/** Section IDs of a site in display order (groups, nested ones too, expanded in place). */
export function sectionIdsInOrder(store: Store, site: SiteRow): string[] {
  const out: string[] = [];
  walkStructure(store, site, (id) => {
    if (store.get("sections", id)) out.push(id);
  });
  return out;
}

/** Section-group IDs of a site in display order, each before its nested groups. */
export function groupIdsInOrder(store: Store, site: SiteRow): string[] {
  const out: string[] = [];
  walkStructure(store, site, (id, isGroup) => {
    if (isGroup) out.push(id);
  });
  return out;
}

/** The site's `gitSync` member (read-only): its installation, and its last sync when there was one. */
function siteGitSync(store: Store, s: SiteRow): Record<string, unknown> | undefined {
  for (const g of store.all("gitInstallations")) {
    if (g.target.type !== "site" || g.target.siteId !== s.id) continue;
    const repository = g.provider === "github" ? g.providerConfiguration.repositoryId : g.providerConfiguration.projectId;
    return compact({
      installationId: g.id,
      installationProvider: g.provider,
      installationStatus: repository === undefined ? "pending" : "active",
      repoName: repository === undefined ? undefined : `repository-${String(repository)}`,
      operation: g.operation ?? undefined,
      updatedAt: g.updatedAt,
    });
  }
  return undefined;
}

export function presentSite(v: View, s: SiteRow): Record<string, unknown> {
  return compact({
    object: "site",
    id: s.id,
    ...served(SITE, s),
    // Required in every Site answer; null (guests) is a value of its own, a site never given one inherits.
    defaultLevel: s.defaultLevel === undefined ? "inherit" : s.defaultLevel,
    styleguide: s.styleguide ? { kind: "space", space: s.styleguide } : undefined,
    proxy: s.proxy ? { origin: `https://${s.proxy}`, target: sitePublishedUrl(v.store, s) } : undefined,
    siteSpaces: countSiteSpaces(v.store, s),
    gitSync: siteGitSync(v.store, s),
    features: [],
    urls: { location: siteLocation(v, s), app: `${APP_URL}/o/${s.org}/sites/${s.id}`, published: sitePublishedUrl(v.store, s) },
  });
}

function sectionPublishedUrl(v: View, site: SiteRow, sec: SectionRow): string {
  const root = sitePublishedUrl(v.store, site);
  return site.defaultSection === sec.id ? root : `${root}/${sec.path}`;
}

export function presentSiteSpace(v: View, site: SiteRow, ss: SiteSpaceRow): Record<string, unknown> {
  const space = v.store.get("spaces", ss.space);
  const section = ss.section ? v.store.get("sections", ss.section) : undefined;
  const levelDefault = section ? section.defaultSiteSpace : site.defaultSiteSpace;
  const levelUrl = section ? sectionPublishedUrl(v, site, section) : sitePublishedUrl(v.store, site);
  return compact({
    object: "site-space",
    id: ss.id,
    ...served(SITE_SPACE, ss),
    space: space ? presentSpace(v, space) : undefined,
    title: space?.title ?? "",
    default: levelDefault === ss.id,
    hasAdvancedCustomizationFeature: false,
    urls: { published: levelDefault === ss.id ? levelUrl : `${levelUrl}/${ss.path}` },
  });
}

export function presentSection(v: View, site: SiteRow, sec: SectionRow): Record<string, unknown> {
  return {
    object: "site-section",
    id: sec.id,
    ...served(SECTION, sec),
    default: site.defaultSection === sec.id,
    siteSpaces: sec.siteSpaces.map((id) => presentSiteSpace(v, site, v.store.get("siteSpaces", id)!)),
    urls: { published: sectionPublishedUrl(v, site, sec) },
  };
}

export function presentSectionGroup(v: View, site: SiteRow, g: SectionGroupRow): Record<string, unknown> {
  return {
    object: "site-section-group",
    id: g.id,
    ...served(SECTION_GROUP, g),
    children: g.children.map((id) => presentStructureItem(v, site, id)),
    // Deprecated by the API: the group's own sections only.
    sections: g.children.filter((id) => v.store.get("sections", id)).map((id) => presentSection(v, site, v.store.get("sections", id)!)),
  };
}

export function presentExternalLink(l: ExternalLinkRow): Record<string, unknown> {
  return { object: "site-external-link", id: l.id, ...served(EXTERNAL_LINK, l) };
}

/** One item of a site's structure (a section, a section group or an external link), by ID. */
export function presentStructureItem(v: View, site: SiteRow, id: string): Record<string, unknown> {
  const section = v.store.get("sections", id);
  if (section) return presentSection(v, site, section);
  const group = v.store.get("sectionGroups", id);
  if (group) return presentSectionGroup(v, site, group);
  return presentExternalLink(v.store.get("externalLinks", id)!);
}

export function presentShareLink(v: View, site: SiteRow, l: ShareLinkRow): Record<string, unknown> {
  return { object: "share-link", id: l.id, ...served(SHARE_LINK, l), urls: { published: `${sitePublishedUrl(v.store, site)}?token=${l.secret}` } };
}

// ---- SSO, OpenAPI, translations, integrations ----

export function samlService(p: SamlRow): { acsURL: string; startURL: string; entityID: string } {
  return {
    acsURL: `${APP_URL}/__/auth/saml/${p.id}/acs`,
    startURL: `${APP_URL}/__/auth/saml/${p.id}/start`,
    entityID: `${APP_URL}/__/auth/saml/${p.id}`,
  };
}

export function presentSaml(v: View, p: SamlRow): Record<string, unknown> {
  return compact({
    object: "saml-provider",
    id: p.id,
    ...served(SAML, p),
    defaultTeam: presentRef(v, "teams", p.defaultTeam, presentTeam),
    status: p.ssoURL && p.entityID && p.certificate ? "active" : "pending",
    service: samlService(p),
    urls: { location: `${v.base}/v1/orgs/${p.org}/saml/${p.id}` },
  });
}

/** Processing state of a spec's latest version: derived from the time since it was submitted. */
export function openapiState(v: View, s: OpenApiSpecRow): { processingState: string; lastProcessedAt?: string; lastProcessErrorCode?: string } {
  const elapsed = v.store.now().getTime() - Date.parse(s.processingStartedAt);
  if (elapsed < OPENAPI_PENDING_MS) return { processingState: "pending" };
  if (elapsed < OPENAPI_PROGRESS_MS) return { processingState: "progress" };
  const done = new Date(Date.parse(s.processingStartedAt) + OPENAPI_PROGRESS_MS).toISOString();
  const url = s.sourceURL ?? "";
  const error = /fetch-timeout/.test(url) ? "FETCH_TIMEOUT" : /fetch-error/.test(url) ? "FETCH_ERROR" : /parse-error/.test(url) ? "PARSE_ERROR" : undefined;
  return compact({ processingState: error ? "failed" : "complete", lastProcessedAt: done, lastProcessErrorCode: error });
}
/** A new version is `pending` this long, then `progress` until OPENAPI_PROGRESS_MS, then `complete`. */
export const OPENAPI_PENDING_MS = 50;
export const OPENAPI_PROGRESS_MS = 200;

export function presentOpenApiSpec(v: View, s: OpenApiSpecRow): Record<string, unknown> {
  const last = s.versions[s.versions.length - 1];
  return compact({
    object: "openapi-spec",
    id: s.id,
    ...served(OPENAPI_SPEC, s),
    ...openapiState(v, s),
    lastVersion: last?.id,
    permissions: { view: true, edit: at(v.role, "create") },
    urls: { location: `${v.base}/v1/orgs/${s.org}/openapi/${s.slug}`, app: `${APP_URL}/o/${s.org}/openapi/${s.slug}` },
  });
}

export function presentOpenApiVersion(v: View, s: OpenApiSpecRow, ver: OpenApiVersionRow): Record<string, unknown> {
  return {
    object: "openapi-spec-version",
    id: ver.id,
    ...served(OPENAPI_VERSION, ver),
    urls: { location: `${v.base}/v1/orgs/${s.org}/openapi/${s.slug}/versions/${ver.id}` },
  };
}

export function presentTranslation(v: View, t: TranslationRow): Record<string, unknown> {
  return {
    object: "translation-settings",
    id: t.id,
    ...served(TRANSLATION, t),
    permissions: { view: true, edit: at(v.role, "admin") },
    urls: { location: `${v.base}/v1/orgs/${t.org}/translations/${t.id}` },
  };
}

export function presentIntegration(v: View, g: IntegrationRow): Record<string, unknown> {
  return compact({
    object: "integration",
    ...served(INTEGRATION, g),
    owner: presentRef(v, "orgs", g.owner, presentOrg),
    urls: {
      location: `${v.base}/v1/integrations/${g.id}`,
      icon: `${APP_URL}/integrations/${g.id}/icon.png`,
      app: `${APP_URL}/integrations/${g.id}`,
      assets: `${APP_URL}/integrations/${g.id}/assets/`,
      publicEndpoint: `https://integrations.docsplatform.dev/v1/integrations/${g.id}/integration`,
    },
    permissions: { admin: at(v.role, "admin"), install: at(v.role, "admin") },
  });
}
