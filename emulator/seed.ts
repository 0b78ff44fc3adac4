/** The emulator's starting data: the default fixture, seed files (YAML or JSON) and their conversion into rows. */
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { parse as parseYaml } from "yaml";
import { ROLES, type PageNode, type Role, type TableName, type TableRows, type SpaceVisibility, type TeamRole } from "./model";
import { stableId } from "./ids";
import { dedupeSlugs, slugify } from "./slug";

export interface SeedUser {
  id: string;
  email: string;
  displayName?: string;
  photoURL?: string;
}
export interface SeedMember {
  user: string;
  role: Role | null;
}
/** A page of a seeded space's content; `id` defaults to one derived from the space and the page's path. */
export interface SeedPage {
  id?: string;
  title: string;
  slug?: string;
  emoji?: string;
  description?: string;
  /** Links: `/a/b` (a page path), `file:<fileId>`, `http(s)://…`. */
  markdown?: string;
  pages?: SeedPage[];
}
/** A file of a seeded space's content. */
export interface SeedFile {
  id: string;
  name: string;
  contentType?: string;
  size?: number;
  width?: number;
  height?: number;
}
export interface SeedSpace {
  id: string;
  title: string;
  emoji?: string;
  visibility?: SpaceVisibility;
  parent?: string;
  /** The page tree of the space's current revision. */
  pages?: SeedPage[];
  files?: SeedFile[];
  /** `styleguide`: a style guide space of the organisation (made for no site); absent: a content space. */
  type?: "styleguide";
}
export interface SeedCollection {
  id: string;
  title: string;
  description?: string;
  parent?: string;
}
export interface SeedTeam {
  id?: string;
  title: string;
  members?: { user: string; role?: TeamRole }[];
}
/** An empty site (no structure, unpublished, public once published). */
export interface SeedSite {
  id: string;
  title: string;
}
export interface SeedOrganization {
  id: string;
  title: string;
  emailDomains?: string[];
  hostname?: string;
  members: SeedMember[];
  spaces?: SeedSpace[];
  collections?: SeedCollection[];
  teams?: SeedTeam[];
  sites?: SeedSite[];
  invites?: string[];
}
export interface SeedIntegration {
  name: string;
  title: string;
  description?: string;
  owner: string;
  visibility?: string;
  target?: string;
  scopes?: string[];
  categories?: string[];
  /** Organizations where it is installed. */
  installedIn?: string[];
}
/** A seed: users, the tokens that act as them, organizations with their members and content. */
export interface Seed {
  users: SeedUser[];
  /** token → user ID */
  tokens: Record<string, string>;
  organizations: SeedOrganization[];
  integrations?: SeedIntegration[];
}

/** The default fixture (see the emulator's README): `dev-token` acts as `demo-admin`, `reader-token` as `reader-1`. */
export function defaultSeed(): Seed {
  return {
    users: [
      { id: "demo-admin", email: "admin@demo.test", displayName: "Demo Admin" },
      { id: "writer-1", email: "writer@demo.test", displayName: "Writer One" },
      { id: "reader-1", email: "reader@demo.test", displayName: "Reader One" },
    ],
    tokens: { "dev-token": "demo-admin", "writer-token": "writer-1", "reader-token": "reader-1" },
    organizations: [
      {
        id: "demo-org",
        title: "Demo Org",
        emailDomains: ["demo.test"],
        members: [
          { user: "demo-admin", role: "admin" },
          { user: "writer-1", role: "edit" },
          { user: "reader-1", role: "read" },
        ],
        spaces: [
          {
            id: "space-guides",
            title: "Guides",
            emoji: "📘",
            pages: [
              {
                title: "Getting started",
                markdown: "# Getting started\n\nStart with [Installation](/getting-started/installation), then [Configuration](/getting-started/configuration).\n\n![Architecture](file:file-guides-architecture)\n",
                pages: [
                  { title: "Installation", markdown: "# Installation\n\nInstall [Node.js](https://nodejs.org/) 20 or later, then the CLI.\n" },
                  { title: "Configuration", markdown: "# Configuration\n\nSet the token as in [Installation](/getting-started/installation). The [old page](/getting-started/setup) is gone.\n" },
                ],
              },
              { title: "FAQ", markdown: "# FAQ\n\nAsk in [the app](https://app.docsplatform.dev/s/space-guides).\n" },
            ],
            files: [{ id: "file-guides-architecture", name: "architecture.png", contentType: "image/png", size: 48213, width: 1200, height: 800 }],
          },
          {
            id: "space-api",
            title: "API Reference",
            emoji: "🧩",
            pages: [
              { title: "Overview", markdown: "# Overview\n\nEvery path starts with `/v1`. See [Authentication](/authentication).\n" },
              { title: "Authentication", markdown: "# Authentication\n\nSend `Authorization: Bearer <token>` with every request.\n" },
            ],
          },
          {
            id: "space-changelog",
            title: "Changelog",
            emoji: "📰",
            pages: [{ title: "Releases", markdown: "# Releases\n\nRelease notes, newest first.\n" }],
          },
        ],
      },
    ],
  };
}

