import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { PROVIDER_KEY, UNKNOWN, pluginAgainst, type PluginDriver, type PreparedProgram, type PropertyMap } from "../../test/harness";
import type { FieldSpec } from "./kind";
import { kinds } from "./kinds";
import { apiOf, caller, listAll } from "../../test/support/api";
import { lifecycleCases, type Json, type LifecycleCase, type LifecycleEnv } from "../../test/support/lifecycle.cases";
import { prepareProviderProgram, serializeProviders } from "./testdata/helpers";

/**
 * One table row per kind (lifecycle.cases.ts), each walked through the real dynamic-provider plugin
 * over gRPC, with the provider text serialised from the installed package, against the emulator.
 */

let program: PreparedProgram;
let emulator: RunningEmulator;
let plugin: PluginDriver;
let texts: Record<string, string>;
let env: LifecycleEnv;
let counter = 0;

beforeAll(async () => {
  [program, emulator] = await Promise.all([prepareProviderProgram(), startEmulator({ port: 0 })]);
  texts = await serializeProviders(program.dir);
  plugin = await pluginAgainst(program.dir, emulator);
  env = {
    orgId: "demo-org",
    api: apiOf(emulator),
    list: (path) => listAll(caller(emulator.url, emulator.token), path, 1000),
    unique: (prefix) => `${prefix}-${++counter}`,
  };
});

afterAll(async () => {
  await plugin?.close();
  await emulator?.close();
  program?.cleanup();
});

function fieldsOf(kind: string): Record<string, FieldSpec> {
  const def = kinds.find((k) => k.name === kind);
  if (!def) throw new Error(`row ${kind} names no registered kind`);
  return def.fields as Record<string, FieldSpec>;
}

/** Runs one step, naming the row and step when it fails. */
async function step<T>(row: LifecycleCase, name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    throw new Error(`${row.kind} — ${name}: ${detail}\n${plugin.stderr().slice(-1500)}`);
  }
}

