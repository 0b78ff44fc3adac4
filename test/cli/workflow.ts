/**
 * GitHub Actions workflows run on this machine as written, for the CLI tests of the GitOps examples: a
 * workflow file is parsed, a job's `if:` decides whether an event runs it, and its steps run in order in
 * a checkout of the test's. A `run:` step runs its script with bash, as a Linux runner does (`bash -e`,
 * or the step's `shell: bash`), in its `working-directory`, with the workflow's, the job's and the step's
 * `env:`. A `uses:` step runs the handler the test gives for that action; {@link pulumiAction} is
 * `pulumi/actions` as the equivalent `pulumi` command line. `${{ … }}` expressions read the contexts
 * given (`github`, `secrets`, `vars`) and `env`; an expression or an input the runner does not know
 * fails the step, so a workflow that comes to need more says so here instead of passing untried.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "yaml";

/** A step of a job, as the workflow file gives it. */
export interface WorkflowStep {
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
  "working-directory"?: string;
}

/** A job of a workflow. */
export interface WorkflowJob {
  name?: string;
  if?: string;
  env?: Record<string, unknown>;
  defaults?: { run?: { "working-directory"?: string; shell?: string } };
  steps: WorkflowStep[];
}

/** A workflow file. */
export interface Workflow {
  file: string;
  name?: string;
  on: unknown;
  env?: Record<string, unknown>;
  defaults?: { run?: { "working-directory"?: string; shell?: string } };
  jobs: Record<string, WorkflowJob>;
}

export function readWorkflow(file: string): Workflow {
  return { ...(parse(fs.readFileSync(file, "utf8")) as Omit<Workflow, "file">), file };
}

/** The contexts expressions read besides `env`. */
export interface Contexts {
  github: Record<string, unknown>;
  secrets: Record<string, string>;
  vars: Record<string, string>;
}

/** What one step did. */
export interface StepResult {
  /** The step's name, its `run:` script or its `uses:`. */
  step: string;
  /** What ran: the script, or the command line a handler ran (empty when nothing ran). */
  command: string;
  code: number;
  output: string;
  seconds: number;
  /** Why nothing ran (a step's `if:`, a handler with nothing to do here). */
  skipped?: string;
}

/** What one job did: its steps up to the first that failed. */
export interface JobResult {
  workflow: string;
  job: string;
  ok: boolean;
  steps: StepResult[];
  /** The step that failed the job. */
  failed?: StepResult;
}

/** What a `uses:` step's handler gets: its inputs with expressions resolved, its environment and folder. */
export interface ActionCall {
  step: WorkflowStep;
  inputs: Record<string, string>;
  env: NodeJS.ProcessEnv;
  workspace: string;
}

/** A `uses:` step's handler, by action name without the version (`actions/checkout`). */
export type ActionHandler = (call: ActionCall) => Promise<Omit<StepResult, "step">>;

/** What a job runs with. */
export interface JobOptions {
  contexts: Contexts;
  /** The checkout the job's steps run in (the workspace). */
  workspace: string;
  /** The runner's environment (PATH and the rest) under the workflow's `env:`. */
  env: NodeJS.ProcessEnv;
  /** Values of the workflow's `env:` a set-up changes (as a user edits the copied file). */
  workflowEnv?: Record<string, string>;
  actions: Record<string, ActionHandler>;
  /**
   * Install commands (`npm ci…`) that ran in this checkout already, by folder and command: a job on
   * GitHub starts from a fresh checkout and installs; jobs sharing a checkout here install once.
   */
  installed?: Set<string>;
}

/** Whether the job's `if:` holds for the contexts' event. */
export function jobRuns(workflow: Workflow, job: string, contexts: Contexts): boolean {
  const j = workflow.jobs[job];
  if (!j) throw new Error(`${workflow.file} has no job '${job}'`);
  return j.if === undefined || truthy(evaluate(j.if, { ...contexts, env: stringValues(workflow.env ?? {}, { ...contexts, env: {} }) }));
}

