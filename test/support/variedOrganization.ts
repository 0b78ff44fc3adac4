/**
 * Test support: builds a varied organisation in a running emulator through direct API calls, the way a
 * team would have set it up by hand — several sites with nested structure, teams, SAML, specs,
 * collections, translations and settings.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ApiClient } from "../../provider/client";
import { startProgram, stopProgram, type ProgramAgainstEmulator } from "./program";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");

/** Certificate text of the fixture's SAML provider (public, multi-line). */
export const FIXTURE_CERTIFICATE = [
  "-----BEGIN CERTIFICATE-----",
  "MIIBszCCAVmgAwIBAgIUQ2VydGlmaWNhdGVGb3JEZW1vMAoGCCqGSM49BAMCMBcx",
  "FTATBgNVBAMMDGRlbW8ub2t0YS5leDAeFw0yNTAxMDEwMDAwMDBaFw0zNTAxMDEw",
  "-----END CERTIFICATE-----",
].join("\n");

/** What {@link buildVariedOrganization} made, by role. */
export interface VariedOrganization {
  handbookId: string;
  partnerId: string;
  archiveId: string;
}

/**
 * Builds the organisation `org` of an emulator started with the default seed (spaces `space-guides`,
 * `space-api`, `space-changelog`; members `demo-admin`, `writer-1`, `reader-1`).
 */
export async function buildVariedOrganization(api: ApiClient, org: string): Promise<VariedOrganization> {
  // Organisation settings and member roles.
  await api.orgs.update(org, { defaultRole: "read", inviteLinks: false, ai: true });
  await api.members.update(org, "reader-1", { role: "comment" });

  // Teams, one with an owner; SAML with a default team; specs; translations; nested collections.
  const docsTeam = await api.teams.create(org, { title: "Docs Team" });
  await api.teams.updateMembers(org, docsTeam.id, { add: ["demo-admin", "writer-1"], memberships: { "demo-admin": { role: "owner" } } });
  const reviewers = await api.teams.create(org, { title: "Reviewers" });
  await api.teams.updateMembers(org, reviewers.id, { add: ["reader@demo.test"] });
  await api.saml.create(org, {
    label: "Okta",
    entityID: "http://www.okta.com/exk1demo",
    ssoURL: "https://demo.okta.example/app/docsplatform/sso/saml",
    certificate: FIXTURE_CERTIFICATE,
    defaultTeam: docsTeam.id,
    defaultRole: "read",
  });
  await api.openapi.create(org, { slug: "public-api", source: { url: "https://api.demo.test/openapi.json" } });
  await api.openapi.create(org, { slug: "admin-api", source: { url: "https://api.demo.test/admin.json" } });
  await api.translations.create(org, { title: "French handbook" });
  const product = await api.collections.create(org, { title: "Product docs" });
  await api.collections.update(product.id, { description: "Guides, API reference and changelog", defaultLevel: "read" });
  await api.collections.create(org, { title: "Internal", parent: product.id });
  await api.spaces.update("space-changelog", { editMode: "locked" });

  // A site with sections (one with several site spaces, a renamed path, a condition), a group, a schema.
  const handbook = await api.sites.create(org, { title: "Handbook", visibility: "public" });
  const guides = await api.sections.create(org, handbook.id, { spaceId: "space-guides", title: "Guides", icon: "book-open" });
  await api.sections.update(org, handbook.id, guides.id, { description: "Step-by-step guides" });
  const reference = await api.sections.create(org, handbook.id, { spaceId: "space-api", title: "API Reference" });
  await api.sections.update(org, handbook.id, reference.id, { path: "api", icon: "code" });
  const refSpaces = await api.siteSpaces.list(org, handbook.id);
  const v1 = refSpaces.find((s) => s.section === reference.id);
  if (!v1) throw new Error("fixture: the API section has no site space");
  await api.siteSpaces.update(org, handbook.id, v1.id, { path: "v1" });
  const changes = await api.siteSpaces.create(org, handbook.id, { spaceId: "space-changelog", sectionId: reference.id });
  await api.siteSpaces.update(org, handbook.id, changes.id, { path: "changes", condition: "visitor.claims.beta == true" });
  const changelog = await api.sections.create(org, handbook.id, { spaceId: "space-changelog", title: "Changelog" });
  await api.sections.update(org, handbook.id, changelog.id, { path: "changes", condition: "visitor.claims.staff == true" });
  const group = await api.sectionGroups.create(org, handbook.id, { title: "Reference", icon: "books" });
  await api.sectionGroups.addSection(org, handbook.id, group.id, reference.id);
  await api.sectionGroups.addSection(org, handbook.id, group.id, changelog.id);
  await api.sites.update(org, handbook.id, {
    published: true,
    agentsContext: "included",
    adaptiveContent: { enabled: true },
    defaultSiteSection: reference.id,
  });
  await api.sites.putAdaptiveSchema(org, handbook.id, {
    jsonSchema: {
      type: "object",
      properties: {
        beta: { type: "boolean", description: "Member of the beta programme" },
        staff: { type: "boolean", description: "Works at Demo Org" },
        unsigned: { type: "object", description: "Unsigned claims of the site visitor.", properties: { darkMode: { type: "boolean", description: "Prefers dark mode" } }, additionalProperties: false },
      },
      additionalProperties: false,
    },
  });

  // A share-link site with root-level site spaces in a chosen order and two share links.
  const partner = await api.sites.create(org, { title: "Partner preview", visibility: "share-link", spaces: ["space-guides", "space-changelog"] });
  const roots = await api.siteSpaces.list(org, partner.id);
  const last = roots[roots.length - 1];
  const first = roots[0];
  if (!first || !last) throw new Error("fixture: the partner site has no site spaces");
  await api.siteSpaces.move(org, partner.id, last.id, { before: first.id });
  await api.sites.update(org, partner.id, { published: true, defaultSiteSpace: first.id, basename: "partners" });
  await api.shareLinks.create(org, partner.id, { name: "Acme Corp" });
  const globex = await api.shareLinks.create(org, partner.id, { name: "Globex (expired)" });
  await api.shareLinks.update(org, partner.id, globex.id, { active: false });

  // An unpublished site whose section titles collide once made into keys.
  const archive = await api.sites.create(org, { title: "Archive 2023", visibility: "unlisted" });
  await api.sections.create(org, archive.id, { spaceId: "space-guides", title: "Old guides" });
  const second = await api.sections.create(org, archive.id, { spaceId: "space-api", title: "Old-Guides" });
  await api.sections.update(org, archive.id, second.id, { path: "Old-Guides" });
  await api.sites.update(org, handbook.id, {});
  await api.orgs.update(org, { defaultContent: { type: "site", site: handbook.id } });
  return { handbookId: handbook.id, partnerId: partner.id, archiveId: archive.id };
}

/**
 * The handbook example against the emulator ({@link startProgram}), its organisation `org` built by hand
 * ({@link buildVariedOrganization}) and the copy's docs.yaml removed: a project an export writes into.
 */
export async function startHandbookOnVariedOrganization(org: string): Promise<ProgramAgainstEmulator> {
  const started = await startProgram(HANDBOOK);
  const api = new ApiClient({ baseUrl: started.emu.url, token: started.emu.token });
  try {
    await buildVariedOrganization(api, org);
  } catch (e) {
    await stopProgram(started);
    throw e;
  } finally {
    await api.close();
  }
  fs.rmSync(path.join(started.program.dir, "docs.yaml"));
  return started;
}
