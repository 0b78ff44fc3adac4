import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_KEY, PluginError, UNKNOWN, secret, startPlugin, type PluginDriver } from "./index";

const FIXTURE = path.resolve(__dirname, "../fixtures/driver");
const PROVIDER = `exports.handler = () => require(${JSON.stringify(path.join(FIXTURE, "provider.js"))});\n`;
const URN = "urn:pulumi:dev::driver::pulumi-nodejs:dynamic/test:Thing::thing";

describe("PluginDriver against the real dynamic-provider plugin", () => {
  let plugin: PluginDriver;

  beforeAll(async () => {
    plugin = await startPlugin({
      cwd: FIXTURE,
      config: { "docsplatform:apiUrl": "http://127.0.0.1:9", "docsplatform:apiToken": "token-123" },
      secretKeys: ["docsplatform:apiToken"],
    });
  });
  afterAll(async () => {
    await plugin?.close();
  });

  it("reports the SDK version it was started from", async () => {
    expect(await plugin.pluginVersion()).toMatch(/^3\.\d+\.\d+/);
  });

  it("configures the provider with namespaced config, secrets unwrapped to plaintext", async () => {
    const created = await plugin.create(URN, { [PROVIDER_KEY]: PROVIDER, title: "a" });
    expect(created.outputs["configured"]).toEqual({ url: "http://127.0.0.1:9", tokenLength: "token-123".length });
  });

  it("strips secrets from properties and carries __provider into the outputs", async () => {
    const created = await plugin.create(URN, { [PROVIDER_KEY]: PROVIDER, title: "a", secretInput: secret("s3cr3t") });
    expect(created).toMatchObject({ id: "obj-1", outputs: { title: "a", secretInput: "s3cr3t", [PROVIDER_KEY]: PROVIDER } });
  });

  it("passes unknowns to check as the sentinel and returns check failures", async () => {
    const ok = await plugin.check(URN, { [PROVIDER_KEY]: PROVIDER, title: "old" }, { [PROVIDER_KEY]: PROVIDER, title: UNKNOWN });
    expect(ok.failures).toEqual([]);
    expect(ok.inputs).toMatchObject({ title: UNKNOWN, checkedOlds: ["title"], [PROVIDER_KEY]: PROVIDER });
    const bad = await plugin.check(URN, {}, { [PROVIDER_KEY]: PROVIDER, title: "" });
    expect(bad.failures).toEqual([{ property: "title", reason: "title: must be 1 to 64 characters" }]);
  });

  it("diffs old outputs against new inputs: none, update, replace and delete-before-replace", async () => {
    const olds = { [PROVIDER_KEY]: PROVIDER, title: "a", kind: "x" };
    expect(await plugin.diff(URN, "obj-1", olds, { ...olds })).toMatchObject({ changes: false, replaces: [] });
    expect(await plugin.diff(URN, "obj-1", olds, { ...olds, title: "b" })).toMatchObject({ changes: true, replaces: [] });
    expect(await plugin.diff(URN, "obj-1", olds, { ...olds, kind: "y" })).toMatchObject({ changes: true, replaces: ["kind"], deleteBeforeReplace: false });
    expect(await plugin.diff(URN, "obj-1", olds, { ...olds, kind: "dbr" })).toMatchObject({ changes: true, deleteBeforeReplace: true });
  });

  it("reads with the stored outputs; a blank id means gone", async () => {
    const state = { [PROVIDER_KEY]: PROVIDER, title: "a" };
    expect(await plugin.read(URN, "obj-1", state, state)).toMatchObject({ id: "obj-1", outputs: { title: "read:a" } });
    expect((await plugin.read(URN, "gone", state, state)).id).toBe("");
  });

  it("updates with old outputs and new inputs", async () => {
    const outs = await plugin.update(URN, "obj-1", { [PROVIDER_KEY]: PROVIDER, title: "a" }, { [PROVIDER_KEY]: PROVIDER, title: "b" });
    expect(outs).toMatchObject({ title: "b", previous: "a" });
  });

  it("turns provider failures into PluginErrors naming the call and resource", async () => {
    const err = await plugin.create(URN, { [PROVIDER_KEY]: PROVIDER, title: "explode" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PluginError);
    expect((err as PluginError).message).toBe(`Create of ${URN} failed: title explode is not allowed`);
    const del = await plugin.delete(URN, "obj-9", { [PROVIDER_KEY]: PROVIDER, title: "undeletable" }).catch((e: unknown) => e);
    expect((del as PluginError).details).toContain("cannot delete obj-9");
  });

  it("reports a created-but-failed object with its id, as the engine needs to keep it in state", async () => {
    const err = (await plugin.create(URN, { [PROVIDER_KEY]: PROVIDER, title: "half" }).catch((e: unknown) => e)) as PluginError;
    expect(err.initFailure).toMatchObject({ id: "obj-half", outputs: { title: "half" }, reasons: ["not ready"] });
  });
});
