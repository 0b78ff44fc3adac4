/** The local /v1 emulator: start it in-process (`startEmulator`) or from the command line (`docsplatform emulator`). */
import type { FastifyInstance } from "fastify";
import { burstLimiter, faultPlan, rateLimiter, type BurstLimitOptions, type FaultOptions } from "./faults";
import { defaultSeed, resolveSeed, type Seed } from "./seed";
import { buildApp, canonicalHost, countRoutes, inWords, isLoopbackAddress, LOOPBACK_NAMES, type RequestLogEntry, type Switches } from "./server";
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
  /**
   * The address or name to listen on; default 127.0.0.1. Requests are answered only for the loopback names
   * (localhost, 127.0.0.0/8, [::1]), this host when it is a name or a single address, and `allowedHosts`.
   */
  host?: string;
  /** More Host names to answer (names or addresses, without a port): a name the emulator is reached by beyond loopback. */
  allowedHosts?: string[];
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

/** The emulator's data as {@link EmulatorControl.save} copied it. */
export interface SavedRows {
  readonly rows: ReturnType<Store["saveRows"]>;
}

/** Switches of a running emulator (the same as `/_emulator/…`; `save` and `restore` in-process only). */
export interface EmulatorControl {
  /** Back to the seed state (the given seed, or the one started with); clears the log, keeps faults. */
  reset(seed?: string | Seed): void;
  /** A copy of the emulator's data as it is now, for {@link restore} (in-process only). */
  save(): SavedRows;
  /** Back to the data {@link save} copied; clears the log, keeps faults, limits and the clock. */
  restore(saved: SavedRows): void;
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

/** A canonical host as a URL writes it (an IPv6 address in brackets). */
function inUrl(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/** Whether `host` (canonical) is a wildcard address: listening on every interface. */
function isWildcard(host: string): boolean {
  return host === "0.0.0.0" || host === "::";
}

/** The Host names answered besides the loopback names: `host` when it names one host, and every allowed name. */
function answeredHosts(host: string, allowed: readonly string[]): Set<string> {
  const names = new Set<string>();
  const own = canonicalHost(host);
  if (own === undefined) throw new Error(`host '${host}' is neither a host name nor an address`);
  if (!isWildcard(own)) names.add(own);
  for (const given of allowed) {
    const name = canonicalHost(given);
    if (name === undefined) throw new Error(`allowed host '${given}' is neither a host name nor an address (give it without a port)`);
    if (isWildcard(name)) throw new Error(`allowed host '${given}' is a wildcard address, which names no host: give the name clients use`);
    names.add(name);
  }
  return names;
}

/**
 * The warning for a listener beyond loopback: the fixed development tokens act for anyone who can reach it
 * (named by value only when they are the default fixture's, which are public; a seed's own by their user),
 * and which Host names are still answered.
 */
function exposureWarning(listening: string, tokens: { token: string; user: string }[], allowed: ReadonlySet<string>): string {
  const fixture = defaultSeed().tokens;
  const named = tokens.map(({ token, user }) => (fixture[token] === user ? `${token} (${user})` : `a token from the seed (${user})`));
  return (
    `emulator: warning: listening on ${listening}, beyond loopback. Anyone who can reach that interface can act with ` +
    `the fixed development tokens: ${named.length > 0 ? inWords(named) : "none in this seed"}.\n` +
    `emulator: it still answers only the Host names ${inWords([...LOOPBACK_NAMES, ...[...allowed].map(inUrl)])}; ` +
    `to answer another name, start it with --allowed-host NAME (in-process: the allowedHosts option).\n`
  );
}

/** Starts the emulator and resolves once it listens. */
export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = opts.host ?? "127.0.0.1";
  const allowedHosts = answeredHosts(host, opts.allowedHosts ?? []);
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
    app = buildApp({ store, switches, base: () => url, resolveSeed, logger: opts.logger ?? false, allowedHosts });
    await app.listen({ port: opts.port ?? 0, host });
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : opts.port;
    // A wildcard is no name to send as Host: the URL of a server on every interface is its loopback one.
    const own = canonicalHost(host)!;
    url = `http://${inUrl(own === "0.0.0.0" ? "127.0.0.1" : own === "::" ? "::1" : own)}:${port}`;
    if (app.addresses().some((a) => typeof a !== "string" && !isLoopbackAddress(a.address))) {
      process.stderr.write(exposureWarning(`${inUrl(own)}:${port}`, store.tokens(), allowedHosts));
    }
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
    save: () => ({ rows: store.saveRows() }),
    restore: (saved) => {
      store.restoreRows(saved.rows);
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
