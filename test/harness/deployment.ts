/**
 * The part of the Pulumi engine the harness reproduces: turning registrations into steps against the
 * previous state (Check → Diff → Create/Update/Replace/Same), deleting what the program no longer declares
 * in reverse dependency order, refresh and destroy. Provider calls go to the real dynamic-provider plugin.
 */
import type { PendingOperation } from "./state";
import { randomUUID } from "node:crypto";
import type { PluginDriver } from "./plugin";
import { PluginError } from "./plugin";
import { DYNAMIC_PROVIDER_TYPE, STACK_TYPE, type StateResource, dependenciesOf } from "./state";
import {
  type PropertyMap,
  type PropertyValue,
  UNKNOWN,
  annotateSecrets,
  changedKeys,
  deepEqual,
  isSecret,
  secret,
} from "./values";

/** What happened to one resource in a run. */
export type StepOp = "create" | "update" | "replace" | "delete" | "same" | "read" | "refresh-gone" | "drift";

/** One step of a run. `diffs` names the properties that changed (update, replace, drift). */
export interface Step {
  urn: string;
  type: string;
  op: StepOp;
  /** True for provider-managed (custom) resources, false for components and the stack. */
  custom: boolean;
  diffs?: string[];
  /** Set when the step failed. */
  error?: string;
  /**
   * Set on a delete or replace whose old state has `retainOnDelete`: the object leaves the state and is
   * never deleted (the CLI shows the operation as `delete[retain]`, see {@link opLabel}).
   */
  retain?: true;
}

/**
 * A step's operation as the CLI's display shows it: `[retain]` appended to a delete or replace of a
 * resource whose old state has `retainOnDelete` (pkg/backend/display/object_diff.go `addRetainStatusFlag`).
 */
export function opLabel(step: Pick<Step, "op" | "retain">): string {
  return step.retain ? `${step.op}[retain]` : step.op;
}

/** The step of deleting `r` (or of the replace that discards it), flagged as the CLI flags a retained one. */
function discardStep(r: StateResource, op: "delete" | "replace", extra: Partial<Step> = {}): Step {
  return { urn: r.urn, type: r.type, op, custom: r.custom, ...extra, ...(r.retainOnDelete ? { retain: true } : {}) };
}

/** A resource registration as the language host sent it (RegisterResourceRequest, decoded). */
export interface Registration {
  type: string;
  name: string;
  parent: string;
  custom: boolean;
  object: PropertyMap;
  dependencies: string[];
  propertyDependencies: Record<string, string[]>;
  protect: boolean | undefined;
  deleteBeforeReplace: boolean;
  ignoreChanges: string[];
  replaceOnChanges: string[];
  additionalSecretOutputs: string[];
  aliasUrns: string[];
  importId: string;
  retainOnDelete: boolean | undefined;
  provider: string;
  remote: boolean;
}

/** The engine's answer to a registration. */
export interface RegistrationResult {
  urn: string;
  id: string;
  outputs: PropertyMap;
}

/** What a deployment needs from its runner. */
export interface DeploymentContext {
  project: string;
  stack: string;
  /** Maximum concurrent provider operations (Pulumi's `--parallel`; default unbounded). */
  parallel: number;
  /** The plugin, started and configured for this run. */
  plugin(): Promise<PluginDriver>;
  /** Persists the state and the operations in flight (omitted in preview, which never writes state). */
  persist?: (resources: StateResource[], pendingOperations?: PendingOperation[]) => void;
  /** Kill the engine and the plugin at one create (see {@link CrashPlan}). */
  crash?: CrashPlan;
}

/**
 * Where a run dies as a CLI killed with its plugin does (runner killed, out of memory, CI cancelled), at
 * the first create `matches` accepts: `before-send` (the plugin killed as the engine hands it the create),
 * `in-flight` (killed once `until` resolves, e.g. when the platform has committed the object but not
 * answered), `after-answer` (the plugin answered; the engine dies before recording it). The state is
 * left as the engine last wrote it — with the create as a pending operation — and nothing more is written.
 */
export interface CrashPlan {
  matches(urn: string): boolean;
  at: "before-send" | "in-flight" | "after-answer";
  until?: () => Promise<void>;
}

