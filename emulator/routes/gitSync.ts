/**
 * Git Sync installations (api-extensions area 18): install on a site or a space, read, configure (which
 * queues a sync: with priority `git` a site's structure is imported from its site file), uninstall, and
 * the list of a site's installations. The GitLab access token is write-only: kept as a SHA-256, never answered.
 */
import { secretDigest } from "../digest";
import { ApiFailure, badRequest, notFound } from "../errors";
import { BOOLEAN, ID, limit, nullable, obj, type Schema } from "../schema";
import { compact } from "../objects";
import { requireOrg, requireSite } from "../access";
import type { Ctx, Route } from "../context";
import { importSiteFile, readSiteFile, repositoryOf, siteFileFor, siteFilePath } from "../gitSync";
import type { GitInstallationRow, GitSyncTarget, JsonObject, SiteRow } from "../model";
import { newId } from "../seed";
import type { Store } from "../store";

type AnyCtx = Ctx<unknown, unknown, unknown>;
type IdP = { installationId: string };

const BASE = "/v1/git/installations";

const TARGET: Schema = {
  type: "object",
  required: ["type"],
  properties: { type: { type: "string", enum: ["site", "space"] }, siteId: ID, spaceId: ID },
  additionalProperties: false,
};

const PROVIDER_CONFIGURATION: Schema = {
  ...obj({ repositoryId: limit("gitRepositoryId"), projectId: limit("gitRepositoryId"), accessToken: limit("gitAccessToken"), customInstanceURL: nullable(limit("gitCustomInstanceURL")), branch: limit("gitBranch") }),
  additionalProperties: false,
};

const SETUP: Schema = {
  ...obj(
    {
      provider: limit("gitProvider"),
      providerConfiguration: PROVIDER_CONFIGURATION,
      projectDirectory: limit("gitProjectDirectory"),
      commitMessageTemplate: limit("gitCommitMessageTemplate"),
      previewExternalBranches: BOOLEAN,
      agentInstructions: limit("gitAgentInstructions"),
      priority: limit("gitPriority"),
      childInstallationProjectDirectories: { type: "object", additionalProperties: limit("gitProjectDirectory") },
    },
    ["provider", "providerConfiguration"],
  ),
  additionalProperties: false,
};

interface Setup {
  provider: "github" | "gitlab";
  providerConfiguration: { repositoryId?: number; projectId?: number; accessToken?: string; customInstanceURL?: string | null; branch?: string };
  projectDirectory?: string;
  commitMessageTemplate?: string;
  previewExternalBranches?: boolean;
  agentInstructions?: string[];
  priority?: string;
  childInstallationProjectDirectories?: Record<string, string>;
}

/** The site a target names (a space target's managing site, if any). */
function siteOf(store: Store, target: GitSyncTarget): SiteRow | undefined {
  const id = target.siteId;
  return id === undefined ? undefined : store.get("sites", id);
}

/** The installation, checked against the caller: an admin of its organisation. */
function requireInstallation(ctx: AnyCtx, id: string): GitInstallationRow {
  const row = ctx.store.get("gitInstallations", id);
  if (!row || !ctx.store.get("members", `${row.org}:${ctx.user}`)) throw notFound("git sync installation", id);
  requireOrg(ctx, row.org, "admin", "manage Git Sync");
  return row;
}

/** `active` once the configuration names a repository (and, on GitLab, a token was given); else `pending`. */
function statusOf(row: GitInstallationRow): "active" | "pending" {
  if (repositoryOf(row) === undefined) return "pending";
  return row.provider === "gitlab" && row.accessTokenSha256 === null ? "pending" : "active";
}

export function presentGitInstallation(base: string, row: GitInstallationRow): Record<string, unknown> {
  const repository = repositoryOf(row);
  const branch = row.providerConfiguration.branch;
  return compact({
    object: "git-sync-installation",
    id: row.id,
    target: row.target,
    status: statusOf(row),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    createdBy: row.createdBy,
    urls: { location: `${base}${BASE}/${row.id}` },
    provider: row.provider,
    providerConfiguration: row.providerConfiguration,
    projectDirectory: row.projectDirectory ?? undefined,
    commitMessageTemplate: row.commitMessageTemplate ?? undefined,
    previewExternalBranches: row.previewExternalBranches ?? undefined,
    agentInstructions: row.agentInstructions ?? undefined,
    priority: row.priority ?? undefined,
    parentInstallationId: row.parent ?? undefined,
    repositoryConnection:
      repository === undefined
        ? undefined
        : {
            object: "git-repository-connection", id: `conn_${row.provider}_${repository}`, provider: row.provider, repositoryId: String(repository), repositoryName: `repository-${repository}`,
            repositoryUrl: `https://${row.provider}.com/example/repository-${repository}`, defaultBranch: "main", authState: statusOf(row), capabilities: { pullRequests: true, commitStatuses: true },
            createdAt: row.createdAt, updatedAt: row.updatedAt,
          },
    repositoryRef: typeof branch === "string" ? { object: "git-repository-ref", id: `ref_${row.id}`, name: branch, type: "branch", updatedAt: row.updatedAt } : undefined,
  });
}

