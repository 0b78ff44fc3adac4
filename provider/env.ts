/**
 * The package's tuning environment variables, read in one place at the provider layer (the
 * plugin's `configure`, the `export` command) and handed to the client and the list views as
 * options: nothing deeper reads the environment.
 */
import type { ClientOptions } from "./client";
import { checkBaseUrl } from "./client/baseUrl";

/**
 * Where the package reads the API token it acts with: its Pulumi config key and its environment
 * variable (the plugin's `configure`, `docsplatform export`, `tree --live`; the environment wins, see
 * {@link connectionSettings}). A stack file's secret source may name neither: the token is never passed
 * on (stack/sources.ts).
 */
export const CREDENTIAL = {
  config: ["docsplatform:apiToken"],
  env: ["DOCSPLATFORM_API_TOKEN"],
} as const;

/** Where the package reads the API's base URL: its Pulumi config key and its environment variable. */
export const API_URL = {
  config: "docsplatform:apiUrl",
  env: "DOCSPLATFORM_API_URL",
} as const;

/** A connection setting's value and the setting that gave it: the environment variable or the config key. */
export interface ConnectionValue {
  value: string;
  from: string;
}

/** The API URL and token to act with; a member is absent when neither of its settings is set. */
export interface ConnectionSettings {
  url?: ConnectionValue;
  token?: ConnectionValue;
}

/**
 * The API URL and token the package acts with, by its one rule: the environment wins over Pulumi
 * config, `DOCSPLATFORM_API_TOKEN` over `docsplatform:apiToken` and `DOCSPLATFORM_API_URL` over
 * `docsplatform:apiUrl`; config is used only where its variable is unset. A CI's secret store is where
 * a rotated token lives, so the token given to a run is the one it acts with, whatever the stack's
 * config or an earlier run's state holds (a `pulumi refresh` configures the provider with the config an
 * earlier run stored). A blank value counts as unset. `config` is absent where no Pulumi config is read
 * (`docsplatform export`, `tree --live`, the provider used in-process before any configure). Every
 * place that acts with the token or URL reads them here.
 */
export function connectionSettings(config: { get(key: string): string | undefined } | undefined, env: Env = process.env): ConnectionSettings {
  const url = firstSet([API_URL.env, env[API_URL.env]], [API_URL.config, config?.get(API_URL.config)]);
  const token = firstSet([CREDENTIAL.env[0], env[CREDENTIAL.env[0]]], [CREDENTIAL.config[0], config?.get(CREDENTIAL.config[0])]);
  return { ...(url ? { url } : {}), ...(token ? { token } : {}) };
}

/**
 * The URL and token a command that reads no Pulumi config acts with (`docsplatform export`, `tree --live`),
 * or what is missing or wrong, as `docsplatform <command>: …` for stderr. The URL is vetted before any call.
 */
export function commandConnection(env: Env, command: string): { url: string; token: string } | { problem: string } {
  const { token, url } = connectionSettings(undefined, env);
  if (!token) return { problem: `docsplatform ${command}: ${CREDENTIAL.env[0]} is not set; export it with the API token to read the organization` };
  if (!url) return { problem: `docsplatform ${command}: ${API_URL.env} is not set; export it with the API's base URL (there is no default)` };
  try {
    checkBaseUrl(url.value);
  } catch (e) {
    return { problem: `docsplatform ${command}: ${API_URL.env}: ${e instanceof Error ? e.message : String(e)}` };
  }
  return { url: url.value, token: token.value };
}

/** The first of the settings, in order, whose value is set and not blank. */
function firstSet(...settings: [from: string, value: string | undefined][]): ConnectionValue | undefined {
  for (const [from, value] of settings) if (value !== undefined && value.trim() !== "") return { value, from };
  return undefined;
}

