/**
 * `npm run demo:harness`: the handbook example (examples/handbook) run through the bundled engine harness
 * (the SDK's real language host and dynamic-provider plugin, test/harness) against an in-process emulator,
 * for machines without the Pulumi CLI. Prints what `pulumi preview`, `pulumi up`, a second `pulumi up` and
 * `pulumi destroy` would do: the steps per resource, the API calls each run made, and the stack outputs.
 */
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { REPO_ROOT, prepareProgram } from "../harness/program";
import { runnerAgainst } from "../harness/emulatorRunner";
import type { RunResult } from "../harness/runner";

const HANDBOOK = path.join(REPO_ROOT, "examples", "handbook");

const SYMBOL: Record<string, string> = { create: "+", update: "~", replace: "+-", delete: "-", same: " " };

/** `Kind` and name of a resource from its type token and URN. */
function describeStep(s: { type: string; urn: string }): { kind: string; name: string } {
  return { kind: s.type.slice(s.type.lastIndexOf(":") + 1), name: s.urn.slice(s.urn.lastIndexOf("::") + 2) };
}

/** The steps of a run, one line per resource (unchanged ones only counted; the component and stack left out), then its API calls. */
function report(title: string, result: RunResult, out: (line: string) => void): void {
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
  const calls = new Map<string, number>();
  for (const c of result.apiCalls) {
    const key = `${c.method} ${c.route}`;
    calls.set(key, (calls.get(key) ?? 0) + 1);
  }
  out(`  API calls: ${result.apiCalls.length}`);
  for (const [call, n] of [...calls].sort(([a], [b]) => a.localeCompare(b))) out(`    ${String(n).padStart(3)} × ${call}`);
}

async function main(): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const emulator = await startEmulator({ port: 0 });
  out(`Node.js ${process.version}; emulator: ${emulator.url} (fixture organisation demo-org)`);
  out("preparing examples/handbook with the packed package installed…");
  const program = await prepareProgram(HANDBOOK, { installPackage: true });
  const runner = runnerAgainst(program.dir, emulator);
  try {
    report("preview", await runner.preview(), out);
    const up = await runner.up();
    report("up", up, out);
    out("  outputs:");
    for (const [k, v] of Object.entries(up.outputs)) out(`    ${k}: ${JSON.stringify(v)}`);
    report("second up (nothing changed in docs.yaml)", await runner.up(), out);
    report("destroy", await runner.destroy(), out);
    out("\nThe same program runs with the Pulumi CLI: see examples/handbook/README.md (npm run demo).");
    return 0;
  } catch (err) {
    process.stderr.write(`demo:harness: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await runner.close();
    program.cleanup();
    await emulator.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`demo:harness: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