/** The 409 of a site import without its site file: the body names where the file must be. */
function missingSiteFile(row: GitInstallationRow): ApiFailure {
  const path = siteFilePath(row.projectDirectory);
  const branch = String(row.providerConfiguration.branch ?? "");
  return new ApiFailure(409, `the site file ${path} is missing on branch ${branch}: add it to the repository before choosing priority git`, {
    type: "missing_site_git_sync_config",
    details: { path, branch, prompt: `Create the file ${path} on branch ${branch} of the repository, with version: 1 and site: {title, structure}, listing the site's sections and spaces, then commit and push it.` },
  });
}

/** Applies a setup to a copy of the row (nothing is saved until the whole PATCH is accepted). */
function applySetup(row: GitInstallationRow, b: Setup): GitInstallationRow {
  const { accessToken, ...config } = b.providerConfiguration;
  // The same provider keeps the members this PATCH leaves out; another provider starts afresh.
  const kept = b.provider === row.provider ? row.providerConfiguration : {};
  const next: GitInstallationRow = { ...row, provider: b.provider, providerConfiguration: compact({ ...kept, ...config }) as JsonObject };
  if (config.customInstanceURL === null) delete next.providerConfiguration.customInstanceURL;
  if (accessToken !== undefined) next.accessTokenSha256 = secretDigest(accessToken);
  else if (b.provider !== row.provider) next.accessTokenSha256 = null;
  if (b.projectDirectory !== undefined) next.projectDirectory = b.projectDirectory;
  if (b.commitMessageTemplate !== undefined) next.commitMessageTemplate = b.commitMessageTemplate;
  if (b.previewExternalBranches !== undefined) next.previewExternalBranches = b.previewExternalBranches;
  if (b.agentInstructions !== undefined) next.agentInstructions = b.agentInstructions;
  if (b.priority !== undefined) next.priority = b.priority;
  return next;
}

/** Members one provider's configuration does not have. */
function checkConfiguration(b: Setup): void {
  const foreign = b.provider === "github" ? ["projectId", "accessToken", "customInstanceURL"] : ["repositoryId"];
  for (const f of foreign) if (f in b.providerConfiguration) throw badRequest(`body/providerConfiguration/${f}`, `is not a member of a ${b.provider} configuration`);
}

/**
 * The sync a saved site installation queues, run at once: priority `git` imports the site file (its absence
 * was refused before saving); a file that breaks the rules fails the sync and leaves the site as it was.
 */
export function syncSite(store: Store, row: GitInstallationRow): void {
  const site = row.target.type === "site" ? store.get("sites", row.target.siteId) : undefined;
  if (!site || row.priority !== "git") return;
  const file = siteFileFor(store, row);
  if (!file) return;
  const startedAt = store.nowIso();
  try {
    importSiteFile(store, site, row, readSiteFile(file.text));
    row.operation = { state: "success", direction: "import", startedAt, endedAt: store.nowIso() };
  } catch (e) {
    row.operation = { state: "failure", direction: "import", startedAt, endedAt: store.nowIso(), error: e instanceof Error ? e.message : String(e) };
  }
  store.touch("gitInstallations", row);
}

export function registerGitSync(route: Route): void {
  registerInstall(route);
  registerInstallation(route);
  route<{ organizationId: string; siteId: string }>({
    method: "GET",
    url: "/v1/orgs/:organizationId/sites/:siteId/spaces/git/installations",
    handler: (ctx) => {
      const { site } = requireSite(ctx, ctx.params.organizationId, ctx.params.siteId, "read");
      const items = [...ctx.store.all("gitInstallations")].filter((g) => g.target.siteId === site.id).map((g) => presentGitInstallation(ctx.base, g));
      return { status: 200, body: { items } };
    },
  });
}