describe("kind lifecycles through the real dynamic-provider plugin", () => {
  it("has one row per registered kind", () => {
    expect(lifecycleCases.map((r) => r.kind).sort()).toEqual(kinds.map((k) => k.name).sort());
  });

  it.each(lifecycleCases.map((row) => [row.kind, row] as const))("%s", async (_name, row) => {
    const text = texts[row.kind];
    expect(text, `serialised provider of ${row.kind}`).toContain(`providers/${row.module}.js`);
    const withProvider = (o: Json): PropertyMap => ({ ...(o as PropertyMap), [PROVIDER_KEY]: text! });
    const urn = (suffix: string) => `urn:pulumi:dev::docsplatform-providers::pulumi-nodejs:dynamic/docsplatform:${row.kind}::${row.module}-${suffix}`;
    const fields = fieldsOf(row.kind);
    const parents = (await step(row, "setup", async () => (row.setup ? row.setup(env) : {}))) ?? {};
    const main = urn(String(++counter));

    try {
      // check: good inputs pass; bad ones fail on the expected property, all at once.
      const inputs = row.create(env, parents);
      const good = await step(row, "check (good)", () => plugin.check(main, {}, withProvider(inputs)));
      expect(good.failures).toEqual([]);
      for (const bad of row.bad) {
        const result = await step(row, "check (bad)", () => plugin.check(main, {}, withProvider(bad.inputs(env, parents))));
        expect(result.failures.map((f) => f.property), JSON.stringify(result.failures)).toContain(bad.property);
        for (const f of result.failures) expect(f.reason.length).toBeGreaterThan(0);
      }

      // preview with unknowns: check passes them, diff counts them as changes (replacing for create-only fields).
      const declared = Object.keys(inputs).filter((k) => k in fields);
      const allUnknown = Object.fromEntries(declared.map((k) => [k, UNKNOWN]));
      expect((await step(row, "check (unknowns)", () => plugin.check(main, {}, withProvider(allUnknown)))).failures).toEqual([]);

      // create → read → diff (no change)
      const created = await step(row, "create", () => plugin.create(main, withProvider(inputs)));
      let id = created.id;
      expect(id).not.toBe("");
      let read = await step(row, "read", () => plugin.read(main, id, withProvider(inputs), created.outputs));
      expect(read.id).toBe(id);
      let state = read.outputs;
      // A diff is decided from the state alone: it sends no request.
      const before = emulator.control.log().length;
      expect((await step(row, "diff (no change)", () => plugin.diff(main, id, state, withProvider(inputs)))).changes).toBe(false);
      expect(emulator.control.log().length - before, "API calls of a no-op diff").toBe(0);

      for (const field of declared) {
        const d = await step(row, `diff (unknown ${field})`, () => plugin.diff(main, id, state, withProvider({ ...inputs, [field]: UNKNOWN })));
        expect(d.changes, field).toBe(true);
        expect(d.replaces.includes(field), field).toBe(fields[field]!.createOnly === true);
      }

      // in-place update
      const updated = row.update.inputs(env, parents, inputs);
      const du = await step(row, "diff (update)", () => plugin.diff(main, id, state, withProvider(updated)));
      expect(du).toMatchObject({ changes: true, replaces: [] });
      state = await step(row, "update", () => plugin.update(main, id, state, withProvider(updated)));
      row.update.expect?.(state as Json, updated);
      read = await step(row, "read (after update)", () => plugin.read(main, id, withProvider(updated), state));
      state = read.outputs;
      expect((await step(row, "diff (after update)", () => plugin.diff(main, id, state, withProvider(updated)))).changes).toBe(false);
      let current = updated;

      for (const more of row.moreUpdates ?? []) {
        const next = more.inputs(env, parents, current);
        const dm = await step(row, `diff (${more.name})`, () => plugin.diff(main, id, state, withProvider(next)));
        expect(dm, more.name).toMatchObject({ changes: true, replaces: [] });
        state = await step(row, `update (${more.name})`, () => plugin.update(main, id, state, withProvider(next)));
        more.expect?.(state as Json, next);
        read = await step(row, `read (after ${more.name})`, () => plugin.read(main, id, withProvider(next), state));
        state = read.outputs;
        expect((await step(row, `diff (after ${more.name})`, () => plugin.diff(main, id, state, withProvider(next)))).changes, more.name).toBe(false);
        current = next;
      }

      // replacing change: the engine creates the replacement and deletes the old object (first, when asked).
      if (row.replace) {
        const replacing = row.replace.inputs(env, parents, current);
        const dr = await step(row, "diff (replace)", () => plugin.diff(main, id, state, withProvider(replacing)));
        expect(dr.changes).toBe(true);
        expect([...dr.replaces].sort()).toEqual([...row.replace.replaces].sort());
        if (dr.deleteBeforeReplace) await step(row, "delete (before replace)", () => plugin.delete(main, id, state));
        const replacement = await step(row, "create (replacement)", () => plugin.create(main, withProvider(replacing)));
        if (!dr.deleteBeforeReplace) await step(row, "delete (replaced)", () => plugin.delete(main, id, state));
        id = replacement.id;
        state = replacement.outputs;
        current = replacing;
        expect((await step(row, "diff (after replace)", () => plugin.diff(main, id, state, withProvider(current)))).changes).toBe(false);
      }

      // out-of-band edit: read reports it, diff flags it, update repairs it.
      if (row.outOfBandEdit) {
        await step(row, "out-of-band edit", () => row.outOfBandEdit!(env, id, state as Json, parents));
        read = await step(row, "read (after edit)", () => plugin.read(main, id, withProvider(current), state));
        expect(read.id).toBe(id);
        state = read.outputs;
        expect((await step(row, "diff (drift)", () => plugin.diff(main, id, state, withProvider(current)))).changes).toBe(true);
        state = await step(row, "update (repair)", () => plugin.update(main, id, state, withProvider(current)));
        read = await step(row, "read (after repair)", () => plugin.read(main, id, withProvider(current), state));
        state = read.outputs;
        expect((await step(row, "diff (repaired)", () => plugin.diff(main, id, state, withProvider(current)))).changes).toBe(false);
      }

      // out-of-band delete: read answers gone; delete of a gone object is done.
      if (row.outOfBandDelete) {
        await step(row, "out-of-band delete", () => row.outOfBandDelete!(env, id, state as Json, parents));
        read = await step(row, "read (after delete)", () => plugin.read(main, id, withProvider(current), state));
        expect(read.id).toBe("");
      }
      await step(row, "delete", () => plugin.delete(main, id, state));

      // adopt: take over an existing object by its natural key instead of creating a second one.
      if (row.adopt) {
        const existing = await step(row, "adopt (prepare)", () => row.adopt!.prepare(env, parents));
        const adoptInputs = { ...row.adopt.inputs(env, parents), adopt: true };
        const adopter = urn(`adopt-${++counter}`);
        const adopted = await step(row, "create (adopt)", () => plugin.create(adopter, withProvider(adoptInputs)));
        expect(adopted.id).toBe(existing);
        const da = await step(row, "diff (adopted)", () => plugin.diff(adopter, adopted.id, adopted.outputs, withProvider(adoptInputs)));
        expect(da.changes).toBe(false);
        await step(row, "delete (adopted)", () => plugin.delete(adopter, adopted.id, adopted.outputs));
      }
    } finally {
      await row.teardown?.(env, parents).catch(() => undefined);
    }
  });
});
