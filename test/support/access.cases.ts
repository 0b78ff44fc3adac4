/**
 * Lifecycle rows (see lifecycle.cases.ts) of the access kinds: Permissions, VisitorAuth and
 * IntegrationInstallation.
 */
import { createHash } from "node:crypto";
import type { Json, LifecycleCase, LifecycleEnv, Parents } from "./lifecycle";

const sites = (env: LifecycleEnv) => `/v1/orgs/${env.orgId}/sites`;

async function twoSites(env: LifecycleEnv, visibility = "public"): Promise<Parents> {
  const make = async () => (await env.api<{ id: string }>("POST", sites(env), { title: env.unique("Access site"), visibility })).id;
  return { siteId: await make(), otherSiteId: await make() };
}

async function quietly(env: LifecycleEnv, paths: string[]): Promise<void> {
  for (const p of paths) await env.api("DELETE", p).catch(() => undefined);
}

const siteParents = (env: LifecycleEnv, p: Parents) => [`${sites(env)}/${p.siteId}`, `${sites(env)}/${p.otherSiteId}`];

function check(ok: boolean, what: string, outs: Json): void {
  if (!ok) throw new Error(`${what} not applied: ${JSON.stringify(outs)}`);
}

function publish(env: LifecycleEnv, name: string): Promise<unknown> {
  return env.api("POST", `/v1/integrations/${name}`, { title: "Access tool", description: "For installations", script: "export default {};", organization: env.orgId });
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

let firstKey = "";

export const accessCases: LifecycleCase[] = [
  {
    kind: "Permissions",
    module: "permissions",
    setup: async (env) => {
      const team = await env.api<{ id: string }>("PUT", `/v1/orgs/${env.orgId}/teams`, { title: env.unique("Reviewers"), members: ["reader-1"] });
      return { ...(await twoSites(env)), teamId: team.id };
    },
    // writer-1 already edits through the organisation: nothing is sent for that grant.
    create: (env, p) => ({
      organizationId: env.orgId,
      on: "site",
      targetId: p.siteId,
      grants: [{ team: p.teamId, role: "edit" }, { user: "reader@demo.test", role: "review" }, { user: "writer-1", role: "read" }],
    }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, on: "site", targetId: p.siteId, grants: [{ user: "reader-1", role: "boss" }] }), property: "grants[0].role" },
      { inputs: (env, p) => ({ organizationId: env.orgId, on: "site", targetId: p.siteId }), property: "grants" },
      { inputs: (env, p) => ({ organizationId: env.orgId, on: "page", targetId: p.siteId, grants: [] }), property: "on" },
    ],
    update: {
      inputs: (_env, p, created) => ({ ...created, grants: [{ team: p.teamId, role: "admin" }, { user: "reader@demo.test", role: "comment" }, { user: "writer-1", role: "read" }] }),
      expect: (outs) => {
        const direct = outs.direct as { team?: string; user?: string; role: string }[];
        check(direct.length === 2 && direct.some((d) => d.team !== undefined && d.role === "admin") && direct.some((d) => d.user === "reader-1" && d.role === "comment"), "grants", outs);
        check(JSON.stringify(outs.implied) === JSON.stringify(["writer-1"]), "implied grant", outs);
      },
    },
    replace: { inputs: (_env, p, current) => ({ ...current, targetId: p.otherSiteId }), replaces: ["targetId"] },
    outOfBandEdit: (env, _id, outs) => env.api("PATCH", `${sites(env)}/${String(outs.targetId)}/permissions/users/reader-1`, { role: "read" }),
    outOfBandDelete: (env, _id, outs) => env.api("DELETE", `${sites(env)}/${String(outs.targetId)}`),
    teardown: (env, p) => quietly(env, [...siteParents(env, p), `/v1/orgs/${env.orgId}/teams/${p.teamId}`]),
  },
  {
    kind: "VisitorAuth",
    module: "visitorAuth",
    setup: (env) => twoSites(env, "visitor-auth"),
    create: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, backend: "custom", fallbackURL: "https://auth.example.com/fallback", logoutURL: "https://auth.example.com/logout", rotation: 1 }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, backend: "oauth" }), property: "backend" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, fallbackURL: "not a url" }), property: "fallbackURL" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, rotation: -1 }), property: "rotation" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, fallbackURL: "https://auth.example.com/again" }),
      expect: (outs) => {
        check(outs.fallbackURL === "https://auth.example.com/again" && typeof outs.privateKey === "string", "fallbackURL", outs);
        firstKey = String(outs.privateKey);
      },
    },
    moreUpdates: [
      {
        name: "key rotation",
        inputs: (_env, _p, current) => ({ ...current, rotation: 2 }),
        expect: (outs) => check(typeof outs.privateKey === "string" && outs.privateKey !== firstKey && outs.fallbackURL === "https://auth.example.com/again", "regenerated key", outs),
      },
    ],
    replace: { inputs: (_env, p, current) => ({ ...current, siteId: p.otherSiteId }), replaces: ["siteId"] },
    outOfBandEdit: (env, _id, outs) => env.api("PATCH", `${sites(env)}/${String(outs.siteId)}/publishing/auth`, { backend: "custom", logoutURL: null }),
    outOfBandDelete: (env, _id, outs) => env.api("DELETE", `${sites(env)}/${String(outs.siteId)}`),
    teardown: (env, p) => quietly(env, siteParents(env, p)),
  },
  {
    kind: "IntegrationInstallation",
    module: "integrationInstallation",
    setup: async (env) => {
      const p = { ...(await twoSites(env)), name: env.unique("access-tool"), otherName: env.unique("access-tool-next"), adoptName: env.unique("access-tool-kept") };
      for (const n of [p.name, p.otherName, p.adoptName]) await publish(env, n);
      return p;
    },
    create: (env, p) => ({ organizationId: env.orgId, integration: p.name, configuration: { region: "eu" }, secretConfiguration: { apiKey: "sek-one" }, sites: [p.siteId] }),
    bad: [
      { inputs: (env) => ({ organizationId: env.orgId, integration: "bad name" }), property: "integration" },
      { inputs: (env, p) => ({ organizationId: env.orgId, integration: p.name, sites: "all" }), property: "sites" },
      { inputs: (env, p) => ({ organizationId: env.orgId, integration: p.name, siteSelection: "some" }), property: "siteSelection" },
    ],
    update: {
      inputs: (_env, p, created) => ({ ...created, configuration: { region: "us" }, sites: [p.otherSiteId], spaces: ["space-guides"] }),
      expect: (outs) => {
        check(JSON.stringify(outs.configuration) === JSON.stringify({ region: "us" }), "configuration", outs);
        check(JSON.stringify(outs.sites) !== "[]" && JSON.stringify(outs.spaces) === JSON.stringify(["space-guides"]), "sites and spaces", outs);
        check(!JSON.stringify(outs).includes("sek-one"), "no secret value in the outputs", outs);
      },
    },
    moreUpdates: [
      {
        name: "secret configuration value changed",
        inputs: (_env, _p, current) => ({ ...current, secretConfiguration: { apiKey: "sek-two" } }),
        expect: (outs) => {
          const d = (outs.secretConfiguration as Record<string, { sha256: string }>).apiKey?.sha256;
          check(d === sha256("apiKey\u0000sek-two") && !JSON.stringify(outs).includes("sek-two"), "secret digest", outs);
        },
      },
    ],
    replace: { inputs: (_env, p, current) => ({ ...current, integration: p.otherName }), replaces: ["integration"] },
    outOfBandEdit: (env, id, outs) => env.api("PATCH", `/v1/integrations/${String(outs.integration)}/installations/${id}`, { configuration: { region: "elsewhere" } }),
    outOfBandDelete: (env, id, outs) => env.api("DELETE", `/v1/integrations/${String(outs.integration)}/installations/${id}`),
    adopt: {
      prepare: async (env, p) => (await env.api<{ id: string }>("POST", `/v1/integrations/${p.adoptName}/installations`, { organization: env.orgId })).id,
      inputs: (env, p) => ({ organizationId: env.orgId, integration: p.adoptName }),
    },
    teardown: (env, p) => quietly(env, [...siteParents(env, p), ...[p.name, p.otherName, p.adoptName].map((n) => `/v1/integrations/${n}`)]),
  },
];
