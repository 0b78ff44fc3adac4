/**
 * `npm run demo`: the handbook example (examples/handbook) run by the real Pulumi CLI against an
 * in-process emulator, with a throwaway local backend. Steps: `pulumi stack init`, config (the API URL,
 * and the emulator's token as a secret), `pulumi up --yes`, `pulumi preview --expect-no-changes` (the
 * second run has nothing to do), then `pulumi destroy --yes` — or, with `--keep`, the emulator stays up
 * with the stack deployed until Ctrl-C.
 *
 * Without the Pulumi CLI it says so in one line and exits 1; `npm run demo:harness` runs the same
 * program through the bundled engine harness instead.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { REPO_ROOT, prepareProgram } from "../harness/program";

const HANDBOOK = path.join(REPO_ROOT, "examples", "handbook");
const MISSING =
  'demo: the Pulumi CLI is not installed (https://www.pulumi.com/docs/install/); run "npm run demo:harness" to run the same program through the bundled engine harness instead';

/** The `pulumi` executable: on PATH, or where the official installer puts it. */
export function findPulumi(): string | undefined {
  const candidates = ["pulumi", path.join(os.homedir(), ".pulumi", "bin", "pulumi")];
  for (const cmd of candidates) {
    const probe = spawnSync(cmd, ["version"], { stdio: "ignore" });
    if (!probe.error && probe.status === 0) return cmd;
  }
  return undefined;
}

/** Runs one pulumi command in the program folder with the output shown; rejects on a non-zero exit. `secret` is masked in the echo. */
function pulumi(cli: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, secret: string): Promise<void> {
  process.stdout.write(`\n$ pulumi ${args.map((a) => (a === secret ? "***" : a)).join(" ")}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn(cli, args, { cwd, env, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`pulumi ${args[0]} exited with code ${code}`))));
  });
}

async function main(argv: string[]): Promise<number> {
  const keep = argv.includes("--keep");
  const cli = findPulumi();
  if (!cli) {
    process.stderr.write(`${MISSING}\n`);
    return 1;
  }

  const emulator = await startEmulator({ port: 0 });
  const program = await prepareProgram(HANDBOOK, { installPackage: true });
  const backend = fs.mkdtempSync(path.join(os.tmpdir(), "docsplatform-demo-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: process.env["PULUMI_CONFIG_PASSPHRASE"] ?? "docsplatform-demo",
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  process.stdout.write(`emulator: ${emulator.url} (fixture organisation demo-org)\nprogram:  ${program.dir}\nbackend:  ${env["PULUMI_BACKEND_URL"]}\n`);
  try {
    const run = (args: string[]) => pulumi(cli, args, program.dir, env, emulator.token);
    await run(["stack", "init", "demo", "--non-interactive"]);
    await run(["config", "set", "docsplatform:apiUrl", emulator.url]);
    await run(["config", "set", "--secret", "docsplatform:apiToken", emulator.token]);
    await run(["up", "--yes", "--non-interactive"]);
    await run(["preview", "--expect-no-changes", "--non-interactive"]);
    if (keep) {
      process.stdout.write(
        `\nThe stack is deployed; the emulator keeps running at ${emulator.url} (token: the fixture's admin token).\n` +
          `Edit ${path.join(program.dir, "docs.yaml")} and run \`pulumi up\` there with PULUMI_BACKEND_URL=${env["PULUMI_BACKEND_URL"]}.\nCtrl-C stops.\n`,
      );
      await new Promise<void>((resolve) => process.once("SIGINT", () => resolve()));
    } else {
      await run(["destroy", "--yes", "--non-interactive"]);
    }
    return 0;
  } catch (err) {
    process.stderr.write(`demo: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await emulator.close();
    // The stack's state points at the in-process emulator, which is gone now: remove both.
    fs.rmSync(backend, { recursive: true, force: true });
    program.cleanup();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`demo: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
