/**
 * The emulator under hostile requests, on every route it serves: malformed JSON, wrong content types,
 * oversized bodies, absurd `limit`/`page`, unknown routes, IDs with path characters and fuzzed bodies
 * all get a 4xx with the error body — never a 5xx, never a crash. Concurrent writers lose no update.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import type { RouteSpec } from "../../emulator/context";
import { registerAll } from "../../emulator/routes";
import { caller, listAll, type Call } from "../support/api";
import { describeReply, isErrorBody, rawRequest, type RawReply } from "./http";
import { LONG, tracked, type Outcome } from "./report";

const SEED = Number(process.env.RELIABILITY_SEED ?? 20250101);
const ORG = "/v1/orgs/demo-org";

interface RouteInfo {
  method: string;
  url: string;
  hasBody: boolean;
  /** Takes `limit` and `page`: a paged list. */
  paged: boolean;
  params: string[];
}

/** Every /v1 route of the emulator, read from its one registration list. */
const ROUTES: RouteInfo[] = (() => {
  const out: RouteInfo[] = [];
  registerAll(<P, Q, B>(spec: RouteSpec<P, Q, B>) => {
    out.push({
      method: spec.method,
      url: spec.url,
      hasBody: spec.body !== undefined,
      paged: Boolean((spec.query as { properties?: Record<string, unknown> } | undefined)?.properties?.["limit"]),
      params: [...spec.url.matchAll(/:(\w+)/g)].map((m) => m[1]!),
    });
  });
  return out;
})();
const WRITES = ROUTES.filter((r) => r.method !== "GET");
const LISTS = ROUTES.filter((r) => r.method === "GET" && r.paged);
/** Parameters that are looked up as values, not IDs: an unknown value finds nothing (200, empty list). */
const LOOKUP_PARAMS = new Set(["emailDomain"]);

/** IDs a path segment must survive: traversal, encoded slashes and NULs, malformed escapes, huge, unicode. */
const HOSTILE_IDS = [
  "..",
  "%2e%2e",
  "..%2F..%2Fetc%2Fpasswd",
  "a%2Fb",
  "%00",
  "%ZZ",
  "%",
  "%25",
  "%20",
  "__proto__",
  "constructor",
  "%F0%9F%91%8D",
  "%C3%28",
  "x".repeat(5000),
  "a;b=c",
  "%3Fq%3D1",
] as const;

let emu: RunningEmulator;
let admin: Call;

