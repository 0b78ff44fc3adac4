/**
 * The component's lean registration (registration.ts) changes nothing a user sees. The probe
 * (testdata/registration/probe.js) constructs a DocsPlatform of the installed package under Pulumi mocks,
 * with a stand-in for ts-node's source-map-support installed as `Error.prepareStackTrace`, once as
 * the public classes register (`DOCSPLATFORM_LEAN_REGISTRATION=0`) and once by default: the stack of an
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
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PULUMI_") && k !== "DOCSPLATFORM_LEAN_REGISTRATION"));
    execFile(process.execPath, ["probe.js"], { cwd: dir, env: { ...clean, ...env }, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`probe.js failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as Probe);
    });
  });
}

/** Frames of the lean-registration wrapper itself (present in one mode only). */
const WRAPPER = /dist\/provider\/(stack\/registration|resources\/kind)\.js:/;

describe("the component's lean registration", () => {
  let program: PreparedProgram;
  let full: Probe;
  let lean: Probe;
  let leakDebug: Probe;

  beforeAll(async () => {
    program = await prepareProgram(path.join(__dirname, "testdata", "registration"), { installPackage: true });
    [full, lean, leakDebug] = await Promise.all([
      probe(program.dir, { DOCSPLATFORM_LEAN_REGISTRATION: "0" }),
      probe(program.dir, {}),
      probe(program.dir, { PULUMI_DEBUG_PROMISE_LEAKS: "1" }),
    ]);
  }, 120_000);
  afterAll(() => program?.cleanup());

  it("keeps the stack traces of errors in the user's code, inside the declaration and outside it", () => {
    expect(lean.errorInside).toBe(full.errorInside);
    expect(lean.errorOutside).toBe(full.errorOutside);
    // Formatted by the installed formatter, with every frame V8 keeps (the default limit of 10).
    expect(lean.errorInside).toMatch(/^MAPPED Error: user error at pulumi-nodejs:dynamic\/docsplatform:SiteSpace\n {4}at userCode \(.*probe\.js:\d+:\d+\)/);
    expect(lean.errorInside.split("\n")).toHaveLength(11);
    expect(lean.errorOutside).toMatch(/^MAPPED Error: user error at outside\n/);
  });

  it("puts the installed formatter back, also when the declaration throws", () => {
    expect(lean.restored).toBe(true);
    expect(lean.restoredAfterThrow).toBe(true);
  });

  it("keeps the source positions the SDK reads for each resource", () => {
    expect(lean.inside.callsites.filter((c) => c !== "::").length).toBeGreaterThan(5);
    expect(lean.inside.callsites.filter((c) => !WRAPPER.test(c))).toEqual(full.inside.callsites.filter((c) => !WRAPPER.test(c)));
  });

  it("formats only the SDK's promise stacks short, and keeps them whole with PULUMI_DEBUG_PROMISE_LEAKS", () => {
    expect(lean.inside.promiseStack).toBe("Error");
    expect(full.inside.promiseStack).toMatch(/^MAPPED Error\n {4}at debuggablePromise /);
    expect(leakDebug.inside.promiseStack).toMatch(/^MAPPED Error\n {4}at debuggablePromise /);
  });

  it("sends the same props for every resource and keeps every typed output", () => {
    expect(Object.keys(lean.registered)).toHaveLength(7);
    expect(lean.registered).toEqual(full.registered);
    // Only keys without a value are left out: absent optional args the component passes.
    expect(full.siteKeys).toEqual(expect.arrayContaining(lean.siteKeys));
    expect(full.sectionKeys).toEqual(expect.arrayContaining(lean.sectionKeys));
    for (const k of full.sectionKeys.filter((k) => !lean.sectionKeys.includes(k))) expect(lean.registered["docs/handbook/guides SiteSection"]).not.toHaveProperty(k);
    expect(lean.siteKeys).toEqual(expect.arrayContaining(["createdAt", "organizationId", "published", "siteSpaces", "title", "type", "urls", "visibility"]));
    expect(lean.sectionKeys).toEqual(
      expect.arrayContaining(["default", "organizationId", "path", "sectionGroupId", "siteId", "siteSpaceId", "siteSpacePath", "spaceId", "title", "url"]),
    );
  });
});