/** Bounds concurrency. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** True for the resource types the dynamic-provider plugin serves. */
export function isDynamicType(type: string): boolean {
  return type.startsWith("pulumi-nodejs:dynamic");
}

/** Builds a URN the way the engine does: parent types are prefixed (`A$B`), except the root stack's. */
export function makeUrn(stack: string, project: string, parent: string, type: string, name: string): string {
  let qualified = type;
  if (parent) {
    const parentQualified = parent.split("::")[2] ?? "";
    const parentType = parentQualified.slice(parentQualified.lastIndexOf("$") + 1);
    if (parentType !== STACK_TYPE) qualified = `${parentQualified}$${type}`;
  }
  return `urn:pulumi:${stack}::${project}::${qualified}::${name}`;
}

function now(): string {
  return new Date().toISOString();
}

/** Copies the old value of each ignored property path into the new inputs, as `ignoreChanges` asks. */
export function applyIgnoreChanges(news: PropertyMap, olds: PropertyMap, paths: readonly string[]): PropertyMap {
  if (paths.length === 0) return news;
  const out = structuredClone(news);
  for (const p of paths) {
    const parts = p.split(".");
    let src: PropertyValue | undefined = olds;
    let dst: PropertyMap = out;
    for (let i = 0; i < parts.length; i++) {
      const key = parts[i]!;
      const last = i === parts.length - 1;
      const srcObj: PropertyMap | undefined =
        src !== null && typeof src === "object" && !Array.isArray(src) ? (src as PropertyMap) : undefined;
      if (last) {
        if (srcObj && key in srcObj) dst[key] = srcObj[key]!;
        else delete dst[key];
      } else {
        src = srcObj?.[key];
        const next = dst[key];
        if (next === null || typeof next !== "object" || Array.isArray(next)) break;
        dst = next as PropertyMap;
      }
    }
  }
  return out;
}

/** Error raised for a step; names the resource. */
export class StepError extends Error {
  constructor(
    readonly urn: string,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(`${urn}: ${message}`);
    this.name = "StepError";
  }
}

function describe(e: unknown): string {
  if (e instanceof PluginError) return e.details;
  return e instanceof Error ? e.message : String(e);
}

/**
 * One preview or update driven by a program: the monitor hands it each registration, then calls
 * {@link finish} once the program is done.
 */
export class Deployment {
  readonly steps: Step[] = [];
  readonly errors: StepError[] = [];
  /** Stack outputs registered by the program. */
  stackOutputs: PropertyMap = {};

  private readonly live = new Map<string, StateResource>();
  private readonly pendingDeletes: StateResource[] = [];
  private readonly registered = new Map<string, StateResource>();
  private readonly seen = new Set<string>();
  private readonly consumed = new Set<string>();
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly sem: Semaphore;
  private providerRef: string | undefined;
  private dirty = false;
  /** A same step's write was left out (see {@link sameStepMustWrite}): the next write or the run's end makes it. */
  private elided = false;
  private flushScheduled = false;
  private halted = false;
  /** Operations in flight, after those a previous run left (which the engine keeps until a refresh clears them). */
  private readonly pendingOps: PendingOperation[];
  /** Set when the run died (see {@link CrashPlan}): nothing more is written. */
  private dead = false;
  /** Called once, at the first failed step: the engine then stops the program (no `--continue-on-error`). */
  onHalt: (() => void) | undefined;

  constructor(
    private readonly ctx: DeploymentContext,
    old: readonly StateResource[],
    private readonly preview: boolean,
    pendingOperations: readonly PendingOperation[] = [],
  ) {
    this.pendingOps = [...pendingOperations];
    for (const r of old) {
      if (r.delete) this.pendingDeletes.push(r);
      else this.live.set(r.urn, r);
    }
    this.sem = new Semaphore(ctx.parallel);
  }

  /** The state as it stands: this run's resources, untouched old ones, and pending deletions. */
  snapshot(): StateResource[] {
    const untouched = [...this.live.values()].filter((r) => !this.consumed.has(r.urn));
    return [...this.registered.values(), ...untouched, ...this.pendingDeletes];
  }

  /** Handles RegisterResource. */
  register(reg: Registration): Promise<RegistrationResult> {
    const p = this.doRegister(reg);
    this.track(p);
    return p;
  }