/** Runs a job's steps in order; stops at the first that fails. */
export async function runJob(workflow: Workflow, job: string, opts: JobOptions): Promise<JobResult> {
  const j = workflow.jobs[job];
  if (!j) throw new Error(`${workflow.file} has no job '${job}'`);
  const base = { ...opts.contexts, env: {} };
  const workflowEnv = { ...stringValues(workflow.env ?? {}, base), ...opts.workflowEnv };
  const jobEnv = { ...workflowEnv, ...stringValues(j.env ?? {}, { ...opts.contexts, env: workflowEnv }) };
  const steps: StepResult[] = [];
  for (const step of j.steps) {
    const label = step.name ?? step.run?.trim() ?? step.uses ?? "(a step)";
    const ctx = { ...opts.contexts, env: jobEnv };
    if (step.if !== undefined && !truthy(evaluate(step.if, ctx))) {
      steps.push({ step: label, command: "", code: 0, output: "", seconds: 0, skipped: `if: ${step.if}` });
      continue;
    }
    const env: NodeJS.ProcessEnv = { ...opts.env, ...githubEnv(opts), ...jobEnv, ...stringValues(step.env ?? {}, ctx) };
    const started = Date.now();
    let result: Omit<StepResult, "step">;
    if (step.run !== undefined) {
      const script = substitute(step.run, ctx);
      const dir = step["working-directory"] ?? j.defaults?.run?.["working-directory"] ?? workflow.defaults?.run?.["working-directory"];
      const cwd = path.resolve(opts.workspace, dir === undefined ? "." : substitute(dir, ctx));
      const shell = step.shell ?? j.defaults?.run?.shell ?? workflow.defaults?.run?.shell;
      const key = `${cwd}\n${script.trim()}`;
      if (/^npm ci\b/.test(script.trim()) && opts.installed?.has(key)) {
        result = { command: script, code: 0, output: "", seconds: 0, skipped: "installed already in this checkout" };
      } else {
        result = await runScript(script, cwd, env, shell);
        if (result.code === 0 && /^npm ci\b/.test(script.trim())) opts.installed?.add(key);
      }
    } else if (step.uses !== undefined) {
      const action = step.uses.replace(/@.*$/, "");
      const handler = opts.actions[action];
      if (!handler) throw new Error(`${workflow.file} ${job}: no handler for ${step.uses}`);
      const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)]));
      result = await handler({ step, inputs, env, workspace: opts.workspace });
    } else {
      throw new Error(`${workflow.file} ${job}: a step with neither run nor uses`);
    }
    const done: StepResult = { step: label, ...result, seconds: result.seconds || (Date.now() - started) / 1000 };
    steps.push(done);
    if (done.code !== 0) return { workflow: path.basename(workflow.file), job, ok: false, steps, failed: done };
  }
  return { workflow: path.basename(workflow.file), job, ok: true, steps };
}

/** A job's steps and their output, for a failed expectation's message. */
export function describeJob(r: JobResult): string {
  return [
    `${r.workflow} ${r.job}: ${r.ok ? "passed" : "failed"}`,
    ...r.steps.map((s) => `--- ${s.step}${s.skipped ? ` (skipped: ${s.skipped})` : ` [exit ${s.code}, ${s.seconds.toFixed(1)} s]`}\n${s.command && s.command !== s.step ? `$ ${s.command}\n` : ""}${s.output}`),
  ].join("\n");
}

/** The variables a runner sets for every step (the ones these workflows could read). */
function githubEnv(opts: JobOptions): Record<string, string> {
  const event = String(opts.contexts.github["event_name"] ?? "");
  return { CI: "true", GITHUB_ACTIONS: "true", GITHUB_EVENT_NAME: event, GITHUB_WORKSPACE: opts.workspace, RUNNER_OS: "Linux" };
}

