/**
 * One table of columns per stored kind that responses serve (see columns.ts): what each field of a row
 * is in responses and, for the kinds created and changed through a body, in requests. Presenters add
 * what is computed (URLs, permissions, counts, the objects a row refers to).
 */
import { asStored, type Columns } from "./columns";
import { BOOLEAN, ID, STRING, limit, nullable, obj, type Schema } from "./schema";
import type {
  ChangeRequestRow,
  CollectionRow,
  ExternalLinkRow,
  IntegrationRow,
  MemberRow,
  OpenApiSpecRow,
  OpenApiVersionRow,
  OrgRow,
  RedirectRow,
  SamlRow,
  SectionGroupRow,
  SectionRow,
  ShareLinkRow,
  SiteRow,
  SiteSpaceRow,
  SpaceRow,
  TeamRow,
  TranslationRow,
  UserRow,
} from "./model";

/** A field a body may clear: `null` accepted, stored when the body leaves it out, and left out of responses. */
const clearable = (schema: Schema) => ({ body: nullable(schema), empty: null }) as const;
/** A field with no value until set (null, or absent on older rows), left out of responses until then. */
const UNSET = { empty: null } as const;
/** A draft flag: absent on older rows, where it means live. */
const DRAFT = { empty: false } as const;

export const USER = { ...asStored("displayName", "email"), photoURL: UNSET } as const satisfies Columns<UserRow>;

export const ORG = {
  ...asStored("title", "createdAt", "emailDomains"),
  hostname: UNSET,
  type: {},
  useCase: UNSET,
  communityType: UNSET,
  defaultRole: {},
  defaultContent: UNSET,
  ...asStored("sso", "ai", "inviteLinks", "plan"),
} as const satisfies Columns<OrgRow>;

/** A member is served under its user's ID (the presenter adds the user itself). */
export const MEMBER = { user: { as: "id" }, ...asStored("role", "disabled", "joinedAt"), lastSeenAt: UNSET, sso: {} } as const satisfies Columns<MemberRow>;

export const TEAM = asStored("title", "createdAt") satisfies Columns<TeamRow>;

export const COLLECTION = {
  title: {},
  description: UNSET,
  org: { as: "organization" },
  parent: UNSET,
  defaultLevel: {},
} as const satisfies Columns<CollectionRow>;

export const SPACE = {
  ...asStored("title", "emoji", "visibility", "createdAt", "updatedAt"),
  deletedAt: UNSET,
  editMode: {},
  language: UNSET,
  type: UNSET,
  styleguideFor: { as: false },
  org: { as: "organization" },
  parent: UNSET,
  ...asStored("revision", "defaultLevel", "comments", "changeRequests", "changeRequestsOpen", "changeRequestsDraft"),
} as const satisfies Columns<SpaceRow>;

export const SITE = {
  ...asStored("type", "title"),
  hostname: UNSET,
  basename: UNSET,
  ...asStored("visibility", "published", "createdAt", "adaptiveContent", "agentsContext"),
} as const satisfies Columns<SiteRow>;

export const SITE_SPACE = { path: {}, section: UNSET, condition: UNSET, draft: DRAFT, hidden: { empty: false } } as const satisfies Columns<SiteSpaceRow>;

export const SECTION = {
  title: {},
  description: UNSET,
  path: {},
  condition: UNSET,
  group: { as: "sectionGroup", empty: null },
  icon: UNSET,
  localizedTitle: UNSET,
  draft: DRAFT,
} as const satisfies Columns<SectionRow>;

export const SECTION_GROUP = { title: {}, icon: UNSET, parent: { as: "sectionGroup", empty: null }, draft: DRAFT } as const satisfies Columns<SectionGroupRow>;

/** External links: created and changed with these fields (the group comes as `parent`, resolved by the route). */
export const EXTERNAL_LINK = {
  title: { body: limit("externalLinkTitle") },
  localizedTitle: clearable(limit("loc128")),
  description: clearable(limit("externalLinkDescription")),
  localizedDescription: clearable(limit("loc256")),
  icon: clearable(limit("icon")),
  url: { body: limit("externalLinkURL") },
  group: { as: "sectionGroup", empty: null },
  draft: { body: BOOLEAN, empty: false },
  condition: clearable(limit("expression")),
} as const satisfies Columns<ExternalLinkRow>;

/** Share links: the secret is served only inside the published URL. */
export const SHARE_LINK = { createdAt: {}, name: UNSET, active: {} } as const satisfies Columns<ShareLinkRow>;

export const REDIRECT = { ...asStored("source", "draft", "captureWildcard", "permanent", "destination", "createdAt"), updatedAt: UNSET } as const satisfies Columns<RedirectRow>;

/** SAML providers: created and changed with these fields; the default team is served as the team. */
export const SAML = {
  label: { body: limit("samlLabel") },
  entityID: clearable(limit("samlEntityID")),
  certificate: clearable(limit("samlCertificate")),
  ssoURL: clearable(limit("samlSsoURL")),
  defaultTeam: { ...clearable(ID), as: false },
  defaultRole: { body: limit("role"), empty: null, servesNull: true },
  createdAt: {},
} as const satisfies Columns<SamlRow>;

export const OPENAPI_SPEC = { ...asStored("createdAt", "updatedAt", "slug"), sourceURL: UNSET, text: { as: false }, visibility: { empty: "private" } } as const satisfies Columns<OpenApiSpecRow>;

export const OPENAPI_VERSION = asStored("createdAt", "url") satisfies Columns<OpenApiVersionRow>;

export const TRANSLATION = asStored("title", "languages", "createdAt", "updatedAt") satisfies Columns<TranslationRow>;

const STRINGS: Schema = { type: "array", items: STRING };
const OBJECTS: Schema = { type: "array", items: { type: "object" } };

/**
 * Integrations: published with these fields (besides the script, the organization and the secrets,
 * which the route keeps its own way), served under the integration's name; the runtime and icon are
 * kept but not served.
 */
export const INTEGRATION = {
  id: { as: "name" },
  version: {},
  runtime: { body: STRING, empty: "v1", as: false },
  icon: { body: STRING, empty: null, as: false },
  title: { body: limit("integrationTitle") },
  description: { body: limit("integrationDescription") },
  summary: { body: limit("integrationSummary"), empty: null },
  previewImages: { body: limit("integrationPreviewImages"), empty: [] },
  visibility: { body: STRING, empty: "private" },
  target: { body: STRING, empty: "all" },
  verified: {},
  scopes: { body: STRINGS, empty: [] },
  categories: { body: STRINGS, empty: [] },
  blocks: { body: OBJECTS, empty: [] },
  contentSources: { body: OBJECTS, empty: [] },
  externalLinks: { body: { type: "array", items: obj({ url: STRING, label: STRING }, ["url"]) }, empty: [] },
  configurations: { body: { type: "object" }, empty: {} },
  contentSecurityPolicy: { body: STRING, empty: null },
} as const satisfies Columns<IntegrationRow>;

export const CHANGE_REQUEST = {
  ...asStored("number", "status", "subject", "createdAt", "updatedAt", "revision", "revisionInitial"),
  revisionMergedAncestor: UNSET,
  revisionMerged: UNSET,
} as const satisfies Columns<ChangeRequestRow>;
