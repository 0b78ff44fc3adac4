/**
 * Runs a Pulumi program the way `pulumi preview|up|refresh|destroy` does, without the CLI: the SDK's
 * language host (`@pulumi/pulumi/cmd/run`) runs the program against a fake resource monitor, which turns
 * registrations into steps against a state file and forwards every provider call to the real
 * dynamic-provider plugin. One runner serves one program folder and stack; it starts the plugin once and
 * reuses it across runs (restarting it only when the config it was configured with changes), or, with
 * `pluginPerRun`, starts a fresh plugin for every run as each `pulumi` command does.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as grpcModule from "@grpc/grpc-js";
import { parse as parseYaml } from "yaml";
import { TUNING_ENV } from "../../provider/env";
import { type CrashPlan, Deployment, type DeploymentContext, type Registration, type Step, type StepOp, StepError, destroy, refresh } from "./deployment";
import { FakeEngine, type LogEntry } from "./engine";
import { FakeMonitor } from "./monitor";
import { type PluginDriver, startPlugin } from "./plugin";
import { SDK_DIR, bindServer, channelOptions, grpc, shutdownServer } from "./rpc";
import { STACK_TYPE, type PendingOperation, type StateFile, type StateResource, StateWriter, loadPendingOperations, loadState, toStateFile } from "./state";
import { type PropertyMap, isSecret, stripSecretsMap } from "./values";

/**
 * The provider's list settings a run starts the plugin with, unless its options set them: the list cache
 * (provider/resources/lists.ts) off when one plugin serves every run (0 keeps list walks only while in
 * flight), and the assumed list lag 0. The emulator's lists never lag unless a test switches
 * `faults.listLagMs` on, so a lookup that finds nothing is believed at once instead of being repeated
 * for 5 s. Tests of lagging lists set it.
 */
function listDefaults(pluginPerRun: boolean | undefined): Record<string, string> {
  return { ...(pluginPerRun ? {} : { [TUNING_ENV.listCacheMs]: "0" }), [TUNING_ENV.listLagMs]: "0" };
}

/** Entry point of the SDK's language host. */
export const LANGUAGE_HOST = path.join(SDK_DIR, "cmd", "run", "index.js");

/**
 * Boot script of a language host started ahead of its run: it loads the SDK, the closure serialiser and
 * the TypeScript compiler (the ~1 s cold start), then waits for its run on stdin — arguments and the
 * run's environment — and hands over to `cmd/run` exactly as `node cmd/run <args>` would. Loading those
 * modules creates no SDK state (the runtime store is created lazily, from the environment of the run).
 */
const LANGUAGE_HOST_BOOT = `
const sdk = process.argv[1];
require(sdk);
require(sdk + "/runtime/closure/serializeClosure");
// A JavaScript program (\`typescript: false\`) never loads the compiler.
for (const m of process.argv[2] === "typescript" ? ["typescript", "ts-node"] : []) {
  try { require(require.resolve(m, { paths: [process.cwd()] })); } catch {}
}
let input = "";
process.stdin.setEncoding("utf8");
// The runner went away before handing over a run (its process died without close()): do not linger.
const orphaned = () => process.exit(0);
process.stdin.on("end", orphaned);
process.stdin.on("data", (chunk) => {
  input += chunk;
  const nl = input.indexOf("\\n");
  if (nl < 0) return;
  process.stdin.removeAllListeners("data");
  process.stdin.removeListener("end", orphaned);
  process.stdin.destroy();
  const job = JSON.parse(input.slice(0, nl));
  Object.assign(process.env, job.env);
  process.argv = [process.argv[0], job.script, ...job.args];
  require(job.script);
});
`;

/** Pulumi's default `--parallel`: unbounded. */
const UNBOUNDED = 2147483647;

/** One API request as the emulator's log reports it. */
export interface ApiCall {
  method: string;
  route: string;
  path: string;
  status: number;
}

/** The part of the emulator a runner uses: its request log. */
export interface EmulatorLog {
  control: { log(): readonly ApiCall[]; clearLog(): void };
}

