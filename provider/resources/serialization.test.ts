import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { providerConfig, type PreparedProgram } from "../../test/harness";
import { kinds } from "./kinds";
import { loadAndReadMissing, prepareProviderProgram, referenceProviders, serializeProviders } from "./testdata/helpers";

// A token nobody would write by accident: it must appear in no serialised provider.
const CANARY = "canary-token-6f1c2b9e0d7a4e58";

describe("serialised providers (installed package, as users get it)", () => {
  let program: PreparedProgram;
  let emulator: RunningEmulator;
  let texts: Record<string, string>;

  beforeAll(async () => {
    [program, emulator] = await Promise.all([prepareProviderProgram(), startEmulator({ port: 0 })]);
    // Credentials are present in every form a program could see them while it serialises.
    texts = await serializeProviders(program.dir, {
      DOCSPLATFORM_API_TOKEN: CANARY,
      DOCSPLATFORM_API_URL: emulator.url,
      PULUMI_CONFIG: JSON.stringify({ "docsplatform:apiToken": CANARY, "docsplatform:apiUrl": emulator.url }),
    });
  });
  afterAll(async () => {
    program?.cleanup();
    await emulator?.close();
  });

  it("serialises one provider per registered kind", () => {
    expect(Object.keys(texts).sort()).toEqual(kinds.map((k) => k.name).sort());
  });

  it.each(kinds.map((k) => k.name))("%s: at most 1 KB, a require() of the installed package, no credential", (name) => {
    const text = texts[name]!;
    expect(Buffer.byteLength(text, "utf8")).toBeLessThanOrEqual(1024);
    expect(text).toContain('require("pulumi-docsplatform/');
    expect(text).not.toContain(CANARY);
    expect(text).not.toContain("dev-token");
    expect(text).not.toContain(emulator.url);
  });

  it("is identical for every kind except the module it requires (stable across releases)", () => {
    const shapes = new Set(Object.values(texts).map((t) => t.replace(/providers\/[A-Za-z]+\.js/, "providers/<kind>.js")));
    expect(shapes.size).toBe(1);
  });

  it("is, for every kind, the text pulumi.dynamic.Resource registers for its shim, made without the SDK's closure serialiser; each class makes a dynamic.Resource", async () => {
    const reference = await referenceProviders(program.dir);
    expect(texts).toEqual(reference.texts);
    expect(reference.dynamic).toEqual(Object.fromEntries(kinds.map((k) => [k.name, true])));
    expect(reference.serialisations).toBe(0);
  });

  it("is the same text with an SDK that has no module path mapping: the first shim serialised by the SDK, the others made from it", async () => {
    const reference = await referenceProviders(program.dir, { sdkWithoutModuleMapping: true });
    expect(reference.texts).toEqual(texts);
    expect(reference.serialisations).toBe(1);
  });

  it("runs after being loaded as the plugin loads it: configure from config, then a real call answers gone", async () => {
    const org = "demo-org";
    const state = {
      organizationId: org,
      siteId: "missing-site",
      teamId: "missing-team",
      spaceId: "missing-space",
      sectionId: "missing-section",
      slug: "missing-spec",
      userId: "missing-user",
      members: [],
    };
    const states = Object.fromEntries(kinds.map((k) => [k.name, state]));
    // Only the config carries the URL and token: the environment has neither.
    const results = await loadAndReadMissing(
      program.dir,
      texts,
      providerConfig(emulator).config,
      states,
      { DOCSPLATFORM_API_TOKEN: "", DOCSPLATFORM_API_URL: "" },
    );
    expect(Object.keys(results).sort()).toEqual(kinds.map((k) => k.name).sort());
    for (const [name, r] of Object.entries(results)) {
      expect({ name, error: r.error }).toEqual({ name, error: undefined });
      expect(typeof r.id).toBe("string");
    }
    const requests = emulator.control.log();
    expect(requests.length).toBeGreaterThanOrEqual(kinds.length - 1);
  });
});
