/**
 * `pulumi preview` of the handbook through the engine harness: the members, spaces and teams a new or
 * changed object names are looked up read-only while the provider checks its inputs, so a mistyped
 * e-mail or a wrong space ID fails the preview (before any write) at its `file:line:col`, instead of the
 * `up` after the merge; a preview with nothing changed makes no call. The lookups are the preview's
 * (the component asks for them with a reserved input only then): an `up` makes none, and its state never
 * holds that input.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator, SavedRows } from "../../emulator";
import type { PreparedProgram, ProgramRunner, Registration } from "../../test/harness";
import { startProgram, stopProgram } from "../../test/support/program";
import { changes, writes } from "../../test/support/steps";
import { REFERENCES_INPUT } from "../resources/references";

/** `docs.yaml:line:col` of the first `needle` in `text`, counted from the text itself. */
function located(text: string, needle: string): string {
  const offset = text.indexOf(needle);
  if (offset < 0) throw new Error(`${needle} is not in the file`);
  const before = text.slice(0, offset);
  return `docs.yaml:${before.split("\n").length}:${offset - before.lastIndexOf("\n")}`;
}

/** The text of the YAML scalar at `docs.yaml:line:col` of `text` (up to a flow delimiter or the line's end). */
function scalarAt(text: string, location: string): string {
  const [, line, col] = /:(\d+):(\d+)$/.exec(location)!;
  return text.split("\n")[Number(line) - 1]!.slice(Number(col) - 1).split(/[,}\]#]/)[0]!.trim();
}

/** The routes the lookups read: the organisation's members (one walk), a space, a team. */
const LOOKUP_ROUTES = ["/v1/orgs/:organizationId/members", "/v1/spaces/:spaceId", "/v1/orgs/:organizationId/teams/:teamId"];
const lookups = (calls: { method: string; route: string }[]) => calls.filter((c) => c.method === "GET" && LOOKUP_ROUTES.includes(c.route));

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook");
/** The developer portal's site file, as locations name it. */
const SITE_FILE = "developer-portal/gitbook-docs.yaml";

