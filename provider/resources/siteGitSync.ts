import { ApiError, isConflict, isNotFound, MISSING_SITE_FILE, type GitProvider, type GitProviderConfiguration, type GitSyncInstallation, type GitSyncPriority, type GitSyncSetup } from "../client";
import { type FieldSpec, type ValueSchema, type InputsOf, type KindContext, type KindDefinition, type ResourceArgs, type StoredOf, boolean, limit, orGone, ORGANIZATION_FIELD, SITE_FIELD, UNKNOWN } from "./kind";
import { type Digest, secretDigest } from "./digest";
import { declaredChanges, makeProvider } from "./provider";

/** The `priority` literal that keeps the platform the source of truth (the repository's is `git`). */
export const PLATFORM_PRIORITY = "gitbook";

/** The name of the site file the platform reads, at the top of the project directory. */
export const SITE_FILE_NAME = "gitbook-docs.yaml";

/** A digest of the access token: what the state keeps (as a secret), so a rotated token is an update. */
function tokenDigest(v: unknown): unknown {
  if (typeof v !== "string" || v === UNKNOWN) return v;
  return secretDigest("accessToken", v);
}

/** The fields of a site's Git Sync installation: its one declaration. */
const fields = {
  organizationId: ORGANIZATION_FIELD,
  siteId: SITE_FIELD,
  provider: { schema: limit<GitProvider>("gitProvider"), doc: "The repository host: github or gitlab. A change installs anew (the old installation is removed).", required: true, createOnly: true },
  repository: { schema: limit<number>("gitRepositoryId"), doc: "GitHub: the repository's numeric ID (required with provider github).", absent: "unmanaged" },
  project: { schema: limit<number>("gitRepositoryId"), doc: "GitLab: the project's numeric ID (required with provider gitlab).", absent: "unmanaged" },
  branch: { schema: limit("gitBranch"), doc: "The branch synced, as a full ref (refs/heads/main).", required: true },
  projectDirectory: {
    schema: limit("gitProjectDirectory"),
    doc: `The folder of the repository synced, relative to its root; with priority git the site file ${SITE_FILE_NAME} must be at its top.`,
    absent: { reset: "" },
    normalize: (v) => v ?? "",
  },
  priority: {
    schema: limit<GitSyncPriority>("gitPriority"),
    doc: `Which side is the source of truth: git (the repository: the site's structure is imported from its ${SITE_FILE_NAME}, and the stack file must not declare it) or ${PLATFORM_PRIORITY} (the platform: its content is exported to the repository).`,
    required: true,
  },
  commitMessageTemplate: { schema: limit("gitCommitMessageTemplate"), doc: "Template of the commit messages Git Sync writes.", absent: "unmanaged" },
  previewExternalBranches: { schema: boolean(), doc: "Previews from branches other than the synced one (the site's spaces inherit it).", absent: { reset: false } },
  accessToken: {
    schema: limit("gitAccessToken"),
    doc: "GitLab: the access token the platform reads the project with. A secret: never in the stack file, the state keeps a SHA-256 of it (as a secret), so a rotated token is an update.",
    absent: "unmanaged",
    normalize: tokenDigest,
    stack: "secretSource",
  },
  customInstanceURL: { schema: limit("gitCustomInstanceURL"), doc: "GitLab: the https URL of a self-hosted instance.", absent: "clear" },
  childDirectories: {
    schema: { type: "object", propertyNames: limit("id"), additionalProperties: limit("gitProjectDirectory") } as ValueSchema<Record<string, string>>,
    doc: "Child installations: each space of the site (by ID) synced from its own folder of the repository, managed by the site's installation (it inherits its previews). A space left out is uninstalled.",
    absent: { reset: {} },
    normalize: (v) => (v !== null && typeof v === "object" ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v),
    stack: "context",
  },
} as const satisfies Record<string, FieldSpec>;

