/**
 * The rows of the table-driven lifecycle test (lifecycle.test.ts): one row per kind. The test
 * walks every row through the real dynamic-provider plugin against the emulator:
 * check (good and bad inputs) → create → read → diff (no change) → in-place update → replacing
 * change → out-of-band edit detected by read → out-of-band delete detected by read → delete;
 * adopt (when the row has `adopt`); preview with unknown inputs (derived from the kind's fields).
 *
 * Adding a kind is one row here. Rows set up their parents and make out-of-band changes through
 * `env.api` (plain HTTP against the emulator, independent of the provider's client).
 */

import { createHash } from "node:crypto";
import { accessCases } from "./access.cases";
import { gitSyncCases } from "./gitSync.cases";
import { assistantCases } from "./assistant.cases";
import { guideCases } from "./guides.cases";
import { cleared, type Json, type LifecycleCase, type LifecycleEnv, type Parents } from "./lifecycle";

/** The row's shape, for the test that walks the rows. */
export type { Json, LifecycleCase, LifecycleEnv, Parents };

const sites = (env: LifecycleEnv) => `/v1/orgs/${env.orgId}/sites`;

/** Creates a bare site to hang children on. */
async function makeSite(env: LifecycleEnv, visibility = "public"): Promise<Parents> {
  const site = await env.api<{ id: string }>("POST", sites(env), { title: env.unique("Parent site"), visibility });
  return { siteId: site.id };
}

/** Two bare sites: `siteId`, and `otherSiteId` for the replacing change. */
async function makeTwoSites(env: LifecycleEnv, visibility = "public"): Promise<Parents> {
  const [a, b] = await Promise.all([makeSite(env, visibility), makeSite(env, visibility)]);
  return { siteId: a.siteId, otherSiteId: b.siteId };
}

/** Deletes every parent whose name ends in `siteId` / `SiteId` (children go with them). */
async function deleteSites(env: LifecycleEnv, parents: Parents): Promise<void> {
  for (const [name, id] of Object.entries(parents)) {
    if (/siteId$/i.test(name)) await env.api("DELETE", `${sites(env)}/${id}`);
  }
}

// ---- Organisation kinds ----------------------------------------------------------------------

const orgPath = (env: LifecycleEnv, suffix: string) => `/v1/orgs/${env.orgId}/${suffix}`;

/** Fails the row with the outputs when `ok` is false. */
function expectOuts(ok: boolean, what: string, outs: Json): void {
  if (!ok) throw new Error(`${what} not applied: ${JSON.stringify(outs)}`);
}

/** Deletes what a row set up; an object already gone is fine. */
async function deleteQuietly(env: LifecycleEnv, paths: string[]): Promise<void> {
  for (const p of paths) {
    try {
      await env.api("DELETE", p);
    } catch {
      // already gone (the row may have deleted it out of band)
    }
  }
}

/** A team through the API; returns its ID. */
async function makeTeam(env: LifecycleEnv, title: string): Promise<string> {
  return (await env.api<{ id: string }>("PUT", orgPath(env, "teams"), { title })).id;
}

