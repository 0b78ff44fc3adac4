/**
 * A site's Git Sync installation in the views: one line for `tree` (the repository, branch, folder and
 * which side owns the structure) and the changes `diff` names. Never a token: at most that one is given.
 */
import { PLATFORM_PRIORITY, SITE_FILE_NAME } from "../resources/siteGitSync";
import type { StackGitSync } from "../file/model";

/** Where the installation syncs, in words. */
function repositoryOf(g: StackGitSync): string {
  return g.provider === "gitlab" ? `gitlab project ${String(g.project)}${g.customInstanceURL ? ` at ${g.customInstanceURL}` : ""}` : `github repository ${String(g.repository)}`;
}

/** Who owns the site's structure under this installation. */
function ownerOf(g: StackGitSync): string {
  const dir = g.projectDirectory ? `${g.projectDirectory.replace(/\/+$/, "")}/` : "";
  return g.priority === "git" ? `priority git: the structure comes from ${dir}${SITE_FILE_NAME}` : `priority ${PLATFORM_PRIORITY}: the platform is the source of truth`;
}

/** The tree's line for a site's installation, or undefined when the file declares none. */
export function gitSyncFacts(g: StackGitSync | undefined): string | undefined {
  if (g === undefined) return undefined;
  const parts = [`Git Sync: ${repositoryOf(g)}`, `branch ${g.branch}`];
  if (g.projectDirectory) parts.push(`folder ${g.projectDirectory}`);
  parts.push(ownerOf(g));
  if (g.previewExternalBranches) parts.push("previews from other branches");
  const children = g.spaces?.length ?? 0;
  if (children > 0) parts.push(`${children} ${children === 1 ? "space" : "spaces"} synced from ${children === 1 ? "its own folder" : "their own folders"}`);
  if (g.accessToken !== undefined) parts.push("access token from a secret source");
  return parts.join(" · ");
}

/** The changes between two declarations of a site's installation, each `[sign, text]`; never a token or its source's value. */
export function gitSyncChanges(b: StackGitSync | undefined, h: StackGitSync | undefined): ["+" | "-" | "~", string][] {
  if (b === undefined && h === undefined) return [];
  if (b === undefined) return [["+", `${gitSyncFacts(h)!} (installed)`]];
  if (h === undefined) return [["-", `Git Sync uninstalled from the site (${repositoryOf(b)}; the structure and content stay)`]];
  const out: ["+" | "-" | "~", string][] = [];
  if (b.provider !== h.provider) out.push(["~", `Git Sync: ${repositoryOf(b)} → ${repositoryOf(h)} (installed anew)`]);
  else if (repositoryOf(b) !== repositoryOf(h)) out.push(["~", `Git Sync: ${repositoryOf(b)} → ${repositoryOf(h)}`]);
  const field = (name: string, before: unknown, after: unknown) => {
    if (JSON.stringify(before ?? null) !== JSON.stringify(after ?? null)) out.push(["~", `Git Sync: ${name} ${before === undefined ? "(none)" : JSON.stringify(before)} → ${after === undefined ? "(none)" : JSON.stringify(after)}`]);
  };
  field("branch", b.branch, h.branch);
  field("folder", b.projectDirectory, h.projectDirectory);
  if (b.priority !== h.priority) out.push(["~", `Git Sync: ${ownerOf(b)} → ${ownerOf(h)}`]);
  field("commit message template", b.commitMessageTemplate, h.commitMessageTemplate);
  field("previews from other branches", b.previewExternalBranches ?? false, h.previewExternalBranches ?? false);
  if (JSON.stringify(b.accessToken ?? null) !== JSON.stringify(h.accessToken ?? null)) out.push(["~", "Git Sync: the access token's source changed"]);
  const name = (r: unknown) => (typeof r === "string" ? r : JSON.stringify(r));
  const childMap = (g: StackGitSync) => new Map((g.spaces ?? []).map((c) => [name(c.space), c.projectDirectory]));
  const [bc, hc] = [childMap(b), childMap(h)];
  for (const [space, dir] of hc) {
    if (!bc.has(space)) out.push(["+", `Git Sync: space ${space} synced from ${dir}`]);
    else if (bc.get(space) !== dir) out.push(["~", `Git Sync: space ${space} folder ${bc.get(space)} → ${dir}`]);
  }
  for (const space of bc.keys()) if (!hc.has(space)) out.push(["-", `Git Sync: space ${space} no longer synced (its child installation is removed)`]);
  return out;
}
