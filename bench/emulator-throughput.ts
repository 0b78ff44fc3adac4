/**
 * Emulator throughput: simple authenticated GETs per second against an in-process emulator.
 * Run: `npm run build && node dist/bench/emulator-throughput.js [--duration MS] [--connections N] [--in-process]`.
 * The load is driven from a child process by default (so client and server do not share one event loop);
 * `--in-process` (or `mode: "in-process"`) drives it from the emulator's own process.
 */
import { fork } from "node:child_process";
import { Pool } from "undici";
import { startEmulator } from "../emulator";

export interface ThroughputOptions {
  /** How long to drive load (default 5000 ms). */
  durationMs?: number;
  /** Concurrent keep-alive connections (default 16). */
  connections?: number;
  /** Requests in flight per connection (default 1). */
  pipelining?: number;
  /** Where the load comes from (default "child" when running compiled JavaScript). */
  mode?: "child" | "in-process";
}

export interface ThroughputResult {
  getsPerSecond: number;
  requests: number;
  errors: number;
  durationMs: number;
  connections: number;
  mode: "child" | "in-process";
  /** Latency percentiles in milliseconds. */
  p50Ms: number;
  p99Ms: number;
}

interface LoadResult {
  requests: number;
  errors: number;
  elapsedMs: number;
  latencies: number[];
}

/** Drives GETs of `path` at `url` for `durationMs` over `connections` keep-alive connections. */
async function driveLoad(url: string, path: string, token: string, durationMs: number, connections: number, pipelining: number): Promise<LoadResult> {
  const pool = new Pool(url, { connections, pipelining });
  const headers = { authorization: `Bearer ${token}` };
  let requests = 0;
  let errors = 0;
  const latencies: number[] = [];
  const start = performance.now();
  const end = start + durationMs;
  const worker = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const r = await pool.request({ method: "GET", path, headers });
        await r.body.dump();
        if (r.statusCode === 200) requests++;
        else errors++;
      } catch {
        errors++;
      }
      if (latencies.length < 200_000) latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: connections * pipelining }, worker));
  const elapsedMs = performance.now() - start;
  await pool.close();
  return { requests, errors, elapsedMs, latencies };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Starts an emulator in-process, drives simple GETs for a bounded time and reports GETs per second. */
export async function measureEmulatorThroughput(opts: ThroughputOptions = {}): Promise<ThroughputResult> {
  const durationMs = opts.durationMs ?? 5000;
  const connections = opts.connections ?? 16;
  const pipelining = opts.pipelining ?? 1;
  const mode = opts.mode ?? (__filename.endsWith(".js") ? "child" : "in-process");
  const emu = await startEmulator({ port: 0 });
  try {
    // A representative simple GET: one site of the organization.
    const site = await (
      await fetch(`${emu.url}/v1/orgs/demo-org/sites`, {
        method: "POST",
        headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
        body: JSON.stringify({ title: "Bench", spaces: ["space-guides"] }),
      })
    ).json();
    const path = `/v1/orgs/demo-org/sites/${(site as { id: string }).id}`;
    let load: LoadResult;
    if (mode === "in-process") load = await driveLoad(emu.url, path, emu.token, durationMs, connections, pipelining);
    else load = await loadFromChild({ url: emu.url, path, token: emu.token, durationMs, connections, pipelining });
    const sorted = [...load.latencies].sort((a, b) => a - b);
    return {
      getsPerSecond: Math.round((load.requests / load.elapsedMs) * 1000),
      requests: load.requests,
      errors: load.errors,
      durationMs: Math.round(load.elapsedMs),
      connections,
      mode,
      p50Ms: Number(percentile(sorted, 50).toFixed(2)),
      p99Ms: Number(percentile(sorted, 99).toFixed(2)),
    };
  } finally {
    await emu.close();
  }
}

interface ChildJob {
  url: string;
  path: string;
  token: string;
  durationMs: number;
  connections: number;
  pipelining: number;
}

function loadFromChild(job: ChildJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ["--load-child"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.once("message", (m) => {
      resolve(m as LoadResult);
      child.disconnect();
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) reject(new Error(`load child exited with ${code}`));
    });
    child.send(job);
  });
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

if (require.main === module) {
  if (process.argv.includes("--load-child")) {
    process.once("message", (job: ChildJob) => {
      void driveLoad(job.url, job.path, job.token, job.durationMs, job.connections, job.pipelining).then((r) => {
        process.send!({ ...r, latencies: r.latencies });
      });
    });
  } else {
    void measureEmulatorThroughput({
      durationMs: arg("duration") ? Number(arg("duration")) : undefined,
      connections: arg("connections") ? Number(arg("connections")) : undefined,
      mode: process.argv.includes("--in-process") ? "in-process" : undefined,
    }).then(
      (r) => {
        process.stdout.write(`emulator throughput: ${r.getsPerSecond} GETs/s (${r.requests} in ${r.durationMs} ms, ${r.connections} connections, ${r.mode}, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ${r.errors} errors)\n`);
        process.stdout.write(JSON.stringify(r) + "\n");
      },
      (err: unknown) => {
        process.stderr.write(`emulator throughput: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = 1;
      },
    );
  }
}