/** The rows of the organisation kinds: teams, memberships, SSO, OpenAPI specs, collections, spaces, settings. */
const organisationCases: LifecycleCase[] = [
  {
    kind: "Team",
    module: "team",
    setup: async (env) => ({ title: env.unique("Writers"), adoptTitle: env.unique("Existing team") }),
    create: (env, p) => ({ organizationId: env.orgId, title: p.title }),
    bad: [
      { inputs: (env) => ({ organizationId: env.orgId, title: "" }), property: "title" },
      { inputs: (env) => ({ organizationId: env.orgId, title: "t".repeat(65) }), property: "title" },
      { inputs: () => ({ title: "No organization" }), property: "organizationId" },
    ],
    update: {
      inputs: (_env, p, created) => ({ ...created, title: `${p.title} (renamed)` }),
      expect: (outs) => expectOuts(typeof outs.title === "string" && outs.title.endsWith("(renamed)"), "rename", outs),
    },
    // organizationId is the only create-only field, and the fixture has one organization.
    outOfBandEdit: (env, id) => env.api("PATCH", orgPath(env, `teams/${id}`), { title: env.unique("Edited elsewhere") }),
    outOfBandDelete: (env, id) => env.api("DELETE", orgPath(env, `teams/${id}`)),
    adopt: {
      prepare: (env, p) => makeTeam(env, p.adoptTitle),
      inputs: (env, p) => ({ organizationId: env.orgId, title: p.adoptTitle }),
    },
  },
  {
    kind: "TeamMembers",
    module: "teamMembers",
    setup: async (env) => ({
      teamId: await makeTeam(env, env.unique("Members team")),
      otherTeamId: await makeTeam(env, env.unique("Other members team")),
    }),
    // Declared by e-mail: the API reports member IDs, which must not show as drift.
    create: (env, p) => ({ organizationId: env.orgId, teamId: p.teamId, members: [{ user: "writer@demo.test", role: "owner" }] }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, teamId: p.teamId, members: [{ user: "reader-1", role: "boss" }] }), property: "members[0].role" },
      { inputs: (env, p) => ({ organizationId: env.orgId, teamId: p.teamId, members: [{ role: "owner" }] }), property: "members[0].user" },
      { inputs: (env, p) => ({ organizationId: env.orgId, teamId: p.teamId }), property: "members" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, members: [{ user: "writer@demo.test", role: "owner" }, { user: "reader-1" }] }),
      expect: (outs) => {
        const members = outs.members as { user: string; role: string }[];
        expectOuts(members.length === 2 && members.some((m) => m.user === "reader-1" && m.role === "member"), "membership", outs);
      },
    },
    replace: { inputs: (_env, p, current) => ({ ...current, teamId: p.otherTeamId }), replaces: ["teamId"] },
    outOfBandEdit: (env, _id, outs) =>
      env.api("PUT", orgPath(env, `teams/${String(outs.teamId)}/members`), { add: ["demo-admin"], memberships: { "writer-1": { role: "member" } } }),
    outOfBandDelete: (env, _id, outs) => env.api("DELETE", orgPath(env, `teams/${String(outs.teamId)}`)),
    teardown: (env, p) => deleteQuietly(env, [orgPath(env, `teams/${p.teamId}`), orgPath(env, `teams/${p.otherTeamId}`)]),
  },
  {
    kind: "SamlProvider",
    module: "samlProvider",
    setup: async (env) => ({
      teamId: await makeTeam(env, env.unique("SSO joiners")),
      label: env.unique("Okta"),
      adoptLabel: env.unique("Existing SSO"),
    }),
    // defaultTeam is declared as an ID; the API answers with the Team object.
    create: (env, p) => ({
      organizationId: env.orgId,
      label: p.label,
      ssoURL: "https://idp.example.com/sso",
      entityID: "https://idp.example.com/entity",
      certificate: "MIIC-public-certificate",
      defaultTeam: p.teamId,
      defaultRole: "read",
    }),
    bad: [
      { inputs: (env) => ({ organizationId: env.orgId, label: "l".repeat(31) }), property: "label" },
      { inputs: (env) => ({ organizationId: env.orgId, label: "ok", ssoURL: "not a url" }), property: "ssoURL" },
      { inputs: (env) => ({ organizationId: env.orgId, label: "ok", certificate: "c".repeat(10_001) }), property: "certificate" },
      { inputs: (env) => ({ organizationId: env.orgId, label: "ok", entityID: "e".repeat(1025) }), property: "entityID" },
      { inputs: (env) => ({ organizationId: env.orgId, label: "ok", defaultRole: "boss" }), property: "defaultRole" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, defaultRole: "edit", ssoURL: "https://idp.example.com/sso2" }),
      expect: (outs) => expectOuts(outs.defaultRole === "edit" && outs.ssoURL === "https://idp.example.com/sso2", "update", outs),
    },
    outOfBandEdit: (env, id) => env.api("PATCH", orgPath(env, `saml/${id}`), { defaultRole: "admin" }),
    outOfBandDelete: (env, id) => env.api("DELETE", orgPath(env, `saml/${id}`)),
    adopt: {
      prepare: async (env, p) => (await env.api<{ id: string }>("POST", orgPath(env, "saml"), { label: p.adoptLabel })).id,
      inputs: (env, p) => ({ organizationId: env.orgId, label: p.adoptLabel, defaultRole: "read" }),
    },
    teardown: (env, p) => deleteQuietly(env, [orgPath(env, `teams/${p.teamId}`)]),
  },
  {
    kind: "OpenAPISpec",
    module: "openApiSpec",
    setup: async (env) => ({
      slug: env.unique("petstore").toLowerCase(),
      otherSlug: env.unique("petstore-next").toLowerCase(),
      adoptSlug: env.unique("existing-spec").toLowerCase(),
    }),
    create: (env, p) => ({ organizationId: env.orgId, slug: p.slug, sourceURL: "https://specs.example.com/petstore/v1.yaml" }),
    bad: [
      { inputs: (env) => ({ organizationId: env.orgId, slug: "Not_A_Slug", sourceURL: "https://x.example.com/a.yaml" }), property: "slug" },
      { inputs: (env) => ({ organizationId: env.orgId, slug: "s".repeat(101), sourceURL: "https://x.example.com/a.yaml" }), property: "slug" },
      { inputs: (env) => ({ organizationId: env.orgId, slug: "ok", sourceURL: "not a uri" }), property: "sourceURL" },
      { inputs: (env) => ({ organizationId: env.orgId, slug: "ok" }), property: "sourceURL" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, sourceURL: "https://specs.example.com/petstore/v2.yaml" }),
      expect: (outs) => expectOuts(outs.sourceURL === "https://specs.example.com/petstore/v2.yaml" && outs.processingState === undefined, "new source", outs),
    },
    moreUpdates: [
      {
        // A spec kept in the repository: its text sent inline, the state keeping its digest (and no longer the source URL the file dropped).
        name: "a text source instead of the URL",
        inputs: (env, p) => ({ organizationId: env.orgId, slug: p.slug, text: "openapi: 3.1.0\ninfo: {title: Pets, version: '1'}\n" }),
        expect: (outs, inputs) =>
          expectOuts(outs.sourceURL === undefined && (outs.text as { sha256?: string } | null)?.sha256 === createHash("sha256").update(String(inputs.text)).digest("hex"), "text source", outs),
      },
      { name: "made public", inputs: (_env, _p, current) => ({ ...current, visibility: "public" }), expect: (outs) => expectOuts(outs.visibility === "public", "visibility", outs) },
    ],
    replace: { inputs: (_env, p, current) => ({ ...current, slug: p.otherSlug }), replaces: ["slug"] },
    outOfBandEdit: (env, _id, outs) =>
      env.api("PUT", orgPath(env, `openapi/${String(outs.slug)}`), { source: { url: "https://elsewhere.example.com/spec.yaml" } }),
    outOfBandDelete: (env, _id, outs) => env.api("DELETE", orgPath(env, `openapi/${String(outs.slug)}`)),
    adopt: {
      prepare: async (env, p) =>
        (await env.api<{ id: string }>("POST", orgPath(env, "openapi"), { slug: p.adoptSlug, source: { url: "https://specs.example.com/old.yaml" } })).id,
      inputs: (env, p) => ({ organizationId: env.orgId, slug: p.adoptSlug, sourceURL: "https://specs.example.com/new.yaml" }),
    },
  },
  {
    kind: "Collection",
    module: "collection",
    setup: async (env) => ({
      parentId: (await env.api<{ id: string }>("POST", orgPath(env, "collections"), { title: env.unique("Parent") })).id,
      title: env.unique("Guides"),
      adoptTitle: env.unique("Existing collection"),
    }),
    create: (env, p) => ({ organizationId: env.orgId, title: p.title, description: "How-to guides", defaultLevel: "read" }),
    bad: [
      { inputs: (env) => ({ organizationId: env.orgId, title: "t".repeat(51) }), property: "title" },
      { inputs: (env) => ({ organizationId: env.orgId, title: "ok", description: "d".repeat(101) }), property: "description" },
      { inputs: (env) => ({ organizationId: env.orgId, title: "ok", defaultLevel: "boss" }), property: "defaultLevel" },
    ],
    update: {
      inputs: (_env, p, created) => ({ ...created, description: "Guides, moved", parent: p.parentId }),
      expect: (outs) => expectOuts(outs.description === "Guides, moved" && typeof outs.parent === "string", "update and move", outs),
    },
    outOfBandEdit: (env, id) => env.api("PATCH", `/v1/collections/${id}`, { title: env.unique("Edited elsewhere") }),
    outOfBandDelete: (env, id) => env.api("DELETE", `/v1/collections/${id}`),
    adopt: {
      prepare: async (env, p) => (await env.api<{ id: string }>("POST", orgPath(env, "collections"), { title: p.adoptTitle })).id,
      inputs: (env, p) => ({ organizationId: env.orgId, title: p.adoptTitle, description: "Taken over" }),
    },
    teardown: (env, p) => deleteQuietly(env, [`/v1/collections/${p.parentId}`]),
  },
  {
    kind: "Space",
    module: "space",
    // Spaces are never created by this kind: work on copies so the fixture spaces stay as they are.
    setup: async (env) => {
      const copy = async () => (await env.api<{ id: string }>("POST", "/v1/spaces/space-guides/duplicate")).id;
      return { spaceId: await copy(), otherSpaceId: await copy(), adoptSpaceId: await copy() };
    },
    create: (env, p) => ({ organizationId: env.orgId, spaceId: p.spaceId, title: "Managed guides", emoji: "📗" }),
    bad: [
      { inputs: (_env, p) => ({ spaceId: p.spaceId, title: "t".repeat(51) }), property: "title" },
      { inputs: (_env, p) => ({ spaceId: p.spaceId, emoji: "e".repeat(51) }), property: "emoji" },
      { inputs: (_env, p) => ({ spaceId: p.spaceId, editMode: "frozen" }), property: "editMode" },
      { inputs: (_env, p) => ({ spaceId: p.spaceId, deletionPolicy: "keep" }), property: "deletionPolicy" },
      // Without `spaceId` the space is created; an ID that is not one is refused.
      { inputs: () => ({ spaceId: "not/an id", title: "Bad ID" }), property: "spaceId" },
      { inputs: (env) => ({ organizationId: env.orgId, title: "New", language: "klingon" }), property: "language" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, title: "Managed guides (locked)", editMode: "locked" }),
      expect: (outs) => expectOuts(outs.editMode === "locked" && outs.title === "Managed guides (locked)", "update", outs),
    },
    replace: { inputs: (_env, p, current) => ({ ...current, spaceId: p.otherSpaceId }), replaces: ["spaceId"] },
    outOfBandEdit: (env, id) => env.api("PATCH", `/v1/spaces/${id}`, { title: "Edited elsewhere" }),
    // The API's delete is a soft delete: the space then reads as gone.
    outOfBandDelete: (env, id) => env.api("DELETE", `/v1/spaces/${id}`),
    adopt: {
      prepare: async (_env, p) => p.adoptSpaceId,
      inputs: (env, p) => ({ organizationId: env.orgId, spaceId: p.adoptSpaceId, emoji: "📙" }),
    },
    teardown: (env, p) => deleteQuietly(env, [p.spaceId, p.otherSpaceId, p.adoptSpaceId].map((s) => `/v1/spaces/${s}`)),
  },
  {
    kind: "OrganizationSettings",
    module: "organizationSettings",
    // Delete restores what create replaced, so the shared organization ends as it started.
    create: (env) => ({ organizationId: env.orgId, title: "Lifecycle Org", ai: true }),
    bad: [
      { inputs: (env) => ({ organizationId: env.orgId, title: "x" }), property: "title" },
      { inputs: (env) => ({ organizationId: env.orgId, hostname: "ab" }), property: "hostname" },
      { inputs: (env) => ({ organizationId: env.orgId, logo: "not a uri" }), property: "logo" },
      { inputs: (env) => ({ organizationId: env.orgId, defaultRole: "boss" }), property: "defaultRole" },
    ],
    update: {
      // E-mail domains compare as a set, case-insensitively: "Demo.test" is the fixture's "demo.test".
      inputs: (_env, _p, created) => ({ ...created, title: "Lifecycle Org (renamed)", emailDomains: ["handbook.example.org", "Demo.test"] }),
      expect: (outs) =>
        expectOuts(
          outs.title === "Lifecycle Org (renamed)" && (outs.emailDomains as string[]).map((d) => d.toLowerCase()).sort().join() === "demo.test,handbook.example.org",
          "update",
          outs,
        ),
    },
    // organizationId is the only create-only field, and the API cannot delete an organization.
    outOfBandEdit: (env) => env.api("PATCH", `/v1/orgs/${env.orgId}`, { ai: false }),
  },
  {
    kind: "MemberRole",
    module: "memberRole",
    create: (env) => ({ organizationId: env.orgId, userId: "reader-1", role: "comment" }),
    bad: [
      { inputs: (env) => ({ organizationId: env.orgId, userId: "reader-1", role: "boss" }), property: "role" },
      { inputs: (env) => ({ organizationId: env.orgId, userId: "", role: "read" }), property: "userId" },
      { inputs: (env) => ({ organizationId: env.orgId, userId: "reader-1" }), property: "role" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, role: "review" }),
      expect: (outs) => expectOuts(outs.role === "review", "role", outs),
    },
    replace: { inputs: (_env, _p, current) => ({ ...current, userId: "writer-1" }), replaces: ["userId"] },
    outOfBandEdit: (env, _id, outs) => env.api("PATCH", `/v1/orgs/${env.orgId}/members/${String(outs.userId)}`, { role: "admin" }),
    // No out-of-band delete: the API has no operation that adds a member back, and the fixture's
    // members are shared by other rows. organisation.test.ts covers a deleted member on a seed of its own.
  },
  {
    kind: "TranslationSettings",
    module: "translationSettings",
    setup: async (env) => ({ title: env.unique("French"), adoptTitle: env.unique("Existing translation") }),
    create: (env, p) => ({ organizationId: env.orgId, title: p.title }),
    bad: [
      { inputs: (env) => ({ organizationId: env.orgId, title: "" }), property: "title" },
      { inputs: (env) => ({ organizationId: env.orgId, title: "t".repeat(101) }), property: "title" },
    ],
    update: {
      inputs: (_env, p, created) => ({ ...created, title: `${p.title} (renamed)` }),
      expect: (outs) => expectOuts(typeof outs.title === "string" && outs.title.endsWith("(renamed)"), "rename", outs),
    },
    outOfBandEdit: (env, id) => env.api("PUT", orgPath(env, `translations/${id}`), { title: env.unique("Edited elsewhere") }),
    outOfBandDelete: (env, id) => env.api("DELETE", orgPath(env, `translations/${id}`)),
    adopt: {
      prepare: async (env, p) => (await env.api<{ id: string }>("POST", orgPath(env, "translations"), { title: p.adoptTitle })).id,
      inputs: (env, p) => ({ organizationId: env.orgId, title: p.adoptTitle }),
    },
  },
];

