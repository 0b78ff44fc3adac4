/**
 * Drives the real dynamic-provider plugin (`@pulumi/pulumi/cmd/dynamic-provider`) over gRPC, the way the
 * Pulumi engine does: started with an engine address in the program's folder, configured with the
 * namespaced stack config (secret values wrapped), then called with properties marshalled as the engine
 * marshals them for a provider that does not accept secrets (secrets stripped, unknowns as the sentinel).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import type * as grpcModule from "@grpc/grpc-js";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import type { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import type {
  CheckResponse,
  ConfigureResponse,
  CreateResponse,
  DiffResponse,
  ReadResponse,
  UpdateResponse,
} from "@pulumi/pulumi/proto/provider_pb";
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { FakeEngine } from "./engine";
import {
  SDK_DIR,
  bindServer,
  channelOptions,
  emptypb,
  grpc,
  providerGrpc,
  providerpb,
  shutdownServer,
  statuspb,
  structpb,
} from "./rpc";
import { type PropertyMap, secret, stripSecretsMap, toPropertyMap } from "./values";

/** Path of the plugin's entry point. */
export const PLUGIN_SCRIPT = path.join(SDK_DIR, "cmd", "dynamic-provider", "index.js");

/** Options for {@link startPlugin}. */
export interface StartPluginOptions {
  /** Working directory of the plugin: the program's folder (`require()` in a serialised provider resolves from here). */
  cwd: string;
  /** Stack config with namespaced keys (`docsplatform:apiToken`); when given, Configure is sent at start. */
  config?: Record<string, string>;
  /** Config keys whose values are secrets (sent wrapped, as the engine sends them). */
  secretKeys?: string[];
  /** Extra environment for the plugin process. */
  env?: Record<string, string>;
  /** Engine address to hand the plugin; when omitted a private fake engine is started. */
  engineAddress?: string;
}

/** One problem reported by a provider's `check`. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** Result of Check. */
export interface CheckResult {
  inputs: PropertyMap;
  failures: CheckFailure[];
}

/** Result of Diff. `changes` is undefined when the provider has no `diff` (the engine then diffs inputs itself). */
export interface DiffResult {
  changes: boolean | undefined;
  replaces: string[];
  deleteBeforeReplace: boolean;
  diffs: string[];
}

/** Result of Create. */
export interface CreateResult {
  id: string;
  outputs: PropertyMap;
}

/** Result of Read; a blank `id` means the object is gone. */
export interface ReadResult {
  id: string;
  outputs: PropertyMap;
  /** Inputs the provider asks to store in place of the old ones (only when it returned `inputs`). */
  inputs?: PropertyMap;
}

/** A create or update that reached the API but failed afterwards (the engine keeps such a resource in state). */
export interface InitFailure {
  id: string;
  outputs: PropertyMap;
  reasons: string[];
}

/** A failed plugin call: names the method and resource; carries the provider's message. */
export class PluginError extends Error {
  constructor(
    readonly method: string,
    readonly urn: string,
    readonly details: string,
    readonly code: number,
    readonly initFailure?: InitFailure,
  ) {
    super(`${method} of ${urn} failed: ${details}`);
    this.name = "PluginError";
  }
}

/** Name and type of a resource from its URN (`urn:pulumi:<stack>::<project>::<qualified type>::<name>`). */
export function parseUrn(urn: string): { stack: string; project: string; type: string; name: string } {
  const parts = urn.split("::");
  if (parts.length < 4 || !parts[0]!.startsWith("urn:pulumi:")) throw new Error(`not a Pulumi URN: ${urn}`);
  const qualified = parts[2]!;
  return {
    stack: parts[0]!.slice("urn:pulumi:".length),
    project: parts[1]!,
    type: qualified.slice(qualified.lastIndexOf("$") + 1),
    name: parts.slice(3).join("::"),
  };
}

function toStruct(props: PropertyMap): Struct {
  return structpb.Struct.fromJavaScript(stripSecretsMap(toPropertyMap(props)) as Record<string, never>);
}

function fromStruct(s: Struct | undefined): PropertyMap {
  return s ? toPropertyMap(s.toJavaScript()) : {};
}

/** A resource request addressed as the engine addresses it: URN, name and type from the URN, and the ID when there is one. */
function addressed<
  R extends { setUrn(v: string): unknown; setName(v: string): unknown; setType(v: string): unknown },
>(req: R & { setId?(v: string): unknown }, urn: string, id?: string): R {
  const { name, type } = parseUrn(urn);
  req.setUrn(urn);
  req.setName(name);
  req.setType(type);
  if (id !== undefined) req.setId!(id);
  return req;
}

