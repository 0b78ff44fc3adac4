/**
 * Credentials on a CI runner, through the real Pulumi CLI: the environment wins over config, so a token
 * rotated in the CI's secret store takes effect on the next run whatever the stack's config or an earlier
 * run's state holds. `DOCSPLATFORM_API_TOKEN` over `docsplatform:apiToken`, `DOCSPLATFORM_API_URL` over
 * `docsplatform:apiUrl`, in `up`, in `preview --refresh`, and in `refresh`, which configures the provider
 * with the config the last `up` stored among the default provider's inputs rather than the stack's
 * current config. A small no-code project (a site and a team of the default fixture's organisation),
 * one emulator per case.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { freePort } from "../support/ports";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSeed, startEmulator, type RunningEmulator } from "../../emulator";
import { prepareProgram, type PreparedProgram } from "../harness/program";
import { writeNoCodeProject } from "../support/noCodeProject";
import { kindsAndNames, PulumiCli, resourceSummary, type CliResult, type StackDeployment } from "./pulumi";

const DOCS = `organization: demo-org
teams:
  - key: writers
    title: Rotation writers
sites:
  - key: docs
    title: Rotation docs
`;

/** The file's objects, as `Kind name`. */
const OBJECTS = ["Site rotation/docs", "Team rotation/writers"];

const token = (what: string) => `dpt_${what}_${randomBytes(12).toString("hex")}`;
/** Refused by every emulator here: what a stack's config still holds after the token was rotated. */
const STALE = token("stale");
/** Valid until it is revoked (case b). */
const OLD = token("old");
/** Valid everywhere: the CI's current token. */
const CURRENT = token("current");

let program: PreparedProgram;
let cli: PulumiCli;
const emulators: RunningEmulator[] = [];
let scratch: string;

/** An emulator of the default fixture on `port` (0: any) in which `tokens` act as its admin. */
async function emulator(tokens: readonly string[], opts: { port?: number; dataFile?: string } = {}): Promise<RunningEmulator> {
  const seed = defaultSeed();
  for (const t of tokens) seed.tokens[t] = "demo-admin";
  const emu = await startEmulator({ port: opts.port ?? 0, seed, ...(opts.dataFile ? { dataFile: opts.dataFile } : {}) });
  emulators.push(emu);
  return emu;
}

/** The status the emulator answers a request made with `bearer`. */
async function statusFor(emu: RunningEmulator, bearer: string): Promise<number> {
  return (await fetch(`${emu.url}/v1/orgs/demo-org`, { headers: { authorization: `Bearer ${bearer}` } })).status;
}

/** The statuses of the API requests the emulator answered since the last call, then cleared. */
function statuses(emu: RunningEmulator): number[] {
  const items = emu.control.log().map((c) => c.status);
  emu.control.clearLog();
  return items;
}

/** `pulumi ARGS --stack STACK`, with `env` over the CLI's own. */
function on(stack: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, allowFailure = false): Promise<CliResult> {
  return cli.run([...args, "--stack", stack], { env, allowFailure });
}

/** The stack's state as `pulumi stack export` gives it. */
async function deployment(stack: string): Promise<StackDeployment> {
  return (JSON.parse((await on(stack, ["stack", "export"])).stdout) as { deployment: StackDeployment }).deployment;
}

/** The package's objects in the stack's state with their IDs: what a refresh that found one gone would change. */
async function objectIds(stack: string): Promise<string[]> {
  const resources = (await deployment(stack)).resources ?? [];
  return resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/docsplatform:")).map((r) => `${r.urn.slice(r.urn.lastIndexOf("::") + 2)} ${r.id}`).sort();
}

/** The run created, deleted and replaced nothing (the counts of everything else depend on the program's other resources). */
function createdOrDeletedNothing(r: CliResult): void {
  expect(Object.keys(resourceSummary(r)).filter((k) => /create|delete|replace/.test(k))).toEqual([]);
}


beforeAll(async () => {
  const project = writeNoCodeProject("rotation", { "docs.yaml": DOCS });
  try {
    program = await prepareProgram(project.dir, { installPackage: true });
  } finally {
    project.cleanup();
  }
  cli = new PulumiCli(program.dir, [STALE, OLD, CURRENT]);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "docsplatform-rotation-"));
}, 120_000);