/** Runs a `run:` script with bash as the runner would: `bash -e {0}`, or `bash --noprofile --norc -eo pipefail {0}` for `shell: bash`. */
function runScript(script: string, cwd: string, env: NodeJS.ProcessEnv, shell: string | undefined): Promise<Omit<StepResult, "step">> {
  if (shell !== undefined && shell !== "bash") throw new Error(`a run step's shell '${shell}' is not run here`);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "docsplatform-step-")), "step.sh");
  fs.writeFileSync(file, script);
  const args = shell === "bash" ? ["--noprofile", "--norc", "-eo", "pipefail", file] : ["-e", file];
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn("bash", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (output += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (output += d));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
      resolve({ command: script, code: code ?? (signal ? 128 : 1), output, seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** Runs a command (no shell) and collects its output, for handlers. */
export function runCommand(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Omit<StepResult, "step">> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (output += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (output += d));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ command: [command, ...args].join(" "), code: code ?? (signal ? 128 : 1), output, seconds: (Date.now() - started) / 1000 }));
  });
}

/** The options of {@link pulumiAction}. */
export interface PulumiActionOptions {
  /** The Pulumi CLI version on PATH: a `pulumi-version` input must name it. */
  cliVersion: string;
}

/** Inputs of pulumi/actions that only reach GitHub (comments, summaries, the token to post them, colour). */
const GITHUB_ONLY_INPUTS = new Set(["comment-on-pr", "comment-on-pr-number", "comment-on-summary", "edit-pr-comment", "always-include-summary", "github-token", "color"]);

/** Inputs of pulumi/actions that are a flag of the command, and the flag. */
const FLAG_INPUTS: Record<string, (value: string) => string[]> = {
  refresh: (v) => (isTrue(v) ? ["--refresh"] : []),
  "expect-no-changes": (v) => (isTrue(v) ? ["--expect-no-changes"] : []),
  diff: (v) => (isTrue(v) ? ["--diff"] : []),
  "target-dependents": (v) => (isTrue(v) ? ["--target-dependents"] : []),
  "suppress-outputs": (v) => (isTrue(v) ? ["--suppress-outputs"] : []),
  "suppress-progress": (v) => (isTrue(v) ? ["--suppress-progress"] : []),
  "exclude-protected": (v) => (isTrue(v) ? ["--exclude-protected"] : []),
  message: (v) => ["--message", v],
  parallel: (v) => ["--parallel", v],
  target: (v) => lines(v).flatMap((t) => ["--target", t]),
  replace: (v) => lines(v).flatMap((t) => ["--replace", t]),
};

/** What each command of pulumi/actions runs (its Automation API calls these). */
const COMMANDS: Record<string, string[]> = {
  preview: ["preview"],
  up: ["up", "--yes", "--skip-preview"],
  update: ["up", "--yes", "--skip-preview"],
  refresh: ["refresh", "--yes", "--skip-preview"],
  destroy: ["destroy", "--yes", "--skip-preview"],
};

/**
 * `pulumi/actions` as the `pulumi` command it runs: `command` (preview, up, refresh, destroy) on
 * `stack-name` in `work-dir`, each flag input as its flag (`refresh: true` → `--refresh`,
 * `expect-no-changes: true` → `--expect-no-changes`…), with the step's environment. Inputs that only reach
 * GitHub (the pull-request comment and its token) do nothing here; `pulumi-version` must be the CLI on
 * PATH; the backend is the environment's (`PULUMI_BACKEND_URL`), as `cloud-url` would set it.
 */
export function pulumiAction(opts: PulumiActionOptions): ActionHandler {
  return async ({ inputs, env, workspace }) => {
    const command = COMMANDS[inputs["command"] ?? ""];
    if (!command) throw new Error(`pulumi/actions: command '${inputs["command"]}' is not run here`);
    const stack = inputs["stack-name"];
    if (!stack) throw new Error("pulumi/actions: no stack-name");
    const args = [...command, "--stack", stack];
    for (const [name, value] of Object.entries(inputs)) {
      if (name === "command" || name === "stack-name" || name === "work-dir" || name === "cloud-url" || GITHUB_ONLY_INPUTS.has(name)) continue;
      if (name === "pulumi-version") {
        if (value.replace(/^v/, "") !== opts.cliVersion.replace(/^v/, "")) throw new Error(`pulumi/actions: pulumi-version ${value}, but the CLI here is ${opts.cliVersion}`);
        continue;
      }
      const flag = FLAG_INPUTS[name];
      if (!flag) throw new Error(`pulumi/actions: input '${name}' is not run here`);
      args.push(...flag(value));
    }
    args.push("--non-interactive");
    return runCommand("pulumi", args, path.resolve(workspace, inputs["work-dir"] ?? "."), env);
  };
}

