/**
 * The state file: a JSON document shaped like Pulumi's deployment (`pulumi stack export --show-secrets`):
 * `{version: 3, deployment: {manifest, resources: [...]}}`, each resource with urn, type, id, inputs,
 * outputs, parent, dependencies and provider; secrets are `{SIG_KEY: SECRET_SIG, plaintext}` markers.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SDK_DIR } from "./rpc";
import { type PropertyMap, fromStateValue, toStateValue } from "./values";

/** Type token of the root stack resource. */
export const STACK_TYPE = "pulumi:pulumi:Stack";
/** Type token of the engine-created default provider that serves every dynamic resource. */
export const DYNAMIC_PROVIDER_TYPE = "pulumi:providers:pulumi-nodejs";

/** One resource in the state file. Values are kept in state-file form on disk and wire form in memory. */
export interface StateResource {
  urn: string;
  custom: boolean;
  /** A replaced resource waiting for deletion (create-before-delete replacement, or an interrupted run). */
  delete?: boolean;
  id?: string;
  type: string;
  inputs: PropertyMap;
  outputs: PropertyMap;
  parent?: string;
  protect?: boolean;
  /** Read with `Resource.get`: not managed, never deleted. */
  external?: boolean;
  dependencies?: string[];
  propertyDependencies?: Record<string, string[]>;
  /** `<provider urn>::<provider id>`. */
  provider?: string;
  additionalSecretOutputs?: string[];
  deleteBeforeReplace?: boolean;
  retainOnDelete?: boolean;
  aliases?: string[];
  /** Set when the object was created but the provider reported it failed to initialise. */
  initErrors?: string[];
  created?: string;
  modified?: string;
}

/**
 * An operation the engine began and never saw end, as the CLI keeps it in the state (`pending_operations`):
 * written before the provider is called, removed when the call returns (failed or not). It stays only when
 * the engine itself dies mid-call; the next `up` warns and keeps it, `pulumi refresh --clear-pending-creates`
 * removes it.
 */
export interface PendingOperation {
  resource: StateResource;
  type: "creating";
}

/** The whole state document. */
export interface StateFile {
  version: 3;
  deployment: {
    manifest: { time: string; magic: string; version: string };
    resources: StateResource[];
    pending_operations?: PendingOperation[];
  };
}

function sdkVersion(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(SDK_DIR, "package.json"), "utf8")) as { version?: string };
    return pkg.version ?? "";
  } catch {
    return "";
  }
}

const SDK_VERSION = sdkVersion();

/** Reads a state file into memory form (secrets as wire-form secrets); a missing file is an empty state. */
export function loadState(file: string): StateResource[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const doc = JSON.parse(text) as StateFile;
  if (doc.version !== 3 || !doc.deployment || !Array.isArray(doc.deployment.resources)) {
    throw new Error(`${file}: not a version 3 deployment`);
  }
  return doc.deployment.resources.map((r) => ({
    ...r,
    inputs: fromStateValue(r.inputs ?? {}) as PropertyMap,
    outputs: fromStateValue(r.outputs ?? {}) as PropertyMap,
  }));
}

/** The pending operations of a state file (none when the file is missing). */
export function loadPendingOperations(file: string): PendingOperation[] {
  if (!fs.existsSync(file)) return [];
  const doc = JSON.parse(fs.readFileSync(file, "utf8")) as StateFile;
  return (doc.deployment.pending_operations ?? []).map((op) => ({
    ...op,
    resource: { ...op.resource, inputs: fromStateValue(op.resource.inputs ?? {}) as PropertyMap, outputs: fromStateValue(op.resource.outputs ?? {}) as PropertyMap },
  }));
}

const onDisk = (r: StateResource): StateResource => ({ ...r, inputs: toStateValue(r.inputs) as PropertyMap, outputs: toStateValue(r.outputs) as PropertyMap });

/** The state document for a list of in-memory resources (dependencies first) and the pending operations. */
export function toStateFile(resources: readonly StateResource[], pending: readonly PendingOperation[] = []): StateFile {
  return {
    version: 3,
    deployment: {
      manifest: { time: new Date().toISOString(), magic: "", version: SDK_VERSION },
      resources: sortByDependencies(resources).map(onDisk),
      ...(pending.length > 0 ? { pending_operations: pending.map((op) => ({ ...op, resource: onDisk(op.resource) })) } : {}),
    },
  };
}

/** Writes the state atomically (temporary file, then rename), so a crash never leaves half a file. */
export function saveState(file: string, resources: readonly StateResource[], pending: readonly PendingOperation[] = []): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(toStateFile(resources, pending), null, 2) + "\n");
  fs.renameSync(tmp, file);
}

/**
 * The state file of one run, written at most once per `intervalMs` (the latest state wins) plus on
 * `flush()`, which the runner calls at the end of every run, failed or not. Rewriting a file of a few
 * MB after every one of N steps is O(N²) work on the event loop that also serves the plugin and the
 * language host; the throttle bounds it to one write per interval.
 */
export class StateWriter {
  private pending: readonly StateResource[] | undefined;
  private pendingOps: readonly PendingOperation[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lastWrite = -Infinity;

  constructor(
    readonly file: string,
    readonly intervalMs = 250,
  ) {}

  /** Records `resources` as the state to write (the array may keep changing until it is written). */
  save(resources: readonly StateResource[], pendingOperations: readonly PendingOperation[] = []): void {
    this.pending = resources;
    this.pendingOps = [...pendingOperations];
    if (this.timer) return;
    const wait = Math.max(0, this.lastWrite + this.intervalMs - performance.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Writes the pending state now, if any. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const resources = this.pending;
    if (resources === undefined) return;
    this.pending = undefined;
    saveState(this.file, resources, this.pendingOps);
    this.lastWrite = performance.now();
  }
}

/** URNs a resource depends on: its parent, explicit and property dependencies, and its provider. */
export function dependenciesOf(r: StateResource): string[] {
  const deps = new Set<string>(r.dependencies ?? []);
  if (r.parent) deps.add(r.parent);
  for (const list of Object.values(r.propertyDependencies ?? {})) for (const u of list) deps.add(u);
  if (r.provider) deps.add(r.provider.slice(0, r.provider.lastIndexOf("::")));
  deps.delete(r.urn);
  return [...deps];
}

/**
 * Orders resources so every resource follows what it depends on (Pulumi's snapshot invariant), keeping
 * the given order otherwise. Pending deletions come right after the live resource with the same URN.
 */
export function sortByDependencies(resources: readonly StateResource[]): StateResource[] {
  const byUrn = new Map<string, StateResource[]>();
  for (const r of resources) byUrn.set(r.urn, [...(byUrn.get(r.urn) ?? []), r]);
  const out: StateResource[] = [];
  const done = new Set<StateResource>();
  const visiting = new Set<StateResource>();
  const visit = (r: StateResource) => {
    if (done.has(r) || visiting.has(r)) return;
    visiting.add(r);
    for (const dep of dependenciesOf(r)) for (const d of byUrn.get(dep) ?? []) if (!d.delete || r.delete) visit(d);
    visiting.delete(r);
    done.add(r);
    out.push(r);
  };
  for (const r of resources) visit(r);
  return out;
}