/** Creates one object of every kind and returns a value for every route parameter. */
async function makeFixtures(): Promise<Record<string, string>> {
  const created = async (method: string, path: string, body: unknown): Promise<string> => {
    const r = await admin<{ id: string }>(method, path, body);
    if (r.status !== 201 && r.status !== 200) throw new Error(`fixture ${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.id;
  };
  const siteId = await created("POST", `${ORG}/sites`, { title: "Hardening site" });
  const site = `${ORG}/sites/${siteId}`;
  const siteSectionId = await created("POST", `${site}/sections`, { spaceId: "space-guides", title: "Hardening section" });
  const siteSectionGroupId = await created("POST", `${site}/section-groups`, { title: "Hardening group" });
  const siteSpaceId = await created("POST", `${site}/site-spaces`, { spaceId: "space-api" });
  const shareLinkId = await created("POST", `${site}/share-links`, { name: "Hardening link" });
  const teamId = await created("PUT", `${ORG}/teams`, { title: "Hardening team" });
  const samlProviderId = await created("POST", `${ORG}/saml`, {
    label: "Hardening SSO",
    entityID: "urn:hardening",
    ssoURL: "https://sso.hardening.test/saml",
    certificate: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
  });
  await created("POST", `${ORG}/openapi`, { slug: "hardening", source: { url: "https://hardening.test/openapi.json" } });
  const versions = await listAll<{ id: string }>(admin, `${ORG}/openapi/hardening/versions`);
  const translationSettingsId = await created("POST", `${ORG}/translations`, { title: "Hardening translation" });
  const collectionId = await created("POST", `${ORG}/collections`, { title: "Hardening collection" });
  // Content, change requests and comments live on the space the routes below use.
  const space = "/v1/spaces/space-changelog";
  const changeRequestId = await created("POST", `${space}/change-requests`, { subject: "Hardening change" });
  const cr = `${space}/change-requests/${changeRequestId}`;
  // The import answers {revision, …}: read the pages and files it made from the change request's content.
  await created("POST", `${cr}/content/import`, { url: "https://hardening.test/docs/intro", source: "website" });
  const revision = (await admin<{ pages: { id: string }[]; files: { id: string }[] }>("GET", `${cr}/content`)).body;
  const commentId = await created("POST", `${space}/comments`, { page: revision.pages[0]!.id, body: { markdown: "Hardening comment" } });
  const commentReplyId = await created("POST", `${space}/comments/${commentId}/replies`, { body: { markdown: "Hardening reply" } });
  const crCommentId = await created("POST", `${cr}/comments`, { body: { markdown: "Hardening change comment" } });
  const crCommentReplyId = await created("POST", `${cr}/comments/${crCommentId}/replies`, { body: { markdown: "Hardening change reply" } });
  return {
    organizationId: "demo-org",
    inviteId: "invite-unknown",
    emailDomain: "demo.test",
    userId: "writer-1",
    teamId,
    spaceId: "space-changelog",
    collectionId,
    siteId,
    siteSectionId,
    siteSectionGroupId,
    siteSpaceId,
    shareLinkId,
    samlProviderId,
    specSlug: "hardening",
    versionId: versions[0]!.id,
    translationSettingsId,
    integrationName: "hardening-integration",
    changeRequestId,
    pageId: revision.pages[0]!.id,
    fileId: revision.files[0]!.id,
    commentId,
    commentReplyId,
    "cr:commentId": crCommentId,
    "cr:commentReplyId": crCommentReplyId,
  };
}

/** The fixture key of a route parameter: comments of a change request are not the space's. */
function paramKey(route: RouteInfo, name: string): string {
  return route.url.includes("/change-requests/") && (name === "commentId" || name === "commentReplyId") ? `cr:${name}` : name;
}

function fill(route: RouteInfo, params: Record<string, string>, override?: { name: string; raw: string }): string {
  return route.url.replace(/:(\w+)/g, (_m, name: string) =>
    override?.name === name ? override.raw : encodeURIComponent(params[paramKey(route, name)] ?? `unknown-${name}`),
  );
}

/** Fresh seed state and fixtures: a fuzzed write may have deleted what the next route needs. */
async function fresh(): Promise<Record<string, string>> {
  emu.control.reset();
  return makeFixtures();
}

/** Asserts the reply is a 4xx with the error body; returns a failure description instead of throwing. */
function check4xx(method: string, path: string, reply: RawReply, expected?: number): string | undefined {
  const ok = reply.status >= 400 && reply.status < 500 && isErrorBody(reply) && (expected === undefined || reply.status === expected);
  return ok ? undefined : describeReply(method, path, reply);
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  admin = caller(emu.url, emu.token);
});
afterAll(async () => {
  await emu?.close();
});

describe(`emulator hardening on all ${ROUTES.length} routes (seed ${SEED})`, () => {
  it("knows its routes", () => {
    expect(ROUTES.length).toBeGreaterThan(90);
    expect(WRITES.length).toBeGreaterThan(40);
    expect(LISTS.length).toBeGreaterThan(20);
  });

  it("answers IDs with path characters in every route parameter with a 4xx error body", async () => {
    await tracked("emulator", "IDs with path characters", async (o) => {
      const params = await fresh();
      const bad: string[] = [];
      o.cases = 0;
      for (const route of ROUTES) {
        for (const name of route.params) {
          for (const raw of HOSTILE_IDS) {
            const path = fill(route, params, { name, raw });
            const body = route.hasBody ? "{}" : undefined;
            const reply = await rawRequest(emu.url, route.method, path, {
              token: emu.token,
              ...(body === undefined ? {} : { body, headers: { "content-type": "application/json" } }),
            });
            o.cases++;
            if (LOOKUP_PARAMS.has(name) && route.method === "GET" && reply.status === 200) continue;
            const problem = check4xx(route.method, path, reply);
            if (problem) bad.push(problem);
          }
        }
      }
      expect(bad).toEqual([]);
    });
  });

  it("answers malformed JSON, a wrong content type and an oversized body on every write route with 400, 415 and 413", async () => {
    await tracked("emulator", "malformed JSON, wrong content type, oversized body", async (o) => {
      const params = await fresh();
      const bad: string[] = [];
      const huge = JSON.stringify({ title: "x".repeat(1024 * 1024 + 16) });
      o.cases = 0;
      for (const route of WRITES) {
        const path = fill(route, params);
        const attempts: [string, string, Record<string, string>, number][] = [
          ["malformed JSON", '{"title": "unterminated', { "content-type": "application/json" }, 400],
          ["JSON of the wrong shape", "[[[[", { "content-type": "application/json" }, 400],
          ["text/plain", "title=x", { "content-type": "text/plain" }, 415],
          ["form data", "title=x", { "content-type": "application/x-www-form-urlencoded" }, 415],
          ["no content type", "{}", {}, 415],
          ["oversized", huge, { "content-type": "application/json" }, 413],
        ];
        for (const [label, body, headers, status] of attempts) {
          const reply = await rawRequest(emu.url, route.method, path, { token: emu.token, body, headers });
          o.cases++;
          const problem = check4xx(route.method, path, reply, status);
          if (problem) bad.push(`${label}: ${problem}`);
        }
      }
      expect(bad).toEqual([]);
    });
  });

  it("answers absurd limit and page values on every list route with a 4xx error body", async () => {
    await tracked("emulator", "absurd limit and page", async (o) => {
      const params = await fresh();
      const queries = [
        "limit=0", "limit=-1", "limit=1001", "limit=1e309", "limit=NaN", "limit=abc", "limit=1.5", "limit=99999999999999999999",
        "limit=", "limit=%00", "limit=1&limit=2", "page=garbage", `page=${"A".repeat(5000)}`, "page=%ZZ",
        `page=${Buffer.from(JSON.stringify({ offset: -1 })).toString("base64url")}`,
        `page=${Buffer.from(JSON.stringify({ o: 1e12, k: "sites" })).toString("base64url")}`, "page=null", "page=&page=x",
      ];
      const bad: string[] = [];
      o.cases = 0;
      for (const route of LISTS) {
        for (const q of queries) {
          const path = `${fill(route, params)}?${q}`;
          const reply = await rawRequest(emu.url, "GET", path, { token: emu.token });
          o.cases++;
          const problem = check4xx("GET", path, reply);
          if (problem) bad.push(problem);
        }
      }
      expect(bad).toEqual([]);
    });
  });

  it("answers unknown routes and unknown methods with a 4xx error body", async () => {
    await tracked("emulator", "unknown routes and methods", async (o) => {
      const params = await fresh();
      const bad: string[] = [];
      o.cases = 0;
      const segment = fc.oneof(fc.webSegment(), fc.constantFrom(...HOSTILE_IDS), fc.constantFrom("sites", "orgs", "v1", "teams", "demo-org"));
      const paths = fc.sample(
        fc.tuple(fc.constantFrom("/v1/", "/v1/orgs/demo-org/", "/v2/", "/", "/v1//"), fc.array(segment, { minLength: 1, maxLength: 6 })),
        { numRuns: LONG ? 2000 : 300, seed: SEED },
      );
      for (const [prefix, segs] of paths) {
        const path = prefix + segs.join("/");
        const reply = await rawRequest(emu.url, "GET", path, { token: emu.token });
        o.cases++;
        // A generated path can name a real route (`/v1/orgs/demo-org/sites`): those answer as they should.
        if (reply.status >= 500 || (reply.status >= 400 && !isErrorBody(reply))) bad.push(describeReply("GET", path, reply));
      }
      for (const route of ROUTES) {
        for (const method of ["PUT", "PATCH", "DELETE", "POST", "OPTIONS", "TRACE"]) {
          if (ROUTES.some((r) => r.url === route.url && r.method === method)) continue;
          const path = fill(route, params);
          const reply = await rawRequest(emu.url, method, path, { token: emu.token });
          o.cases++;
          const problem = check4xx(method, path, reply);
          if (problem) bad.push(problem);
        }
      }
      expect(bad).toEqual([]);
    });
  });

  it("never answers a fuzzed JSON body or query with a 5xx, on every route", async () => {
    await tracked("emulator", "fuzzed bodies and queries", async (o) => {
      o.seeds = [SEED];
      const perRoute = LONG ? 60 : 12;
      const bad: string[] = [];
      o.cases = 0;
      const value = fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.string({ unit: "grapheme", maxLength: 300 }),
        fc.constantFrom("", "x".repeat(10_000), "../..", "space-guides", "demo-org", "writer-1", "public", "\u0000", -1, 1e308),
      );
      const body = fc.oneof(
        fc.dictionary(
          fc.oneof(fc.constantFrom("title", "name", "spaceId", "path", "position", "after", "before", "source", "url", "add", "remove", "role", "members", "parent", "visibility", "__proto__"), fc.string({ maxLength: 8 })),
          value,
          { maxKeys: 5 },
        ),
        fc.jsonValue({ maxDepth: 2 }),
      );
      for (const route of ROUTES) {
        const params = await fresh();
        const cases = fc.sample(fc.tuple(body, fc.dictionary(fc.constantFrom("limit", "page", "title", "role", "owner", "published", "space", "q"), fc.string({ maxLength: 20 }), { maxKeys: 3 })), {
          numRuns: perRoute,
          seed: SEED + o.cases,
        });
        for (const [b, q] of cases) {
          const query = new URLSearchParams(q).toString();
          const path = `${fill(route, params)}${query ? `?${query}` : ""}`;
          const text = JSON.stringify(b) ?? "null";
          const reply = await rawRequest(emu.url, route.method, path, {
            token: emu.token,
            ...(route.method === "GET" ? {} : { body: text, headers: { "content-type": "application/json" } }),
          });
          o.cases++;
          if (reply.status >= 500 || reply.status === 0 || (reply.status >= 400 && !isErrorBody(reply))) {
            bad.push(`${describeReply(route.method, path, reply)} with body ${text.slice(0, 200)}`);
          }
        }
      }
      // Still serving after all of it.
      expect((await admin("GET", ORG)).status).toBe(200);
      expect(bad).toEqual([]);
    });
  });

  it("loses no update from concurrent writers", async () => {
    await tracked("emulator", "concurrent writers", async (o: Outcome) => {
      const params = await fresh();
      const site = `${ORG}/sites/${params.siteId}`;
      const n = LONG ? 200 : 48;
      o.cases = 0;
      o.lostWrites = 0;
      // Many creates under one parent at once: every acknowledged one is listed, none twice.
      const links = await Promise.all(
        Array.from({ length: n }, (_, i) => admin<{ id: string }>("POST", `${site}/share-links`, { name: `Concurrent ${i}` })),
      );
      const sections = await Promise.all(
        Array.from({ length: n / 4 }, (_, i) => admin<{ id: string }>("POST", `${site}/sections`, { spaceId: "space-api", title: `Concurrent section ${i}` })),
      );
      const teams = await Promise.all(Array.from({ length: n }, (_, i) => admin<{ id: string }>("PUT", `${ORG}/teams`, { title: `Concurrent team ${i}` })));
      o.cases += links.length + sections.length + teams.length;
      const ackedLinks = links.filter((r) => r.status === 201).map((r) => r.body.id);
      const ackedSections = sections.filter((r) => r.status === 201).map((r) => r.body.id);
      const ackedTeams = teams.filter((r) => r.status === 201).map((r) => r.body.id);
      expect(ackedLinks).toHaveLength(n);
      expect(ackedSections).toHaveLength(n / 4);
      expect(ackedTeams).toHaveLength(n);
      const liveLinks = (await listAll<{ id: string }>(admin, `${site}/share-links`)).map((l) => l.id);
      const liveSections = (await listAll<{ id: string }>(admin, `${site}/sections`)).map((s) => s.id);
      const liveTeams = (await listAll<{ id: string }>(admin, `${ORG}/teams`)).map((t) => t.id);
      for (const [acked, live] of [[ackedLinks, liveLinks], [ackedSections, liveSections], [ackedTeams, liveTeams]] as const) {
        o.lostWrites += acked.filter((id) => !live.includes(id)).length;
        expect(new Set(live).size).toBe(live.length);
      }

      // Concurrent change requests on one space get distinct numbers; concurrent comments are all listed and counted.
      const space = "/v1/spaces/space-api";
      const crs = await Promise.all(Array.from({ length: n / 4 }, (_, i) => admin<{ number: number }>("POST", `${space}/change-requests`, { subject: `Concurrent ${i}` })));
      const posted = await Promise.all(Array.from({ length: n }, (_, i) => admin<{ id: string }>("POST", `${space}/comments`, { body: { markdown: `Concurrent ${i}` } })));
      o.cases += crs.length + posted.length;
      expect(crs.map((r) => r.body.number).sort((a, b) => a - b)).toEqual(Array.from({ length: n / 4 }, (_, i) => i + 1));
      const liveComments = (await listAll<{ id: string }>(admin, `${space}/comments`)).map((c) => c.id);
      o.lostWrites += posted.filter((r) => r.status !== 200 || !liveComments.includes(r.body.id)).length;
      expect((await admin<{ comments: number; changeRequestsDraft: number }>("GET", space)).body).toMatchObject({ comments: n, changeRequestsDraft: n / 4 });

      // Concurrent updates of different fields and members of the same objects: every one lands.
      const team = ackedTeams[0]!;
      const patches = await Promise.all([
        admin("PATCH", site, { title: "Renamed concurrently" }),
        admin("PATCH", site, { visibility: "unlisted" }),
        admin("PATCH", site, { agentsContext: "included" }),
        admin("PUT", `${ORG}/teams/${team}/members/writer-1`, { role: "owner" }),
        admin("PUT", `${ORG}/teams/${team}/members/reader-1`, { role: "member" }),
        admin("PUT", `${ORG}/teams/${team}/members/demo-admin`, { role: "member" }),
        ...ackedLinks.slice(0, 10).map((id, i) => admin("PATCH", `${site}/share-links/${id}`, { name: `Patched ${i}` })),
        // Reactions of both commenting users of the fixture on one comment at once.
        ...[emu.token, "writer-token"].map((t) => caller(emu.url, t)("PUT", `${space}/comments/${posted[0]!.body.id}`, { addedReactions: ["👍"] })),
      ]);
      o.cases += patches.length;
      for (const p of patches) expect(p.status, JSON.stringify(p.body)).toBeLessThan(300);
      const liveSite = (await admin<{ title: string; visibility: string; agentsContext: string }>("GET", site)).body;
      const expectations: [unknown, unknown][] = [
        [liveSite.title, "Renamed concurrently"],
        [liveSite.visibility, "unlisted"],
        [liveSite.agentsContext, "included"],
      ];
      const members = await listAll<{ organization: { id: string }; team: { role: string } }>(admin, `${ORG}/teams/${team}/members`);
      const roles = Object.fromEntries(members.map((m) => [m.organization.id, m.team.role]));
      expectations.push([roles["writer-1"], "owner"], [roles["reader-1"], "member"], [roles["demo-admin"], "member"]);
      const names = new Map((await listAll<{ id: string; name: string }>(admin, `${site}/share-links`)).map((l) => [l.id, l.name]));
      ackedLinks.slice(0, 10).forEach((id, i) => expectations.push([names.get(id), `Patched ${i}`]));
      const reacted = (await admin<{ reactions: { emoji: string; count: number }[] }>("GET", `${space}/comments/${posted[0]!.body.id}`)).body.reactions;
      expectations.push([reacted[0]?.count, 2]);
      o.lostWrites += expectations.filter(([got, want]) => got !== want).length;
      expect(expectations.map(([got]) => got)).toEqual(expectations.map(([, want]) => want));
      expect(o.lostWrites).toBe(0);
    });
  });
});