  /** Handles RegisterResourceOutputs. */
  registerOutputs(urn: string, outputs: PropertyMap): void {
    const r = this.registered.get(urn);
    if (!r) throw new StepError(urn, "outputs registered for an unknown resource");
    r.outputs = outputs;
    if (r.type === STACK_TYPE) this.stackOutputs = outputs;
    this.markDirty();
  }

  /** Handles ReadResource (`Resource.get`): reads an existing object through the plugin. */
  read(type: string, name: string, parent: string, id: string, props: PropertyMap, dependencies: string[]): Promise<RegistrationResult> {
    const p = this.doRead(type, name, parent, id, props, dependencies);
    this.track(p);
    return p;
  }

  /** Waits for every registration in flight. */
  async settle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /**
   * Completes the run once the program has exited. When it succeeded and no step failed, deletes what
   * the program no longer declares (and replaced objects) in reverse dependency order.
   */
  async finish(programSucceeded: boolean): Promise<void> {
    await this.settle();
    if (programSucceeded && this.errors.length === 0) {
      const candidates = [...[...this.live.values()].filter((r) => !this.consumed.has(r.urn)), ...this.pendingDeletes];
      const staying = this.snapshot().filter((r) => !candidates.includes(r));
      // The default provider goes only when nothing that stays still uses it.
      const targets = candidates.filter(
        (r) => r.type !== DYNAMIC_PROVIDER_TYPE || !staying.some((o) => o.provider === `${r.urn}::${r.id}`),
      );
      if (this.preview) {
        for (const r of targets) {
          if (!r.delete && r.type !== DYNAMIC_PROVIDER_TYPE) this.steps.push(discardStep(r, "delete"));
        }
      } else {
        await deleteInReverseOrder(targets, this.sem, async (r) => {
          await deleteResource(this.ctx, r);
          this.forget(r);
          if (!r.delete && r.type !== DYNAMIC_PROVIDER_TYPE) this.steps.push(discardStep(r, "delete"));
        }).catch((e: unknown) => {
          for (const x of (e as AggregateError).errors as unknown[]) {
            this.errors.push(x instanceof StepError ? x : new StepError("", describe(x), x));
          }
        });
      }
    }
    this.flush();
  }

  private forget(r: StateResource): void {
    const i = this.pendingDeletes.indexOf(r);
    if (i >= 0) this.pendingDeletes.splice(i, 1);
    else this.consumed.add(r.urn);
    this.markDirty();
  }

  private track(p: Promise<unknown>): void {
    this.inflight.add(p);
    const done = () => this.inflight.delete(p);
    p.then(done, done);
  }