/** Inputs of SiteGitSync: a site's Git Sync installation. */
export type SiteGitSyncInputs = InputsOf<typeof fields>;

/** Outputs of SiteGitSync: the declared setup (the token as a digest) and what the platform reports. */
export type SiteGitSyncOutputs = Omit<StoredOf<typeof fields>, "accessToken" | "repository" | "project" | "commitMessageTemplate"> & {
  /** As the platform reports them: null where it says nothing. */
  repository: number | null;
  project: number | null;
  commitMessageTemplate: string | null;
  /** A SHA-256 of the token last sent, a secret output; null when none was. */
  accessToken: Digest | null;
  /** `pending`, `active` or `unauthenticated`. */
  status: string;
  /** The repository's web address, when the platform reports it. */
  repositoryUrl: string | null;
  /** Space ID → its child installation's ID. */
  children: Record<string, string>;
};

/** The child installations of the site installation `id` among a site's list: space ID → the child. */
function childrenOf(items: readonly GitSyncInstallation[], id: string): Map<string, GitSyncInstallation> {
  const out = new Map<string, GitSyncInstallation>();
  for (const i of items) if (i.parentInstallationId === id && i.target.type === "space") out.set(i.target.spaceId, i);
  return out;
}

/** Outputs from the installation the API answered (the token never comes back: its digest is carried over). */
function toOutputs(where: { organizationId: string; siteId: string }, i: GitSyncInstallation, token: SiteGitSyncOutputs["accessToken"], children: Map<string, GitSyncInstallation> = new Map()): SiteGitSyncOutputs {
  const c = i.providerConfiguration ?? {};
  return {
    organizationId: where.organizationId,
    siteId: where.siteId,
    provider: i.provider,
    repository: c.repositoryId ?? null,
    project: c.projectId ?? null,
    branch: c.branch ?? "",
    projectDirectory: i.projectDirectory ?? "",
    priority: i.priority ?? PLATFORM_PRIORITY,
    commitMessageTemplate: i.commitMessageTemplate ?? null,
    previewExternalBranches: i.previewExternalBranches ?? false,
    accessToken: token,
    customInstanceURL: c.customInstanceURL ?? null,
    status: i.status,
    repositoryUrl: i.repositoryConnection?.repositoryUrl ?? null,
    childDirectories: Object.fromEntries([...children].map(([space, child]) => [space, child.projectDirectory ?? ""])),
    children: Object.fromEntries([...children].map(([space, child]) => [space, child.id])),
  };
}

/** The digest to keep for a declared token (the one kept before when none is declared). */
const keptToken = (inputs: SiteGitSyncInputs, before: SiteGitSyncOutputs["accessToken"]): SiteGitSyncOutputs["accessToken"] =>
  typeof inputs.accessToken === "string" ? secretDigest("accessToken", inputs.accessToken) : before;

/** The PATCH body: provider and its configuration every time (the API requires both), the other members among `names`. */
function setupBody(inputs: SiteGitSyncInputs, names: readonly string[]): GitSyncSetup {
  const config: GitProviderConfiguration = { branch: inputs.branch };
  if (inputs.provider === "github" && inputs.repository != null) config.repositoryId = inputs.repository;
  if (inputs.provider === "gitlab") {
    if (inputs.project != null) config.projectId = inputs.project;
    if (names.includes("accessToken") && typeof inputs.accessToken === "string") config.accessToken = inputs.accessToken;
    if (names.includes("customInstanceURL") && inputs.customInstanceURL !== undefined) config.customInstanceURL = inputs.customInstanceURL;
  }
  const body: GitSyncSetup = { provider: inputs.provider, providerConfiguration: config };
  if (names.includes("projectDirectory")) body.projectDirectory = inputs.projectDirectory ?? "";
  if (names.includes("commitMessageTemplate") && inputs.commitMessageTemplate != null) body.commitMessageTemplate = inputs.commitMessageTemplate;
  if (names.includes("previewExternalBranches")) body.previewExternalBranches = inputs.previewExternalBranches ?? false;
  if (names.includes("priority")) body.priority = inputs.priority;
  return body;
}

