/**
 * Lifecycle rows (lifecycle.cases.ts) of the extensions' style guides, a site's attached guide and the
 * organisation's agent instructions.
 */
import type { LifecycleCase, LifecycleEnv, Parents } from "./lifecycle";

const sites = (env: LifecycleEnv) => `/v1/orgs/${env.orgId}/sites`;

async function site(env: LifecycleEnv): Promise<string> {
  return (await env.api<{ id: string }>("POST", sites(env), { title: env.unique("Guided site") })).id;
}

/** A site's own guide space, made through the API. */
async function guideOf(env: LifecycleEnv, siteId: string): Promise<string> {
  return (await env.api<{ id: string }>("POST", `${sites(env)}/${siteId}/styleguide`, {})).id;
}

async function deleteSites(env: LifecycleEnv, parents: Parents): Promise<void> {
  for (const [name, id] of Object.entries(parents)) if (/siteId$/i.test(name)) await env.api("DELETE", `${sites(env)}/${id}`).catch(() => undefined);
}

export const guideCases: LifecycleCase[] = [
  {
    kind: "StyleGuide",
    module: "styleGuide",
    setup: async (env) => {
      const [siteId, otherSiteId, adoptSiteId] = await Promise.all([site(env), site(env), site(env)]);
      return { siteId, otherSiteId, adoptSiteId };
    },
    create: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, template: "technical-writing" }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, template: "Not A Template" }), property: "template" },
      { inputs: (env) => ({ organizationId: env.orgId }), property: "siteId" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, spaceId: "space-guides" }), property: "siteId" },
    ],
    // A template applies when a guide is made: a later one is recorded, and nothing is sent.
    update: {
      inputs: (_env, _p, created) => ({ ...created, template: "api-reference" }),
      expect: (outs) => {
        if (outs.template !== "api-reference") throw new Error(`template not recorded: ${JSON.stringify(outs)}`);
      },
    },
    replace: { inputs: (_env, p, current) => ({ ...current, siteId: p.otherSiteId }), replaces: ["siteId"] },
    // Nothing a hand edit changes is declared (which space the guide is): only its deletion shows.
    outOfBandDelete: (env, id) => env.api("DELETE", `/v1/spaces/${id}`),
    adopt: {
      // The guide's ID is its natural key: kept among the parents for the inputs.
      prepare: async (env, p) => (p.adoptGuide = await guideOf(env, p.adoptSiteId!)),
      inputs: (env, p) => ({ organizationId: env.orgId, spaceId: p.adoptGuide ?? "" }),
    },
    teardown: deleteSites,
  },
  {
    kind: "SiteStyleGuide",
    module: "siteStyleGuide",
    setup: async (env) => {
      const [siteId, otherSiteId] = await Promise.all([site(env), site(env)]);
      const [guide, otherGuide] = await Promise.all([guideOf(env, siteId), guideOf(env, otherSiteId)]);
      return { siteId, otherSiteId, guide, otherGuide };
    },
    create: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, styleGuideId: p.guide }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId }), property: "styleGuideId" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, styleGuideId: "a/b" }), property: "styleGuideId" },
    ],
    // One guide for several sites: the other site's guide attached here.
    update: {
      inputs: (_env, p, created) => ({ ...created, styleGuideId: p.otherGuide }),
      expect: (outs, inputs) => {
        if (outs.styleGuideId !== inputs.styleGuideId) throw new Error(`guide not attached: ${JSON.stringify(outs)}`);
      },
    },
    replace: { inputs: (_env, p, current) => ({ ...current, siteId: p.otherSiteId }), replaces: ["siteId"] },
    outOfBandEdit: (env, _id, outs) => env.api("PATCH", `${sites(env)}/${String(outs.siteId)}`, { styleguide: null }),
    teardown: deleteSites,
  },
  {
    kind: "AgentInstructions",
    module: "agentInstructions",
    create: (env) => ({ organizationId: env.orgId, markdown: "# Tone\n\nAnswer in plain English." }),
    bad: [
      { inputs: (env) => ({ organizationId: env.orgId, markdown: "" }), property: "markdown" },
      { inputs: (env) => ({ organizationId: env.orgId }), property: "markdown" },
      { inputs: (env) => ({ organizationId: env.orgId, markdown: "x".repeat(100_001) }), property: "markdown" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, markdown: "# Tone\n\nAnswer briefly.\n\n## Links\n\nLink to the guide." }),
      expect: (outs) => {
        if (outs.markdown !== "# Tone\n\nAnswer briefly.\n\n## Links\n\nLink to the guide.") throw new Error(`instructions not replaced: ${JSON.stringify(outs)}`);
      },
    },
    outOfBandEdit: (env) => env.api("PUT", `/v1/orgs/${env.orgId}/agent-instructions`, { instructions: { object: "document", data: {}, nodes: [] } }),
  },
];
