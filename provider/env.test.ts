import { describe, expect, it } from "vitest";
import { connectionSettings, DEFAULT_LIST_CACHE_MS, DEFAULT_LIST_LAG_MS, tuningFromEnv } from "./env";

describe("tuning from the environment (read once, by the provider layer)", () => {
  it("maps each variable to its option, and leaves unset ones out", () => {
    expect(tuningFromEnv({})).toEqual({ client: {}, listCacheMs: DEFAULT_LIST_CACHE_MS, listLagMs: DEFAULT_LIST_LAG_MS });
    expect(
      tuningFromEnv({
        DOCSPLATFORM_MAX_CONCURRENCY: "4",
        DOCSPLATFORM_TIMEOUT_MS: "1000",
        DOCSPLATFORM_DEBUG: "1",
        DOCSPLATFORM_RATE_LIMIT_WAIT_MS: "30000",
        DOCSPLATFORM_RATE_LIMIT_TOTAL_WAIT_MS: "120000",
        DOCSPLATFORM_LIST_CACHE_MS: "0",
        DOCSPLATFORM_LIST_LAG_MS: "2500",
      }),
    ).toEqual({
      client: {
        maxConcurrency: 4,
        timeouts: { headersMs: 1000, bodyMs: 1000 },
        debug: true,
        retry: { maxRateLimitWaitMs: 30_000, maxTotalRateLimitWaitMs: 120_000 },
      },
      listCacheMs: 0,
      listLagMs: 2500,
    });
  });

  it("refuses a malformed value, naming the variable", () => {
    expect(() => tuningFromEnv({ DOCSPLATFORM_MAX_CONCURRENCY: "0" })).toThrow(/DOCSPLATFORM_MAX_CONCURRENCY must be a positive integer, got "0"/);
    expect(() => tuningFromEnv({ DOCSPLATFORM_RATE_LIMIT_TOTAL_WAIT_MS: "soon" })).toThrow(/DOCSPLATFORM_RATE_LIMIT_TOTAL_WAIT_MS/);
    expect(() => tuningFromEnv({ DOCSPLATFORM_LIST_CACHE_MS: "-1" })).toThrow(/DOCSPLATFORM_LIST_CACHE_MS/);
  });
});

describe("the API URL and token: the environment wins over config", () => {
  const config = (values: Record<string, string>) => ({ get: (key: string) => values[key] });
  const CONFIGURED = config({ "docsplatform:apiUrl": "https://config.example.com", "docsplatform:apiToken": "config-token" });

  it("takes each variable over its config key, and says which setting gave the value", () => {
    expect(connectionSettings(CONFIGURED, { DOCSPLATFORM_API_URL: "https://env.example.com", DOCSPLATFORM_API_TOKEN: "env-token" })).toEqual({
      url: { value: "https://env.example.com", from: "DOCSPLATFORM_API_URL" },
      token: { value: "env-token", from: "DOCSPLATFORM_API_TOKEN" },
    });
    // Each setting on its own: the token from the environment, the URL from config.
    expect(connectionSettings(CONFIGURED, { DOCSPLATFORM_API_TOKEN: "env-token" })).toEqual({
      url: { value: "https://config.example.com", from: "docsplatform:apiUrl" },
      token: { value: "env-token", from: "DOCSPLATFORM_API_TOKEN" },
    });
  });

  it("uses config where the variable is unset or blank, and leaves out what neither sets", () => {
    expect(connectionSettings(CONFIGURED, { DOCSPLATFORM_API_URL: "", DOCSPLATFORM_API_TOKEN: "  " })).toEqual({
      url: { value: "https://config.example.com", from: "docsplatform:apiUrl" },
      token: { value: "config-token", from: "docsplatform:apiToken" },
    });
    expect(connectionSettings(config({ "docsplatform:apiToken": " " }), {})).toEqual({});
    // Where no Pulumi config is read (`export`, `tree --live`): the environment alone.
    expect(connectionSettings(undefined, { DOCSPLATFORM_API_URL: "https://env.example.com" })).toEqual({ url: { value: "https://env.example.com", from: "DOCSPLATFORM_API_URL" } });
  });
});
