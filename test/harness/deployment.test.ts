import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Deployment,
  Semaphore,
  applyIgnoreChanges,
  deleteInReverseOrder,
  makeUrn,
  opLabel,
  type DeploymentContext,
  type Registration,
} from "./deployment";
import { startPlugin, type PluginDriver } from "./plugin";
import { sortByDependencies, toStateFile, type StateResource } from "./state";
import { PROVIDER_KEY, SECRET_SIG, SIG_KEY, annotateSecrets, fromStateValue, isSecret, secret, toStateValue } from "./values";

const FIXTURE = path.resolve(__dirname, "../fixtures/driver");
const PROVIDER = `exports.handler = () => require(${JSON.stringify(path.join(FIXTURE, "provider.js"))});\n`;
const STACK_URN = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev";
const TYPE = "pulumi-nodejs:dynamic/test:Thing";

function reg(name: string, object: Record<string, string>, extra: Partial<Registration> = {}): Registration {
  return {
    type: TYPE,
    name,
    parent: STACK_URN,
    custom: true,
    object: { [PROVIDER_KEY]: PROVIDER, ...object },
    dependencies: [],
    propertyDependencies: {},
    protect: undefined,
    deleteBeforeReplace: false,
    ignoreChanges: [],
    replaceOnChanges: [],
    additionalSecretOutputs: [],
    aliasUrns: [],
    importId: "",
    retainOnDelete: undefined,
    provider: "",
    remote: false,
    ...extra,
  };
}

const urnOf = (name: string) => makeUrn("dev", "proj", STACK_URN, TYPE, name);

describe("makeUrn", () => {
  it("omits the root stack's type and chains component types", () => {
    expect(urnOf("a")).toBe(`urn:pulumi:dev::proj::${TYPE}::a`);
    const component = makeUrn("dev", "proj", STACK_URN, "my:index:Group", "g");
    expect(makeUrn("dev", "proj", component, TYPE, "b")).toBe(`urn:pulumi:dev::proj::my:index:Group$${TYPE}::b`);
    const nested = makeUrn("dev", "proj", makeUrn("dev", "proj", component, TYPE, "b"), TYPE, "c");
    expect(nested).toBe(`urn:pulumi:dev::proj::my:index:Group$${TYPE}$${TYPE}::c`);
  });
});