/** Per-run options; each overrides the runner's option of the same name (config is merged). */
export interface RunOptions {
  /** Stack config with namespaced keys (`docsplatform:apiUrl`, `tiny:title`). */
  config?: Record<string, string>;
  /** Config keys holding secrets (`docsplatform:apiToken`). */
  secretKeys?: string[];
  /** Extra environment for the program and the plugin. */
  env?: Record<string, string>;
  /** Maximum concurrent provider operations (default unbounded, like Pulumi). */
  parallel?: number;
  /** Emulator whose request log is reported as `apiCalls`. */
  emulator?: EmulatorLog;
  /** Resolve with `result.error` set instead of rejecting when the run fails. */
  allowError?: boolean;
  /** Kill the program after this long (default 120 s). */
  timeoutMs?: number;
  /** Called with every RegisterResource the program sends, in the order sent, and its URN once registered ("" if it failed). */
  onRegister?: (reg: Registration, urn: Promise<string>) => void;
  /** `up`: the engine and the plugin die at one create (see {@link CrashPlan}). */
  crash?: CrashPlan;
  /** `refresh`: remove the pending creates a killed run left, as `pulumi refresh --clear-pending-creates` does. */
  clearPendingCreates?: boolean;
}

/** Options of a {@link ProgramRunner}. */
export interface ProgramRunnerOptions extends Omit<RunOptions, "allowError" | "timeoutMs" | "onRegister" | "crash" | "clearPendingCreates"> {
  /** The program folder (a prepared copy, see `prepareProgram`). */
  dir: string;
  /** Project name (default: `name` in Pulumi.yaml). */
  project?: string;
  /** Stack name (default `dev`). */
  stack?: string;
  /** Organization name (default `organization`, as for a self-managed backend). */
  organization?: string;
  /** State file (default `<dir>/.pulumi-state/<stack>.json`). */
  stateFile?: string;
  /** Boot the next run's language host while a run is in progress (default true). */
  preboot?: boolean;
  /**
   * Start a fresh plugin for every run, as every `pulumi` command does (default false: one plugin
   * serves all runs). A reused plugin would carry the provider's per-process view of the site lists
   * from one run into the next — a view the CLI never has, since its next command starts a new
   * process — so without this option the plugin runs with that view off (the list cache set to 0
   * unless `env` sets it) and an out-of-band change between runs is always seen.
   */
  pluginPerRun?: boolean;
}

/** What one run did. */
export interface RunResult {
  /** Every step, in the order they completed. Components and the stack are included (`custom: false`). */
  steps: Step[];
  /** Stack outputs, secrets as plaintext (their names are in `secretOutputs`). */
  outputs: Record<string, unknown>;
  /** Names of stack outputs that are secret. */
  secretOutputs: string[];
  /** Requests the emulator served during the run (empty without an emulator). */
  apiCalls: ApiCall[];
  /** Resources whose live object no longer matches their inputs (refresh only). */
  drift: Step[];
  /** Set when the run failed (program error or failed steps). */
  error?: Error;
  /** Number of successful steps per operation. */
  summary: Partial<Record<StepOp, number>>;
  /** Diagnostics the program and plugin sent to the engine. */
  logs: LogEntry[];
  /** The program's stdout and stderr (last 64 KiB). */
  output: string;
  /** The engine's warnings, e.g. about pending operations a killed run left. */
  warnings: string[];
}

/** A failed run; carries the run's result. */
export class RunError extends Error {
  constructor(
    message: string,
    readonly result: RunResult,
    readonly errors: readonly Error[],
  ) {
    super(message);
    this.name = "RunError";
  }
}

interface ProjectFile {
  name?: string;
  main?: string;
  runtime?: string | { name?: string; options?: { typescript?: boolean; nodeargs?: string } };
}

function summarise(steps: readonly Step[]): Partial<Record<StepOp, number>> {
  const summary: Partial<Record<StepOp, number>> = {};
  for (const s of steps) if (!s.error) summary[s.op] = (summary[s.op] ?? 0) + 1;
  return summary;
}

function inheritedEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // The test process's own Pulumi settings and loader hooks must not reach the program.
    if (k.startsWith("PULUMI_") || k === "NODE_OPTIONS" || k.startsWith("VITEST")) continue;
    env[k] = v;
  }
  return Object.assign(env, extra);
}

/** The working directory and program of a project's language host, as the CLI derives them from Pulumi.yaml `main`. */
export function pwdAndMain(root: string, main: string | undefined): { pwd: string; program: string } {
  if (main === undefined || main === "") return { pwd: root, program: "." };
  if (path.isAbsolute(main)) throw new Error("project 'main' must be a relative path");
  const resolved = path.resolve(root, main);
  if (resolved !== root && !resolved.startsWith(root + path.sep)) throw new Error("project 'main' must be a subfolder");
  const stat = fs.statSync(resolved, { throwIfNoEntry: false });
  if (stat === undefined) throw new Error(`project 'main' file '${resolved}' not found`);
  return stat.isDirectory() ? { pwd: resolved, program: "." } : { pwd: path.dirname(resolved), program: resolved };
}

/** Runs one program folder's stack through preview, up, refresh and destroy. */
export class ProgramRunner {
  readonly dir: string;
  readonly project: string;
  readonly stack: string;
  readonly stateFile: string;
  private readonly organization: string;
  /**
   * Where the language host and the plugin run and what the host runs, as the CLI derives them from
   * Pulumi.yaml `main`: a file moves the working directory to its folder and is run by its path; a folder
   * becomes the working directory, run as `.`; without `main`, the project's folder, run as `.` (the
   * host then takes package.json's `main`).
   */
  private readonly pwd: string;
  private readonly program: string;
  private readonly typescript: boolean;
  /** `runtime.options.nodeargs` of Pulumi.yaml: arguments of the language host's `node`, as the CLI passes them. */
  private readonly nodeArgs: string[];
  private readonly engine = new FakeEngine();
  private readonly monitor = new FakeMonitor();
  private server: { server: grpcModule.Server; address: string } | undefined;
  private pluginState: { key: string; driver: Promise<PluginDriver> } | undefined;
  private warmHost: { key: string; child: ChildProcess } | undefined;
  private busy = false;

  constructor(private readonly opts: ProgramRunnerOptions) {
    this.dir = path.resolve(opts.dir);
    const projectFile = parseYaml(fs.readFileSync(path.join(this.dir, "Pulumi.yaml"), "utf8")) as ProjectFile;
    this.project = opts.project ?? projectFile.name ?? path.basename(this.dir);
    this.stack = opts.stack ?? "dev";
    this.organization = opts.organization ?? "organization";
    this.stateFile = opts.stateFile ?? path.join(this.dir, ".pulumi-state", `${this.stack}.json`);
    ({ pwd: this.pwd, program: this.program } = pwdAndMain(this.dir, projectFile.main));
    const runtime = projectFile.runtime;
    this.typescript = typeof runtime === "object" ? runtime.options?.typescript !== false : true;
    const nodeargs = typeof runtime === "object" ? runtime.options?.nodeargs : undefined;
    this.nodeArgs = typeof nodeargs === "string" ? nodeargs.split(/\s+/).filter((a) => a !== "") : [];
  }

  /** `pulumi preview`: runs the program without changing anything; new outputs flow as unknowns. */
  preview(opts: RunOptions = {}): Promise<RunResult> {
    return this.exclusive(() => this.runProgram(true, opts), opts);
  }

  /** `pulumi up`: runs the program, applies its steps, then deletes what it no longer declares. */
  up(opts: RunOptions = {}): Promise<RunResult> {
    return this.exclusive(() => this.runProgram(false, opts), opts);
  }

  /** `pulumi refresh`: reads every resource; gone ones leave the state; drift is reported. */
  refresh(opts: RunOptions = {}): Promise<RunResult> {
    return this.exclusive(() => this.runOnState(refresh, opts), opts);
  }

  /** `pulumi destroy`: deletes every resource in reverse dependency order. */
  destroy(opts: RunOptions = {}): Promise<RunResult> {
    return this.exclusive(() => this.runOnState(destroy, opts), opts);
  }