  private markDirty(): void {
    if (this.preview || !this.ctx.persist) return;
    this.dirty = true;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** After a same step: a write only when the CLI would make one (see {@link sameStepMustWrite}). */
  private markSame(old: StateResource, next: StateResource): void {
    if (sameStepMustWrite(old, next)) this.markDirty();
    else if (!this.preview && this.ctx.persist) this.elided = true;
  }

  /** Writes the state now if anything changed. */
  flush(): void {
    this.flushScheduled = false;
    if (!(this.dirty || this.elided) || this.preview || !this.ctx.persist || this.dead) return;
    this.dirty = false;
    this.elided = false;
    this.ctx.persist(this.snapshot(), this.pendingOps);
  }

  /** Pending operations from a previous run that died, as the next `up` warns about them. */
  get inheritedPendingOperations(): readonly PendingOperation[] {
    return this.pendingOps;
  }

  /** The engine and the plugin die at `urn`'s create: the state stays as last written, with the create pending. */
  private die(plugin: PluginDriver, urn: string, at: string): never {
    this.dirty = true;
    this.flush();
    this.dead = true;
    plugin.kill();
    return this.fail(urn, `the engine and the plugin were killed (${at})`);
  }

  private fail(urn: string, message: string, cause?: unknown): never {
    const err = new StepError(urn, message, cause);
    this.errors.push(err);
    if (!this.halted) {
      this.halted = true;
      this.onHalt?.();
    }
    throw err;
  }

  private async defaultProvider(): Promise<string> {
    if (this.providerRef) return this.providerRef;
    const urn = makeUrn(this.ctx.stack, this.ctx.project, "", DYNAMIC_PROVIDER_TYPE, "default");
    const old = this.live.get(urn);
    const entry: StateResource = old
      ? { ...old }
      : { urn, custom: true, id: this.preview ? UNKNOWN : randomUUID(), type: DYNAMIC_PROVIDER_TYPE, inputs: {}, outputs: {}, created: now(), modified: now() };
    this.consumed.add(urn);
    this.registered.set(urn, entry);
    this.providerRef = `${urn}::${entry.id}`;
    this.markDirty();
    return this.providerRef;
  }

  /** The previous state of a resource, found by its URN or, for a renamed resource, by one of its aliases. */
  private claimOld(urn: string, aliases: readonly string[]): StateResource | undefined {
    const direct = this.live.get(urn);
    if (direct && !this.consumed.has(urn)) return direct;
    for (const alias of aliases) {
      const old = this.live.get(alias);
      if (old && !this.consumed.has(alias) && !this.seen.has(alias)) return old;
    }
    return undefined;
  }

  private async doRegister(reg: Registration): Promise<RegistrationResult> {
    const urn = makeUrn(this.ctx.stack, this.ctx.project, reg.parent, reg.type, reg.name);
    // After a failed step the engine starts no new step; the program is being stopped.
    if (this.halted) throw new StepError(urn, "not registered: the update is stopping after an earlier error");
    if (this.seen.has(urn)) this.fail(urn, "Duplicate resource URN; each resource needs a unique name within its parent and type");
    this.seen.add(urn);
    const old = this.claimOld(urn, reg.aliasUrns);
    const base: StateResource = {
      urn,
      custom: reg.custom,
      type: reg.type,
      inputs: reg.object,
      outputs: {},
      ...(reg.parent ? { parent: reg.parent } : {}),
      ...(reg.protect ? { protect: true } : {}),
      dependencies: reg.dependencies,
      propertyDependencies: reg.propertyDependencies,
      ...(reg.additionalSecretOutputs.length ? { additionalSecretOutputs: reg.additionalSecretOutputs } : {}),
      ...(reg.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
      // Unset, it is the parent's, as the engine's `inheritFromParent` (source_eval.go) makes it.
      ...((reg.retainOnDelete ?? this.registered.get(reg.parent)?.retainOnDelete) ? { retainOnDelete: true } : {}),
      ...(reg.aliasUrns.length ? { aliases: reg.aliasUrns } : {}),
    };

    if (!reg.custom) return this.registerComponent(base, old);

    if (!isDynamicType(reg.type)) {
      this.fail(urn, `only dynamic resources (pulumi-nodejs:dynamic…) can be run by this harness, not ${reg.type}`);
    }
    if (reg.provider) this.fail(urn, "explicit providers are not supported for dynamic resources");
    if (reg.importId) this.fail(urn, "the import option does not work with dynamic providers (pulumi#16175); use adopt");
    if (reg.remote) this.fail(urn, "remote (multi-language) components are not supported");
    base.provider = await this.defaultProvider();
    return this.sem.run(() => this.registerCustom(base, old, reg));
  }

  private registerComponent(next: StateResource, old: StateResource | undefined): RegistrationResult {
    if (old) this.consumed.add(old.urn);
    const op: StepOp = !old ? "create" : deepEqual(old.inputs, next.inputs) ? "same" : "update";
    next.outputs = old ? old.outputs : {};
    next.created = old?.created ?? now();
    next.modified = op === "same" ? old?.modified : now();
    this.registered.set(next.urn, next);
    this.steps.push({ urn: next.urn, type: next.type, op, custom: false });
    if (old && op === "same") this.markSame(old, next);
    else this.markDirty();
    return { urn: next.urn, id: "", outputs: {} };
  }

  private async registerCustom(next: StateResource, old: StateResource | undefined, reg: Registration): Promise<RegistrationResult> {
    const { urn } = next;
    const plugin = await this.ctx.plugin();
    const news = old ? applyIgnoreChanges(reg.object, old.inputs, reg.ignoreChanges) : reg.object;

    let checked: PropertyMap;
    try {
      const result = await plugin.check(urn, old?.inputs ?? {}, news);
      if (result.failures.length > 0) {
        const list = result.failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
        this.fail(urn, `check failed: ${list}`);
      }
      checked = annotateSecrets(result.inputs, news);
    } catch (e) {
      if (e instanceof StepError) throw e;
      this.fail(urn, `check failed: ${describe(e)}`, e);
    }
    next.inputs = checked;

    if (!old) return this.create(next, "create", []);

    if (old.id === undefined) this.fail(urn, "state has no id for this resource");
    this.consumed.add(old.urn);
    const inputDiff = changedKeys(old.inputs, checked);
    let op: "same" | "update" | "replace";
    let replaces: string[] = [];
    let deleteBeforeReplace = reg.deleteBeforeReplace;
    try {
      const diff = await plugin.diff(urn, old.id, old.outputs, checked, { oldInputs: old.inputs, ignoreChanges: reg.ignoreChanges });
      if (diff.changes === undefined) {
        // No `diff` in the provider: the engine compares old and new inputs itself.
        op = deepEqual(old.inputs, checked) ? "same" : "update";
      } else {
        op = diff.changes ? (diff.replaces.length > 0 ? "replace" : "update") : "same";
      }
      replaces = diff.replaces;
      deleteBeforeReplace ||= diff.deleteBeforeReplace;
    } catch (e) {
      this.consumed.delete(old.urn);
      this.fail(urn, `diff failed: ${describe(e)}`, e);
    }
    // An object that failed to initialise is updated even when nothing changed, so the provider can finish it.
    if (op === "same" && (old.initErrors?.length ?? 0) > 0) op = "update";
    const forced = reg.replaceOnChanges.includes("*") ? inputDiff : inputDiff.filter((k) => reg.replaceOnChanges.includes(k));
    if (op !== "same" && forced.length > 0) {
      op = "replace";
      replaces = [...new Set([...replaces, ...forced])];
    }
    const diffs = [...new Set([...inputDiff, ...replaces])].sort();

    if (op === "same") {
      Object.assign(next, { id: old.id, outputs: old.outputs, created: old.created, modified: old.modified });
      this.registered.set(urn, next);
      this.steps.push({ urn, type: next.type, op: "same", custom: true });
      this.markSame(old, next);
      return { urn, id: old.id, outputs: old.outputs };
    }
    if (op === "update") return this.update(next, old, diffs);

    // Replace.
    if (old.protect) {
      this.consumed.delete(old.urn);
      this.fail(urn, "resource is protected and cannot be replaced; set protect: false first");
    }
    next.deleteBeforeReplace = deleteBeforeReplace || undefined;
    if (deleteBeforeReplace && !this.preview) {
      try {
        await deleteResource(this.ctx, old);
      } catch (e) {
        this.consumed.delete(old.urn);
        this.fail(urn, `delete before replace failed: ${describe(e)}`, e);
      }
      this.markDirty();
      return this.create(next, "replace", diffs, old);
    }
    let result: RegistrationResult;
    try {
      result = await this.create(next, "replace", diffs, old);
    } catch (e) {
      // The old object stays live unless a half-initialised replacement took its place.
      if (this.registered.has(urn)) this.pendingDeletes.push({ ...old, delete: true });
      else this.consumed.delete(old.urn);
      throw e;
    }
    if (!this.preview) this.pendingDeletes.push({ ...old, delete: true });
    this.markDirty();
    return result;
  }

  /** Creates `next`, or its replacement of `replaced` (whose deletion the caller handles). */
  private async create(next: StateResource, op: "create" | "replace", diffs: string[], replaced?: StateResource): Promise<RegistrationResult> {
    const { urn } = next;
    const step: Step = replaced ? { ...discardStep(replaced, "replace", { diffs }), urn, type: next.type, custom: true } : { urn, type: next.type, op, custom: true };
    if (this.preview) {
      // The dynamic provider does not support previews: the engine does not call Create and hands back no
      // outputs, so the program sees every output (and the id) as unknown.
      this.steps.push(step);
      return { urn, id: "", outputs: {} };
    }
    const plugin = await this.ctx.plugin();
    if (this.dead) this.fail(urn, "not attempted: the engine was killed");
    // Recorded before the provider is called; removed when the call returns, failed or not.
    const pending: PendingOperation = { resource: { ...next }, type: "creating" };
    this.pendingOps.push(pending);
    this.markDirty();
    const crash = this.ctx.crash?.matches(urn) ? this.ctx.crash : undefined;
    if (crash) this.ctx.crash = undefined;
    try {
      if (crash?.at === "before-send") this.die(plugin, urn, "before the create was sent");
      const call = plugin.create(urn, next.inputs);
      if (crash?.at === "in-flight") {
        call.catch(() => undefined);
        await crash.until!();
        this.die(plugin, urn, "while the create was in flight");
      }
      const created = await call;
      if (crash?.at === "after-answer") this.die(plugin, urn, "after the create's answer, before the engine recorded it");
      if (this.dead) this.fail(urn, "the engine was killed");
      this.pendingOps.splice(this.pendingOps.indexOf(pending), 1);
      next.id = created.id;
      next.outputs = annotateSecrets(created.outputs, next.inputs, next.additionalSecretOutputs ?? []);
    } catch (e) {
      if (this.dead) throw e;
      this.pendingOps.splice(this.pendingOps.indexOf(pending), 1);
      const init = e instanceof PluginError ? e.initFailure : undefined;
      if (init?.id) {
        // Created but failed to initialise: the engine keeps the object in state so the next run can finish it.
        // Its outputs are the error's properties as they are (a provider that later reads or deletes the object
        // through the dynamic-provider plugin must include `__provider` in them itself).
        next.id = init.id;
        next.outputs = annotateSecrets(init.outputs, next.inputs, next.additionalSecretOutputs ?? []);
        next.initErrors = init.reasons;
        next.created = next.modified = now();
        this.registered.set(urn, next);
        this.markDirty();
      }
      this.steps.push({ ...step, error: describe(e) });
      this.fail(urn, `${op === "replace" ? "creating the replacement" : "create"} failed: ${describe(e)}`, e);
    }
    next.created = next.modified = now();
    this.registered.set(urn, next);
    this.steps.push(step);
    this.markDirty();
    return { urn, id: next.id, outputs: next.outputs };
  }

  private async update(next: StateResource, old: StateResource, diffs: string[]): Promise<RegistrationResult> {
    const { urn } = next;
    const id = old.id!;
    const step: Step = { urn, type: next.type, op: "update", custom: true, diffs };
    next.id = id;
    next.created = old.created;
    if (this.preview) {
      // Without preview support the engine answers an update's preview with the new inputs as outputs.
      next.outputs = next.inputs;
      this.steps.push(step);
      return { urn, id, outputs: next.inputs };
    }
    const plugin = await this.ctx.plugin();
    try {
      const outs = await plugin.update(urn, id, old.outputs, next.inputs, { oldInputs: old.inputs });
      next.outputs = annotateSecrets(outs, next.inputs, next.additionalSecretOutputs ?? []);
    } catch (e) {
      const init = e instanceof PluginError ? e.initFailure : undefined;
      if (init) {
        next.outputs = annotateSecrets(init.outputs, next.inputs, next.additionalSecretOutputs ?? []);
        next.initErrors = init.reasons;
        next.modified = now();
        this.registered.set(urn, next);
        this.markDirty();
      } else {
        // The old state stays as it was; the next run diffs against it again.
        this.consumed.delete(old.urn);
      }
      this.steps.push({ ...step, error: describe(e) });
      this.fail(urn, `update failed: ${describe(e)}`, e);
    }
    next.modified = now();
    this.registered.set(urn, next);
    this.steps.push(step);
    this.markDirty();
    return { urn, id, outputs: next.outputs };
  }

  /**
   * The outputs this stack had when the run began, as the CLI's built-in `readStackOutputs` answers for a
   * stack (what a stack reference reads): `{name, outputs, secretOutputNames}`. Only this stack is known.
   */
  readStackOutputs(name: string): PropertyMap {
    if (name.split("/").slice(1).join("/") !== `${this.ctx.project}/${this.ctx.stack}`) {
      throw new Error(`this engine reads only its own stack (<organization>/${this.ctx.project}/${this.ctx.stack}), not ${name}`);
    }
    const before = [...this.live.values()].find((r) => r.type === STACK_TYPE)?.outputs ?? {};
    return { name, outputs: before, secretOutputNames: Object.entries(before).filter(([, v]) => isSecret(v)).map(([k]) => k) };
  }

  private async doRead(type: string, name: string, parent: string, id: string, props: PropertyMap, dependencies: string[]): Promise<RegistrationResult> {
    const urn = makeUrn(this.ctx.stack, this.ctx.project, parent, type, name);
    if (!isDynamicType(type)) this.fail(urn, `only dynamic resources can be read, not ${type}`);
    const provider = await this.defaultProvider();
    return this.sem.run(async () => {
      const plugin = await this.ctx.plugin();
      let result;
      try {
        result = await plugin.read(urn, id, props, props);
      } catch (e) {
        this.fail(urn, `read failed: ${describe(e)}`, e);
      }
      if (!result.id) this.fail(urn, `read failed: no object with id ${id}`);
      const old = this.live.get(urn);
      if (old) this.consumed.add(urn);
      const entry: StateResource = {
        urn, custom: true, external: true, id: result.id, type, inputs: props, outputs: result.outputs,
        ...(parent ? { parent } : {}), dependencies, provider, created: old?.created ?? now(), modified: now(),
      };
      this.registered.set(urn, entry);
      this.steps.push({ urn, type, op: "read", custom: true });
      this.markDirty();
      return { urn, id: result.id, outputs: result.outputs };
    });
  }
}

/**
 * Whether a same step changes what the state holds, so that the CLI writes its checkpoint: kind, parent,
 * protection, outputs or dependencies differ from the old entry. Otherwise the CLI leaves the write out
 * (pkg/backend/snapshot.go, `sameSnapshotMutation.mustWrite`) until the next write or the end of the
 * run. Writing after every same step would rewrite the whole state file all through a no-op `up`: work
 * that grows with the state's size (a large redirect set's) and with the run's length.
 */
export function sameStepMustWrite(old: StateResource, next: StateResource): boolean {
  if (old.custom !== next.custom || (old.parent ?? "") !== (next.parent ?? "") || (old.protect ?? false) !== (next.protect ?? false)) return true;
  if (!deepEqual(old.outputs, next.outputs)) return true;
  const sorted = (deps: readonly string[] | undefined) => [...(deps ?? [])].sort();
  return !deepEqual(sorted(old.dependencies), sorted(next.dependencies));
}

/** Deletes one resource through the plugin (components, external and retained resources only leave state). */
export async function deleteResource(ctx: DeploymentContext, r: StateResource): Promise<void> {
  if (r.protect && !r.delete) {
    throw new StepError(r.urn, "resource is protected and cannot be deleted; set protect: false first");
  }
  if (!r.custom || r.external || r.retainOnDelete || r.type === DYNAMIC_PROVIDER_TYPE) return;
  if (!isDynamicType(r.type)) throw new StepError(r.urn, `cannot delete ${r.type}: not a dynamic resource`);
  const plugin = await ctx.plugin();
  try {
    await plugin.delete(r.urn, r.id ?? "", r.outputs, { oldInputs: r.inputs });
  } catch (e) {
    throw new StepError(r.urn, `delete failed: ${describe(e)}`, e);
  }
}

/**
 * Runs `del` for every target, each only after every target that depends on it is gone (reverse
 * dependency order), with independent deletions concurrent. A failed deletion blocks what it depends on.
 * Rejects with an AggregateError of the failures once everything that could run has run.
 */
export async function deleteInReverseOrder(
  targets: readonly StateResource[],
  sem: Semaphore,
  del: (r: StateResource) => Promise<void>,
): Promise<void> {
  const dependents = new Map<StateResource, StateResource[]>();
  for (const t of targets) dependents.set(t, []);
  for (const d of targets) {
    const deps = new Set(dependenciesOf(d));
    for (const t of targets) {
      if (t !== d && deps.has(t.urn) && !(t.urn === d.urn)) dependents.get(t)!.push(d);
    }
  }
  const errors: Error[] = [];
  const started = new Map<StateResource, Promise<boolean>>();
  const visiting = new Set<StateResource>();
  const run = (t: StateResource): Promise<boolean> => {
    let p = started.get(t);
    if (p) return p;
    visiting.add(t);
    const before = dependents.get(t)!.filter((d) => !visiting.has(d)).map(run);
    p = (async () => {
      const ok = (await Promise.all(before)).every(Boolean);
      if (!ok) return false;
      try {
        await sem.run(() => del(t));
        return true;
      } catch (e) {
        errors.push(e instanceof Error ? e : new Error(String(e)));
        return false;
      }
    })();
    started.set(t, p);
    visiting.delete(t);
    return p;
  };
  await Promise.all(targets.map(run));
  if (errors.length > 0) throw new AggregateError(errors, errors.map((e) => e.message).join("; "));
}

/** Result of a refresh. */
export interface RefreshOutcome {
  steps: Step[];
  drift: Step[];
  errors: StepError[];
  resources: StateResource[];
}

/**
 * `pulumi refresh`: reads every managed object through the plugin, drops those answering a blank id,
 * stores the outputs read, and reports drift — resources for which the provider's Diff of the stored
 * inputs against the outputs read reports changes (what the next `up` would change).
 */
export async function refresh(ctx: DeploymentContext, old: readonly StateResource[]): Promise<RefreshOutcome> {
  const sem = new Semaphore(ctx.parallel);
  const current = [...old];
  const steps: Step[] = [];
  const drift: Step[] = [];
  const errors: StepError[] = [];
  const persist = () => ctx.persist?.(current);
  await Promise.all(
    old.map((r) =>
      sem.run(async () => {
        if (!r.custom || r.type === DYNAMIC_PROVIDER_TYPE || r.delete) return;
        const plugin = await ctx.plugin();
        try {
          const read = await plugin.read(r.urn, r.id ?? "", r.inputs, r.outputs);
          const i = current.indexOf(r);
          if (!read.id) {
            current.splice(i, 1);
            steps.push({ urn: r.urn, type: r.type, op: "refresh-gone", custom: true });
            persist();
            return;
          }
          const outputs = annotateSecrets(read.outputs, r.outputs, r.additionalSecretOutputs ?? []);
          const inputs = read.inputs ? annotateSecrets(read.inputs, r.inputs) : r.inputs;
          const next: StateResource = { ...r, id: read.id, inputs, outputs, modified: now() };
          if (deepEqual(r.outputs, outputs) && deepEqual(r.inputs, inputs)) next.modified = r.modified;
          current[i] = next;
          persist();
          if (r.external) {
            steps.push({ urn: r.urn, type: r.type, op: "same", custom: true });
            return;
          }
          const diff = await plugin.diff(r.urn, read.id, outputs, r.inputs, { oldInputs: r.inputs });
          const outputChanges = changedKeys(r.outputs, outputs);
          const drifted = diff.changes ?? outputChanges.length > 0;
          if (drifted) {
            const step: Step = { urn: r.urn, type: r.type, op: "drift", custom: true, diffs: [...new Set([...outputChanges, ...diff.replaces])].sort() };
            steps.push(step);
            drift.push(step);
          } else {
            steps.push({ urn: r.urn, type: r.type, op: "same", custom: true });
          }
        } catch (e) {
          const err = new StepError(r.urn, `refresh failed: ${describe(e)}`, e);
          errors.push(err);
          steps.push({ urn: r.urn, type: r.type, op: "read", custom: true, error: describe(e) });
        }
      }),
    ),
  );
  return { steps, drift, errors, resources: current };
}

/** Result of a destroy. */
export interface DestroyOutcome {
  steps: Step[];
  errors: StepError[];
  resources: StateResource[];
}

/** `pulumi destroy`: deletes everything in reverse dependency order; the state keeps only what failed. */
export async function destroy(ctx: DeploymentContext, old: readonly StateResource[]): Promise<DestroyOutcome> {
  const sem = new Semaphore(ctx.parallel);
  const current = [...old];
  const steps: Step[] = [];
  let errors: StepError[] = [];
  try {
    await deleteInReverseOrder(old, sem, async (r) => {
      try {
        await deleteResource(ctx, r);
      } catch (e) {
        steps.push(discardStep(r, "delete", { error: describe(e) }));
        throw e;
      }
      current.splice(current.indexOf(r), 1);
      ctx.persist?.(current);
      if (!r.delete && r.type !== DYNAMIC_PROVIDER_TYPE) steps.push(discardStep(r, "delete"));
    });
  } catch (e) {
    errors = (e as AggregateError).errors.map((x: unknown) => (x instanceof StepError ? x : new StepError("", describe(x), x)));
  }
  return { steps, errors, resources: current };
}