/** Reads a seed file (`.json`, or YAML otherwise) and checks its shape. */
export function loadSeedFile(file: string): Seed {
  const text = readFileSync(file, "utf8");
  let data: unknown;
  try {
    data = file.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new Error(`seed ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return checkSeed(data, file);
}

/** Resolves a seed option: a path, an object, or the default fixture. */
export function resolveSeed(seed: string | Seed | undefined): Seed {
  if (seed === undefined) return defaultSeed();
  if (typeof seed === "string") return loadSeedFile(seed);
  return checkSeed(seed, "seed");
}

function fail(where: string, message: string): never {
  throw new Error(`${where}: ${message}`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function str(v: unknown, where: string): string {
  if (typeof v !== "string" || v.length === 0) fail(where, "must be a non-empty string");
  return v;
}

function arr(v: unknown, where: string): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(where, "must be a list");
  return v;
}

/** Checks a seed's shape and references, naming the first problem. */
export function checkSeed(data: unknown, where: string): Seed {
  if (!isRecord(data)) fail(where, "must be an object with users, tokens and organizations");
  const users = arr(data.users, `${where}.users`).map((u, i) => {
    const w = `${where}.users[${i}]`;
    if (!isRecord(u)) fail(w, "must be an object");
    return {
      id: str(u.id, `${w}.id`),
      email: str(u.email, `${w}.email`),
      ...(u.displayName !== undefined ? { displayName: str(u.displayName, `${w}.displayName`) } : {}),
      ...(u.photoURL !== undefined ? { photoURL: str(u.photoURL, `${w}.photoURL`) } : {}),
    };
  });
  const userIds = new Set(users.map((u) => u.id));
  if (!isRecord(data.tokens)) fail(`${where}.tokens`, "must map tokens to user IDs");
  const tokens: Record<string, string> = {};
  for (const [token, user] of Object.entries(data.tokens)) {
    const u = str(user, `${where}.tokens`);
    if (!userIds.has(u)) fail(`${where}.tokens`, `a token maps to unknown user '${u}'`);
    tokens[token] = u;
  }
  const orgs = arr(data.organizations, `${where}.organizations`).map((o, i) => {
    const w = `${where}.organizations[${i}]`;
    if (!isRecord(o)) fail(w, "must be an object");
    const members = arr(o.members, `${w}.members`).map((m, j) => {
      if (!isRecord(m)) fail(`${w}.members[${j}]`, "must be an object");
      const user = str(m.user, `${w}.members[${j}].user`);
      if (!userIds.has(user)) fail(`${w}.members[${j}].user`, `unknown user '${user}'`);
      const role = m.role === undefined ? "read" : m.role;
      if (role !== null && !ROLES.includes(role as Role)) fail(`${w}.members[${j}].role`, `must be one of ${ROLES.join(", ")} or null`);
      return { user, role: role as Role | null };
    });
    return { ...(o as unknown as SeedOrganization), id: str(o.id, `${w}.id`), title: str(o.title, `${w}.title`), members };
  });
  const integrations = arr(data.integrations, `${where}.integrations`).map((g, i) => {
    const w = `${where}.integrations[${i}]`;
    if (!isRecord(g)) fail(w, "must be an object");
    str(g.name, `${w}.name`);
    str(g.title, `${w}.title`);
    const owner = str(g.owner, `${w}.owner`);
    if (!orgs.some((o) => o.id === owner)) fail(`${w}.owner`, `unknown organization '${owner}'`);
    return g as unknown as SeedIntegration;
  });
  return { users, tokens, organizations: orgs, integrations };
}

/** A random opaque ID. */
export function newId(prefix = ""): string {
  return prefix + randomBytes(9).toString("base64url").replace(/[-_]/g, "x");
}

type Rows = { [K in TableName]: TableRows[K][] };

/** Seed pages as stored page nodes; IDs default to a hash of the space and the page's path. */
function seedPages(spaceId: string, parentPath: string, pages: SeedPage[], now: string): PageNode[] {
  return pages.map((p, i) => {
    if (!isRecord(p) || typeof p.title !== "string" || p.title === "") fail(`seed space ${spaceId}: pages`, "every page needs a non-empty title");
    const slug = p.slug ?? (slugify(p.title, `page-${i + 1}`));
    const path = parentPath ? `${parentPath}/${slug}` : slug;
    return {
      id: p.id ?? stableId("page-", spaceId, path),
      title: p.title,
      slug,
      emoji: p.emoji ?? null,
      description: p.description ?? null,
      markdown: p.markdown ?? "",
      createdAt: now,
      updatedAt: now,
      pages: seedPages(spaceId, path, Array.isArray(p.pages) ? p.pages : [], now),
    };
  });
}

/** Converts a seed into table rows, all timestamped `now`. */
export function seedRows(seed: Seed, now: string): Rows {
  const rows: Rows = {
    users: [], orgs: [], members: [], teams: [], collections: [], spaces: [], sites: [], sections: [],
    sectionGroups: [], siteSpaces: [], externalLinks: [], shareLinks: [], samlProviders: [], openapiSpecs: [], translations: [],
    integrations: [], installations: [], targetInstallations: [], grants: [], publishingAuth: [], gitInstallations: [], gitSiteFiles: [], revisions: [], changeRequests: [], comments: [], commentReplies: [],
    redirects: [], mcpServers: [], agentSettings: [], channels: [], contextConnections: [],
  };
  for (const u of seed.users) {
    rows.users.push({ id: u.id, email: u.email, displayName: u.displayName ?? u.id, photoURL: u.photoURL ?? null });
  }
  for (const o of seed.organizations) {
    rows.orgs.push({
      id: o.id, title: o.title, createdAt: now, emailDomains: o.emailDomains ?? [], hostname: o.hostname ?? null,
      type: "business", useCase: null, communityType: null, defaultRole: null, defaultContent: null, logo: null,
      sso: false, ai: false, inviteLinks: true, plan: "free_2024", invites: o.invites ?? [],
    });
    for (const m of o.members) {
      rows.members.push({ id: `${o.id}:${m.user}`, org: o.id, user: m.user, role: m.role, disabled: false, joinedAt: now, lastSeenAt: null, sso: false });
    }
    for (const c of o.collections ?? []) {
      rows.collections.push({ id: c.id, org: o.id, title: c.title, description: c.description ?? null, parent: c.parent ?? null, defaultLevel: null, createdAt: now, updatedAt: now });
    }
    for (const s of o.spaces ?? []) {
      const revision = newId("rev-");
      rows.spaces.push({
        id: s.id, org: o.id, title: s.title, emoji: s.emoji ?? "", visibility: s.visibility ?? (s.parent ? "in-collection" : "private"),
        createdAt: now, updatedAt: now, deletedAt: null, editMode: "live", parent: s.parent ?? null, defaultLevel: null,
        revision, comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0,
        ...(s.type === "styleguide" ? { type: "styleguide" as const } : {}),
      });
      rows.revisions.push({
        id: revision, space: s.id, parents: [], type: "edits", createdAt: now, createdBy: null,
        pages: dedupeSlugs(seedPages(s.id, "", s.pages ?? [], now)),
        files: (s.files ?? []).map((f) => ({
          id: f.id, name: f.name, contentType: f.contentType ?? "application/octet-stream", size: f.size ?? 0, width: f.width ?? null, height: f.height ?? null,
        })),
      });
    }
    for (const site of o.sites ?? []) {
      rows.sites.push({
        id: site.id, org: o.id, title: site.title, type: "basic", visibility: "public", published: false, hostname: null, basename: null,
        proxy: null, adaptiveContent: { enabled: false }, agentsContext: "excluded", createdAt: now, updatedAt: now,
        structure: [], rootSiteSpaces: [], defaultSection: null, defaultSiteSpace: null, adaptiveSchema: null,
      });
    }
    for (const t of o.teams ?? []) {
      rows.teams.push({
        id: t.id ?? newId("team-"), org: o.id, title: t.title, createdAt: now,
        members: (t.members ?? []).map((m) => ({ user: m.user, role: m.role ?? "member" })),
      });
    }
  }
  for (const g of seed.integrations ?? []) {
    rows.integrations.push({
      id: g.name, owner: g.owner, version: 1, runtime: "v1", title: g.title, description: g.description ?? "", summary: null, icon: null,
      previewImages: [], target: g.target ?? "all", visibility: g.visibility ?? "public", scopes: g.scopes ?? [], categories: g.categories ?? [],
      blocks: [], contentSources: [], externalLinks: [], configurations: {}, contentSecurityPolicy: null, secretNames: [], verified: false,
      createdAt: now, updatedAt: now,
    });
    for (const org of g.installedIn ?? []) {
      rows.installations.push({
        id: newId("inst-"), integration: g.name, org, externalIds: [], createdAt: now, updatedAt: now,
        status: "active", spaceSelection: "selected", siteSelection: "selected", configuration: {},
      });
    }
  }
  return rows;
}