  /** The state file as a document (secrets as `plaintext` markers). */
  state(): StateFile {
    return toStateFile(loadState(this.stateFile));
  }

  /** The operations a killed run left pending in the state. */
  pendingOperations(): PendingOperation[] {
    return loadPendingOperations(this.stateFile);
  }

  /** The state's resources in memory form (secrets as wire-form secrets). */
  resources(): StateResource[] {
    return loadState(this.stateFile);
  }

  /** The plugin driver of this runner, started with the runner's config. */
  plugin(opts: RunOptions = {}): Promise<PluginDriver> {
    return this.ensurePlugin(this.settings(opts));
  }

  /** Stops the plugin and the gRPC server. The state file and program folder stay. */
  async close(): Promise<void> {
    const plugin = this.pluginState;
    this.pluginState = undefined;
    if (plugin) await (await plugin.driver.catch(() => undefined))?.close();
    this.warmHost?.child.kill("SIGKILL");
    this.warmHost = undefined;
    if (this.server) await shutdownServer(this.server.server);
    this.server = undefined;
  }

  private settings(opts: RunOptions) {
    const config = { ...this.opts.config, ...opts.config };
    const secretKeys = [...new Set([...(this.opts.secretKeys ?? []), ...(opts.secretKeys ?? [])])];
    const env = { ...listDefaults(this.opts.pluginPerRun), ...this.opts.env, ...opts.env };
    const parallel = Math.min(opts.parallel ?? this.opts.parallel ?? UNBOUNDED, UNBOUNDED);
    if (!(parallel >= 1)) throw new Error(`parallel must be at least 1, got ${parallel}`);
    return { config, secretKeys, env, parallel, emulator: opts.emulator ?? this.opts.emulator };
  }

  private async exclusive(fn: () => Promise<RunResult>, opts: RunOptions): Promise<RunResult> {
    if (this.busy) throw new Error("a run is already in progress on this runner");
    this.busy = true;
    let result: RunResult;
    try {
      result = await fn();
    } finally {
      this.busy = false;
    }
    if (result.error && !opts.allowError) {
      throw new RunError(result.error.message, result, result.error instanceof AggregateError ? result.error.errors : [result.error]);
    }
    return result;
  }

  private async address(): Promise<string> {
    if (!this.server) {
      const server = new grpc.Server(channelOptions);
      this.engine.addTo(server);
      this.monitor.addTo(server);
      this.server = { server, address: await bindServer(server) };
    }
    return this.server.address;
  }

  private async ensurePlugin(settings: ReturnType<ProgramRunner["settings"]>, fresh = false): Promise<PluginDriver> {
    // The plugin configures each provider once per process, so a change in the config a provider can see
    // (every namespace but the program's own), the secret keys or the environment means a new process —
    // as each `pulumi` command starts its own. Changing only the program's config keeps the plugin.
    const providerConfig = Object.entries(settings.config).filter(([k]) => !k.startsWith(`${this.project}:`)).sort();
    const key = JSON.stringify([providerConfig, settings.secretKeys, settings.env]);
    if (fresh || this.pluginState?.key !== key) {
      const previous = this.pluginState?.driver;
      const engineAddress = await this.address();
      const driver = (async () => {
        await (await previous?.catch(() => undefined))?.close();
        return startPlugin({ cwd: this.pwd, env: settings.env, engineAddress });
      })();
      this.pluginState = { key, driver };
      driver.catch(() => {
        if (this.pluginState?.driver === driver) this.pluginState = undefined;
      });
    }
    return this.pluginState!.driver;
  }

  private async context(settings: ReturnType<ProgramRunner["settings"]>, preview: boolean, writer?: StateWriter, crash?: CrashPlan): Promise<DeploymentContext> {
    let configured: Promise<PluginDriver> | undefined;
    const plugin = () => {
      // The engine configures the provider at the start of every run.
      configured ??= this.ensurePlugin(settings, this.opts.pluginPerRun === true).then(async (driver) => {
        await driver.configure(settings.config, settings.secretKeys);
        return driver;
      });
      return configured;
    };
    // Start the plugin while the language host boots.
    plugin().catch(() => undefined);
    return {
      project: this.project,
      stack: this.stack,
      parallel: settings.parallel,
      plugin,
      ...(preview || !writer ? {} : { persist: (resources: StateResource[], pending?: PendingOperation[]) => writer.save(resources, pending) }),
      ...(crash ? { crash } : {}),
    };
  }

