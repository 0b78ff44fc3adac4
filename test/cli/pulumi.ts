/**
 * The real Pulumi CLI, as the end-to-end suite (test/cli/) and the demo drive it: built by .ci/pulumi-cli
 * from the Go module proxy, run on a local file backend in a temporary folder with a passphrase secrets
 * provider, no update check and no plugin downloads. The folder .ci/pulumi-cli builds is laid out as the
 * CLI's own distribution: `pulumi`, the Node.js language host and the dynamic-provider plugin side by side;
 * it goes first on PATH, then the Node.js the tests run on (no other folder for the plugin).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../harness/program";

/** What .ci/pulumi-cli exits with when Go is missing (the CLI cannot be built here). */
const NO_GO = 3;

/** Why the CLI is not at hand, or undefined when it is. Builds it on the first call when needed (saying so on stderr). */
export function pulumiUnavailable(): string | undefined {
  try {
    pulumiBinDir();
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

let binDir: string | undefined;

/** The folder holding `pulumi`, `pulumi-language-nodejs` and `pulumi-resource-pulumi-nodejs`, built once by .ci/pulumi-cli. */
export function pulumiBinDir(): string {
  if (binDir) return binDir;
  try {
    binDir = execFileSync(path.join(REPO_ROOT, ".ci", "pulumi-cli"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  } catch (e) {
    const status = (e as { status?: number }).status;
    throw new Error(status === NO_GO ? "the Pulumi CLI cannot be built: Go is not installed" : `.ci/pulumi-cli failed (exit ${status})`);
  }
  return binDir;
}

/** The outcome of one CLI command. */
export interface CliResult {
  /** The command line as typed (secrets masked). */
  command: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link PulumiCli.run}. */
export interface CliRunOptions {
  /** Resolve with a non-zero exit instead of rejecting (default false). */
  allowFailure?: boolean;
  /** Environment variables over the CLI's own. */
  env?: NodeJS.ProcessEnv;
  /** Working directory (default: the project folder). */
  cwd?: string;
}

/**
 * One local backend and Pulumi home in a temporary folder, and the commands run against them from a
 * project folder. `secrets` are masked in the echoed command lines of failures.
 */
export class PulumiCli {
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;

  constructor(
    readonly dir: string,
    private readonly secrets: readonly string[] = [],
  ) {
    this.home = fs.mkdtempSync(path.join(os.tmpdir(), "docsplatform-cli-"));
    fs.mkdirSync(path.join(this.home, "backend"));
    this.env = {
      ...process.env,
      // The CLI with its language host and dynamic-provider plugin, then the Node.js the tests run on.
      PATH: [pulumiBinDir(), path.dirname(process.execPath), process.env["PATH"] ?? ""].join(path.delimiter),
      PULUMI_HOME: path.join(this.home, "pulumi-home"),
      PULUMI_BACKEND_URL: `file://${path.join(this.home, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: "docsplatform-cli-suite",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_SKIP_CHECKPOINTS: undefined,
      NO_COLOR: "1",
      // The suite gives the URL and token in the stack config; set, these would win over it (a shell's leftovers must not).
      DOCSPLATFORM_API_URL: undefined,
      DOCSPLATFORM_API_TOKEN: undefined,
    };
  }

  /** Runs `pulumi ARGS` (with `--non-interactive --color=never`) in the project folder. */
  run(args: readonly string[], opts: CliRunOptions = {}): Promise<CliResult> {
    const child = this.spawn(args, opts);
    return this.collect(child, args, opts);
  }

  /** Starts `pulumi ARGS` and returns the child, for tests that signal it mid-run. */
  spawn(args: readonly string[], opts: Omit<CliRunOptions, "allowFailure"> = {}): ChildProcess {
    return spawn("pulumi", [...args, "--non-interactive", "--color=never"], {
      cwd: opts.cwd ?? this.dir,
      env: { ...this.env, ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
  }

  /** Waits for a child of {@link spawn} and collects its output. */
  collect(child: ChildProcess, args: readonly string[], opts: Pick<CliRunOptions, "allowFailure"> = {}): Promise<CliResult> {
    const command = `pulumi ${args.map((a) => (this.secrets.includes(a) ? "***" : a)).join(" ")}`;
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr?.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    return new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code, signal) => {
        const result = { command, code, signal, stdout, stderr };
        if (code === 0 || opts.allowFailure) resolve(result);
        else reject(new Error(`${command} exited with ${code ?? signal}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
      });
    });
  }

  /** `pulumi stack init NAME` and the provider's config for an API at `url` acting with `token` (a secret). */
  async initStack(name: string, api: { url: string; token: string }, config: Record<string, string> = {}): Promise<void> {
    await this.run(["stack", "init", name]);
    await this.run(["config", "set", "docsplatform:apiUrl", api.url]);
    await this.run(["config", "set", "--secret", "docsplatform:apiToken", api.token]);
    for (const [key, value] of Object.entries(config)) await this.run(["config", "set", key, value]);
  }

  /** The stack's state as `pulumi stack export` gives it. */
  async exportState(): Promise<{ text: string; deployment: StackDeployment }> {
    const { stdout } = await this.run(["stack", "export"]);
    return { text: stdout, deployment: (JSON.parse(stdout) as { deployment: StackDeployment }).deployment };
  }

  /** Removes the backend and home folder. */
  close(): void {
    fs.rmSync(this.home, { recursive: true, force: true });
  }
}

/** The summary counts the CLI prints after a run (`+ 47 created`, `47 unchanged`, `~ 1 to update`…). */
export function resourceSummary(r: Pick<CliResult, "stdout">): Record<string, number> {
  const tail = r.stdout.slice(r.stdout.lastIndexOf("Resources:"));
  const out: Record<string, number> = {};
  for (const m of tail.matchAll(/^\s+(?:[-+~]+(?:\/[-+~]+)?\s+)?(\d+) (to create|created|to update|updated|to delete|deleted|to replace|replaced|unchanged)$/gm)) {
    out[m[2]!] = Number(m[1]);
  }
  return out;
}

/** The parts of an exported deployment the suite reads. */
export interface StackDeployment {
  resources?: {
    urn: string;
    type: string;
    id?: string;
    custom?: boolean;
    parent?: string;
    dependencies?: string[];
    additionalSecretOutputs?: string[];
    outputs?: Record<string, unknown>;
    inputs?: Record<string, unknown>;
    retainOnDelete?: boolean;
  }[];
  pending_operations?: { resource: { urn: string; type: string }; type: string }[];
}

/** `Kind name` of each custom resource of our package in a deployment (providers and the stack left out). */
export function kindsAndNames(deployment: StackDeployment): string[] {
  return (deployment.resources ?? [])
    .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/docsplatform:"))
    .map((r) => `${r.type.slice(r.type.lastIndexOf(":") + 1)} ${r.urn.slice(r.urn.lastIndexOf("::") + 2)}`)
    .sort();
}