describe("Deployment with the real plugin", () => {
  let plugin: PluginDriver;
  let state: StateResource[] = [];
  const ctx = (): DeploymentContext => ({
    project: "proj",
    stack: "dev",
    parallel: 4,
    plugin: () => Promise.resolve(plugin),
    persist: (resources) => {
      state = resources;
      writes++;
    },
  });
  let writes = 0;

  /** Runs one update with the given registrations; returns its steps as `op name` strings. */
  async function run(regs: Registration[], opts: { preview?: boolean } = {}): Promise<{ steps: string[]; dep: Deployment }> {
    const dep = new Deployment(ctx(), state, opts.preview ?? false);
    await Promise.allSettled(regs.map((r) => dep.register(r)));
    await dep.finish(true);
    const steps = dep.steps.map((s) => `${s.op} ${s.urn.slice(s.urn.lastIndexOf("::") + 2)}`).sort();
    return { steps, dep };
  }

  beforeAll(async () => {
    plugin = await startPlugin({ cwd: FIXTURE, config: {} });
  });
  afterAll(async () => {
    await plugin?.close();
  });

  it("creates, keeps, updates, replaces and deletes", async () => {
    state = [];
    const preview = await run([reg("a", { title: "one", kind: "x" })], { preview: true });
    expect(preview.steps).toEqual(["create a"]);
    expect(state).toEqual([]);

    expect((await run([reg("a", { title: "one", kind: "x" })])).steps).toEqual(["create a"]);
    expect((await run([reg("a", { title: "one", kind: "x" })])).steps).toEqual(["same a"]);
    const updated = await run([reg("a", { title: "two", kind: "x" })]);
    expect(updated.steps).toEqual(["update a"]);
    expect(updated.dep.steps[0]!.diffs).toEqual(["title"]);
    expect(state.find((r) => r.urn === urnOf("a"))!.outputs).toMatchObject({ title: "two", previous: "one" });

    const replaced = await run([reg("a", { title: "two", kind: "y" })]);
    expect(replaced.steps).toEqual(["replace a"]);
    expect(replaced.dep.steps[0]!.diffs).toEqual(["kind"]);
    expect(state.filter((r) => r.urn === urnOf("a"))).toHaveLength(1);

    expect((await run([])).steps).toEqual(["delete a"]);
    expect(state).toEqual([]);
  });

  it("writes the state once, at its end, for a run of same steps that change nothing (as the CLI elides their writes); a same step with new dependencies writes at once", async () => {
    state = [];
    const regs = ["a", "b", "c"].map((n) => reg(n, { title: n, kind: "x" }));
    await run(regs);
    writes = 0;
    const dep = new Deployment(ctx(), state, false);
    await Promise.all(regs.map((r) => dep.register(r)));
    // Let any scheduled write happen: none is, the steps changed nothing the state holds.
    await new Promise((resolve) => setImmediate(resolve));
    // The default provider's entry is the run's first registration and is written as the CLI records it.
    const during = writes;
    await dep.finish(true);
    expect(dep.steps.map((st) => st.op)).toEqual(["same", "same", "same"]);
    expect(writes).toBe(during + 1);
    expect(state.filter((r) => r.type === TYPE)).toHaveLength(3);

    writes = 0;
    const moved = new Deployment(ctx(), state, false);
    await moved.register(reg("a", { title: "a", kind: "x" }, { dependencies: [urnOf("b")] }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toBeGreaterThan(0);
    expect(moved.steps.map((st) => st.op)).toEqual(["same"]);
    await moved.finish(true);
  });

  it("keeps a replaced object as a pending delete until the end of the run", async () => {
    state = [];
    await run([reg("a", { title: "one", kind: "x" })]);
    const dep = new Deployment(ctx(), state, false);
    await dep.register(reg("a", { title: "one", kind: "y" }));
    dep.flush();
    expect(state.filter((r) => r.urn === urnOf("a")).map((r) => Boolean(r.delete)).sort()).toEqual([false, true]);
    await dep.finish(true);
    expect(state.filter((r) => r.urn === urnOf("a"))).toHaveLength(1);
    expect(state.some((r) => r.delete)).toBe(false);
    await run([]);
  });

  it("honours ignoreChanges, replaceOnChanges, aliases and protect", async () => {
    state = [];
    await run([reg("a", { title: "one", kind: "x" })]);
    expect((await run([reg("a", { title: "two", kind: "x" }, { ignoreChanges: ["title"] })])).steps).toEqual(["same a"]);
    expect(state.find((r) => r.urn === urnOf("a"))!.inputs["title"]).toBe("one");
    expect((await run([reg("a", { title: "two", kind: "x" }, { replaceOnChanges: ["title"] })])).steps).toEqual(["replace a"]);

    // Renamed with an alias: the same object, nothing deleted.
    expect((await run([reg("b", { title: "two", kind: "x" }, { aliasUrns: [urnOf("a")] })])).steps).toEqual(["same b"]);
    expect(state.map((r) => r.urn)).not.toContain(urnOf("a"));

    await run([reg("b", { title: "two", kind: "x" }, { protect: true })]);
    const blocked = await run([]);
    expect(blocked.dep.errors.map((e) => e.message)).toEqual([`${urnOf("b")}: resource is protected and cannot be deleted; set protect: false first`]);
    expect(state.map((r) => r.urn)).toContain(urnOf("b"));
    await run([reg("b", { title: "two", kind: "x" })]);
    await run([]);
    expect(state.filter((r) => r.custom && r.type === TYPE)).toEqual([]);
  });

  it("records a changed retainOnDelete on a same step; a retained delete or replace never calls Delete and is shown as [retain]", async () => {
    state = [];
    const stored = () => state.find((r) => r.urn === urnOf("a") && !r.delete);
    // The fixture's Delete fails for this title: a delete that succeeds never reached the provider.
    const a = (extra: Partial<Registration> = {}, kind = "x") => reg("a", { title: "undeletable", kind }, extra);
    await run([a()]);

    // Only the option changes: a same step (no provider call but Check and Diff), its new value recorded.
    expect((await run([a({ retainOnDelete: true })])).steps).toEqual(["same a"]);
    expect(stored()?.retainOnDelete).toBe(true);
    expect((await run([], { preview: true })).dep.steps.map(opLabel)).toEqual(["delete[retain]"]);

    // Taken back: a same step again, recorded, and the delete is a plain one that reaches the provider.
    expect((await run([a()])).steps).toEqual(["same a"]);
    expect(stored()?.retainOnDelete).toBeUndefined();
    expect((await run([], { preview: true })).dep.steps.map(opLabel)).toEqual(["delete"]);
    const refused = await run([]);
    expect(refused.dep.errors.map((e) => e.message)).toEqual([expect.stringContaining(`${urnOf("a")}: delete failed: `)]);
    expect(stored()).toBeDefined();

    // The replace of a retained object leaves the old one in place (it would fail to delete otherwise).
    await run([a({ retainOnDelete: true })]);
    const replaced = await run([a({ retainOnDelete: true }, "y")]);
    expect(replaced.dep.errors).toEqual([]);
    expect(replaced.dep.steps.map(opLabel)).toEqual(["replace[retain]"]);

    // Removed while retained: it leaves the state, Delete is not called.
    const removed = await run([]);
    expect(removed.dep.errors).toEqual([]);
    expect(removed.dep.steps.map(opLabel)).toEqual(["delete[retain]"]);
    expect(state.filter((r) => r.type === TYPE)).toEqual([]);
  });

  it("gives a resource without retainOnDelete its parent's, as the engine does", async () => {
    state = [];
    const groupUrn = makeUrn("dev", "proj", STACK_URN, "my:index:Group", "g");
    const childUrn = makeUrn("dev", "proj", groupUrn, TYPE, "c");
    /** One update registering the retained group, then its child (a child is registered once its parent is). */
    const withChild = async (extra: Partial<Registration> = {}) => {
      const dep = new Deployment(ctx(), state, false);
      await dep.register(reg("g", {}, { type: "my:index:Group", custom: false, retainOnDelete: true }));
      await dep.register(reg("c", { title: "undeletable", kind: "x" }, { parent: groupUrn, ...extra }));
      await dep.finish(true);
      return dep.steps.filter((s) => s.custom).map(opLabel);
    };
    expect(await withChild()).toEqual(["create"]);
    expect(state.find((r) => r.urn === childUrn)?.retainOnDelete).toBe(true);
    // Its own `false` wins over the parent's.
    expect(await withChild({ retainOnDelete: false })).toEqual(["same"]);
    expect(state.find((r) => r.urn === childUrn)?.retainOnDelete).toBeUndefined();
    expect(await withChild()).toEqual(["same"]);
    const removed = await run([]);
    expect(removed.dep.errors).toEqual([]);
    expect(removed.dep.steps.filter((s) => s.custom).map(opLabel)).toEqual(["delete[retain]"]);
    expect(state.filter((r) => r.type === TYPE)).toEqual([]);
  });

  it("reports check failures as a failed step naming the property", async () => {
    state = [];
    const { dep } = await run([reg("a", { title: "" })]);
    expect(dep.errors.map((e) => e.message)).toEqual([`${urnOf("a")}: check failed: title: title: must be 1 to 64 characters`]);
    expect(state.filter((r) => r.type === TYPE)).toEqual([]);
  });

  it("keeps an object that was created but failed to initialise, with its errors, and updates it on the next run", async () => {
    state = [];
    const { dep } = await run([reg("a", { title: "half" })]);
    expect(dep.errors).toHaveLength(1);
    const kept = state.find((r) => r.urn === urnOf("a"));
    expect(kept).toMatchObject({ id: "obj-half", initErrors: ["not ready"] });
    // The error's properties as they are, as the engine stores them.
    expect(kept!.outputs).toEqual({ title: "half" });

    // Diff finds no change, yet the engine updates an object with init errors so the provider can finish it.
    const next = await run([reg("a", { title: "half" })]);
    expect(next.steps).toEqual(["update a"]);
    const finished = state.find((r) => r.urn === urnOf("a"))!;
    expect(finished).toMatchObject({ id: "obj-half", outputs: { title: "half", previous: "half" } });
    expect(finished.initErrors).toBeUndefined();
    expect((await run([])).steps).toEqual(["delete a"]);
    expect(state.filter((r) => r.type === TYPE)).toEqual([]);
  });

  it("marks outputs secret where the input was secret and for additionalSecretOutputs", async () => {
    state = [];
    const secretReg = reg("s", { title: "t" }, { additionalSecretOutputs: ["title"] });
    secretReg.object["secretInput"] = secret("hush");
    await run([secretReg]);
    const outputs = state.find((r) => r.urn === urnOf("s"))!.outputs;
    expect(isSecret(outputs["secretInput"])).toBe(true);
    expect(isSecret(outputs["title"])).toBe(true);
    expect(JSON.stringify(toStateFile(state))).not.toContain('"hush"');
    await run([]);
  });
});

describe("deleteInReverseOrder", () => {
  const res = (urn: string, deps: string[] = [], parent?: string): StateResource => ({
    urn, custom: true, type: TYPE, inputs: {}, outputs: {}, dependencies: deps, ...(parent ? { parent } : {}),
  });

  it("deletes dependents before what they depend on, independent ones concurrently", async () => {
    const site = res("site");
    const section = res("section", ["site"]);
    const link = res("link", [], "site");
    const team = res("team");
    const order: string[] = [];
    let active = 0;
    let maxActive = 0;
    await deleteInReverseOrder([site, section, link, team], new Semaphore(10), async (r) => {
      active++;
      maxActive = Math.max(maxActive, active);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(r.urn);
      active--;
    });
    expect(order.indexOf("site")).toBeGreaterThan(order.indexOf("section"));
    expect(order.indexOf("site")).toBeGreaterThan(order.indexOf("link"));
    expect(maxActive).toBeGreaterThan(1);
  });

  it("does not delete what a failed deletion depends on", async () => {
    const site = res("site");
    const section = res("section", ["site"]);
    const deleted: string[] = [];
    const err = await deleteInReverseOrder([site, section], new Semaphore(1), async (r) => {
      if (r.urn === "section") throw new Error("section refused");
      deleted.push(r.urn);
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AggregateError);
    expect(deleted).toEqual([]);
  });

  it("orders state so dependencies come first", () => {
    const sorted = sortByDependencies([res("c", ["b"]), res("b", ["a"]), res("a")]);
    expect(sorted.map((r) => r.urn)).toEqual(["a", "b", "c"]);
  });
});

describe("value forms", () => {
  it("round-trips secrets through the state-file form", () => {
    const value = { a: secret({ deep: [1, "x"] }), b: "plain" };
    const stored = toStateValue(value);
    expect(stored).toEqual({ a: { [SIG_KEY]: SECRET_SIG, plaintext: '{"deep":[1,"x"]}' }, b: "plain" });
    expect(fromStateValue(stored)).toEqual(value);
  });

  it("re-marks outputs whose input was secret", () => {
    expect(annotateSecrets({ a: "1", b: "2", c: "3" }, { a: secret("1"), b: "2" }, ["c"])).toEqual({
      a: secret("1"),
      b: "2",
      c: secret("3"),
    });
  });

  it("keeps old values of ignored paths, nested ones included", () => {
    expect(applyIgnoreChanges({ a: "new", o: { x: "new", y: "new" } }, { a: "old", o: { x: "old", y: "old" } }, ["a", "o.x"])).toEqual({
      a: "old",
      o: { x: "old", y: "new" },
    });
  });
});
