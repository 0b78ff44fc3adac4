import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, MISSING_SITE_FILE, type ApiClient } from "./index";
import { Started } from "../../test/support/emulator";
import { SecretRecorder } from "../../test/support/secrets";

// Git Sync installations through the typed area, against the emulator over HTTP.
const TOKEN = "dpt_SCAN_7c1e9a2f44b0d318";
const GITLAB_TOKEN = "glpat-client-area-secret-5f2e";
const ORG = "demo-org";
const rec = new SecretRecorder();
const started = new Started(TOKEN, { logger: rec.logger, debug: true });
let api: ApiClient;
let url: string;

beforeAll(async () => {
  const emu = await started.emulator();
  url = emu.url;
  api = started.client(url);
  api.secrets.add(GITLAB_TOKEN);
});

afterAll(async () => {
  await started.close();
  expect(rec.occurrences(TOKEN)).toBe(0);
  expect(rec.occurrences(GITLAB_TOKEN)).toBe(0);
});

describe("gitSync", () => {
  it("installs, reads, configures, lists and uninstalls; a site import without its file is a typed 409 naming the path", async () => {
    const site = await api.sites.create(ORG, { title: "Synced" });
    const inst = await api.gitSync.install("github", { type: "site", siteId: site.id });
    expect(inst).toMatchObject({ object: "git-sync-installation", target: { type: "site", siteId: site.id }, status: "pending" });
    const setup = { provider: "github" as const, providerConfiguration: { repositoryId: 9, branch: "refs/heads/main" }, projectDirectory: "site", priority: "gitbook" as const };
    expect(await api.gitSync.update(inst.id, setup)).toMatchObject({ status: "active", priority: "gitbook", projectDirectory: "site" });
    const refused = await api.gitSync.update(inst.id, { ...setup, priority: "git" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 409, type: MISSING_SITE_FILE, details: { path: "site/gitbook-docs.yaml", branch: "refs/heads/main" } });
    expect((await api.gitSync.get(inst.id)).priority).toBe("gitbook");
    expect((await api.gitSync.listForSite(ORG, site.id)).map((i) => i.id)).toEqual([inst.id]);
    await api.gitSync.uninstall(inst.id);
    expect(await api.gitSync.get(inst.id).catch((e: { status: number }) => e.status)).toBe(404);
  });

  it("sends a GitLab access token and never gets it back; debug logs never show it", async () => {
    const site = await api.sites.create(ORG, { title: "Lab synced" });
    const inst = await api.gitSync.install("gitlab", { type: "site", siteId: site.id });
    const answer = await api.gitSync.update(inst.id, { provider: "gitlab", providerConfiguration: { projectId: 3, accessToken: GITLAB_TOKEN, branch: "refs/heads/docs" } });
    expect(answer.providerConfiguration).toEqual({ projectId: 3, branch: "refs/heads/docs" });
    expect(JSON.stringify(await api.gitSync.get(inst.id))).not.toContain(GITLAB_TOKEN);
  });
});
