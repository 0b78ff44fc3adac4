/** The lifecycle row (see lifecycle.cases.ts) of SiteGitSync: a site's Git Sync installation. */
import { createHash } from "node:crypto";
import { cleared, type Json, type LifecycleCase, type LifecycleEnv, type Parents } from "./lifecycle";

const sites = (env: LifecycleEnv) => `/v1/orgs/${env.orgId}/sites`;
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

function check(ok: boolean, what: string, outs: Json): void {
  if (!ok) throw new Error(`${what} not applied: ${JSON.stringify(outs)}`);
}

export const gitSyncCases: LifecycleCase[] = [
  {
    kind: "SiteGitSync",
    module: "siteGitSync",
    setup: async (env): Promise<Parents> => ({ siteId: (await env.api<{ id: string }>("POST", sites(env), { title: env.unique("Synced site") })).id }),
    create: (env, p) => ({
      organizationId: env.orgId, siteId: p.siteId, provider: "gitlab", project: 7, branch: "refs/heads/main", projectDirectory: "docs", priority: "gitbook",
      accessToken: "glpat-lifecycle-one", customInstanceURL: "https://gitlab.example.com", childDirectories: { "space-guides": "docs/guides" },
    }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, provider: "github", branch: "main", priority: "git" }), property: "branch" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, provider: "github", branch: "refs/heads/main", priority: "platform" }), property: "priority" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, provider: "github", branch: "refs/heads/main", priority: "git", projectDirectory: "../x" }), property: "projectDirectory" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, provider: "bitbucket", branch: "refs/heads/main", priority: "git" }), property: "provider" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, branch: "refs/heads/next", previewExternalBranches: true, commitMessageTemplate: "docs: {{message}}" }),
      expect: (outs) => check(outs.branch === "refs/heads/next" && outs.previewExternalBranches === true && outs.commitMessageTemplate === "docs: {{message}}", "branch and previews", outs),
    },
    moreUpdates: [
      {
        name: "GitLab token rotated",
        inputs: (_env, _p, current) => ({ ...current, accessToken: "glpat-lifecycle-two" }),
        expect: (outs) => check((outs.accessToken as { sha256?: string }).sha256 === sha256("accessToken\u0000glpat-lifecycle-two") && !JSON.stringify(outs).includes("glpat-lifecycle"), "token digest", outs),
      },
      {
        name: "self-hosted instance cleared",
        inputs: (_env, _p, current) => ({ ...current, customInstanceURL: null }),
        expect: (outs) => check(cleared(outs, "customInstanceURL"), "instance URL cleared", outs),
      },
    ],
    replace: {
      inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, provider: "github", repository: 42, branch: "refs/heads/main", priority: "gitbook" }),
      replaces: ["provider"],
    },
    outOfBandEdit: (env, id) => env.api("PATCH", `/v1/git/installations/${id}`, { provider: "github", providerConfiguration: { branch: "refs/heads/elsewhere" }, projectDirectory: "moved" }),
    outOfBandDelete: (env, id) => env.api("DELETE", `/v1/git/installations/${id}`),
    adopt: {
      prepare: async (env, p) => (await env.api<{ id: string }>("POST", "/v1/git/installations", { provider: "github", target: { type: "site", siteId: p.siteId } })).id,
      inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, provider: "github", repository: 42, branch: "refs/heads/main", priority: "gitbook" }),
    },
    teardown: async (env, p) => {
      await env.api("DELETE", `${sites(env)}/${p.siteId}`).catch(() => undefined);
    },
  },
];
