/**
 * One project run against the emulator the way a user tries their own file before the live platform:
 * `pulumi preview`, `pulumi up`, a second `pulumi up` (nothing changed: no API call), then `pulumi
 * destroy` — or, with `keep`, the stack left deployed and the emulator running until Ctrl-C.
 *
 * - **The project** is a folder with `Pulumi.yaml`, or a stack file (its folder is the project; a folder
 *   without `Pulumi.yaml` is made a no-code project). It is copied to `.work/programs/` with this
 *   checkout's package installed, so the user's folder is never written to.
 * - **The emulator** is started in-process and seeded from the project's stack file (the organisation it
 *   refers to: provider/commands/emulatorSeed.ts, as `docsplatform emulator --seed-from` does), or with the
 *   default fixture (the handbook demo); or a running emulator is used (`api`).
 * - **The engine** is the real Pulumi CLI where .ci/pulumi-cli can build it (on a throwaway local backend),
 *   else the bundled engine harness (the SDK's real language host and dynamic-provider plugin behind a
 *   small engine, test/harness). Which one runs is said first.
 *
 * `npm run try` (try.ts) and `npm run demo` (the handbook on the fixture) are this applied to a folder.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { startEmulator, type RunningEmulator, type Seed } from "../../emulator";
import { describeSeed, seedFromStackFile } from "../../provider/commands/emulatorSeed";
import { PulumiCli, pulumiUnavailable } from "../cli/pulumi";
import { providerConfig } from "../harness/emulatorRunner";
import { HANDBOOK_SECRET_ENV } from "../harness/handbookSecrets";
import { prepareProgram, WORK_DIR, type PreparedProgram } from "../harness/program";
import { ProgramRunner, type ApiCall, type RunResult } from "../harness/runner";

/** What to run, against what, with what. */
export interface TryOptions {
  /** A project folder (with `Pulumi.yaml`), or a stack file inside one. */
  project: string;
  /** Leave the stack deployed and the emulator running until Ctrl-C, instead of destroying. */
  keep?: boolean;
  /** `auto` (default): the Pulumi CLI where it can be built, else the harness. */
  engine?: "auto" | "cli" | "harness";
  /** A running emulator to use instead of starting one. */
  api?: { url: string; token: string };
  /** `file` (default): the organisation the stack file refers to; `fixture`: the emulator's default fixture. */
  seed?: "file" | "fixture";
  /** Where the output goes (default: standard output). */
  write?: (text: string) => void;
}

/** One command of the run and the API requests it made. */
export interface TryStep {
  command: "preview" | "up" | "second up" | "destroy";
  apiCalls: ApiCall[];
  /** Through the harness: the package's resources per step kind (`create`, `same`, …; the stack and component left out). */
  summary?: RunResult["summary"];
}

/** What a run did. */
export interface TryResult {
  engine: "cli" | "harness";
  steps: TryStep[];
  /** The stack's outputs after the first `up` (through the harness). */
  outputs?: Record<string, unknown>;
}

/** Project folder and stack file of what the user named. */
export interface ProjectFiles {
  /** Folder holding the project (or the stack file, when it has no `Pulumi.yaml`). */
  dir: string;
  /** The stack file, relative to `dir`. */
  stackFile: string;
  /** Whether `dir` has a `Pulumi.yaml`. */
  hasProject: boolean;
  /** The `docsplatform:file` config the runs set: a stack file named other than `docs.yaml` and not in the project's config. */
  fileConfig?: string;
}

/** Where the project and its stack file are: a folder's `docs.yaml` (or its `docsplatform:file` config), or the file named. */
export function projectFiles(target: string): ProjectFiles {
  const abs = path.resolve(target);
  if (!fs.existsSync(abs)) throw new Error(`${target}: no such file or folder`);
  if (fs.statSync(abs).isDirectory()) {
    const hasProject = fs.existsSync(path.join(abs, "Pulumi.yaml"));
    const stackFile = (hasProject ? configuredStackFile(abs) : undefined) ?? "docs.yaml";
    if (!fs.existsSync(path.join(abs, stackFile))) throw new Error(`${target}: no ${stackFile} in it (name the stack file instead)`);
    return { dir: abs, stackFile, hasProject };
  }
  const dir = path.dirname(abs);
  const hasProject = fs.existsSync(path.join(dir, "Pulumi.yaml"));
  const stackFile = path.basename(abs);
  const configured = (hasProject ? configuredStackFile(dir) : undefined) ?? "docs.yaml";
  return { dir, stackFile, hasProject, ...(stackFile === configured ? {} : { fileConfig: stackFile }) };
}