function isTrue(value: string): boolean {
  return value.trim().toLowerCase() === "true";
}

function lines(value: string): string[] {
  return value.split("\n").map((l) => l.trim()).filter(Boolean);
}

/** A mapping's values as strings with their expressions resolved (an `env:` block). */
function stringValues(values: Record<string, unknown>, ctx: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, substitute(String(v), ctx)]));
}

/** A string with each `${{ expression }}` replaced by its value. */
export function substitute(text: string, ctx: Record<string, unknown>): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expr: string) => {
    const value = evaluate(expr, ctx);
    return value === null || value === undefined ? "" : String(value);
  });
}

/** GitHub's truthiness: false, 0, '' and null are false. */
function truthy(value: unknown): boolean {
  return !(value === false || value === 0 || value === "" || value === null || value === undefined);
}

/** Status functions, as they stand while every earlier step has passed (a failed step ends the job here). */
const FUNCTIONS: Record<string, () => boolean> = { success: () => true, always: () => true, failure: () => false, cancelled: () => false };

/**
 * The value of an expression of GitHub's syntax, the part these workflows use: context paths
 * (`github.event.pull_request.number`), string, number and boolean literals, `==`, `!=`, `!`, `&&`, `||`,
 * parentheses and the status functions. A context or a syntax outside that part is an error.
 */
export function evaluate(expr: string, ctx: Record<string, unknown>): unknown {
  const matches = [...expr.matchAll(/\s*('(?:[^']|'')*'|==|!=|&&|\|\||[!()]|[A-Za-z_][\w-]*(?:\.[\w-]+)*(?:\(\))?|-?\d+(?:\.\d+)?)\s*/gy)];
  if (matches.reduce((n, m) => n + m[0].length, 0) !== expr.length) throw new Error(`expression not understood here: ${expr}`);
  const tokens = matches.map((m) => m[1]!);
  let at = 0;
  const peek = (): string | undefined => tokens[at];
  const or = (): unknown => {
    let left = and();
    while (peek() === "||") {
      at++;
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const and = (): unknown => {
    let left = compare();
    while (peek() === "&&") {
      at++;
      const right = compare();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const compare = (): unknown => {
    const left = unary();
    const op = peek();
    if (op !== "==" && op !== "!=") return left;
    at++;
    const right = unary();
    const same = typeof left === "string" && typeof right === "string" ? left.toLowerCase() === right.toLowerCase() : left === right || String(left) === String(right);
    return op === "==" ? same : !same;
  };
  const unary = (): unknown => {
    const t = tokens[at++];
    if (t === undefined) throw new Error(`expression ends early: ${expr}`);
    if (t === "!") return !truthy(unary());
    if (t === "(") {
      const value = or();
      if (tokens[at++] !== ")") throw new Error(`unbalanced parentheses: ${expr}`);
      return value;
    }
    if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
    if (/^-?\d/.test(t)) return Number(t);
    if (t === "true" || t === "false") return t === "true";
    if (t === "null") return null;
    if (t.endsWith("()")) {
      const fn = FUNCTIONS[t.slice(0, -2)];
      if (!fn) throw new Error(`function not known here: ${t}`);
      return fn();
    }
    const [head, ...rest] = t.split(".");
    if (!(head! in ctx)) throw new Error(`context not known here: ${head} (in ${expr})`);
    let value: unknown = ctx[head!];
    for (const key of rest) value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
    // A secret or variable that is not set reads as '', as on GitHub.
    return value === undefined && (head === "secrets" || head === "vars") ? "" : (value ?? null);
  };
  const value = or();
  if (at !== tokens.length) throw new Error(`expression not understood here: ${expr}`);
  return value;
}