// ---- Integrations ----------------------------------------------------------------------------

/** SHA-256 hex of a text, as the Integration kind keeps its script and secrets. */
function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** A publish body for `POST /integrations/{name}` through `env.api` (an integration published by hand). */
function publishBody(env: LifecycleEnv, title: string): Json {
  return { title, description: "Published by hand", script: "export default {};", organization: env.orgId };
}

/**
 * The Integration row: a script change and a secret rotation are each an update (the outputs keep
 * digests, never the script or the value); an unpublish behind the provider's back reads as gone.
 */
function integrationCases(): LifecycleCase[] {
  const image = Buffer.from("89504e470d0a1a0a", "hex").toString("base64");
  return [
    {
      kind: "Integration",
      module: "integration",
      setup: async (env) => ({ name: env.unique("status-badges"), otherName: env.unique("status-badges-next"), adoptName: env.unique("existing.tool") }),
      create: (env, p) => ({
        organizationId: env.orgId,
        name: p.name,
        title: "Status badges",
        description: "Badges for service status",
        script: "export default { v: 1 };",
        previewImages: [image],
        secrets: { API_KEY: "key-one" },
      }),
      bad: [
        { inputs: (env) => ({ organizationId: env.orgId, name: "bad name", title: "Ok title", description: "d", script: "s" }), property: "name" },
        { inputs: (env) => ({ organizationId: env.orgId, name: "ok", title: "x", description: "d", script: "s" }), property: "title" },
        { inputs: (env) => ({ organizationId: env.orgId, name: "ok", title: "t".repeat(31), description: "d", script: "s" }), property: "title" },
        { inputs: (env) => ({ organizationId: env.orgId, name: "ok", title: "Ok title", description: "d".repeat(101), script: "s" }), property: "description" },
        { inputs: (env) => ({ organizationId: env.orgId, name: "ok", title: "Ok title", description: "d", summary: "s".repeat(2049), script: "s" }), property: "summary" },
        { inputs: (env) => ({ organizationId: env.orgId, name: "ok", title: "Ok title", description: "d", script: "s", previewImages: ["a", "b", "c", "d"] }), property: "previewImages" },
        { inputs: (env) => ({ organizationId: env.orgId, name: "ok", title: "Ok title", description: "d" }), property: "script" },
      ],
      update: {
        // The script changed: a new publish, and the outputs hold the new digest only.
        inputs: (_env, _p, created) => ({ ...created, script: "export default { v: 2 };" }),
        expect: (outs) => {
          expectOuts((outs.script as { sha256?: string } | null)?.sha256 === sha256("export default { v: 2 };"), "script digest", outs);
          expectOuts(!JSON.stringify(outs).includes("export default"), "no script content in the outputs", outs);
        },
      },
      moreUpdates: [
        {
          // The secret rotated: its digest changes, so it publishes again; the value is never in the outputs.
          name: "secret rotation",
          inputs: (_env, _p, current) => ({ ...current, secrets: { API_KEY: "key-two" } }),
          expect: (outs) => {
            const digest = (outs.secrets as Record<string, { sha256: string }> | null)?.API_KEY?.sha256;
            expectOuts(digest === sha256("API_KEY\u0000key-two"), "rotated secret digest", outs);
            expectOuts(!JSON.stringify(outs).includes("key-two") && !JSON.stringify(outs).includes("key-one"), "no secret value in the outputs", outs);
          },
        },
      ],
      replace: { inputs: (_env, p, current) => ({ ...current, name: p.otherName }), replaces: ["name"] },
      outOfBandEdit: (env, _id, outs) => env.api("POST", `/v1/integrations/${String(outs.name)}`, publishBody(env, "Edited elsewhere")),
      // An unpublish behind the provider's back: read answers gone, refresh drops it.
      outOfBandDelete: (env, _id, outs) => env.api("DELETE", `/v1/integrations/${String(outs.name)}`),
      adopt: {
        prepare: async (env, p) => (await env.api<{ name: string }>("POST", `/v1/integrations/${p.adoptName}`, publishBody(env, "Existing tool"))).name,
        inputs: (env, p) => ({ organizationId: env.orgId, name: p.adoptName, title: "Existing tool", description: "Taken over", script: "export default { adopted: true };" }),
      },
      teardown: (env, p) => deleteQuietly(env, [p.name, p.otherName, p.adoptName].map((n) => `/v1/integrations/${n}`)),
    },
  ];
}