/** Tuning variables and what they set. */
export const TUNING_ENV = {
  /** In-flight requests per base URL in one process (client `maxConcurrency`). */
  maxConcurrency: "DOCSPLATFORM_MAX_CONCURRENCY",
  /** Response timeouts, headers and body (client `timeouts.headersMs`/`bodyMs`). */
  timeoutMs: "DOCSPLATFORM_TIMEOUT_MS",
  /** `1`: one debug line per attempt on stderr (client `debug`). */
  debug: "DOCSPLATFORM_DEBUG",
  /** Longest single rate-limit wait (client `retry.maxRateLimitWaitMs`, default 60 s). */
  rateLimitWaitMs: "DOCSPLATFORM_RATE_LIMIT_WAIT_MS",
  /** Longest total rate-limit waiting of one process (client `retry.maxTotalRateLimitWaitMs`, default 15 min). */
  rateLimitTotalWaitMs: "DOCSPLATFORM_RATE_LIMIT_TOTAL_WAIT_MS",
  /** How long a finished list walk serves reads (provider/resources/lists.ts, default 10 s; 0: off). */
  listCacheMs: "DOCSPLATFORM_LIST_CACHE_MS",
  /**
   * How far the API's lists may lag behind its writes (default 5 s; 0: not at all): how long the
   * lookup of a create whose outcome is unknown keeps looking before it concludes nothing was made.
   */
  listLagMs: "DOCSPLATFORM_LIST_LAG_MS",
} as const;

/** Client options from the environment: only the ones set (spread them over explicit options' defaults). */
export type ClientTuning = Pick<ClientOptions, "maxConcurrency" | "timeouts" | "retry" | "debug">;

/** Everything the environment tunes. */
export interface Tuning {
  client: ClientTuning;
  /** See {@link TUNING_ENV.listCacheMs}. */
  listCacheMs: number;
  /** See {@link TUNING_ENV.listLagMs}. */
  listLagMs: number;
}

export const DEFAULT_LIST_CACHE_MS = 10_000;
export const DEFAULT_LIST_LAG_MS = 5_000;

type Env = Record<string, string | undefined>;

/** Reads every tuning variable once; a malformed value is an error naming the variable. */
export function tuningFromEnv(env: Env = process.env): Tuning {
  const concurrency = whole(env, TUNING_ENV.maxConcurrency, 1, "a positive integer");
  const timeout = whole(env, TUNING_ENV.timeoutMs, 1, "a positive integer number of milliseconds");
  const wait = whole(env, TUNING_ENV.rateLimitWaitMs, 0, "a whole number of milliseconds");
  const total = whole(env, TUNING_ENV.rateLimitTotalWaitMs, 0, "a whole number of milliseconds");
  const client: ClientTuning = {};
  if (concurrency !== undefined) client.maxConcurrency = concurrency;
  if (timeout !== undefined) client.timeouts = { headersMs: timeout, bodyMs: timeout };
  if (wait !== undefined || total !== undefined) {
    client.retry = {
      ...(wait === undefined ? {} : { maxRateLimitWaitMs: wait }),
      ...(total === undefined ? {} : { maxTotalRateLimitWaitMs: total }),
    };
  }
  if (env[TUNING_ENV.debug] === "1") client.debug = true;
  return {
    client,
    listCacheMs: whole(env, TUNING_ENV.listCacheMs, 0, "a whole number of milliseconds (0 disables the list cache)") ?? DEFAULT_LIST_CACHE_MS,
    listLagMs: whole(env, TUNING_ENV.listLagMs, 0, "a whole number of milliseconds (0: lists never lag)") ?? DEFAULT_LIST_LAG_MS,
  };
}

/** Client options from the environment (`tuningFromEnv(env).client`). */
export function clientTuningFromEnv(env: Env = process.env): ClientTuning {
  return tuningFromEnv(env).client;
}

function whole(env: Env, name: string, min: number, what: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be ${what}, got ${JSON.stringify(raw)}`);
  return n;
}
