/**
 * `npm run try` where no Pulumi CLI is installed: one's own project (test/support/ownProject.ts: its own
 * organisation, two sites, a team of two users, a space by ID, a share link) through the bundled engine
 * harness — the SDK's real language host and dynamic-provider plugin — against the emulator seeded from its
 * docs.yaml, in-process or already running (`docsplatform emulator --seed-from docs.yaml`, as the user
 * starts it): preview, up, a second up with no API call, destroy.
 */
import { afterEach, describe, expect, it } from "vitest";
import { prepareProgram, type PreparedProgram } from "../harness/program";
import { caller } from "../support/api";
import { OWN_ORG, OWN_RESOURCES, OWN_SPACE, startSeededEmulator, writeOwnProject, type SeededEmulator } from "../support/ownProject";
import { tryProject, type TryResult } from "./project";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The lifecycle every run of the command goes through. */
function expectLifecycle(result: TryResult): void {
  expect(result.engine).toBe("harness");
  expect(result.steps.map((s) => s.command)).toEqual(["preview", "up", "second up", "destroy"]);
  const [preview, up, second, destroy] = result.steps;
  expect(preview!.summary).toEqual({ create: OWN_RESOURCES });
  expect(preview!.apiCalls.filter((c) => c.method !== "GET")).toEqual([]);
  expect(up!.summary).toEqual({ create: OWN_RESOURCES });
  expect(up!.apiCalls.filter((c) => c.status >= 400)).toEqual([]);
  expect(second!.summary).toEqual({ same: OWN_RESOURCES });
  expect(second!.apiCalls).toEqual([]);
  expect(destroy!.summary).toEqual({ delete: OWN_RESOURCES });
}

describe("npm run try through the engine harness", () => {
  it("runs one's own project against an emulator seeded from its docs.yaml", async () => {
    const project = writeOwnProject();
    cleanups.push(project.cleanup);
    let output = "";
    const result = await tryProject({ project: project.dir, engine: "harness", write: (t) => void (output += t) });
    expectLifecycle(result);
    expect(result.outputs?.["siteUrls"]).toEqual({
      product: `https://${OWN_ORG}.docsplatform.site/product-docs`,
      partners: `https://${OWN_ORG}.docsplatform.site/partner-docs`,
    });
    expect(output).toContain("engine: the bundled engine harness");
    expect(output).toContain(`(organisation ${OWN_ORG}: 3 members, 1 space, seeded from docs.yaml)`);
    expect(output).toMatch(/== second up \(nothing changed in the stack file\): 10 unchanged\n {2}API calls: 0 \(nothing to do\)/);
  }, 300_000);

  it("with --api-url, against `docsplatform emulator --seed-from docs.yaml` already running", async () => {
    const project = writeOwnProject();
    cleanups.push(project.cleanup);
    // The installed package's command, as `npx docsplatform emulator --seed-from docs.yaml` runs it in the project.
    const installed: PreparedProgram = await prepareProgram(project.dir, { installPackage: true });
    cleanups.push(installed.cleanup);
    const emu: SeededEmulator = await startSeededEmulator(installed.dir);
    cleanups.push(emu.stop);
    expect(emu.user).toBe("ops");
    expect(emu.seedLine).toBe(`seed: organisation ${OWN_ORG}: 3 members, 1 space (from docs.yaml)`);
    const api = caller(emu.url, emu.token);
    expect((await api("GET", `/v1/spaces/${OWN_SPACE}`)).status).toBe(200);
    expect((await api("GET", `/v1/orgs/${OWN_ORG}/members/ops`)).body).toMatchObject({ role: "admin" });

    const result = await tryProject({ project: project.dir, engine: "harness", api: { url: emu.url, token: emu.token }, write: () => undefined });
    expectLifecycle(result);
    // Destroyed: the organisation is as seeded.
    expect((await api("GET", `/v1/orgs/${OWN_ORG}/sites`)).body.items).toEqual([]);
  }, 300_000);

  it("refuses a stack file that does not validate before starting anything", async () => {
    const project = writeOwnProject(`organization: ${OWN_ORG}\nsites:\n  - key: product\n`);
    cleanups.push(project.cleanup);
    await expect(tryProject({ project: project.dir, engine: "harness", write: () => undefined })).rejects.toThrow(/docs\.yaml:3:\d+: .*title/);
  });
});