  /** A command that works on the stored state without running the program (refresh, destroy); the state is saved as it goes. */
  private async runOnState(
    command: (ctx: DeploymentContext, old: readonly StateResource[]) => Promise<{ steps: Step[]; drift?: Step[]; errors: StepError[]; resources: StateResource[] }>,
    opts: RunOptions,
  ): Promise<RunResult> {
    const settings = this.settings(opts);
    settings.emulator?.control.clearLog();
    const writer = new StateWriter(this.stateFile);
    // The operations a killed run left stay in the state unless a refresh clears them.
    const pending = opts.clearPendingCreates ? [] : loadPendingOperations(this.stateFile);
    try {
      const ctx = await this.context(settings, false, writer);
      const keeping: DeploymentContext = { ...ctx, persist: (resources) => writer.save(resources, pending) };
      const outcome = await command(keeping, loadState(this.stateFile));
      writer.save(outcome.resources, pending);
      return this.result(outcome.steps, outcome.drift ?? [], outcome.errors, outcome.resources, settings.emulator, "");
    } finally {
      writer.flush();
    }
  }

  private async runProgram(preview: boolean, opts: RunOptions): Promise<RunResult> {
    const settings = this.settings(opts);
    settings.emulator?.control.clearLog();
    const logStart = this.engine.logs.length;
    const address = await this.address();
    const writer = preview ? undefined : new StateWriter(this.stateFile);
    const ctx = await this.context(settings, preview, writer, opts.crash);
    const inherited = loadPendingOperations(this.stateFile);
    const deployment = new Deployment(ctx, loadState(this.stateFile), preview, inherited);
    this.monitor.current = {
      deployment,
      info: {
        project: this.project,
        stack: this.stack,
        organization: this.organization,
        config: settings.config,
        secretKeys: settings.secretKeys,
        dryRun: preview,
        parallel: settings.parallel,
      },
      ...(opts.onRegister ? { onRegister: opts.onRegister } : {}),
    };
    let exit: { code: number | null; output: string };
    try {
      exit = await this.spawnLanguageHost(address, preview, settings, opts.timeoutMs ?? 120_000, deployment);
      await deployment.finish(exit.code === 0);
    } finally {
      this.monitor.current = undefined;
      // The last state is on disk when the run ends, failed or not: the next run continues from it.
      deployment.flush();
      writer?.flush();
    }
    const errors: Error[] = [...deployment.errors];
    if (exit.code !== 0 && errors.length === 0) {
      const diagnostics = this.engine.logs.slice(logStart).filter((l) => l.severity === "error").map((l) => l.message);
      const detail = diagnostics.length > 0 ? diagnostics.join("\n") : exit.output.slice(-4000);
      errors.push(new Error(`program exited with code ${exit.code}: ${detail}`));
    }
    const result = this.result(deployment.steps, [], errors, deployment.snapshot(), settings.emulator, exit.output, logStart);
    if (!preview && inherited.length > 0) {
      // As the engine words it: the next `up` goes ahead, and keeps the operations until a refresh clears them.
      result.warnings.push(
        `Attempting to deploy or update resources with ${inherited.length} pending operations from previous deployment.\n` +
          inherited.map((op) => `  * ${op.resource.urn}, interrupted while ${op.type}`).join("\n"),
      );
    }
    if (preview) {
      result.outputs = Object.fromEntries(Object.entries(stripSecretsMap(deployment.stackOutputs)));
      result.secretOutputs = Object.entries(deployment.stackOutputs).filter(([, v]) => isSecret(v)).map(([k]) => k);
    }
    return result;
  }

