/**
 * `npm run demo`: the handbook example (examples/handbook) run by the real Pulumi CLI against an
 * in-process emulator, with a throwaway local backend: `pulumi preview`, `pulumi up`, a second `pulumi up`
 * (nothing to do, no API call), then `pulumi destroy` — or, with `--keep`, the emulator stays up with the
 * stack deployed until Ctrl-C. What the CLI prints is shown as it prints it.
 *
 * The CLI is the one .ci/pulumi-cli builds from the Go module proxy (once; it says so while it builds).
 * Where Go is missing, the same program runs through the bundled engine harness instead (`npm run
 * demo:harness`), and the demo says which it uses.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { REPO_ROOT, prepareProgram } from "../harness/program";
import { PulumiCli, pulumiUnavailable } from "../cli/pulumi";

const HANDBOOK = path.join(REPO_ROOT, "examples", "handbook");

/** Runs one pulumi command in the project with its output shown as the CLI prints it; rejects on a non-zero exit. */
async function pulumi(cli: PulumiCli, args: string[], token: string): Promise<void> {
  process.stdout.write(`\n$ pulumi ${args.map((a) => (a === token ? "***" : a)).join(" ")}\n`);
  const child = spawn("pulumi", args, { cwd: cli.dir, env: cli.env, stdio: ["ignore", "inherit", "inherit"] });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  if (code !== 0) throw new Error(`pulumi ${args[0]} exited with code ${code}`);
}

/** The harness demo, for a machine that cannot build the CLI. */
function harnessDemo(why: string): Promise<number> {
  process.stdout.write(`demo: ${why}; running the same program through the bundled engine harness (npm run demo:harness)\n`);
  const child = spawn(process.execPath, [path.join(__dirname, "harness.js")], { stdio: "inherit" });
  return new Promise((resolve) => child.on("close", (code) => resolve(code ?? 1)));
}

async function main(argv: string[]): Promise<number> {
  const keep = argv.includes("--keep");
  const missing = pulumiUnavailable();
  if (missing) return harnessDemo(missing);

  const emulator = await startEmulator({ port: 0 });
  const program = await prepareProgram(HANDBOOK, { installPackage: true });
  const cli = new PulumiCli(program.dir, [emulator.token]);
  process.stdout.write(
    `emulator: ${emulator.url} (fixture organisation demo-org)\nprogram:  ${program.dir}\nbackend:  ${cli.env["PULUMI_BACKEND_URL"]}\n`,
  );
  try {
    const run = (args: string[]) => pulumi(cli, args, emulator.token);
    await run(["version"]);
    await run(["stack", "init", "demo"]);
    await run(["config", "set", "docsplatform:apiUrl", emulator.url]);
    await run(["config", "set", "--secret", "docsplatform:apiToken", emulator.token]);
    await run(["preview"]);
    emulator.control.clearLog();
    await run(["up", "--yes", "--skip-preview"]);
    process.stdout.write(`\n(the emulator answered ${emulator.control.log().length} API calls)\n`);
    emulator.control.clearLog();
    await run(["up", "--yes", "--skip-preview"]);
    process.stdout.write(`\n(the emulator answered ${emulator.control.log().length} API calls: nothing to do)\n`);
    if (keep) {
      process.stdout.write(
        `\nThe stack is deployed; the emulator keeps running at ${emulator.url} (token: the fixture's admin token).\n` +
          `Edit ${path.join(program.dir, "docs.yaml")} and run \`pulumi up\` there with PULUMI_BACKEND_URL=${cli.env["PULUMI_BACKEND_URL"]}, PULUMI_CONFIG_PASSPHRASE=${cli.env["PULUMI_CONFIG_PASSPHRASE"]} and PATH=${cli.env["PATH"]?.split(path.delimiter).slice(0, 3).join(path.delimiter)}:$PATH.\nCtrl-C stops.\n`,
      );
      await new Promise<void>((resolve) => process.once("SIGINT", () => resolve()));
    } else {
      await run(["destroy", "--yes", "--skip-preview"]);
    }
    return 0;
  } catch (err) {
    process.stderr.write(`demo: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await emulator.close();
    // The stack's state points at the in-process emulator, which is gone now: remove both.
    cli.close();
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
