/**
 * Export of each exported site's Git Sync installation as its `gitSync` block (read from the site's list
 * of installations, mapped through the kind's declaration). The GitLab token cannot be read back: it is
 * written as an `{env}` source to set. A site whose installation has priority `git` takes its structure
 * from the repository, so its sections, groups and site spaces are not written (the file would otherwise
 * give the site two owners, which validate refuses).
 */
import type { ApiClient } from "../client";
import { siteGitSyncKind, SITE_FILE_NAME } from "../resources/siteGitSync";
import { declaredEntry } from "../stack/declared";
import { HAND_STRUCTURE } from "./checks";
import type { StackFile, StackGitSync } from "../file/model";

/** The environment variable an exported GitLab token source names: `GITSYNC_<SITE_KEY>_TOKEN`. */
export function tokenVariable(siteKey: string): string {
  return `GITSYNC_${siteKey.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_TOKEN`;
}

/** Adds the `gitSync` block of each exported site that has an installation (one list read per site). */
export async function exportGitSync(
  client: ApiClient,
  org: string,
  stack: StackFile,
  sites: Map<string, string>,
  spaces: Map<string, string>,
  count: (n: number) => void,
  notes: string[],
  supply: string[],
): Promise<void> {
  for (const [siteId, key] of sites) {
    const entry = stack.sites?.find((e) => e.key === key);
    if (entry === undefined) continue;
    const items = await client.gitSync.listForSite(org, siteId);
    count(items.length);
    const inst = items.find((i) => i.target.type === "site" && i.target.siteId === siteId);
    if (inst === undefined) continue;
    const children = items.filter((i) => i.parentInstallationId === inst.id);
    const outputs = siteGitSyncKind.outputsOf({ ...inst, children } as never, { organizationId: org, siteId });
    const block = declaredEntry(siteGitSyncKind, outputs, (_list, id) => ({ id })) as StackGitSync;
    const childSpaces = Object.entries(outputs.childDirectories ?? {});
    if (childSpaces.length > 0) block.spaces = childSpaces.map(([space, projectDirectory]) => ({ space: spaces.get(space) ?? { id: space }, projectDirectory }));
    if (inst.provider === "gitlab") {
      block.accessToken = { env: tokenVariable(key) };
      supply.push(`set ${tokenVariable(key)} (the GitLab access token of site ${key}'s Git Sync installation): a token is written as its source, never as a value`);
    }
    entry.gitSync = block;
    if (block.priority === "git") {
      const declared = HAND_STRUCTURE.filter((m) => entry[m] !== undefined);
      for (const m of declared) delete entry[m];
      delete entry.defaultSiteSection;
      delete entry.defaultSiteSpace;
      const dir = outputs.projectDirectory === "" ? "" : `${outputs.projectDirectory.replace(/\/+$/, "")}/`;
      notes.push(`site ${key}: its structure comes from ${dir}${SITE_FILE_NAME} in the repository (Git Sync, priority git); its sections and site spaces are not written here`);
    }
  }
}