/** Every member a first PATCH sets. */
const ALL = Object.keys(fields);

/**
 * The PATCH, with the platform's refusal of a repository import without its site file said in the file's
 * terms: where the platform expects the file, on which branch, and the two ways on.
 */
async function save(ctx: KindContext, id: string, inputs: SiteGitSyncInputs, names: readonly string[], childDirectories?: Record<string, string>): Promise<GitSyncInstallation> {
  try {
    const body = setupBody(inputs, names);
    return await ctx.client.gitSync.update(id, childDirectories && Object.keys(childDirectories).length > 0 ? { ...body, childInstallationProjectDirectories: childDirectories } : body);
  } catch (e) {
    if (!(e instanceof ApiError) || e.type !== MISSING_SITE_FILE) throw e;
    const where = String(e.details?.path ?? `${inputs.projectDirectory ? `${inputs.projectDirectory}/` : ""}${SITE_FILE_NAME}`);
    const branch = String(e.details?.branch ?? inputs.branch);
    throw new Error(
      `Git Sync installation ${id}: priority git imports the site's structure from ${where} on branch ${branch} of ${inputs.provider === "github" ? `repository ${inputs.repository}` : `project ${inputs.project}`}, and the platform finds no such file there (409 ${MISSING_SITE_FILE}). ` +
        `Commit ${SITE_FILE_NAME} at that path and run up again, or set gitSync.priority: ${PLATFORM_PRIORITY} to keep the platform the source of truth.`,
    );
  }
}

/**
 * Installs a child for each declared space that has none and uninstalls the children of spaces no longer
 * declared (an uninstall of one already gone is done). Returns space ID → child.
 */
async function reconcileChildren(ctx: KindContext, inputs: SiteGitSyncInputs, live: Map<string, GitSyncInstallation>): Promise<Map<string, GitSyncInstallation>> {
  const wanted = inputs.childDirectories ?? {};
  const out = new Map<string, GitSyncInstallation>();
  for (const [space, child] of live) {
    if (space in wanted) out.set(space, child);
    else await ctx.client.gitSync.uninstall(child.id).catch(alreadyGone);
  }
  for (const space of Object.keys(wanted)) {
    if (!out.has(space)) out.set(space, await ctx.client.gitSync.install(inputs.provider, { type: "space", spaceId: space, siteId: inputs.siteId }));
  }
  return out;
}

/** An uninstall answered 404 has nothing left to do. */
function alreadyGone(e: unknown): void {
  if (!isNotFound(e)) throw e;
}

/** The site PATCH's child directories: child installation ID → its folder. */
function childPatch(children: Map<string, GitSyncInstallation>, inputs: SiteGitSyncInputs): Record<string, string> {
  const wanted = inputs.childDirectories ?? {};
  return Object.fromEntries([...children].map(([space, child]) => [child.id, wanted[space] ?? ""]));
}

/** The site's own installation (not a space's), if it has one. */
async function siteInstallation(ctx: KindContext, inputs: { organizationId: string; siteId: string }): Promise<GitSyncInstallation | undefined> {
  const items = await ctx.client.gitSync.listForSite(inputs.organizationId, inputs.siteId);
  return items.find((i) => i.target.type === "site" && i.target.siteId === inputs.siteId);
}

