/** The local /v1 emulator: start it in-process (`startEmulator`) or from the command line (`docsplatform emulator`). */
import type { FastifyInstance } from "fastify";
import { burstLimiter, faultPlan, rateLimiter, type BurstLimitOptions, type FaultOptions } from "./faults";
import { resolveSeed, type Seed } from "./seed";
import { buildApp, countRoutes, type RequestLogEntry, type Switches } from "./server";
import { Store } from "./store";

export type { BurstLimitOptions, FaultOptions } from "./faults";
export type { RequestLogEntry } from "./server";
export type { Seed, SeedOrganization, SeedUser, SeedMember, SeedSpace, SeedPage, SeedFile, SeedCollection, SeedTeam, SeedSite, SeedIntegration } from "./seed";
export { defaultSeed, loadSeedFile } from "./seed";
export { Store, SPACE_RETENTION_MS } from "./store";
export type { Snapshot, SnapshotOrg, SnapshotSite, SnapshotSection, SnapshotSectionGroup, SnapshotSiteSpace, SnapshotShareLink, SnapshotExternalLink, SnapshotTeam, SnapshotMember } from "./store";

export interface EmulatorOptions {
  /** 0 = ephemeral; the CLI defaults to 4010. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Persistence journal; absent = in memory. */
  dataFile?: string;
  /** Path to a YAML/JSON seed, or a seed object; default: the built-in demo organisation (seed.ts). */
  seed?: string | Seed;
  /** Injectable clock (restore window, timestamps). */
  now?: () => Date;
  /** Fixed latency added to every /v1 request. */
  latencyMs?: number;
  /** Requests per window across all tokens (a fixed window). */
  rateLimit?: { limit: number; windowMs: number };
  /** A second limiter in front of `rateLimit`, answering 429 with Retry-After and no X-RateLimit-* headers. */
  burstLimit?: BurstLimitOptions;
  faults?: FaultOptions;
  /** fastify's request logger (off by default). */
  logger?: boolean;
}

/** Switches of a running emulator (the same as `/_emulator/…`). */
export interface EmulatorControl {
  /** Back to the seed state (the given seed, or the one started with); clears the log, keeps faults. */
  reset(seed?: string | Seed): void;
  /** /v1 requests since the last clearLog. */
  log(): RequestLogEntry[];
  clearLog(): void;
  /** "GET /v1/orgs/:organizationId/sites" → number of requests. */
  counts(): Record<string, number>;
  setLatency(ms: number): void;
  setRateLimit(opts: { limit: number; windowMs: number } | null): void;
  /** The burst limiter in front of the rate limit (null: none). */
  setBurstLimit(opts: BurstLimitOptions | null): void;
  setFaults(opts: FaultOptions | null): void;
  /** Shifts the injectable clock. */
  advanceClock(ms: number): void;
}

export interface RunningEmulator {
  url: string;
  /** The admin token, "dev-token". */
  token: string;
  store: Store;
  control: EmulatorControl;
  close(): Promise<void>;
}

/** The admin token of the default fixture. */
export const ADMIN_TOKEN = "dev-token";

/** Starts the emulator and resolves once it listens. */
export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed = resolveSeed(opts.seed);
  const store = new Store({ seed, dataFile: opts.dataFile, now: opts.now });
  const switches: Switches = {
    latencyMs: opts.latencyMs ?? 0,
    rateLimit: rateLimiter(opts.rateLimit),
    faults: faultPlan(opts.faults),
    burstLimit: burstLimiter(opts.burstLimit),
    log: [],
  };
  let url = "";
  let app: FastifyInstance;
  try {
    app = buildApp({ store, switches, base: () => url, resolveSeed, logger: opts.logger ?? false });
    const host = opts.host ?? "127.0.0.1";
    await app.listen({ port: opts.port ?? 0, host });
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : opts.port;
    url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  } catch (err) {
    store.close();
    throw err;
  }
  app.server.keepAliveTimeout = 65_000;

  const control: EmulatorControl = {
    reset: (s) => {
      store.reset(s === undefined ? undefined : resolveSeed(s));
      switches.log = [];
    },
    log: () => [...switches.log],
    clearLog: () => {
      switches.log = [];
    },
    counts: () => countRoutes(switches.log),
    setLatency: (ms) => {
      if (!(ms >= 0)) throw new Error("latency must be a non-negative number of milliseconds");
      switches.latencyMs = ms;
    },
    setRateLimit: (o) => {
      switches.rateLimit = rateLimiter(o);
    },
    setBurstLimit: (o) => {
      switches.burstLimit = burstLimiter(o);
    },
    setFaults: (o) => {
      switches.faults = faultPlan(o);
    },
    advanceClock: (ms) => store.advanceClock(ms),
  };

  let closed: Promise<void> | null = null;
  return {
    url,
    token: ADMIN_TOKEN,
    store,
    control,
    close: () =>
      (closed ??= app.close().then(() => {
        store.close();
      })),
  };
}