  private result(
    steps: Step[],
    drift: Step[],
    errors: readonly Error[],
    resources: readonly StateResource[],
    emulator: EmulatorLog | undefined,
    output: string,
    logStart = this.engine.logs.length,
  ): RunResult {
    const stackOutputs: PropertyMap = resources.find((r) => r.type === STACK_TYPE && !r.delete)?.outputs ?? {};
    const result: RunResult = {
      steps,
      outputs: stripSecretsMap(stackOutputs),
      secretOutputs: Object.entries(stackOutputs).filter(([, v]) => isSecret(v)).map(([k]) => k),
      apiCalls: (emulator?.control.log() ?? []).map(({ method, route, path: p, status }) => ({ method, route, path: p, status })),
      drift,
      summary: summarise(steps),
      logs: this.engine.logs.slice(logStart),
      output,
      warnings: [],
    };
    if (errors.length === 1) result.error = errors[0];
    else if (errors.length > 1) result.error = new AggregateError(errors, errors.map((e) => e.message).join("\n"));
    return result;
  }

  private spawnLanguageHost(
    address: string,
    preview: boolean,
    settings: ReturnType<ProgramRunner["settings"]>,
    timeoutMs: number,
    deployment: Deployment,
  ): Promise<{ code: number | null; output: string }> {
    const args = [
      LANGUAGE_HOST,
      `--monitor=${address}`,
      `--engine=${address}`,
      `--project=${this.project}`,
      `--stack=${this.stack}`,
      `--organization=${this.organization}`,
      `--root-directory=${this.dir}`,
      `--pwd=${this.pwd}`,
      `--parallel=${settings.parallel}`,
      ...(preview ? ["--dry-run"] : []),
      this.program,
    ];
    const runEnv: Record<string, string> = {
      PULUMI_CONFIG: JSON.stringify(settings.config),
      PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(settings.secretKeys),
      PULUMI_NODEJS_TYPESCRIPT: String(this.typescript),
      // The CLI leaves this to the user's environment (unset: ts-node type-checks). The harness transpiles
      // only unless the run's env sets it ("false" type-checks, as the CLI's default does).
      PULUMI_NODEJS_TRANSPILE_ONLY: (settings.env as Record<string, string>)["PULUMI_NODEJS_TRANSPILE_ONLY"] ?? "true",
    };
    const child = this.takeLanguageHost(inheritedEnv(settings.env));
    child.stdin!.end(JSON.stringify({ script: args[0], args: args.slice(1), env: runEnv }) + "\n");
    let output = "";
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-65536);
    };
    child.stdout!.on("data", collect);
    child.stderr!.on("data", collect);
    // A failed step stops the program once the steps in flight are done, as the engine does; the SDK
    // itself would wait forever for the failed resource's outputs.
    deployment.onHalt = () => {
      void deployment.settle().then(() => child.kill("SIGTERM"));
    };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        collect(Buffer.from(`\n[harness] program killed after ${timeoutMs} ms\n`));
      }, timeoutMs);
      child.on("error", (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      });
      // Boot the next run's language host while this one runs.
      if (this.opts.preboot !== false) {
        const env = inheritedEnv(settings.env);
        this.warmHost = { key: JSON.stringify(Object.entries(env).sort()), child: this.bootLanguageHost(env) };
      }
    });
  }

  /** A language host booted ahead with the same environment, or a fresh one. */
  private takeLanguageHost(env: NodeJS.ProcessEnv): ChildProcess {
    const warm = this.warmHost;
    this.warmHost = undefined;
    if (warm && warm.key === JSON.stringify(Object.entries(env).sort()) && warm.child.exitCode === null && warm.child.signalCode === null) {
      return warm.child;
    }
    warm?.child.kill("SIGKILL");
    return this.bootLanguageHost(env);
  }

  private bootLanguageHost(env: NodeJS.ProcessEnv): ChildProcess {
    // `nodeargs` go before the script, as the CLI's language host passes them to `node`.
    return spawn(process.execPath, [...this.nodeArgs, "-e", LANGUAGE_HOST_BOOT, SDK_DIR, this.typescript ? "typescript" : "javascript"], { cwd: this.pwd, env, stdio: ["pipe", "pipe", "pipe"] });
  }
}

export { StepError };
