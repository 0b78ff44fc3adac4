/**
 * Test support for the provider tests: a program folder with the packed package installed (as users
 * get it), and child processes that serialise the providers there and load them as the plugin does.
 * Vitest's module transform breaks closure serialisation, so both run in plain `node` processes.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { prepareProgram, type PreparedProgram } from "../../../test/harness";

/** The program fixture (Pulumi.yaml, serialize.js, reference.js and their capture.js, load.js). */
export const PROGRAM_FIXTURE = path.join(__dirname, "program");

/** A copy of the fixture under .work/programs/ with the packed package in its node_modules. */
export function prepareProviderProgram(): Promise<PreparedProgram> {
  return prepareProgram(PROGRAM_FIXTURE, { installPackage: true });
}

function runNode(dir: string, script: string, opts: { env?: Record<string, string>; stdin?: string; args?: string[] } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [script, ...(opts.args ?? [])],
      { cwd: dir, env: { ...process.env, ...opts.env }, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${script} failed: ${err.message}\n${stderr}`));
        else resolve(stdout);
      },
    );
    if (opts.stdin !== undefined) child.stdin?.end(opts.stdin);
  });
}

/** Every kind's serialised provider text (`__provider`), by kind name, captured from the installed package's classes. */
export async function serializeProviders(dir: string, env: Record<string, string> = {}): Promise<Record<string, string>> {
  return JSON.parse(await runNode(dir, "serialize.js", { env })) as Record<string, string>;
}

/**
 * What `pulumi.dynamic.Resource` itself registers for each kind's shim of the installed package (the
 * reference for the classes' texts), whether each class makes a `dynamic.Resource`, and how often the
 * classes called the SDK's closure serialiser themselves; `sdkWithoutModuleMapping` runs it with the
 * SDK's module path mapping taken away.
 */
export async function referenceProviders(
  dir: string,
  opts: { sdkWithoutModuleMapping?: boolean } = {},
): Promise<{ texts: Record<string, string>; dynamic: Record<string, boolean>; serialisations: number }> {
  const args = opts.sdkWithoutModuleMapping ? ["--sdk-without-module-mapping"] : [];
  return JSON.parse(await runNode(dir, "reference.js", { args })) as { texts: Record<string, string>; dynamic: Record<string, boolean>; serialisations: number };
}

/** Loads each text as the plugin does, configures it, and reads a missing object; returns each read's id or error. */
export async function loadAndReadMissing(
  dir: string,
  texts: Record<string, string>,
  config: Record<string, string>,
  states: Record<string, Record<string, unknown>>,
  env: Record<string, string> = {},
): Promise<Record<string, { id: string | null; error?: string }>> {
  const out = await runNode(dir, "load.js", { env, stdin: JSON.stringify({ texts, config, states }) });
  return JSON.parse(out) as Record<string, { id: string | null; error?: string }>;
}