/** The SiteGitSync kind: install on the site, then one PATCH with the setup; delete uninstalls. */
export const siteGitSyncKind = {
  name: "SiteGitSync",
  noun: { one: "Git Sync installation", many: "Git Sync installations" },
  doc: "A site's Git Sync installation: the GitHub repository or GitLab project and branch it syncs with, its folder, and which side is the source of truth.",
  outputs: ["repositoryUrl", "children"],
  fields,
  secretOutputs: ["accessToken"],
  // A site has one installation: a new provider's replaces the old only once the old is gone.
  deleteBeforeReplace: true,

  // A site has one installation: one already there (an earlier run's whose answer was lost) is taken over.
  async create(ctx, inputs) {
    let installed: GitSyncInstallation;
    let liveChildren = new Map<string, GitSyncInstallation>();
    try {
      installed = await ctx.client.gitSync.install(inputs.provider, { type: "site", siteId: inputs.siteId });
    } catch (e) {
      const items = isConflict(e) ? await ctx.client.gitSync.listForSite(inputs.organizationId, inputs.siteId) : [];
      const existing = items.find((i) => i.target.type === "site" && i.target.siteId === inputs.siteId);
      if (!existing) throw e;
      installed = existing;
      liveChildren = childrenOf(items, existing.id);
      // Taken over as it is when it already has the declared setup (an adopted site's): no PATCH.
      const found = toOutputs(inputs, installed, null, liveChildren);
      if (declaredChanges(fields, found, inputs).changed.length === 0) return { id: installed.id, outs: found };
    }
    ctx.created?.(installed.id, toOutputs(inputs, installed, null, liveChildren));
    const children = await reconcileChildren(ctx, inputs, liveChildren);
    const saved = await save(ctx, installed.id, inputs, ALL, childPatch(children, inputs));
    // The PATCH set the children's folders as declared (the child objects in hand predate it).
    return { id: saved.id, outs: { ...toOutputs(inputs, saved, keptToken(inputs, null), children), childDirectories: { ...(inputs.childDirectories ?? {}) } } };
  },

  // One read: the site's list holds the installation and its children.
  async read(ctx, id, state) {
    const items = await orGone(ctx.client.gitSync.listForSite(state.organizationId, state.siteId));
    const i = items?.find((x) => x.id === id);
    return i ? toOutputs(state, i, state.accessToken ?? null, childrenOf(items!, id)) : undefined;
  },

  // One PATCH with the changed members (provider and configuration always, as the API requires); a child
  // installed or uninstalled for each space added to or removed from childDirectories.
  async update(ctx, id, olds, news, changed) {
    const before = new Map(Object.entries(olds.children ?? {}).map(([space, childId]) => [space, { id: childId } as GitSyncInstallation]));
    const children = changed.includes("childDirectories") ? await reconcileChildren(ctx, news, before) : before;
    const saved = await save(ctx, id, news, changed, changed.includes("childDirectories") ? childPatch(children, news) : undefined);
    const token = changed.includes("accessToken") ? keptToken(news, olds.accessToken) : olds.accessToken;
    // The PATCH set the children's folders as declared (the child objects in hand predate it).
    return { ...toOutputs(olds, saved, token, children), childDirectories: { ...(news.childDirectories ?? {}) } };
  },

  async delete(ctx, id) {
    await ctx.client.gitSync.uninstall(id);
  },

  outputsOf(live: GitSyncInstallation & { children?: GitSyncInstallation[] }, where) {
    return toOutputs(where, live, null, new Map((live.children ?? []).flatMap((c) => (c.target.type === "space" ? [[c.target.spaceId, c] as const] : []))));
  },

  async adopt(ctx, inputs) {
    const found = await siteInstallation(ctx, inputs);
    return found ? { id: found.id, outs: toOutputs(inputs, found, null) } : undefined;
  },
} satisfies KindDefinition<SiteGitSyncInputs, SiteGitSyncOutputs>;

/** The dynamic provider of SiteGitSync (serialised through `provider/providers/siteGitSync`). */
export const siteGitSyncProvider = makeProvider<SiteGitSyncInputs, SiteGitSyncOutputs>(siteGitSyncKind);

/** Arguments of SiteGitSync. */
export type SiteGitSyncArgs = ResourceArgs<SiteGitSyncInputs>;