/** `docsplatform:file` as the project's Pulumi.yaml sets it (`config:`), if it does. */
function configuredStackFile(dir: string): string | undefined {
  const project = parseYaml(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")) as { config?: Record<string, unknown> } | null;
  const value = project?.config?.["docsplatform:file"];
  const file = typeof value === "object" && value !== null ? (value as { value?: unknown; default?: unknown }).value ?? (value as { default?: unknown }).default : value;
  return typeof file === "string" ? file : undefined;
}

/** The API the runs use, and the stack file they read when it is not the project's. */
interface Target {
  url: string;
  token: string;
  file?: string;
}

/** The API calls made since the last clear, from an emulator in this process or over its control surface. */
interface CallLog {
  clear(): Promise<void>;
  calls(): Promise<ApiCall[]>;
}

function inProcessLog(emulator: RunningEmulator): CallLog {
  return {
    clear: async () => emulator.control.clearLog(),
    calls: async () => emulator.control.log().map(({ method, route, path: p, status }) => ({ method, route, path: p, status })),
  };
}

/** A running emulator's log (`/_emulator/log`); an API without one (not an emulator) is refused before any run. */
async function remoteLog(url: string): Promise<CallLog> {
  const control = `${url.replace(/\/+$/, "")}/_emulator/log`;
  const probe = await fetch(control).catch((e: unknown) => {
    throw new Error(`cannot reach ${url}: ${e instanceof Error ? e.message : String(e)}`);
  });
  if (!probe.ok) throw new Error(`${url} is not the emulator (no ${control}); try your file against the emulator only`);
  return {
    clear: async () => void (await fetch(control, { method: "DELETE" })),
    calls: async () => ((await (await fetch(control)).json()) as { items: ApiCall[] }).items.map(({ method, route, path: p, status }) => ({ method, route, path: p, status })),
  };
}

/** Copies the project (a folder without `Pulumi.yaml` made a no-code project) with the package installed. */
async function prepareProject(files: ProjectFiles): Promise<PreparedProgram> {
  if (files.hasProject) return prepareProgram(files.dir, { installPackage: true });
  const staging = path.join(WORK_DIR, "programs", `staging-${process.pid}-${Date.now()}`);
  fs.cpSync(files.dir, staging, { recursive: true, filter: (from) => !/[\\/](node_modules|\.git|\.work)$/.test(from) });
  try {
    fs.writeFileSync(path.join(staging, "Pulumi.yaml"), "name: docs\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n");
    fs.writeFileSync(
      path.join(staging, "package.json"),
      JSON.stringify({ name: "docs", private: true, main: "node_modules/pulumi-docsplatform/dist/provider/program.js" }, null, 2) + "\n",
    );
    const program = await prepareProgram(staging, { installPackage: true });
    return program;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

const SYMBOL: Record<string, string> = { create: "+", update: "~", replace: "+-", delete: "-", same: " " };

/** `Kind` and name of a resource from its type token and URN. */
function describeStep(s: { type: string; urn: string }): { kind: string; name: string } {
  return { kind: s.type.slice(s.type.lastIndexOf(":") + 1), name: s.urn.slice(s.urn.lastIndexOf("::") + 2) };
}

/** A harness run, one line per changed resource (unchanged ones only counted; the component and stack left out). */
function reportSteps(title: string, result: RunResult, out: (line: string) => void): void {
  const custom = result.steps.filter((s) => s.custom);
  const changed = custom.filter((s) => s.op !== "same");
  const byOp = new Map<string, number>();
  for (const s of changed) byOp.set(s.op, (byOp.get(s.op) ?? 0) + 1);
  const counts = [...byOp].map(([op, n]) => `${n} to ${op}`);
  const unchanged = custom.length - changed.length;
  out(`\n== ${title}: ${[...counts, ...(unchanged > 0 ? [`${unchanged} unchanged`] : [])].join(", ") || "nothing to do"}`);
  const width = Math.max(0, ...changed.map((s) => describeStep(s).kind.length));
  for (const s of changed) {
    const { kind, name } = describeStep(s);
    const diffs = s.diffs && s.diffs.length > 0 ? `  [${s.diffs.join(", ")}]` : "";
    out(`  ${(SYMBOL[s.op] ?? s.op).padEnd(2)} ${kind.padEnd(width)}  ${name}${diffs}`);
  }
}

/** The API calls of a command: their number, and with `perRoute` how many per route. */
function reportCalls(calls: ApiCall[], out: (line: string) => void, opts: { nothingToDo?: boolean; perRoute?: boolean } = {}): void {
  out(`  API calls: ${calls.length}${opts.nothingToDo && calls.length === 0 ? " (nothing to do)" : ""}`);
  if (!opts.perRoute) return;
  const byRoute = new Map<string, number>();
  for (const c of calls) byRoute.set(`${c.method} ${c.route}`, (byRoute.get(`${c.method} ${c.route}`) ?? 0) + 1);
  for (const [call, n] of [...byRoute].sort(([a], [b]) => a.localeCompare(b))) out(`    ${String(n).padStart(3)} × ${call}`);
}

/** Until Ctrl-C. */
function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => process.once("SIGINT", () => resolve()));
}

/** The four commands through the Pulumi CLI on a throwaway local backend, its output shown as it prints it. */
/**
 * The handbook's secrets (an MCP server's header, a connection's token) where the environment leaves them
 * unset: stand-in values, as a user would export real ones (the component stops on an unset source).
 */
function standInSecrets(env: NodeJS.ProcessEnv, out: (line: string) => void): Record<string, string> {
  const unset = Object.keys(HANDBOOK_SECRET_ENV).filter((name) => !env[name]);
  if (unset.length > 0) out(`secrets:  ${unset.join(", ")} not set: stand-in values exported for this run`);
  return Object.fromEntries(unset.map((name) => [name, HANDBOOK_SECRET_ENV[name]!]));
}

async function throughCli(dir: string, api: Target, log: CallLog, opts: TryOptions, out: (line: string) => void): Promise<TryResult> {
  const cli = new PulumiCli(dir, [api.token]);
  Object.assign(cli.env, standInSecrets(cli.env, out));
  const write = opts.write ?? ((t: string) => void process.stdout.write(t));
  const pulumi = async (args: string[]): Promise<void> => {
    out(`\n$ pulumi ${args.map((a) => (a === api.token ? "***" : a)).join(" ")}`);
    const child = cli.spawn(args);
    child.stdout?.setEncoding("utf8").on("data", write);
    child.stderr?.setEncoding("utf8").on("data", write);
    await cli.collect(child, args);
  };
  const steps: TryStep[] = [];
  const step = async (command: TryStep["command"], args: string[]): Promise<void> => {
    await log.clear();
    await pulumi(args);
    const apiCalls = await log.calls();
    steps.push({ command, apiCalls });
    out("");
    reportCalls(apiCalls, out, { nothingToDo: command === "second up" });
  };
  try {
    out(`backend:  ${cli.env["PULUMI_BACKEND_URL"]}`);
    await pulumi(["version"]);
    await pulumi(["stack", "init", "try"]);
    await pulumi(["config", "set", "docsplatform:apiUrl", api.url]);
    await pulumi(["config", "set", "--secret", "docsplatform:apiToken", api.token]);
    if (api.file !== undefined) await pulumi(["config", "set", "docsplatform:file", api.file]);
    await step("preview", ["preview"]);
    await step("up", ["up", "--yes", "--skip-preview"]);
    await step("second up", ["up", "--yes", "--skip-preview"]);
    if (opts.keep) {
      const bin = cli.env["PATH"]?.split(path.delimiter).slice(0, 2).join(path.delimiter);
      out(
        `\nThe stack is deployed; the emulator keeps running at ${api.url}.\n` +
          `Edit ${dir}/ and run \`pulumi up\` there with PULUMI_BACKEND_URL=${cli.env["PULUMI_BACKEND_URL"]}, ` +
          `PULUMI_CONFIG_PASSPHRASE=${cli.env["PULUMI_CONFIG_PASSPHRASE"]} and PATH=${bin}:$PATH.\nCtrl-C stops.`,
      );
      await untilInterrupted();
    } else {
      await step("destroy", ["destroy", "--yes", "--skip-preview"]);
    }
    return { engine: "cli", steps };
  } finally {
    // The stack's state points at an emulator that is going away (or a throwaway one): remove it.
    cli.close();
  }
}

/** The four commands through the bundled engine harness, one line per changed resource. */
async function throughHarness(dir: string, api: Target, log: CallLog, opts: TryOptions, out: (line: string) => void): Promise<TryResult> {
  const { config, secretKeys } = providerConfig(api);
  const env = standInSecrets(process.env, out);
  const runner = new ProgramRunner({ dir, stack: "try", config: { ...config, ...(api.file !== undefined ? { "docsplatform:file": api.file } : {}) }, secretKeys, env });
  const steps: TryStep[] = [];
  let outputs: Record<string, unknown> | undefined;
  const step = async (command: TryStep["command"], title: string, run: () => Promise<RunResult>): Promise<void> => {
    await log.clear();
    const result = await run();
    const apiCalls = await log.calls();
    const summary: RunResult["summary"] = {};
    for (const s of result.steps) if (s.custom) summary[s.op] = (summary[s.op] ?? 0) + 1;
    steps.push({ command, apiCalls, summary });
    reportSteps(title, result, out);
    reportCalls(apiCalls, out, { nothingToDo: command === "second up", perRoute: true });
    if (command === "up") {
      outputs = result.outputs;
      out("  outputs:");
      for (const [k, v] of Object.entries(result.outputs)) out(`    ${k}: ${JSON.stringify(v)}`);
    }
  };
  try {
    await step("preview", "preview", () => runner.preview());
    await step("up", "up", () => runner.up());
    await step("second up", "second up (nothing changed in the stack file)", () => runner.up());
    if (opts.keep) {
      out(`\nThe stack is deployed; the emulator keeps running at ${api.url}. Ctrl-C stops.`);
      await untilInterrupted();
    } else {
      await step("destroy", "destroy", () => runner.destroy());
    }
    return { engine: "harness", steps, ...(outputs ? { outputs } : {}) };
  } finally {
    await runner.close();
  }
}

/** Runs the project as the module comment says; rejects with what went wrong (a command's output included). */
export async function tryProject(opts: TryOptions): Promise<TryResult> {
  const write = opts.write ?? ((t: string) => void process.stdout.write(t));
  const out = (line: string) => write(`${line}\n`);
  const files = projectFiles(opts.project);
  const stackFile = path.join(files.dir, files.stackFile);
  const engine = chooseEngine(opts.engine ?? "auto", out);

  let seed: Seed | undefined;
  if (!opts.api && opts.seed !== "fixture") {
    const made = seedFromStackFile(stackFile);
    if (!made.ok) throw new Error(`${made.problems.join("\n")}\n${files.stackFile} does not validate: fix it first (docsplatform validate)`);
    seed = made.seed;
  }
  const emulator = opts.api ? undefined : await startEmulator({ port: 0, ...(seed ? { seed } : {}) });
  let program: PreparedProgram | undefined;
  try {
    const api: Target = {
      ...(opts.api ?? { url: emulator!.url, token: Object.keys(seed?.tokens ?? {})[0] ?? emulator!.token }),
      ...(files.fileConfig !== undefined ? { file: files.fileConfig } : {}),
    };
    const log = emulator ? inProcessLog(emulator) : await remoteLog(api.url);
    const what = opts.api ? "a running emulator" : seed ? `${describeSeed(seed)}, seeded from ${files.stackFile}` : "the default fixture, organisation demo-org";
    out(`Node.js ${process.version}; emulator: ${api.url} (${what})`);
    out(`preparing ${path.relative(process.cwd(), files.dir) || "."} with this checkout's package installed…`);
    program = await prepareProject(files);
    out(`program:  ${program.dir}`);
    return engine === "cli" ? await throughCli(program.dir, api, log, opts, out) : await throughHarness(program.dir, api, log, opts, out);
  } finally {
    program?.cleanup();
    await emulator?.close();
  }
}

/** The engine to use, said in one line: the CLI where it can be built (building it on first use), else the harness. */
function chooseEngine(wanted: "auto" | "cli" | "harness", out: (line: string) => void): "cli" | "harness" {
  if (wanted === "harness") {
    out("engine: the bundled engine harness (the SDK's language host and dynamic-provider plugin; no Pulumi CLI)");
    return "harness";
  }
  const missing = pulumiUnavailable();
  if (missing === undefined) {
    out("engine: the Pulumi CLI (built by .ci/pulumi-cli), on a throwaway local backend");
    return "cli";
  }
  if (wanted === "cli") throw new Error(missing);
  out(`engine: the bundled engine harness, as ${missing}`);
  return "harness";
}