/** A running dynamic-provider plugin and a typed client for it. */
export class PluginDriver {
  private stderrText = "";
  private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  /** @internal use {@link startPlugin}. */
  constructor(
    private readonly child: ChildProcess,
    private readonly client: ResourceProviderClient,
    private readonly ownEngine: { server: grpcModule.Server; engine: FakeEngine } | undefined,
  ) {
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      this.stderrText = (this.stderrText + chunk).slice(-65536);
    });
    child.on("exit", (code, signal) => {
      this.exited = { code, signal };
    });
  }

  /** The plugin's standard error so far (last 64 KiB): provider stack traces land here. */
  stderr(): string {
    return this.stderrText;
  }

  /** Process id of the plugin. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Kills the plugin at once (SIGKILL), as a runner killed or out of memory does; calls in flight fail. */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
  }

  /** Sends Configure with the stack config; secret keys are wrapped as the engine wraps them. */
  async configure(config: Record<string, string>, secretKeys: readonly string[] = []): Promise<void> {
    const args: PropertyMap = {};
    for (const [k, v] of Object.entries(config)) args[k] = secretKeys.includes(k) ? secret(v) : v;
    const req = new providerpb.ConfigureRequest();
    // Configure carries the secret wrappers as they are: the plugin unwraps them itself.
    req.setArgs(structpb.Struct.fromJavaScript(args as Record<string, never>));
    req.setAcceptsecrets(true);
    req.setAcceptresources(true);
    req.setSendsOldInputs(true);
    req.setSendsOldInputsToDelete(true);
    await this.call<ConfigureResponse>("Configure", "", (cb) => this.client.configure(req, cb));
  }

  /** Check: `olds` are the old inputs (empty on create), `news` the program's inputs. */
  async check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult> {
    const req = addressed(new providerpb.CheckRequest(), urn);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    req.setRandomseed(randomBytes(32));
    const resp = await this.call<CheckResponse>("Check", urn, (cb) => this.client.check(req, cb));
    return {
      inputs: fromStruct(resp.getInputs()),
      failures: resp.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  /** Diff: `olds` are the old outputs (what the dynamic provider receives), `news` the checked new inputs. */
  async diff(
    urn: string,
    id: string,
    olds: PropertyMap,
    news: PropertyMap,
    opts: { oldInputs?: PropertyMap; ignoreChanges?: string[] } = {},
  ): Promise<DiffResult> {
    const req = addressed(new providerpb.DiffRequest(), urn, id);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    req.setOldInputs(toStruct(opts.oldInputs ?? {}));
    req.setIgnorechangesList(opts.ignoreChanges ?? []);
    const resp = await this.call<DiffResponse>("Diff", urn, (cb) => this.client.diff(req, cb));
    const changes = resp.getChanges();
    const DiffChanges = providerpb.DiffResponse.DiffChanges;
    return {
      changes: changes === DiffChanges.DIFF_SOME ? true : changes === DiffChanges.DIFF_NONE ? false : undefined,
      replaces: resp.getReplacesList(),
      deleteBeforeReplace: resp.getDeletebeforereplace(),
      diffs: resp.getDiffsList(),
    };
  }

  /** Create with the checked inputs. */
  async create(urn: string, news: PropertyMap, opts: { preview?: boolean } = {}): Promise<CreateResult> {
    const req = addressed(new providerpb.CreateRequest(), urn);
    req.setProperties(toStruct(news));
    req.setPreview(opts.preview ?? false);
    const resp = await this.call<CreateResponse>("Create", urn, (cb) => this.client.create(req, cb));
    return { id: resp.getId(), outputs: fromStruct(resp.getProperties()) };
  }

  /** Read (refresh): `inputs` are the stored inputs, `state` the stored outputs. A blank id in the result means gone. */
  async read(urn: string, id: string, inputs: PropertyMap, state: PropertyMap): Promise<ReadResult> {
    const req = addressed(new providerpb.ReadRequest(), urn, id);
    req.setProperties(toStruct(state));
    req.setInputs(toStruct(inputs));
    const resp = await this.call<ReadResponse>("Read", urn, (cb) => this.client.read(req, cb));
    const result: ReadResult = { id: resp.getId(), outputs: fromStruct(resp.getProperties()) };
    if (resp.hasInputs()) result.inputs = fromStruct(resp.getInputs());
    return result;
  }

  /** Update: `olds` are the old outputs, `news` the checked new inputs. Returns the new outputs. */
  async update(
    urn: string,
    id: string,
    olds: PropertyMap,
    news: PropertyMap,
    opts: { preview?: boolean; oldInputs?: PropertyMap; ignoreChanges?: string[] } = {},
  ): Promise<PropertyMap> {
    const req = addressed(new providerpb.UpdateRequest(), urn, id);
    req.setOlds(toStruct(olds));
    req.setNews(toStruct(news));
    req.setOldInputs(toStruct(opts.oldInputs ?? {}));
    req.setIgnorechangesList(opts.ignoreChanges ?? []);
    req.setPreview(opts.preview ?? false);
    const resp = await this.call<UpdateResponse>("Update", urn, (cb) => this.client.update(req, cb));
    return fromStruct(resp.getProperties());
  }

  /** Delete: `olds` are the stored outputs. */
  async delete(urn: string, id: string, olds: PropertyMap, opts: { oldInputs?: PropertyMap } = {}): Promise<void> {
    const req = addressed(new providerpb.DeleteRequest(), urn, id);
    req.setProperties(toStruct(olds));
    req.setOldInputs(toStruct(opts.oldInputs ?? {}));
    await this.call<Empty>("Delete", urn, (cb) => this.client.delete(req, cb));
  }

  /** The SDK version the plugin reports. */
  async pluginVersion(): Promise<string> {
    const resp = await this.call<PluginInfo>("GetPluginInfo", "", (cb) =>
      this.client.getPluginInfo(new emptypb.Empty(), cb),
    );
    return resp.getVersion();
  }

  /** Stops the plugin process (and the private engine, if one was started). */
  async close(): Promise<void> {
    this.client.close();
    if (!this.exited && this.child.exitCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
      this.child.kill("SIGTERM");
      const timer = setTimeout(() => this.child.kill("SIGKILL"), 2000);
      await exited;
      clearTimeout(timer);
    }
    if (this.ownEngine) await shutdownServer(this.ownEngine.server);
  }

  private call<T>(
    method: string,
    urn: string,
    invoke: (cb: (err: grpcModule.ServiceError | null, resp: T) => void) => void,
  ): Promise<T> {
    if (this.exited) {
      return Promise.reject(
        new PluginError(method, urn, `plugin exited (code ${this.exited.code}): ${this.stderrText.slice(-2000)}`, 14),
      );
    }
    return new Promise<T>((resolve, reject) => {
      invoke((err, resp) => {
        if (err) reject(toPluginError(method, urn, err));
        else resolve(resp);
      });
    });
  }
}

function toPluginError(method: string, urn: string, err: grpcModule.ServiceError): PluginError {
  let initFailure: InitFailure | undefined;
  const raw = err.metadata?.get("grpc-status-details-bin")[0];
  if (raw instanceof Buffer) {
    const status = statuspb.Status.deserializeBinary(new Uint8Array(raw));
    for (const detail of status.getDetailsList()) {
      const failed = detail.unpack(
        (bytes) => providerpb.ErrorResourceInitFailed.deserializeBinary(bytes),
        "pulumirpc.ErrorResourceInitFailed",
      );
      if (failed) {
        initFailure = { id: failed.getId(), outputs: fromStruct(failed.getProperties()), reasons: failed.getReasonsList() };
      }
    }
  }
  return new PluginError(method, urn, err.details || err.message, err.code, initFailure);
}

/** Starts the dynamic-provider plugin as the engine does and returns a driver for it. */
export async function startPlugin(opts: StartPluginOptions): Promise<PluginDriver> {
  let ownEngine: { server: grpcModule.Server; engine: FakeEngine } | undefined;
  let engineAddress = opts.engineAddress;
  if (!engineAddress) {
    const server = new grpc.Server(channelOptions);
    const engine = new FakeEngine();
    engine.addTo(server);
    engineAddress = await bindServer(server);
    ownEngine = { server, engine };
  }
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // The engine does not hand the plugin the language host's settings; do not leak the test process's.
    if (!k.startsWith("PULUMI_NODEJS_") && k !== "PULUMI_CONFIG" && k !== "PULUMI_CONFIG_SECRET_KEYS") env[k] = v;
  }
  Object.assign(env, opts.env);
  const child = spawn(process.execPath, [PLUGIN_SCRIPT, engineAddress], {
    cwd: opts.cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let port: string;
  try {
    port = await readPort(child);
  } catch (e) {
    child.kill("SIGKILL");
    if (ownEngine) await shutdownServer(ownEngine.server);
    throw e;
  }
  const client = new providerGrpc.ResourceProviderClient(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
    channelOptions,
  );
  const driver = new PluginDriver(child, client, ownEngine);
  if (opts.config) {
    try {
      await driver.configure(opts.config, opts.secretKeys ?? []);
    } catch (e) {
      await driver.close();
      throw e;
    }
  }
  return driver;
}

function readPort(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    // Generous: on a 2-core machine shared with other test runs the plugin has taken over 30 s to start.
    const timer = setTimeout(() => fail(new Error(`dynamic-provider plugin did not print its port within 120 s: ${err}`)), 120_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const nl = out.indexOf("\n");
      if (nl >= 0) {
        const line = out.slice(0, nl).trim();
        cleanup();
        if (/^\d+$/.test(line)) resolve(line);
        else reject(new Error(`dynamic-provider plugin printed "${line}" instead of its port`));
      }
    };
    const onErr = (chunk: Buffer) => {
      err = (err + chunk.toString("utf8")).slice(-4000);
    };
    const onExit = (code: number | null) => fail(new Error(`dynamic-provider plugin exited with code ${code}: ${err}`));
    const fail = (e: Error) => {
      cleanup();
      reject(e);
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.stderr?.off("data", onErr);
      child.off("exit", onExit);
      // Keep draining stdout so a chatty provider never blocks on a full pipe.
      child.stdout?.resume();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onErr);
    child.on("exit", onExit);
  });
}
