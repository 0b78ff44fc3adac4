/** `docsplatform emulator [--port N] [--host H] [--allowed-host NAME]... [--data FILE] [--seed FILE] [--latency MS] [fault flags]`: runs the emulator until SIGINT/SIGTERM. */
import { parseArgs } from "node:util";
import type { BurstLimitOptions, FaultOptions } from "./faults";
import { startEmulator } from "./index";
import type { Seed } from "./seed";

const usage =
  "usage: docsplatform emulator [--port N] [--host H] [--allowed-host NAME]... [--data FILE] [--seed FILE | --seed-from STACK_FILE]\n" +
  "         [--latency MS] [--rate-limit N/MS] [--burst-limit N/MS] [--burst-cold-start]\n" +
  "         [--list-lag MS] [--slow-after-commit RATE/MS] [--fault-seed N]\n";

/** `N/MS` → {limit, windowMs}. */
function windowOption(name: string, value: string | undefined): { limit: number; windowMs: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(value);
  if (!m) throw new Error(`--${name} must be LIMIT/WINDOW_MS, e.g. 10/1000, got '${value}'`);
  return { limit: Number(m[1]), windowMs: Number(m[2]) };
}

/** `RATE/MS` → [rate, ms]. */
function rateOption(name: string, value: string): [number, number] {
  const m = /^(0(?:\.\d+)?|1(?:\.0+)?)\/(\d+)$/.exec(value);
  if (!m) throw new Error(`--${name} must be RATE/MS with a rate from 0 to 1, e.g. 0.2/3000, got '${value}'`);
  return [Number(m[1]), Number(m[2])];
}

function intOption(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got '${value}'`);
  return n;
}

/**
 * A seed the caller made instead of `--seed` — the `docsplatform` command's `--seed-from`, which turns a
 * stack file into one on the provider's side (this server reads no stack file) — and the words for it.
 */
export interface GivenSeed {
  seed: Seed;
  /** Printed after the tokens as `seed: <describe>`. */
  describe: string;
}

/** Parses the arguments, starts the emulator, prints `listening on <url>` and the tokens, and runs until a signal. */
export async function emulatorMain(argv: string[], given?: GivenSeed): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        "allowed-host": { type: "string", multiple: true },
        data: { type: "string" },
        seed: { type: "string" },
        latency: { type: "string" },
        "rate-limit": { type: "string" },
        "burst-limit": { type: "string" },
        "burst-cold-start": { type: "boolean" },
        "list-lag": { type: "string" },
        "slow-after-commit": { type: "string" },
        "fault-seed": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    process.stderr.write(`docsplatform emulator: ${err instanceof Error ? err.message : String(err)}\n${usage}`);
    return 1;
  }
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  let emulator;
  try {
    const rateLimit = windowOption("rate-limit", values["rate-limit"]);
    const burst = windowOption("burst-limit", values["burst-limit"]);
    const burstLimit: BurstLimitOptions | undefined = burst && { ...burst, ...(values["burst-cold-start"] ? { coldStart: true } : {}) };
    if (values["burst-cold-start"] && !burst) throw new Error("--burst-cold-start needs --burst-limit");
    if (given && values.seed !== undefined) throw new Error("--seed and --seed-from exclude each other");
    const faults: FaultOptions = {};
    if (values["list-lag"] !== undefined) faults.listLagMs = intOption("list-lag", values["list-lag"], 0);
    if (values["slow-after-commit"] !== undefined) {
      [faults.slowAfterCommitRate, faults.slowAfterCommitMs] = rateOption("slow-after-commit", values["slow-after-commit"]);
    }
    if (values["fault-seed"] !== undefined) faults.seed = intOption("fault-seed", values["fault-seed"], 1);
    emulator = await startEmulator({
      port: intOption("port", values.port, 4010),
      host: values.host ?? "127.0.0.1",
      allowedHosts: values["allowed-host"] ?? [],
      dataFile: values.data,
      seed: given?.seed ?? values.seed,
      latencyMs: intOption("latency", values.latency, 0),
      ...(rateLimit ? { rateLimit } : {}),
      ...(burstLimit ? { burstLimit } : {}),
      ...(Object.keys(faults).length > 0 ? { faults } : {}),
    });
  } catch (err) {
    process.stderr.write(`docsplatform emulator: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  process.stdout.write(`listening on ${emulator.url}\n`);
  for (const { token, user } of emulator.store.tokens()) process.stdout.write(`token: ${token} (${user})\n`);
  if (given) process.stdout.write(`seed: ${given.describe}\n`);

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await emulator.close();
  return 0;
}