describe("preview looks up what new or changed objects refer to", { timeout: 180_000 }, () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  let original: string;
  /** The platform and the state as the first `up` left them: a row whose `up` changed them puts both back. */
  let deployed: { rows: SavedRows; state: Buffer };
  const restoreDeployed = (): void => {
    fs.writeFileSync(docs(), original);
    emu.control.restore(deployed.rows);
    fs.writeFileSync(runner.stateFile, deployed.state);
  };
  const docs = () => path.join(program.dir, "docs.yaml");

  beforeAll(async () => {
    // Every command a fresh plugin, as each `pulumi` command starts one.
    ({ emu, program, runner } = await startProgram(HANDBOOK, { runner: { pluginPerRun: true } }));
    await runner.up();
    original = fs.readFileSync(docs(), "utf8");
    deployed = { rows: emu.control.save(), state: fs.readFileSync(runner.stateFile) };
  });
  afterAll(() => stopProgram({ emu, program, runner }));

  it("a preview locates every reference, makes no call when nothing changed, and the reserved input shows as no change", async () => {
    const sent: Registration[] = [];
    const preview = await runner.preview({ onRegister: (reg) => sent.push(reg) });
    expect(preview.apiCalls).toEqual([]);
    expect(changes(preview)).toEqual([]);
    // Every reference the handbook makes, located at its value as written (an `{id: …}` at its id, a
    // section's shorthand `space` for the section and its site space), the file named as the user named it.
    const carried = sent.filter((r) => r.object[REFERENCES_INPUT] !== undefined).map((r) => [`${r.type.slice(r.type.lastIndexOf(":") + 1)} ${r.name}`, r.object[REFERENCES_INPUT] as Record<string, string>] as const);
    // The developer portal's from its site file: a space node's key, or docs.yaml's structure.spaces mapping.
    for (const [, at] of carried) for (const loc of Object.values(at)) expect(loc).toMatch(/^(docs\.yaml|developer-portal\/gitbook-docs\.yaml):\d+:\d+$/);
    const siteFile = fs.readFileSync(path.join(program.dir, SITE_FILE), "utf8");
    const written = (loc: string): string => scalarAt(loc.startsWith(SITE_FILE) ? siteFile : original, loc);
    expect(Object.fromEntries(carried.map(([r, at]) => [r, Object.fromEntries(Object.entries(at).map(([p, loc]) => [p, written(loc)]))]))).toEqual({
      "MemberRole handbook/member/writer@demo.test": { userId: "writer@demo.test" },
      "MemberRole handbook/member/reader-1": { userId: "reader-1" },
      "TeamMembers handbook/docs-team/members": { "members[0].user": "admin@demo.test", "members[1].user": "writer-1" },
      "TeamMembers handbook/reviewers/members": { "members[0].user": "reader@demo.test" },
      "SamlProvider handbook/okta": { defaultTeam: "docs-team" },
      "Permissions handbook/site/partner-portal": { "grants[0].user": "reader@demo.test" },
      "Space handbook/guides": { spaceId: "space-guides" },
      "Space handbook/api": { spaceId: "space-api" },
      "Space handbook/changelog": { spaceId: "space-changelog" },
      "SiteSection handbook/handbook/guides": { spaceId: "guides" },
      "SiteSection handbook/handbook/api": { spaceId: "api" },
      "SiteSection handbook/handbook/changelog": { spaceId: "changelog" },
      "SiteSection handbook/handbook/whats-new": { spaceId: "whats-new" },
      "SiteSpace handbook/handbook/guides": { spaceId: "guides" },
      "SiteSpace handbook/handbook/api-v1": { spaceId: "api" },
      "SiteSpace handbook/handbook/api-changes": { spaceId: "space-changelog" },
      "SiteSpace handbook/handbook/changelog": { spaceId: "changelog" },
      "SiteSpace handbook/handbook/whats-new": { spaceId: "whats-new" },
      "SiteSpace handbook/partner-preview/preview-guides": { spaceId: "guides" },
      "SiteSpace handbook/partner-preview/preview-changelog": { spaceId: "changelog" },
      "SiteSpace handbook/partner-portal/partner-guides": { spaceId: "guides" },
      "SiteSection handbook/developer-portal/portal-start": { spaceId: "guides" },
      "SiteSection handbook/developer-portal/portal-api": { spaceId: "api" },
      "SiteSpace handbook/developer-portal/guides": { spaceId: "guides" },
      "SiteSpace handbook/developer-portal/portal-api-v1": { spaceId: "api" },
      "SiteSpace handbook/developer-portal/portal-changes": { spaceId: "changelog" },
    });
  });

  it("a team member's mistyped e-mail fails the preview, naming it, with read-only calls", async () => {
    const text = original.replace("      - user: reader@demo.test\n", "      - user: wrtier@demo.test\n");
    fs.writeFileSync(docs(), text);
    try {
      const preview = await runner.preview({ allowError: true });
      expect(preview.error?.message).toContain(`${located(text, "wrtier@demo.test")}: members[0].user: "wrtier@demo.test" is not a member of organization demo-org`);
      expect(lookups(preview.apiCalls).length).toBeGreaterThan(0);
      expect(preview.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
    } finally {
      fs.writeFileSync(docs(), original);
    }
  });

  it("a new site space on a space that does not exist fails the preview, naming the space", async () => {
    const text = original.replace("          - key: api-changes\n", "          - key: api-old\n            space: {id: space-nope}\n            path: old\n          - key: api-changes\n");
    fs.writeFileSync(docs(), text);
    try {
      const preview = await runner.preview({ allowError: true });
      expect(preview.error?.message).toContain(`${located(text, "space-nope")}: spaceId: no space "space-nope" exists`);
      expect(lookups(preview.apiCalls).length).toBeGreaterThan(0);
      expect(preview.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
    } finally {
      fs.writeFileSync(docs(), original);
    }
  });

  it("a grant to a user who is not a member of the organisation fails the preview at the user, with one walk of the members", async () => {
    // Issue #33: it used to pass the preview, and `up` failed on the invite's 404.
    const text = original.replace("      - { user: reader@demo.test, role: read }\n", "      - { user: reader@demo.test, role: read }\n      - { user: nobody@demo.test, role: read }\n");
    fs.writeFileSync(docs(), text);
    try {
      const preview = await runner.preview({ allowError: true });
      expect(preview.error?.message).toContain(`${located(text, "nobody@demo.test")}: grants[1].user: "nobody@demo.test" is not a member of organization demo-org`);
      expect(lookups(preview.apiCalls).map((c) => c.route)).toEqual(["/v1/orgs/:organizationId/members"]);
      expect(preview.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
    } finally {
      fs.writeFileSync(docs(), original);
    }
  });

  const PAGES_ROUTE = "/v1/spaces/:spaceId/content/pages";
  const withRedirects = (...lines: string[]) => original.replace("    sections:\n", `    redirects:\n${lines.map((l) => `      - ${l}\n`).join("")}    sections:\n`);

  it("a redirect to a page path its site space's space does not have fails the preview at the path, with one read per space", async () => {
    // Issue #33: it used to pass the preview, and `up` failed on the platform's refusal of the whole set, unlocated.
    const text = withRedirects(
      "{ source: /install, destination: { siteSpace: guides, page: getting-started/instalation } }",
      "{ source: /faq-old, destination: { siteSpace: guides, page: faq } }",
    );
    fs.writeFileSync(docs(), text);
    try {
      const preview = await runner.preview({ allowError: true });
      expect(preview.error?.message).toContain(`${located(text, "getting-started/instalation")}: redirects[0].destination: no page at "getting-started/instalation" in space space-guides`);
      expect(preview.error?.message).not.toContain("redirects[1]");
      expect(preview.apiCalls.filter((c) => c.route === PAGES_ROUTE)).toHaveLength(1);
      expect(preview.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);

      // The path as the space has it passes, with the same one read.
      fs.writeFileSync(docs(), text.replace("getting-started/instalation", "getting-started/installation"));
      const fixed = await runner.preview();
      expect(changes(fixed)).toEqual(["create SiteRedirects handbook/handbook"]);
      expect(fixed.apiCalls.filter((c) => c.route === PAGES_ROUTE)).toHaveLength(1);
    } finally {
      fs.writeFileSync(docs(), original);
    }
  });

  const AUTH_ROUTE = "/v1/orgs/:organizationId/sites/:siteId/publishing/auth";
  const PARTNER_SIGN_IN = "    visitorAuth:\n      fallbackURL: https://partners.demo.test/login\n";
  const withIntegrationSignIn = (text: string) => text.replace(PARTNER_SIGN_IN, "    visitorAuth:\n      backend: integration\n      fallbackURL: https://partners.demo.test/login\n");

  it("a sign-in by integration on a site with none enabled fails the preview at the site, naming its key, with one read", async () => {
    // Issue #33: it used to pass the preview, and `up` failed on the platform's 400 naming the site's ID.
    const text = withIntegrationSignIn(original);
    fs.writeFileSync(docs(), text);
    try {
      const preview = await runner.preview({ allowError: true });
      expect(preview.error?.message).toContain(`${located(text, "key: partner-portal")}: site partner-portal: backend: visitors would sign in through an integration, and no integration is enabled on the site`);
      expect(preview.apiCalls.filter((c) => c.route === AUTH_ROUTE).map((c) => c.method)).toEqual(["GET"]);
      expect(preview.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
    } finally {
      fs.writeFileSync(docs(), original);
    }
  });

  it("a new site signing in by integration with none enabled by the file fails the preview without a read (a new site has none)", async () => {
    const site = "  - key: members\n    title: Members\n    visibility: visitor-auth\n    siteSpaces:\n      - key: members-guides\n        space: guides\n        path: guides\n    visitorAuth:\n      backend: integration\n\n";
    const text = original.replace("# Installed on the organisation", `${site}# Installed on the organisation`);
    fs.writeFileSync(docs(), text);
    try {
      const preview = await runner.preview({ allowError: true });
      expect(preview.error?.message).toContain(`${located(text, "key: members\n")}: site members: backend: visitors would sign in through an integration, and no integration is enabled on the site`);
      expect(preview.apiCalls.filter((c) => c.route === AUTH_ROUTE)).toEqual([]);
      expect(preview.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
    } finally {
      fs.writeFileSync(docs(), original);
    }
  });

  it("a sign-in by integration the file enables on the site looks nothing up, and `up` enables the integration before switching the backend", async () => {
    const text = withIntegrationSignIn(original).replace("    sites: [handbook]\n", "    sites: [handbook, partner-portal]\n");
    fs.writeFileSync(docs(), text);
    try {
      const sent: Registration[] = [];
      const preview = await runner.preview({ onRegister: (reg) => sent.push(reg) });
      expect(preview.apiCalls.filter((c) => c.route === AUTH_ROUTE)).toEqual([]);
      const signIn = sent.find((r) => r.name === "handbook/partner-portal" && r.type.endsWith(":VisitorAuth"))!;
      expect(signIn.object[REFERENCES_INPUT]).toBeUndefined();
      expect(signIn.dependencies.some((urn) => urn.endsWith("::handbook/status-badges"))).toBe(true);
      const up = await runner.up();
      expect(changes(up)).toEqual(["update IntegrationInstallation handbook/status-badges", "update VisitorAuth handbook/partner-portal"]);
      const calls = up.apiCalls.filter((c) => c.method !== "GET").map((c) => `${c.method} ${c.route}`);
      expect(calls.indexOf(`PATCH ${AUTH_ROUTE}`)).toBeGreaterThan(calls.findIndex((c) => c.startsWith("POST /v1/integrations/")));
    } finally {
      restoreDeployed();
    }
  });

  it("an `up` that adds references looks nothing up (its preview does), and no state holds the reserved input", async () => {
    // A new member of a team and a new site space on an existing space, as a merged pull request brings them.
    const text = original
      .replace("      - user: reader@demo.test\n", "      - user: reader@demo.test\n      - user: writer@demo.test\n")
      .replace("          - key: api-changes\n", "          - key: api-guides\n            space: {id: space-guides}\n            path: guides\n          - key: api-changes\n");
    fs.writeFileSync(docs(), text);
    try {
      // `pulumi up` previews first: the preview looks the two references up, read-only.
      const preview = await runner.preview();
      expect(lookups(preview.apiCalls).map((c) => c.route).sort()).toEqual(["/v1/orgs/:organizationId/members", "/v1/spaces/:spaceId"]);
      expect(writes(preview)).toEqual([]);

      const sent: Registration[] = [];
      const up = await runner.up({ onRegister: (reg) => sent.push(reg) });
      expect(sent.filter((r) => REFERENCES_INPUT in r.object)).toEqual([]);
      expect(changes(up)).toEqual([
        "create SiteSpace handbook/handbook/api-guides",
        "update SiteStructureOrder handbook/handbook",
        "update TeamMembers handbook/reviewers/members",
      ]);
      // Only the writes the change needs (the membership set, the site space, its move to its declared place); no lookup.
      expect(writes(up).sort()).toEqual([
        "POST /sites/:siteId/site-spaces 201",
        "POST /sites/:siteId/site-spaces/:siteSpaceId/move 200",
        "PUT /teams/:teamId/members 204",
      ]);
      expect(lookups(up.apiCalls)).toEqual([]);
      expect(JSON.stringify(runner.state())).not.toContain(REFERENCES_INPUT);
      expect(fs.readFileSync(runner.stateFile, "utf8")).not.toContain(REFERENCES_INPUT);
    } finally {
      restoreDeployed();
    }
  });
});
