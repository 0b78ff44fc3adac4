/**
 * A site's `gitSync` block: its offline checks (the provider's members, the GitLab token as a source and
 * never a value, and one owner for the site's structure) and whether its token's source is set when the
 * program runs. Its resource is declared by gitSyncResources.ts.
 */
import { CREDENTIAL } from "../env";
import { PLATFORM_PRIORITY, SITE_FILE_NAME } from "../resources/siteGitSync";
import type { SecretLookup, SourceIssue } from "../stack/sources";

/** The site-entry members that declare a site's structure by hand. */
export const HAND_STRUCTURE = ["sections", "sectionGroups", "siteSpaces"] as const;

/** The site-entry member that takes the structure from the site file instead (`structure: {file: …}`). */
export const STRUCTURE_FROM_FILE = "structure";

/** The members of one provider's configuration that the other has not. */
const FOREIGN: Record<string, readonly string[]> = { github: ["project", "accessToken", "customInstanceURL"], gitlab: ["repository"] };
/** The member that names the repository, per provider. */
const NAMES_REPOSITORY: Record<string, string> = { github: "repository", gitlab: "project" };

type Entry = Record<string, unknown>;
const isEntry = (v: unknown): v is Entry => v !== null && typeof v === "object" && !Array.isArray(v);

/** Each site entry with a `gitSync` object, with its index. */
function blocks(stack: unknown): { i: number; site: Entry; g: Entry }[] {
  const sites = isEntry(stack) && Array.isArray(stack.sites) ? stack.sites : [];
  return sites.flatMap((site, i) => (isEntry(site) && isEntry(site.gitSync) ? [{ i, site, g: site.gitSync }] : []));
}

/** Offline problems of every `gitSync` block (guarded: the file may have failed its schema). */
export function gitSyncIssues(stack: unknown): SourceIssue[] {
  const issues: SourceIssue[] = [];
  for (const { i, site, g } of blocks(stack)) {
    const at = `/sites/${i}/gitSync`;
    const provider = g.provider;
    if (typeof provider === "string" && provider in FOREIGN) {
      const needed = NAMES_REPOSITORY[provider]!;
      if (g[needed] === undefined) issues.push({ pointer: at, reason: `provider ${provider} needs ${needed}: the ${provider === "github" ? "repository's" : "project's"} numeric ID` });
      for (const f of FOREIGN[provider]!) if (g[f] !== undefined) issues.push({ pointer: `${at}/${f}`, reason: `${f} belongs to a ${provider === "github" ? "gitlab" : "github"} installation, not a ${provider} one` });
    }
    issues.push(...tokenIssues(g.accessToken, `${at}/accessToken`));
    issues.push(...childIssues(stack as Entry, g.spaces, `${at}/spaces`));
    const owned = twoOwners(site, g);
    if (owned) issues.push({ pointer: `/sites/${i}/${owned}`, reason: twoOwnersReason(String(site.key), owned, g) });
  }
  return issues;
}

/** A child installation's space that is not a key of the file's spaces, or named twice. */
function childIssues(stack: Entry, children: unknown, at: string): SourceIssue[] {
  if (!Array.isArray(children)) return [];
  const keys = new Set((Array.isArray(stack.spaces) ? stack.spaces : []).map((s) => (isEntry(s) ? s.key : undefined)));
  const seen = new Set<string>();
  const issues: SourceIssue[] = [];
  children.forEach((c, j) => {
    if (!isEntry(c)) return;
    const ref = c.space;
    if (typeof ref === "string" && !keys.has(ref)) issues.push({ pointer: `${at}/${j}/space`, reason: `no space with key ${JSON.stringify(ref)} in spaces (name one of this file's, or {id: ...})` });
    const id = typeof ref === "string" ? `key ${ref}` : isEntry(ref) ? `id ${String(ref.id)}` : undefined;
    if (id !== undefined && seen.has(id)) issues.push({ pointer: `${at}/${j}/space`, reason: `space ${id.replace(/^(key|id) /, "")} already has a child installation in this list` });
    if (id !== undefined) seen.add(id);
  });
  return issues;
}

/** A token written as a value (never echoed back), or a source naming the package's own API credential. */
function tokenIssues(token: unknown, pointer: string): SourceIssue[] {
  if (token === undefined) return [];
  if (typeof token === "string" || typeof token === "number") {
    return [{ pointer, reason: "a token is never written in the stack file (the file may sit in a repository and its pull requests): give where it comes from, {env: NAME} or {config: key} set with `pulumi config set --secret`" }];
  }
  if (!isEntry(token)) return [];
  const env = typeof token.env === "string" && (CREDENTIAL.env as readonly string[]).includes(token.env) ? `environment variable ${token.env}` : undefined;
  const config = typeof token.config === "string" && (CREDENTIAL.config as readonly string[]).includes(token.config) ? `config key ${token.config}` : undefined;
  const named = env ?? config;
  return named ? [{ pointer: `${pointer}/${env ? "env" : "config"}`, reason: `${named} holds the platform API token this package acts with; it is never sent as a GitLab token (give the installation a GitLab token of its own)` }] : [];
}

/**
 * The hand-declared structure member of a site whose installation has priority `git`, if any: the
 * repository's site file owns that site's structure, so the stack file must not declare it too. A site
 * that takes its structure from the site file (`structure: {file: …}`) declares none by hand.
 */
export function twoOwners(site: Entry, g: Entry): (typeof HAND_STRUCTURE)[number] | undefined {
  if (g.priority !== "git" || STRUCTURE_FROM_FILE in site) return undefined;
  return HAND_STRUCTURE.find((m) => Array.isArray(site[m]) && (site[m] as unknown[]).length > 0);
}

function twoOwnersReason(siteKey: string, owned: string, g: Entry): string {
  const dir = typeof g.projectDirectory === "string" && g.projectDirectory !== "" ? `${g.projectDirectory.replace(/\/+$/, "")}/` : "";
  const where = `${dir}${SITE_FILE_NAME}`;
  return (
    `site ${siteKey}: its Git Sync installation (gitSync, priority git, branch ${String(g.branch)}) makes ${where} in the repository the owner of the site's sections and site spaces, ` +
    `and this file declares them too (${owned}): the site would have two owners, each undoing the other's changes. ` +
    `Either move the structure into ${where} and write structure: {file: <path of the site file>} on the site instead of ${HAND_STRUCTURE.join("/")}, ` +
    `or set gitSync.priority: ${PLATFORM_PRIORITY} to keep the structure in this file`
  );
}

/** A token source that is not set when the program runs: one issue each, naming how to set it (never a value). */
export function gitSyncSourceIssues(stack: unknown, lookup: SecretLookup): SourceIssue[] {
  const issues: SourceIssue[] = [];
  for (const { i, g } of blocks(stack)) {
    const s = g.accessToken;
    if (!isEntry(s)) continue;
    const value = typeof s.config === "string" ? lookup.config(s.config) : typeof s.env === "string" ? lookup.env(s.env) : undefined;
    if (value !== undefined && value !== "") continue;
    const how = typeof s.config === "string" ? `config key ${JSON.stringify(s.config)} is not set: run \`pulumi config set --secret ${s.config} <token>\`` : `environment variable ${String(s.env)} is not set: export it in the environment of \`pulumi\``;
    issues.push({ pointer: `/sites/${i}/gitSync/accessToken`, reason: `the GitLab access token's ${how}` });
  }
  return issues;
}
