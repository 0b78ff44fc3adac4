import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import {
  PROVIDER_KEY,
  PluginError,
  pluginAgainst,
  prepareProgram,
  runnerAgainst,
  type PluginDriver,
  type PreparedProgram,
  type ProgramRunner,
  type PropertyMap,
} from "../../test/harness";
import { prepareProviderProgram, serializeProviders } from "./testdata/helpers";
import { apiOf, type Api } from "../../test/support/api";
import { stopProgram } from "../../test/support/program";

// Regression: a create whose POST succeeded and whose follow-up request (the PATCH or default for
// fields only settable after creation) then failed left the object live with nothing in state — an
// orphan the next run duplicated. Such a create is now a partial create: the engine keeps the object
// in state with its init errors, the next run finishes it with an Update, and destroy deletes it.

const org = "demo-org";
const sitesPath = `/v1/orgs/${org}/sites`;
let emulator: RunningEmulator;
let api: Api;
let counter = 0;

const list = async <T>(apiPath: string) => (await api<{ items: T[] }>("GET", `${apiPath}?limit=1000`)).items;
const newSite = (title: string, visibility = "public") => api<{ id: string }>("POST", sitesPath, { title: `${title} ${++counter}`, visibility });

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  api = apiOf(emulator);
});
afterAll(async () => {
  await emulator?.close();
});

describe("a create whose follow-up fails, through the real plugin", () => {
  let program: PreparedProgram;
  let plugin: PluginDriver;
  let texts: Record<string, string>;

  beforeAll(async () => {
    program = await prepareProviderProgram();
    texts = await serializeProviders(program.dir);
    plugin = await pluginAgainst(program.dir, emulator);
  });
  afterAll(async () => {
    emulator.control.setFaults(null);
    await plugin?.close();
    program?.cleanup();
  });

  interface Row {
    kind: string;
    /** Inputs whose create needs a follow-up request after the POST. */
    inputs(): Promise<Record<string, unknown>>;
    /** The live object, or undefined when it is gone. */
    live(id: string, inputs: Record<string, unknown>): Promise<Record<string, unknown> | undefined>;
    /** What the follow-up sets, as the live object shows it. */
    finished: Record<string, unknown>;
  }

  const orGone = async <T>(p: Promise<T>): Promise<T | undefined> => p.catch((e: unknown) => (/: 404 /.test(String(e)) ? undefined : Promise.reject(e)));
  const rows: Row[] = [
    {
      kind: "Site",
      inputs: async () => ({ organizationId: org, title: `Partial site ${++counter}`, basename: `partial-${counter}` }),
      live: (id) => orGone(api("GET", `${sitesPath}/${id}`)),
      finished: { basename: expect.stringMatching(/^partial-/) },
    },
    {
      kind: "SiteSection",
      inputs: async () => ({ organizationId: org, siteId: (await newSite("Partial section")).id, spaceId: "space-guides", title: "Guides", path: "how-to" }),
      live: async (id, i) => (await list<{ id: string }>(`${sitesPath}/${String(i.siteId)}/sections`)).find((s) => s.id === id),
      finished: { path: "how-to" },
    },
    {
      kind: "SiteSpace",
      inputs: async () => ({ organizationId: org, siteId: (await newSite("Partial site space")).id, spaceId: "space-api", path: "reference" }),
      live: async (id, i) => (await list<{ id: string }>(`${sitesPath}/${String(i.siteId)}/site-spaces`)).find((s) => s.id === id),
      finished: { path: "reference" },
    },
    {
      kind: "Collection",
      inputs: async () => ({ organizationId: org, title: `Partial collection ${++counter}`, description: "Set after creation" }),
      live: (id) => orGone(api("GET", `/v1/collections/${id}`)),
      finished: { description: "Set after creation" },
    },
    {
      kind: "ShareLink",
      inputs: async () => ({ organizationId: org, siteId: (await newSite("Partial share link", "share-link")).id, name: "Partners", active: false }),
      live: async (id, i) => (await list<{ id: string }>(`${sitesPath}/${String(i.siteId)}/share-links`)).find((s) => s.id === id),
      finished: { active: false },
    },
  ];

  it("reports the object with its outputs as an init failure, the next update finishes it, delete removes it", async () => {
    const prepared = await Promise.all(rows.map(async (row) => ({ row, inputs: await row.inputs() })));
    const withProvider = (kind: string, o: Record<string, unknown>): PropertyMap => ({ ...(o as PropertyMap), [PROVIDER_KEY]: texts[kind]! });
    const urn = (kind: string) => `urn:pulumi:dev::docsplatform-providers::pulumi-nodejs:dynamic/docsplatform:${kind}::partial-${kind}`;

    // Every follow-up fails (after the client's retries); the POSTs go through.
    emulator.control.setFaults({ error5xxRate: 1, methods: ["PATCH"] });
    const failures = await Promise.all(
      prepared.map(({ row, inputs }) => plugin.create(urn(row.kind), withProvider(row.kind, inputs)).then(() => undefined, (e: unknown) => e)),
    );
    emulator.control.setFaults(null);

    for (const [i, { row, inputs }] of prepared.entries()) {
      const err = failures[i];
      expect(err, row.kind).toBeInstanceOf(PluginError);
      const init = (err as PluginError).initFailure;
      expect(init, `${row.kind}: ${String(err)}`).toBeDefined();
      expect(init!.reasons.join(" "), row.kind).toMatch(/PATCH .*: 5\d\d/);
      expect(String(err), row.kind).toContain("was created but could not be finished");
      // The outputs as the POST left them: no undefined, the provider the plugin needs for later calls.
      expect(init!.outputs[PROVIDER_KEY], row.kind).toBe(texts[row.kind]);
      // A secret output is left out (the next update returns it), so it never reaches state unmarked.
      if (row.kind === "ShareLink") expect(init!.outputs["url"]).toBeNull();
      const live = await row.live(init!.id, inputs);
      expect(live, `${row.kind} ${init!.id} is live`).toBeDefined();

      // The next run: Diff sees the declared fields the follow-up did not set; Update sets them.
      const diff = await plugin.diff(urn(row.kind), init!.id, init!.outputs, withProvider(row.kind, inputs));
      expect(diff.changes, row.kind).toBe(true);
      expect(diff.replaces, row.kind).toEqual([]);
      const outs = await plugin.update(urn(row.kind), init!.id, init!.outputs, withProvider(row.kind, inputs));
      expect(outs, row.kind).toMatchObject(row.finished);
      expect(await row.live(init!.id, inputs), row.kind).toMatchObject(row.finished);
      expect((await plugin.diff(urn(row.kind), init!.id, outs, withProvider(row.kind, inputs))).changes, row.kind).toBe(false);
    }

    // Destroy right after a partial create: the stored outputs alone are enough to delete the object.
    const site = prepared.find((p) => p.row.kind === "Site")!;
    emulator.control.setFaults({ error5xxRate: 1, methods: ["PATCH"] });
    const again = (await plugin.create(urn("Site"), withProvider("Site", { ...site.inputs, title: `Partial site ${++counter}` })).catch((e: unknown) => e)) as PluginError;
    emulator.control.setFaults(null);
    expect(again.initFailure).toBeDefined();
    await plugin.delete(urn("Site"), again.initFailure!.id, again.initFailure!.outputs);
    expect(await site.row.live(again.initFailure!.id, site.inputs)).toBeUndefined();
  }, 60_000);
});