function registerInstall(route: Route): void {
  route<Record<string, never>, Record<string, never>, { provider: "github" | "gitlab"; target: GitSyncTarget }>({
    method: "POST",
    url: BASE,
    body: obj({ provider: limit("gitProvider"), target: TARGET }, ["provider", "target"]),
    handler: (ctx) => {
      const { provider, target } = ctx.body;
      if (target.type === "site" && target.siteId === undefined) throw badRequest("body/target/siteId", "is required for a site target");
      if (target.type === "space" && target.spaceId === undefined) throw badRequest("body/target/spaceId", "is required for a space target");
      const site = siteOf(ctx.store, target);
      const space = target.type === "space" ? ctx.store.get("spaces", target.spaceId) : undefined;
      const org = site?.org ?? space?.org;
      if ((target.siteId !== undefined && !site) || org === undefined) throw notFound(target.type, (target.type === "site" ? target.siteId : target.spaceId) ?? "");
      requireOrg(ctx, org, "admin", "manage Git Sync");
      const taken = [...ctx.store.all("gitInstallations")].find((g) => (target.type === "site" ? g.target.type === "site" && g.target.siteId === target.siteId : g.target.type === "space" && g.target.spaceId === target.spaceId));
      if (taken) throw new ApiFailure(409, `the ${target.type} already has a Git Sync installation: '${taken.id}'`);
      const parent = target.type === "space" && target.siteId !== undefined ? [...ctx.store.all("gitInstallations")].find((g) => g.target.type === "site" && g.target.siteId === target.siteId) : undefined;
      if (target.type === "space" && target.siteId !== undefined && !parent) throw new ApiFailure(409, `site '${target.siteId}' has no Git Sync installation to manage this space's`);
      const now = ctx.store.nowIso();
      const row: GitInstallationRow = {
        id: newId("gitinst_"), org, target, parent: parent?.id ?? null, provider, providerConfiguration: {}, accessTokenSha256: null, projectDirectory: null, commitMessageTemplate: null,
        previewExternalBranches: null, agentInstructions: null, priority: null, createdBy: ctx.user, createdAt: now, updatedAt: now, imported: {}, operation: null,
      };
      ctx.store.put("gitInstallations", row);
      return { status: 201, body: presentGitInstallation(ctx.base, row), location: `${ctx.base}${BASE}/${row.id}` };
    },
  });
}

function registerInstallation(route: Route): void {
  route<IdP>({ method: "GET", url: `${BASE}/:installationId`, handler: (ctx) => ({ status: 200, body: presentGitInstallation(ctx.base, requireInstallation(ctx, ctx.params.installationId)) }) });

  route<IdP, Record<string, never>, Setup>({
    method: "PATCH",
    url: `${BASE}/:installationId`,
    body: SETUP,
    handler: (ctx) => {
      const row = requireInstallation(ctx, ctx.params.installationId);
      const b = ctx.body;
      checkConfiguration(b);
      if (row.parent !== null && (b.previewExternalBranches !== undefined || b.agentInstructions !== undefined)) {
        throw badRequest(`body/${b.previewExternalBranches !== undefined ? "previewExternalBranches" : "agentInstructions"}`, "is inherited from the site installation; a child installation cannot set it");
      }
      const children = Object.entries(b.childInstallationProjectDirectories ?? {}).map(([id, dir]) => {
        const child = ctx.store.get("gitInstallations", id);
        if (!child || child.parent !== row.id) throw badRequest(`body/childInstallationProjectDirectories/${id}`, `names no child installation of '${row.id}'`);
        return { child, dir };
      });
      const next = applySetup(row, b);
      // A site import needs its file: without it nothing is saved or queued.
      if (next.target.type === "site" && next.priority === "git" && !siteFileFor(ctx.store, next)) throw missingSiteFile(next);
      Object.assign(row, next, { updatedAt: ctx.store.nowIso() });
      ctx.store.touch("gitInstallations", row);
      for (const { child, dir } of children) {
        child.projectDirectory = dir;
        ctx.store.touch("gitInstallations", child);
      }
      syncSite(ctx.store, row);
      return { status: 200, body: presentGitInstallation(ctx.base, row) };
    },
  });

  route<IdP>({
    method: "DELETE",
    url: `${BASE}/:installationId`,
    handler: (ctx) => {
      const row = requireInstallation(ctx, ctx.params.installationId);
      // Its child installations go with it; the structure it imported stays in the site.
      for (const g of [...ctx.store.all("gitInstallations")]) if (g.parent === row.id) ctx.store.del("gitInstallations", g.id);
      ctx.store.del("gitInstallations", row.id);
      return { status: 205 };
    },
  });
}