// ---- Site structure kinds --------------------------------------------------------------------

/** Path of a site's sub-collection for the site the outputs name (after a replacement it is the other site). */
const under = (env: LifecycleEnv, outs: Json, suffix: string) => `${sites(env)}/${String(outs.siteId)}/${suffix}`;

/** A section through the API; returns its ID. */
async function makeSection(env: LifecycleEnv, siteId: string, spaceId: string, title: string): Promise<string> {
  return (await env.api<{ id: string }>("POST", `${sites(env)}/${siteId}/sections`, { spaceId, title })).id;
}

const CLAIMS = {
  type: "object",
  additionalProperties: false,
  properties: { beta: { type: "boolean", description: "Beta tester" } },
};

/** The rows of the site structure kinds: sites, sections, groups, site spaces, order, adaptive schema. */
const siteStructureCases: LifecycleCase[] = [
  {
    kind: "Site",
    module: "site",
    setup: async (env) => ({ title: env.unique("Handbook"), adoptTitle: env.unique("Existing site") }),
    create: (env, p) => ({ organizationId: env.orgId, title: p.title, visibility: "public", basename: "handbook", agentsContext: "included" }),
    bad: [
      { inputs: (env) => ({ organizationId: env.orgId, title: "x" }), property: "title" },
      { inputs: (env) => ({ organizationId: env.orgId, title: "Docs", hostname: "Not A Host" }), property: "hostname" },
      { inputs: (env) => ({ organizationId: env.orgId, title: "Docs", visibility: "secret" }), property: "visibility" },
      { inputs: () => ({ title: "No organization" }), property: "organizationId" },
    ],
    update: {
      inputs: (_env, p, created) => ({ ...created, title: `${p.title} v2`, published: true, proxy: "example.com/docs" }),
      expect: (outs) => expectOuts(outs.published === true && outs.proxy === "example.com/docs", "publish and proxy", outs),
    },
    replace: { inputs: (_env, _p, current) => ({ ...current, type: "ultimate" }), replaces: ["type"] },
    outOfBandEdit: (env, id) => env.api("PATCH", `${sites(env)}/${id}`, { title: "Edited elsewhere" }),
    outOfBandDelete: (env, id) => env.api("DELETE", `${sites(env)}/${id}`),
    adopt: {
      prepare: async (env, p) => (await env.api<{ id: string }>("POST", sites(env), { title: p.adoptTitle })).id,
      inputs: (env, p) => ({ organizationId: env.orgId, title: p.adoptTitle }),
    },
  },
  {
    kind: "SiteSection",
    module: "siteSection",
    setup: (env) => makeTwoSites(env),
    create: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, spaceId: "space-guides", title: "Guides", path: "guides", description: "How-tos" }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, spaceId: "space-guides", title: "x" }), property: "title" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, spaceId: "space-guides", path: "" }), property: "path" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, spaceId: "space-guides", description: "d".repeat(257) }), property: "description" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId }), property: "spaceId" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, spaceId: "space-guides", default: "yes" }), property: "default" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, title: "Guides v2", condition: "visitor.claims.beta", default: true }),
      expect: (outs) => expectOuts(outs.title === "Guides v2" && outs.condition === "visitor.claims.beta" && outs.default === true, "update", outs),
    },
    replace: { inputs: (_env, _p, current) => ({ ...current, spaceId: "space-api" }), replaces: ["spaceId"] },
    outOfBandEdit: (env, id, outs) => env.api("PATCH", under(env, outs, `sections/${id}`), { title: "Edited elsewhere" }),
    outOfBandDelete: (env, id, outs) => env.api("DELETE", under(env, outs, `sections/${id}`)),
    adopt: {
      prepare: (env, p) => makeSection(env, p.siteId!, "space-changelog", "Changelog"),
      inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, spaceId: "space-changelog", title: "Changelog", path: "changelog" }),
    },
    teardown: deleteSites,
  },
  {
    kind: "SiteSectionGroup",
    module: "siteSectionGroup",
    setup: async (env) => {
      const p = await makeTwoSites(env);
      return {
        ...p,
        sectionA: await makeSection(env, p.siteId!, "space-guides", "Guides"),
        sectionB: await makeSection(env, p.siteId!, "space-api", "API"),
      };
    },
    create: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, title: "Reference", icon: "book", sections: [p.sectionA] }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, title: "" }), property: "title" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, title: "Ok", icon: "i".repeat(51) }), property: "icon" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, title: "Ok", sections: "all" }), property: "sections" },
    ],
    update: {
      inputs: (_env, p, created) => ({ ...created, title: "Reference v2", sections: [p.sectionB, p.sectionA] }),
      expect: (outs) => expectOuts(Array.isArray(outs.sections) && outs.sections.length === 2 && outs.title === "Reference v2", "update", outs),
    },
    // The group moves to the other site, without the first site's sections.
    replace: { inputs: (_env, p, current) => ({ ...current, siteId: p.otherSiteId, sections: [] }), replaces: ["siteId"] },
    outOfBandEdit: (env, id, outs) => env.api("PATCH", under(env, outs, `section-groups/${id}`), { title: "Edited elsewhere" }),
    outOfBandDelete: (env, id, outs) => env.api("DELETE", under(env, outs, `section-groups/${id}`)),
    adopt: {
      prepare: async (env, p) => (await env.api<{ id: string }>("POST", `${sites(env)}/${p.siteId}/section-groups`, { title: "Existing group" })).id,
      inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, title: "Existing group" }),
    },
    teardown: deleteSites,
  },
  {
    kind: "SiteSpace",
    module: "siteSpace",
    setup: (env) => makeTwoSites(env),
    create: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, spaceId: "space-guides", path: "guides" }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, spaceId: "space-guides", path: "" }), property: "path" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, spaceId: "space-guides", condition: "c".repeat(1025) }), property: "condition" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId }), property: "spaceId" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, spaceId: "space-api", path: "api", condition: "visitor.claims.beta" }),
      expect: (outs) => expectOuts(outs.spaceId === "space-api" && outs.path === "api", "update", outs),
    },
    replace: { inputs: (_env, p, current) => ({ ...current, siteId: p.otherSiteId }), replaces: ["siteId"] },
    outOfBandEdit: (env, id, outs) => env.api("PATCH", under(env, outs, `site-spaces/${id}`), { path: "edited-elsewhere" }),
    outOfBandDelete: (env, id, outs) => env.api("DELETE", under(env, outs, `site-spaces/${id}`)),
    adopt: {
      prepare: async (env, p) => (await env.api<{ id: string }>("POST", `${sites(env)}/${p.siteId}/site-spaces`, { spaceId: "space-changelog" })).id,
      inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, spaceId: "space-changelog" }),
    },
    teardown: deleteSites,
  },
  {
    kind: "SiteStructureOrder",
    module: "siteStructureOrder",
    setup: async (env) => {
      const p = await makeTwoSites(env);
      const s1 = await makeSection(env, p.siteId!, "space-guides", "Guides");
      const s2 = await makeSection(env, p.siteId!, "space-api", "API");
      const s3 = await makeSection(env, p.siteId!, "space-changelog", "Changelog");
      const ss = (spaceId: string) => env.api<{ id: string }>("POST", `${sites(env)}/${p.siteId}/site-spaces`, { spaceId, sectionId: s1 });
      const own = (await env.list<{ id: string; section?: string }>(`${sites(env)}/${p.siteId}/site-spaces`)).find((x) => x.section === s1)!;
      const ssA = (await ss("space-api")).id;
      const ssB = (await ss("space-changelog")).id;
      const t1 = await makeSection(env, p.otherSiteId!, "space-guides", "One");
      const t2 = await makeSection(env, p.otherSiteId!, "space-api", "Two");
      const link = (await env.api<{ id: string }>("POST", `${sites(env)}/${p.siteId}/external-links`, { title: "Status", url: "https://status.example.com" })).id;
      // The site spaces each section was made with: the order declares every site space of the site (one left out would be one made by hand).
      const listed = await env.list<{ id: string; section?: string }>(`${sites(env)}/${p.siteId}/site-spaces`);
      const first = (section: string) => listed.find((x) => x.section === section)!.id;
      const other = await env.list<{ id: string; section?: string }>(`${sites(env)}/${p.otherSiteId}/site-spaces`);
      const firstOther = (section: string) => other.find((x) => x.section === section)!.id;
      return { ...p, s1, s2, s3, ss0: own.id, ssA, ssB, ss2: first(s2), ss3: first(s3), t1, t2, tss1: firstOther(t1), tss2: firstOther(t2), link };
    },
    create: (env, p) => ({
      organizationId: env.orgId,
      siteId: p.siteId,
      sections: [p.s3, p.s1, p.s2],
      siteSpaces: { [p.s1!]: [p.ssB, p.ssA, p.ss0], [p.s2!]: [p.ss2], [p.s3!]: [p.ss3] },
    }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, sections: "s1" }), property: "sections" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, sections: [p.s1, p.s1] }), property: "sections" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, siteSpaces: { root: "x" } }), property: "siteSpaces.root" },
    ],
    update: {
      inputs: (_env, p, created) => ({ ...created, sections: [p.s1, p.s2, p.s3] }),
      expect: (outs, inputs) => expectOuts(JSON.stringify(outs.sections) === JSON.stringify(inputs.sections), "reorder", outs),
    },
    moreUpdates: [
      {
        // The navigation with an external link among the sections: ordered with the structure sort.
        name: "navigation with an external link",
        inputs: (env, p, current) => ({
          organizationId: env.orgId,
          siteId: p.siteId,
          siteSpaces: current.siteSpaces,
          navigation: { root: [{ type: "site-external-link", id: p.link }, { type: "site-section", id: p.s2 }, { type: "site-section", id: p.s1 }, { type: "site-section", id: p.s3 }] },
        }),
        expect: (outs, inputs) => {
          const ids = (v: unknown) => JSON.stringify((v as { root: { id: string }[] }).root.map((i) => i.id));
          expectOuts(ids(outs.navigation) === ids(inputs.navigation), "navigation order", outs);
        },
      },
    ],
    replace: { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.otherSiteId, sections: [p.t2, p.t1], siteSpaces: { [p.t1!]: [p.tss1], [p.t2!]: [p.tss2] } }), replaces: ["siteId"] },
    outOfBandEdit: (env, _id, outs, p) =>
      env.api("POST", under(env, outs, `sections/${p.t1}/move`), { position: { before: { type: "site-section", siteSection: p.t2 } } }),
    outOfBandDelete: (env, id) => env.api("DELETE", `${sites(env)}/${id}`),
    teardown: deleteSites,
  },
  {
    kind: "SiteAdaptiveSchema",
    module: "siteAdaptiveSchema",
    setup: (env) => makeTwoSites(env),
    create: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, jsonSchema: CLAIMS }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId }), property: "jsonSchema" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, jsonSchema: { type: "array", properties: {} } }), property: "jsonSchema.type" },
      {
        inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, jsonSchema: { type: "object", properties: { beta: { type: "string" } } } }),
        property: "jsonSchema.properties.beta.type",
      },
    ],
    update: {
      // Key order differs from what the API stores: only the added claim is a change.
      inputs: (_env, _p, created) => ({
        ...created,
        jsonSchema: { properties: { staff: { description: "Staff", type: "boolean" }, beta: { description: "Beta tester", type: "boolean" } }, additionalProperties: false, type: "object" },
      }),
      expect: (outs) => expectOuts(JSON.stringify(outs.jsonSchema).includes('"staff"'), "schema update", outs),
    },
    replace: { inputs: (_env, p, current) => ({ ...current, siteId: p.otherSiteId }), replaces: ["siteId"] },
    outOfBandEdit: (env, id) =>
      env.api("PUT", `${sites(env)}/${id}/adaptive-schema`, { jsonSchema: { type: "object", additionalProperties: false, properties: {} } }),
    outOfBandDelete: (env, id) => env.api("DELETE", `${sites(env)}/${id}`),
    teardown: deleteSites,
  },
];

