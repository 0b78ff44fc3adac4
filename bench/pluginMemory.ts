/**
 * The plugin's memory around its first API calls: starts the emulator on port 0 and the real
 * dynamic-provider plugin (configured for it, as the engine starts it), then sends one Check and one
 * Create of a Site, then nine more Creates, reading the plugin's resident set (`VmRSS`) and its peak
 * (`VmHWM`) from /proc after each step. Then the client alone: a bare Node process that loads the
 * compiled client and makes one call, with its `process.memoryUsage()` before and after (heap,
 * external memory and resident set). The plugin loads the compiled package, so build first:
 * `npm run build && npx ts-node --transpile-only bench/pluginMemory.ts`.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import { PROVIDER_KEY, pluginAgainst, type PropertyMap } from "../test/harness";
import { prepareProviderProgram, serializeProviders } from "../provider/resources/testdata/helpers";

interface Sample {
  step: string;
  rssMb: number;
  peakMb: number;
}

function sample(pid: number, step: string): Sample {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, "m").exec(status)?.[1] ?? NaN);
  return { step, rssMb: Math.round(kb("VmRSS") / 102.4) / 10, peakMb: Math.round(kb("VmHWM") / 102.4) / 10 };
}

/** `process.memoryUsage()` in MB of a fresh Node process before loading the client, after loading it, and after one call. */
async function clientAlone(url: string, token: string): Promise<unknown> {
  const clientPath = path.join(__dirname, "..", "dist", "provider", "client", "index.js");
  const script = `
    const mb = (u) => Object.fromEntries(Object.entries(u).map(([k, v]) => [k, Math.round(v / 104857.6) / 10]));
    const out = { start: mb(process.memoryUsage()) };
    const { ApiClient } = require(${JSON.stringify(clientPath)});
    out.loaded = mb(process.memoryUsage());
    const c = new ApiClient({ baseUrl: ${JSON.stringify(url)}, token: ${JSON.stringify(token)} });
    c.request("GET", "/v1/orgs/demo-org").then(async () => {
      out.oneCall = mb(process.memoryUsage());
      await c.close();
      process.stdout.write(JSON.stringify(out));
    });`;
  // Asynchronously: the emulator answering the call runs in this process.
  const { stdout } = await promisify(execFile)(process.execPath, ["-e", script], { encoding: "utf8" });
  return JSON.parse(stdout);
}

async function main(): Promise<void> {
  const emulator = await startEmulator({ port: 0 });
  const program = await prepareProviderProgram();
  try {
    const texts = await serializeProviders(program.dir);
    const plugin = await pluginAgainst(program.dir, emulator);
    const pid = plugin.pid!;
    const samples: Sample[] = [sample(pid, "configured")];
    const urn = (n: number) => `urn:pulumi:dev::docsplatform-providers::pulumi-nodejs:dynamic/docsplatform:Site::memory-${n}`;
    const site = (n: number): PropertyMap => ({ organizationId: "demo-org", title: `Memory ${n}`, [PROVIDER_KEY]: texts["Site"]! });
    await plugin.check(urn(0), {}, site(0));
    samples.push(sample(pid, "one Check (provider loaded)"));
    await plugin.create(urn(0), site(0));
    samples.push(sample(pid, "first Create (first API call)"));
    for (let n = 1; n < 10; n++) await plugin.create(urn(n), site(n));
    samples.push(sample(pid, "ten Creates"));
    await plugin.close();
    const client = await clientAlone(emulator.url, emulator.token);
    process.stdout.write(`${JSON.stringify({ node: process.version, plugin: samples, client }, null, 2)}\n`);
  } finally {
    program.cleanup();
    await emulator.close();
  }
}

void main().catch((e: unknown) => {
  process.stderr.write(`${String(e instanceof Error ? e.stack : e)}\n`);
  process.exit(1);
});