afterAll(async () => {
  cli?.close();
  program?.cleanup();
  await Promise.all(emulators.map((e) => e.close()));
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe("credentials through the Pulumi CLI: the environment wins over config", { timeout: 120_000 }, () => {
  it("a stale token in config, the valid one in DOCSPLATFORM_API_TOKEN: up, refresh and preview --refresh act with the variable's", async () => {
    const emu = await emulator([CURRENT]);
    expect(await statusFor(emu, STALE)).toBe(401);
    await cli.run(["stack", "init", "stale"]);
    await on("stale", ["config", "set", "docsplatform:apiUrl", emu.url]);
    await on("stale", ["config", "set", "--secret", "docsplatform:apiToken", STALE]);
    emu.control.clearLog();
    const env = { DOCSPLATFORM_API_TOKEN: CURRENT };

    await on("stale", ["up", "--yes", "--skip-preview"], env);
    const state = await deployment("stale");
    expect(kindsAndNames(state)).toEqual(OBJECTS);
    // The up stored the stale config token among the default provider's inputs: the next refresh is configured with it.
    const provider = state.resources!.find((r) => r.type === "pulumi:providers:pulumi-nodejs")!;
    expect(Object.keys(provider.inputs!)).toContain("docsplatform:apiToken");
    const made = await objectIds("stale");

    createdOrDeletedNothing(await on("stale", ["refresh", "--yes", "--skip-preview"], env));
    expect(await objectIds("stale")).toEqual(made);
    createdOrDeletedNothing(await on("stale", ["preview", "--refresh"], env));
    // Every request was made with the variable's token: none refused.
    const answered = statuses(emu);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.filter((s) => s === 401 || s === 403)).toEqual([]);
  });

  it("rotated after an up made with a config token: config cleared, the old token revoked, a new one in DOCSPLATFORM_API_TOKEN: refresh succeeds", async () => {
    const dataFile = path.join(scratch, "rotated.jsonl");
    const first = await emulator([OLD], { dataFile });
    await cli.run(["stack", "init", "rotated"]);
    await on("rotated", ["config", "set", "docsplatform:apiUrl", first.url]);
    await on("rotated", ["config", "set", "--secret", "docsplatform:apiToken", OLD]);
    await on("rotated", ["up", "--yes", "--skip-preview"]);
    const made = await objectIds("rotated");
    expect(made).toHaveLength(OBJECTS.length);

    // The platform revokes the old token and issues a new one: the same API (its objects, its URL), other tokens.
    await first.close();
    const emu = await emulator([CURRENT], { port: Number(new URL(first.url).port), dataFile });
    expect(emu.url).toBe(first.url);
    expect(await statusFor(emu, OLD)).toBe(401);
    emu.control.clearLog();
    await on("rotated", ["config", "rm", "docsplatform:apiToken"]);

    // Without the variable, refresh acts with the token the last up stored (the config is no longer read).
    const stored = await on("rotated", ["refresh", "--yes", "--skip-preview"], {}, true);
    expect(stored.code).not.toBe(0);
    expect(`${stored.stdout}\n${stored.stderr}`).toContain("the API refused the token (401 Unauthorized) for organization demo-org: supply a valid token in `docsplatform:apiToken`");
    expect(statuses(emu)).toEqual([401]);

    createdOrDeletedNothing(await on("rotated", ["refresh", "--yes", "--skip-preview"], { DOCSPLATFORM_API_TOKEN: CURRENT }));
    expect(await objectIds("rotated")).toEqual(made);
    const answered = statuses(emu);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.filter((s) => s >= 400)).toEqual([]);
  });

  it("a config apiUrl to a dead port, DOCSPLATFORM_API_URL to the emulator: up and refresh act on the emulator", async () => {
    const emu = await emulator([CURRENT]);
    await cli.run(["stack", "init", "url"]);
    await on("url", ["config", "set", "docsplatform:apiUrl", `http://127.0.0.1:${await freePort()}`]);
    await on("url", ["config", "set", "--secret", "docsplatform:apiToken", CURRENT]);
    emu.control.clearLog();
    const env = { DOCSPLATFORM_API_URL: emu.url };

    await on("url", ["up", "--yes", "--skip-preview"], env);
    const org = emu.store.snapshot().organizations.find((o) => o.id === "demo-org")!;
    expect(org.sites.map((s) => s.title)).toContain("Rotation docs");
    expect(org.teams.map((t) => t.title)).toContain("Rotation writers");
    const made = await objectIds("url");
    expect(made).toHaveLength(OBJECTS.length);
    createdOrDeletedNothing(await on("url", ["refresh", "--yes", "--skip-preview"], env));
    expect(await objectIds("url")).toEqual(made);
    expect(statuses(emu).filter((s) => s >= 400)).toEqual([]);
  });
});