/** The rows: one per kind. */
export const lifecycleCases: LifecycleCase[] = [
  ...siteStructureCases,
  {
    kind: "ShareLink",
    module: "shareLink",
    setup: (env) => makeTwoSites(env, "share-link"),
    create: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, name: "Partners" }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, name: "x".repeat(51) }), property: "name" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId }), property: "name" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, name: "ok", active: "yes" }), property: "active" },
    ],
    update: {
      inputs: (_env, _p, created) => ({ ...created, name: "Partners (renamed)", active: false }),
      expect: (outs) => {
        if (outs.name !== "Partners (renamed)" || outs.active !== false) throw new Error(`update not applied: ${JSON.stringify(outs)}`);
      },
    },
    replace: {
      inputs: (_env, p, current) => ({ ...current, siteId: p.otherSiteId }),
      replaces: ["siteId"],
    },
    outOfBandEdit: (env, id, outs) => env.api("PATCH", `${sites(env)}/${String(outs.siteId)}/share-links/${id}`, { name: "Edited elsewhere" }),
    outOfBandDelete: (env, id, outs) => env.api("DELETE", `${sites(env)}/${String(outs.siteId)}/share-links/${id}`),
    adopt: {
      prepare: async (env, p) =>
        (await env.api<{ id: string }>("POST", `${sites(env)}/${p.siteId}/share-links`, { name: "Existing link" })).id,
      inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, name: "Existing link" }),
    },
    teardown: deleteSites,
  },
  {
    kind: "SiteRedirects",
    module: "siteRedirects",
    setup: async (env) => {
      const site = async () => (await env.api<{ id: string }>("POST", sites(env), { title: env.unique("Redirected site"), spaces: ["space-guides"] })).id;
      const [siteId, otherSiteId, adoptSiteId] = [await site(), await site(), await site()];
      const [guides] = await env.list<{ id: string }>(`${sites(env)}/${siteId}/site-spaces`);
      return { siteId, otherSiteId, adoptSiteId, guidesSiteSpaceId: guides!.id };
    },
    // A page by its path: the API answers it as a page ID, which must not show as drift.
    create: (env, p) => ({
      organizationId: env.orgId,
      siteId: p.siteId,
      redirects: [
        { source: "/old-faq", destination: { kind: "path", spaceId: "space-guides", path: "faq" } },
        { source: "/guides/*", captureWildcard: true, permanent: true, destination: { kind: "site-space", siteSpaceId: p.guidesSiteSpaceId } },
      ],
    }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, redirects: [{ source: "no-slash", destination: { kind: "external", url: "https://x.test" } }] }), property: "redirects[0].source" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, redirects: [{ source: "/x", destination: { kind: "elsewhere" } }] }), property: "redirects[0].destination.kind" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId }), property: "redirects" },
    ],
    update: {
      inputs: (_env, _p, created) => ({
        ...created,
        redirects: [
          { source: "/old-faq", permanent: true, destination: { kind: "path", spaceId: "space-guides", path: "faq" } },
          { source: "/blog", draft: true, destination: { kind: "external", url: "https://blog.example.com" } },
        ],
      }),
      expect: (outs) => {
        const live = outs.redirects as { source: string; permanent: boolean; draft: boolean; id: string | null }[];
        expectOuts(live.length === 2 && live.every((r) => typeof r.id === "string") && live.some((r) => r.source === "/blog" && r.draft), "redirect set", outs);
      },
    },
    replace: { inputs: (_env, p, current) => ({ ...current, siteId: p.otherSiteId }), replaces: ["siteId"] },
    outOfBandEdit: (env, id) => env.api("POST", `${sites(env)}/${id}/redirects`, { source: "/made-by-hand", destination: { kind: "external", url: "https://x.test" } }),
    outOfBandDelete: (env, id) => env.api("DELETE", `${sites(env)}/${id}`),
    adopt: {
      prepare: async (env, p) => {
        await env.api("POST", `${sites(env)}/${p.adoptSiteId}/redirects`, { source: "/kept", destination: { kind: "external", url: "https://kept.example.com" } });
        return p.adoptSiteId!;
      },
      inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.adoptSiteId, redirects: [{ source: "/kept", destination: { kind: "external", url: "https://kept.example.com" } }] }),
    },
    teardown: deleteSites,
  },
  {
    kind: "SiteCustomization",
    module: "siteCustomization",
    setup: (env) => makeTwoSites(env),
    // Partly declared: every member left out keeps the look recorded when it first applied.
    create: (env, p) => ({
      organizationId: env.orgId,
      siteId: p.siteId,
      styling: { theme: "bold", primaryColor: { light: "#112233", dark: "#445566" } },
      header: { links: [{ title: "Status", to: { kind: "url", url: "https://status.example.com" }, links: [] }] },
      footer: { copyright: "© Docs team" },
    }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, styling: { theme: "neon" } }), property: "styling.theme" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, styling: { primaryColor: { light: "red", dark: "#000" } } }), property: "styling.primaryColor.light" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, header: { logo: { light: "not a url", dark: "https://x.example.com/l.png" } } }), property: "header.logo.light" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, ai: { suggestions: ["ok?", "no"] } }), property: "ai.suggestions" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, title: "x" }), property: "title" },
    ],
    update: {
      // The header line removed: its links go back to the recorded look (none); one colour changed; a greeting added.
      inputs: (_env, _p, created) => ({ organizationId: created.organizationId, siteId: created.siteId, styling: { theme: "bold", primaryColor: { light: "#ff0000", dark: "#ff0000" } }, footer: created.footer, ai: { mode: "assistant", greeting: "Ask me" } }),
      expect: (outs) => expectOuts(cleared(outs, "header") && cleared(outs, "pageActions") && (outs.styling as { primaryColor: Json }).primaryColor.light === "#ff0000", "update", outs),
    },
    replace: { inputs: (_env, p, current) => ({ ...current, siteId: p.otherSiteId }), replaces: ["siteId"] },
    // A declared member and one left out, both changed by hand: drift that update puts back.
    outOfBandEdit: async (env, id, outs) => {
      const path = `${sites(env)}/${id}/customization`;
      const live = await env.api<Json & { styling: Json; trademark: Json }>("GET", path);
      live.styling.theme = "gradient";
      live.styling.corners = "straight";
      live.trademark = { enabled: false };
      await env.api("PUT", path, live);
      void outs;
    },
    outOfBandDelete: (env, id) => env.api("DELETE", `${sites(env)}/${id}`),
    teardown: deleteSites,
  },
  {
    kind: "SiteSpaceCustomization",
    module: "siteSpaceCustomization",
    setup: async (env) => {
      const site = async () => (await env.api<{ id: string }>("POST", sites(env), { title: env.unique("Overridden site"), spaces: ["space-guides"] })).id;
      const [siteId, otherSiteId] = [await site(), await site()];
      const first = async (id: string) => (await env.list<{ id: string }>(`${sites(env)}/${id}/site-spaces`))[0]!.id;
      return { siteId, otherSiteId, siteSpaceId: await first(siteId), otherSiteSpaceId: await first(otherSiteId) };
    },
    create: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, siteSpaceId: p.siteSpaceId, title: "Version 2", styling: { theme: "bold", sidebar: { list: "pill" } } }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, siteSpaceId: p.siteSpaceId, title: "x" }), property: "title" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, siteSpaceId: p.siteSpaceId, styling: { theme: "neon" } }), property: "styling.theme" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, siteSpaceId: p.siteSpaceId, styling: { primaryColor: { light: "#12", dark: "#000" } } }), property: "styling.primaryColor.light" },
    ],
    update: {
      // The title and the sidebar override removed (cleared), the theme changed, a favicon added.
      inputs: (_env, _p, created) => ({ organizationId: created.organizationId, siteId: created.siteId, siteSpaceId: created.siteSpaceId, styling: { theme: "muted" }, favicon: { emoji: "🚀" } }),
      expect: (outs) => expectOuts(cleared(outs, "title") && JSON.stringify(outs.styling) === JSON.stringify({ theme: "muted" }), "update", outs),
    },
    replace: { inputs: (_env, p, current) => ({ ...current, siteId: p.otherSiteId, siteSpaceId: p.otherSiteSpaceId }), replaces: ["siteId", "siteSpaceId"] },
    // An override set by hand beside the declared ones: drift that update clears.
    outOfBandEdit: (env, id, outs) => env.api("PATCH", under(env, outs, `site-spaces/${id}/customization`), { styling: { corners: "straight" }, pagination: { enabled: false } }),
    outOfBandDelete: (env, _id, outs) => env.api("DELETE", `${sites(env)}/${String(outs.siteId)}`),
    teardown: deleteSites,
  },
  {
    kind: "SiteExternalLink",
    module: "siteExternalLink",
    setup: async (env) => {
      const p = await makeTwoSites(env);
      const group = (await env.api<{ id: string }>("POST", `${sites(env)}/${p.siteId}/section-groups`, { title: "More" })).id;
      return { ...p, group };
    },
    create: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, title: "Status", url: "https://status.example.com", icon: "signal", description: "Uptime", draft: true }),
    bad: [
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, title: "x", url: "https://x.example.com" }), property: "title" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, title: "Ok", url: "ftp://x.example.com" }), property: "url" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, title: "Ok", url: "https://x.example.com", condition: "c".repeat(1025) }), property: "condition" },
      { inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, title: "Ok" }), property: "url" },
    ],
    update: {
      // Into the group, live, the icon and description removed (cleared).
      inputs: (_env, p, created) => ({ organizationId: created.organizationId, siteId: created.siteId, title: "Status page", url: "https://status.example.com/", sectionGroupId: p.group, draft: false, condition: "visitor.claims.staff" }),
      expect: (outs, inputs) => expectOuts(outs.sectionGroupId === inputs.sectionGroupId && cleared(outs, "icon") && outs.draft === false, "update", outs),
    },
    moreUpdates: [
      {
        name: "back to the root",
        inputs: (_env, _p, current) => ({ ...current, sectionGroupId: undefined }),
        expect: (outs) => expectOuts(cleared(outs, "sectionGroupId"), "move to the root", outs),
      },
    ],
    replace: { inputs: (_env, p, current) => ({ ...current, siteId: p.otherSiteId }), replaces: ["siteId"] },
    outOfBandEdit: (env, id, outs) => env.api("PATCH", under(env, outs, `external-links/${id}`), { title: "Edited elsewhere" }),
    outOfBandDelete: (env, id, outs) => env.api("DELETE", under(env, outs, `external-links/${id}`)),
    adopt: {
      prepare: async (env, p) => (await env.api<{ id: string }>("POST", `${sites(env)}/${p.siteId}/external-links`, { title: "Existing link", url: "https://existing.example.com" })).id,
      inputs: (env, p) => ({ organizationId: env.orgId, siteId: p.siteId, title: "Existing link", url: "https://existing.example.com" }),
    },
    teardown: deleteSites,
  },
  ...organisationCases,
  ...integrationCases(),
  ...guideCases,
  ...accessCases,
  ...gitSyncCases,
  ...assistantCases,
];
