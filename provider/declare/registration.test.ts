/**
 * The component's quiet promise stacks (registration.ts) change nothing a user sees. The probe
 * (testdata/registration/probe.js) constructs a DocsPlatform of the installed package under Pulumi mocks,
 * with a stand-in for ts-node's source-map-support installed as `Error.prepareStackTrace`, once with
 * them off (`DOCSPLATFORM_QUIET_PROMISE_STACKS=0`, as the public classes register) and once by default: the stack of an
 * error thrown by user code running inside the declaration (a resource transformation) and outside it,
 * the source positions the SDK reads while declaring, the props sent for every resource and the typed
 * outputs are the same; only the SDK's promise stacks, which it prints only with
 * PULUMI_DEBUG_PROMISE_LEAKS, are formatted short. Provider errors are raised in the plugin process,
 * where none of this runs.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareProgram, type PreparedProgram } from "../../test/harness";

interface Probe {
  inside: { callsites: string[]; promiseStack: string; formatter: string };
  restored: boolean;
  errorInside: string;
  restoredAfterThrow: boolean;
  errorOutside: string;
  siteKeys: string[];
  sectionKeys: string[];
  registered: Record<string, Record<string, unknown>>;
}

function probe(dir: string, env: Record<string, string>): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PULUMI_") && k !== "DOCSPLATFORM_QUIET_PROMISE_STACKS"));
    execFile(process.execPath, ["probe.js"], { cwd: dir, env: { ...clean, ...env }, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`probe.js failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as Probe);
    });
  });
}

/** Frames of the wrapper itself (its line differs between the two modes). */
const WRAPPER = /dist\/provider\/stack\/registration\.js:/;

describe("the component's quiet promise stacks", () => {
  let program: PreparedProgram;
  let full: Probe;
  let quiet: Probe;
  let leakDebug: Probe;

  beforeAll(async () => {
    program = await prepareProgram(path.join(__dirname, "testdata", "registration"), { installPackage: true });
    [full, quiet, leakDebug] = await Promise.all([
      probe(program.dir, { DOCSPLATFORM_QUIET_PROMISE_STACKS: "0" }),
      probe(program.dir, {}),
      probe(program.dir, { PULUMI_DEBUG_PROMISE_LEAKS: "1" }),
    ]);
  }, 120_000);
  afterAll(() => program?.cleanup());

  it("keeps the stack traces of errors in the user's code, inside the declaration and outside it", () => {
    expect(quiet.errorInside).toBe(full.errorInside);
    expect(quiet.errorOutside).toBe(full.errorOutside);
    // Formatted by the installed formatter, with every frame V8 keeps (the default limit of 10).
    expect(quiet.errorInside).toMatch(/^MAPPED Error: user error at pulumi-nodejs:dynamic\/docsplatform:SiteSpace\n {4}at userCode \(.*probe\.js:\d+:\d+\)/);
    expect(quiet.errorInside.split("\n")).toHaveLength(11);
    expect(quiet.errorOutside).toMatch(/^MAPPED Error: user error at outside\n/);
  });

  it("puts the installed formatter back, also when the declaration throws", () => {
    expect(quiet.restored).toBe(true);
    expect(quiet.restoredAfterThrow).toBe(true);
  });

  it("keeps the source positions the SDK reads for each resource", () => {
    expect(quiet.inside.callsites.filter((c) => c !== "::").length).toBeGreaterThan(5);
    expect(quiet.inside.callsites.filter((c) => !WRAPPER.test(c))).toEqual(full.inside.callsites.filter((c) => !WRAPPER.test(c)));
  });

  it("formats only the SDK's promise stacks short, and keeps them whole with PULUMI_DEBUG_PROMISE_LEAKS", () => {
    expect(quiet.inside.promiseStack).toBe("Error");
    expect(full.inside.promiseStack).toMatch(/^MAPPED Error\n {4}at debuggablePromise /);
    expect(leakDebug.inside.promiseStack).toMatch(/^MAPPED Error\n {4}at debuggablePromise /);
  });

  it("sends the same props for every resource and keeps every typed output", () => {
    expect(Object.keys(quiet.registered)).toHaveLength(7);
    expect(quiet.registered).toEqual(full.registered);
    expect(quiet.siteKeys).toEqual(full.siteKeys);
    expect(quiet.sectionKeys).toEqual(full.sectionKeys);
    expect(quiet.siteKeys).toEqual(expect.arrayContaining(["organizationId", "published", "title", "type", "urls", "visibility"]));
    expect(quiet.sectionKeys).toEqual(
      expect.arrayContaining(["default", "organizationId", "path", "sectionGroupId", "siteId", "siteSpaceId", "siteSpacePath", "spaceId", "title", "url"]),
    );
  });
});
