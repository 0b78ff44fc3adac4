/** SiteGitSync's create against the emulator: a site that already has an installation (an earlier run's) is taken over with its children. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../client";
import { Started } from "../../test/support/emulator";
import { siteGitSyncKind } from "./siteGitSync";

const started = new Started("dpt_GITSYNC_2b7e0c41d9f3");
let api: ApiClient;

beforeAll(async () => {
  api = await started.clientOfNewEmulator();
});
afterAll(() => started.close());

describe("SiteGitSync create", () => {
  it("takes over the installation a killed earlier run made (the API refuses a second), keeping its child instead of installing another", async () => {
    const site = await api.sites.create("demo-org", { title: "Taken over" });
    const earlier = await api.gitSync.install("github", { type: "site", siteId: site.id });
    const child = await api.gitSync.install("github", { type: "space", spaceId: "space-guides", siteId: site.id });
    const inputs = { organizationId: "demo-org", siteId: site.id, provider: "github" as const, repository: 5, branch: "refs/heads/main", priority: "gitbook" as const, childDirectories: { "space-guides": "docs/guides" } };
    const created = await siteGitSyncKind.create({ client: api }, inputs);
    expect(created.id).toBe(earlier.id);
    expect(created.outs).toMatchObject({ repository: 5, branch: "refs/heads/main", priority: "gitbook", children: { "space-guides": child.id }, childDirectories: { "space-guides": "docs/guides" } });
    const listed = await api.gitSync.listForSite("demo-org", site.id);
    expect(listed.map((i) => i.id).sort()).toEqual([earlier.id, child.id].sort());
    expect(listed.find((i) => i.id === child.id)?.projectDirectory).toBe("docs/guides");
  });
});