describe("a section whose path is held by another, through a program run", () => {
  let program: PreparedProgram;
  let runner: ProgramRunner;

  beforeAll(async () => {
    program = await prepareProgram(path.join(__dirname, "testdata", "partial"), { installPackage: true });
    runner = runnerAgainst(program.dir, emulator);
  });
  afterAll(() => stopProgram({ program, runner }));

  it("keeps the section in state when the PATCH of its path conflicts, finishes it on the next up, destroys it", async () => {
    const site = await newSite("Partial program");
    const config = { "partial-create:siteId": site.id };
    const sectionsOf = () => list<{ id: string; path: string; title: string; description?: string | null }>(`${sitesPath}/${site.id}/sections`);
    // Another section already holds the declared path: the section's POST succeeds, its PATCH answers 409.
    const other = await api<{ id: string }>("POST", `${sitesPath}/${site.id}/sections`, { spaceId: "space-api", title: "Elsewhere" });
    await api("PATCH", `${sitesPath}/${site.id}/sections/${other.id}`, { path: "guides" });

    const first = await runner.up({ config, allowError: true });
    expect(String(first.error?.message)).toMatch(/409/);
    const held = runner.resources().find((r) => r.type === "pulumi-nodejs:dynamic/docsplatform:SiteSection");
    expect(held?.id).toBeDefined();
    expect(held!.initErrors?.join(" ")).toMatch(/path 'guides' is already used/);
    // Nothing orphaned: every live section is the one in state or the one made out of band.
    const live = await sectionsOf();
    expect(live.map((s) => s.id).sort()).toEqual([held!.id, other.id].sort());

    // The cause cleared, the next up finishes the same section with an update: no second one.
    await api("DELETE", `${sitesPath}/${site.id}/sections/${other.id}`);
    const second = await runner.up({ config });
    expect(second.steps.find((s) => s.type.endsWith(":SiteSection"))?.op).toBe("update");
    expect(second.summary.create ?? 0).toBe(0);
    expect(second.outputs["sectionId"]).toBe(held!.id);
    expect(second.outputs["sectionPath"]).toBe("guides");
    expect((await sectionsOf()).map((s) => ({ id: s.id, path: s.path, description: s.description }))).toEqual([
      { id: held!.id, path: "guides", description: "How-to guides" },
    ]);
    expect(runner.resources().find((r) => r.id === held!.id)?.initErrors).toBeUndefined();

    await runner.destroy({ config });
    expect(await sectionsOf()).toEqual([]);
  }, 120_000);
});
