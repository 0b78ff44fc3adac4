/**
 * Diagnostics from the provider to the Pulumi engine, as a provider of its own would send them
 * (`Engine.Log`): the dynamic-provider plugin is started with the engine's address as its argument but
 * gives its providers no way to log, so this opens its own client to that address. Used where a preview
 * has something to say that is not a failure (an adoption it will make). Loaded only then; outside the
 * plugin (no engine address) nothing is sent.
 */
import { createRequire } from "node:module";

/** What the engine shows of a diagnostic: info lines in the preview's output, warnings as warnings. */
export type Severity = "info" | "warning";

interface EngineLog {
  log(req: unknown, callback: (err: unknown) => void): void;
}

let client: EngineLog | null | undefined;

/**
 * The engine's address the plugin was started with (`host:port`), if this process is the plugin. The
 * CLI puts it last, after any `--logtostderr`, `-v=N` and `--tracing <endpoint>`.
 */
function engineAddress(): string | undefined {
  if (!/dynamic-provider[\\/]index\.js$/.test(process.argv[1] ?? "")) return undefined;
  const args = process.argv.slice(2);
  const last = args[args.length - 1];
  return last !== undefined && args[args.length - 2] !== "--tracing" && /^[\w.[\]-]+:\d+$/.test(last) ? last : undefined;
}

/** A client of the engine's Engine service, made once; null when there is none to talk to. */
function engine(): EngineLog | null {
  if (client !== undefined) return client;
  const address = engineAddress();
  if (address === undefined) return (client = null);
  // The SDK's own gRPC and generated stubs, as the plugin loads them.
  const fromSdk = createRequire(require.resolve("@pulumi/pulumi"));
  const grpc = fromSdk("@grpc/grpc-js") as { credentials: { createInsecure(): unknown } };
  const { EngineClient } = fromSdk("./proto/engine_grpc_pb") as { EngineClient: new (address: string, credentials: unknown) => EngineLog };
  client = new EngineClient(address, grpc.credentials.createInsecure());
  return client;
}

/** Sends one diagnostic to the engine; resolves when it is received (or could not be sent: a diagnostic never fails a call). */
export async function tellEngine(severity: Severity, message: string): Promise<void> {
  const e = engine();
  if (e === null) return;
  const { LogRequest, LogSeverity } = createRequire(require.resolve("@pulumi/pulumi"))("./proto/engine_pb") as {
    LogRequest: new () => { setSeverity(s: number): void; setMessage(m: string): void; setUrn(u: string): void };
    LogSeverity: Record<"INFO" | "WARNING", number>;
  };
  const req = new LogRequest();
  req.setSeverity(severity === "info" ? LogSeverity.INFO : LogSeverity.WARNING);
  req.setMessage(message);
  req.setUrn("");
  await new Promise<void>((resolve) => e.log(req, () => resolve()));
}
