/** `docsplatform emulator [--port N] [--data FILE] [--seed FILE] [--latency MS]`: runs the emulator until SIGINT/SIGTERM. */
import { parseArgs } from "node:util";
import { startEmulator } from "./index";

const usage = "usage: docsplatform emulator [--port N] [--host H] [--data FILE] [--seed FILE] [--latency MS]\n";

function intOption(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got '${value}'`);
  return n;
}

/** Parses the arguments, starts the emulator, prints `listening on <url>` and the tokens, and runs until a signal. */
export async function emulatorMain(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        data: { type: "string" },
        seed: { type: "string" },
        latency: { type: "string" },
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
    emulator = await startEmulator({
      port: intOption("port", values.port, 4010),
      host: values.host ?? "127.0.0.1",
      dataFile: values.data,
      seed: values.seed,
      latencyMs: intOption("latency", values.latency, 0),
    });
  } catch (err) {
    process.stderr.write(`docsplatform emulator: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  process.stdout.write(`listening on ${emulator.url}\n`);
  for (const { token, user } of emulator.store.tokens()) process.stdout.write(`token: ${token} (${user})\n`);

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
