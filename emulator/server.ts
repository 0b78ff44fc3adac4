/** The emulator's HTTP layer on fastify: parsing, validation, errors, auth, rate limit, faults, latency, request log, control surface. */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import Ajv, { type ErrorObject } from "ajv";
import addFormats from "ajv-formats";
import { BlockList, isIP } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import limits from "../schemas/limits.json";
import { ApiFailure, errorBody, PATTERN_WORDS } from "./errors";
import { pushSiteFile } from "./gitSync";
import { syncSite } from "./routes/gitSync";
import { burstLimiter, faultPlan, rateLimiter, RateLimiter, type BurstLimiter, type BurstLimitOptions, type FaultDecision, type FaultOptions, type FaultPlan } from "./faults";
import type { Ctx, Route, RouteSpec } from "./context";
import type { Store } from "./store";
import type { Seed } from "./seed";
import { registerAll } from "./routes";

/** One /v1 request as the emulator saw it. */
export interface RequestLogEntry {
  method: string;
  /** The route pattern, e.g. "/v1/orgs/:organizationId/sites/:siteId" ("(unmatched)" for unknown routes). */
  route: string;
  path: string;
  status: number;
  ms: number;
  fault?: string;
  /** The JSON body of a write (POST, PUT, PATCH) as received, so a test can check what a client sent. */
  body?: unknown;
}

/** Switches shared by the HTTP control surface and the in-process `control`. */
export interface Switches {
  latencyMs: number;
  rateLimit: RateLimiter | null;
  /** A second limiter in front of `rateLimit` (a gateway's burst limit): 429 with Retry-After only. */
  burstLimit: BurstLimiter | null;
  faults: FaultPlan | null;
  /**
   * /v1 requests since the log was last cleared. Clearing replaces the array: a request is logged
   * into the log current when it arrived, so one still in flight from before a clear (a stalled
   * request the client gave up on) never shows up in the next window.
   */
  log: RequestLogEntry[];
}

interface RequestState {
  start: number;
  /** The log current when the request arrived. */
  log: RequestLogEntry[];
  user?: string;
  fault?: string;
  decision?: FaultDecision;
  logged: boolean;
}

/** Nominal window reported in X-RateLimit-* headers when no rate limit is set (never answers 429). */
const UNLIMITED = { limit: 1_000_000, windowMs: 60_000 };

function formatAjvErrors(errors: ErrorObject[], dataVar: string): string {
  const useful = errors.filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf" && e.keyword !== "if");
  const nonNull = useful.filter((e) => !(e.keyword === "type" && (e.params as { type?: string }).type === "null"));
  const e = nonNull[0] ?? useful[0] ?? errors[0];
  if (!e) return `${dataVar} is invalid`;
  let message = `${dataVar}${e.instancePath} ${patternInWords(e) ?? e.message ?? "is invalid"}`;
  if (e.keyword === "enum") message += `: ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
  if (e.keyword === "additionalProperties") message += ` '${(e.params as { additionalProperty: string }).additionalProperty}'`;
  return message;
}

/** A broken pattern said in the words its schema gives (`x-patternWords`), as a client can repeat it; undefined otherwise. */
function patternInWords(e: ErrorObject): string | undefined {
  if (e.keyword !== "pattern") return undefined;
  const words = (e.parentSchema as { [PATTERN_WORDS]?: unknown } | undefined)?.[PATTERN_WORDS];
  return typeof words === "string" ? `must be ${words}` : undefined;
}

function makeAjv(coerce: boolean): Ajv {
  // verbose: an error carries the schema it broke, where a pattern's words are.
  const ajv = new Ajv({ allErrors: false, coerceTypes: coerce ? "array" : false, useDefaults: false, strict: false, removeAdditional: false, verbose: true });
  addFormats(ajv);
  // limits.json names the package's stricter URL rules (followed-url, fetched-url, credentialed-url: see emulator/README.md);
  // the contract says only "URI", so the emulator holds these fields to that.
  const uri = ajv.formats["uri"]!;
  ajv.addFormat("followed-url", uri);
  ajv.addFormat("fetched-url", uri);
  ajv.addFormat("credentialed-url", uri);
  ajv.addSchema(limits);
  return ajv;
}

/** 127.0.0.0/8 and ::1, in any of their written forms (IPv4-mapped ones included). */
const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** Whether `address` is a loopback address (a name is not an address: false). */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && loopback.check(address, family === 6 ? "ipv6" : "ipv4");
}

/**
 * A host name or address as the emulator compares them: lower case, without a trailing dot, an IPv6 address
 * without brackets and in its shortest form; undefined when `value` is neither a name nor an address.
 */
export function canonicalHost(value: string): string | undefined {
  let v = value.toLowerCase();
  if (v.startsWith("[") && v.endsWith("]")) {
    v = v.slice(1, -1);
    if (isIP(v) !== 6) return undefined;
  }
  const family = isIP(v);
  if (family === 4) return v;
  if (family === 6) {
    try {
      return new URL(`http://[${v}]`).hostname.slice(1, -1);
    } catch {
      return undefined; // a zone ID (fe80::1%eth0) names no host a request can give
    }
  }
  return /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?$/.test(v) ? v.replace(/\.$/, "") : undefined;
}

/** The host a Host header names (`name`, `name:port`, `[v6]`, `[v6]:port`), canonical; undefined when it names none. */
function hostOfHeader(header: string): string | undefined {
  const m = /^(\[[^\]]*\]|[^:[\]]+)(?::\d{1,5})?$/.exec(header.trim());
  return m ? canonicalHost(m[1]!) : undefined;
}

/** Whether the emulator answers a request whose Host header is `header`: a loopback name, or one of `allowed` (canonical). */
export function answersHost(header: string | undefined, allowed: ReadonlySet<string>): boolean {
  const host = header === undefined ? undefined : hostOfHeader(header);
  return host !== undefined && (host === "localhost" || isLoopbackAddress(host) || allowed.has(host));
}

/** The names every emulator answers, as its refusals and warnings say them. */
export const LOOPBACK_NAMES: readonly string[] = ["localhost", "127.0.0.1", "any other 127.x.y.z", "[::1]"];

/** "a, b, and c". */
export function inWords(items: readonly string[]): string {
  return new Intl.ListFormat("en", { type: "conjunction" }).format(items);
}

/** The message of the 421 a request with another Host gets. */
function misdirected(header: string | undefined): string {
  const which = header === undefined ? "this request sends no Host header" : `not Host '${header.slice(0, 256)}'`;
  return (
    `the emulator only answers its own names (${inWords([...LOOPBACK_NAMES, "the names it was started with"])}), ${which}; ` +
    "to answer another name, start it with --allowed-host NAME"
  );
}

export interface AppOptions {
  store: Store;
  switches: Switches;
  base: () => string;
  resolveSeed: (seed: string | Seed | undefined) => Seed;
  logger: boolean;
  /** Host names answered besides the loopback names, canonical (see canonicalHost). */
  allowedHosts: ReadonlySet<string>;
}

/** Builds the fastify app with every /v1 route and the `/_emulator` control surface. */
export function buildApp(opts: AppOptions): FastifyInstance {
  const { store, switches } = opts;
  const bodyAjv = makeAjv(false);
  const queryAjv = makeAjv(true);
  const app = Fastify({
    logger: opts.logger,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 4096 },
    forceCloseConnections: true,
    schemaErrorFormatter: (errors, dataVar) => new Error(formatAjvErrors(errors as ErrorObject[], dataVar)),
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply).code(400).send(errorBody(400, `bad request: ${error.message}`));
    },
  });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === "body" ? bodyAjv : queryAjv).compile(schema as object));

  // Only requests for the emulator's own names are answered, before anything else runs: a web page whose name
  // is made to resolve to this machine (DNS rebinding) sends its own name as Host and reads nothing here.
  app.addHook("onRequest", async (request, reply: FastifyReply) => {
    const host = request.headers.host;
    if (answersHost(host, opts.allowedHosts)) return;
    return reply.code(421).send(errorBody(421, misdirected(host)));
  });

  // JSON only: any other content type with a body is a 415; an empty JSON body is no body.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_req, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(new ApiFailure(400, `body is not valid JSON: ${err instanceof Error ? err.message : String(err)}`), undefined);
    }
  });

  const states = new WeakMap<FastifyRequest, RequestState>();
  const isControl = (url: string) => url.startsWith("/_emulator/") || url === "/_emulator";
  const pathOf = (url: string) => {
    const q = url.indexOf("?");
    return q === -1 ? url : url.slice(0, q);
  };
  const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? "(unmatched)";
  const record = (request: FastifyRequest, status: number, fault?: string) => {
    const st = states.get(request);
    if (!st || st.logged) return;
    st.logged = true;
    const entry: RequestLogEntry = { method: request.method, route: routeOf(request), path: pathOf(request.url), status, ms: performance.now() - st.start };
    const f = fault ?? st.fault;
    if (f) entry.fault = f;
    if (request.method !== "GET" && request.body !== undefined && request.body !== null) entry.body = request.body;
    st.log.push(entry);
  };
  const destroy = (request: FastifyRequest, reply: FastifyReply, fault: string): FastifyReply => {
    record(request, 0, fault);
    reply.hijack();
    request.raw.socket.destroy();
    return reply;
  };

  app.addHook("onRequest", async (request, reply: FastifyReply) => {
    if (isControl(request.url)) return;
    const st: RequestState = { start: performance.now(), log: switches.log, logged: false };
    states.set(request, st);

    const burst = switches.burstLimit?.take(`${request.method} ${routeOf(request)}`, Date.now());
    if (burst && !burst.allowed) {
      // Answered in front of the API: its own limiter never counts the request, and no X-RateLimit-* header is sent.
      void reply.header("retry-after", String(burst.retryAfterS));
      st.fault = "burst-limited";
      return reply.code(429).send(errorBody(429, `Too many requests in a burst; retry after ${burst.retryAfterS} s.`));
    }

    const limiter = switches.rateLimit;
    const window = limiter ?? new RateLimiter(UNLIMITED.limit, UNLIMITED.windowMs);
    const taken = limiter ? limiter.take(Date.now()) : { allowed: true, remaining: UNLIMITED.limit, resetEpochS: Math.ceil((Date.now() + UNLIMITED.windowMs) / 1000), retryAfterS: 0 };
    void reply.header("x-ratelimit-limit", String(window.limit));
    void reply.header("x-ratelimit-remaining", String(taken.remaining));
    void reply.header("x-ratelimit-reset", String(taken.resetEpochS));
    if (!taken.allowed) {
      void reply.header("retry-after", String(taken.retryAfterS));
      st.fault = "rate-limited";
      return reply.code(429).send(errorBody(429, `API rate limit exceeded. Limit: ${window.limit} requests per ${window.windowMs} ms; retry after ${taken.retryAfterS} s.`));
    }

    const decision = switches.faults?.decide(request.method, pathOf(request.url));
    if (decision) {
      st.decision = decision;
      if (decision.reset) return destroy(request, reply, "reset");
      if (decision.error5xx !== null) {
        st.fault = "5xx";
        return reply.code(decision.error5xx).send(errorBody(decision.error5xx, "injected server error (emulator fault)"));
      }
      if (decision.stallMs > 0) {
        st.fault = "stall";
        await sleep(decision.stallMs);
        if (request.raw.destroyed || request.raw.socket.destroyed) return destroy(request, reply, "stall");
      }
    }
    if (switches.latencyMs > 0) await sleep(switches.latencyMs);

    if (request.routeOptions.url === undefined) return;
    const header = request.headers.authorization;
    const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!m) return reply.code(401).send(errorBody(401, "missing bearer token: send 'Authorization: Bearer <token>'"));
    const user = store.userForToken(m[1]!);
    if (!user || !store.get("users", user)) return reply.code(401).send(errorBody(401, "unknown API token"));
    st.user = user;
  });

  app.addHook("onResponse", async (request, reply) => {
    if (isControl(request.url)) return;
    record(request, reply.statusCode);
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    let status = 500;
    let message = "internal emulator error";
    let extra: Record<string, unknown> | undefined;
    const e = error as { statusCode?: number; code?: string; validation?: unknown; message?: string };
    if (error instanceof ApiFailure) {
      status = error.status;
      message = error.message;
      extra = error.extra;
    } else if (e.validation) {
      status = 400;
      message = e.message ?? "invalid request";
    } else if (e.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      status = 413;
      message = "request body is larger than 1 MiB (1048576 bytes)";
    } else if (e.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
      status = 415;
      message = `Content-Type '${request.headers["content-type"] ?? ""}' is not supported: send application/json`;
    } else if (typeof e.statusCode === "number" && e.statusCode >= 400 && e.statusCode < 500) {
      status = e.statusCode;
      message = e.message ?? "bad request";
    } else {
      process.stderr.write(`emulator: ${request.method} ${pathOf(request.url)}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
    void reply.code(status).send(errorBody(status, message, extra));
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBody(404, `no route ${request.method} ${pathOf(request.url)}`));
  });

  const route: Route = <P, Q, B>(spec: RouteSpec<P, Q, B>) => {
    app.route({
      method: spec.method,
      url: spec.url,
      schema: {
        ...(spec.query ? { querystring: spec.query } : {}),
        ...(spec.body ? { body: spec.body } : {}),
      },
      // A body-less write validates as an empty object: "body must have required property 'title'".
      ...(spec.body
        ? {
            preValidation: async (request: FastifyRequest) => {
              if (request.body === undefined) request.body = {};
            },
          }
        : {}),
      handler: async (request, reply) => {
        const st = states.get(request)!;
        const ctx: Ctx<P, Q, B> = {
          params: request.params as P,
          query: (request.query ?? {}) as Q,
          body: request.body as B,
          store,
          base: opts.base(),
          user: st.user!,
          ...(typeof request.headers.prefer === "string" ? { prefer: request.headers.prefer } : {}),
        };
        if (st.decision?.echoBody) {
          st.fault = "echo-body";
          return reply.code(400).send(errorBody(400, `invalid request: ${JSON.stringify(request.body ?? null)}`));
        }
        let result;
        try {
          result = spec.handler(ctx);
        } finally {
          // Whatever was written is made durable before anything is answered.
          store.commit();
        }
        const d = st.decision;
        if (d?.dropAfterCommit) return destroy(request, reply, "drop-after-commit");
        if (d && d.slowAfterCommitMs > 0) {
          st.fault = "slow-after-commit";
          await sleep(d.slowAfterCommitMs);
          if (request.raw.destroyed || request.raw.socket.destroyed) return destroy(request, reply, "slow-after-commit");
        }
        if (d?.emptyAfterCommit) {
          st.fault = "empty-after-commit";
          return reply.code(200).send();
        }
        const lagMs = switches.faults?.opts.listLagMs ?? 0;
        if (lagMs > 0 && request.method === "GET" && result.status === 200) lagList(store, result.body, lagMs);
        if (d?.error5xxAfterCommit) {
          st.fault = "5xx-after-commit";
          return reply.code(500).send(errorBody(500, "injected server error after commit (emulator fault)"));
        }
        void reply.code(result.status);
        if (result.location) void reply.header("location", result.location);
        for (const [name, value] of Object.entries(result.headers ?? {})) void reply.header(name, value);
        return result.body === undefined ? reply.send() : reply.send(result.body);
      },
    });
  };
  registerAll(route);
  registerControl(app, opts);
  return app;
}

/** A list answer as a lagging index serves it: objects created within `lagMs` are not in it yet. */
function lagList(store: Store, body: unknown, lagMs: number): void {
  if (body === null || typeof body !== "object" || !Array.isArray((body as { items?: unknown }).items)) return;
  const page = body as { items: unknown[]; count: number };
  page.items = page.items.filter((item) => {
    const id = (item as { id?: unknown } | null)?.id;
    return typeof id !== "string" || !store.createdWithin(id, lagMs);
  });
  page.count = page.items.length;
}

/** Parses an optional JSON control body. */
function controlBody(request: FastifyRequest): Record<string, unknown> | null {
  const b = request.body;
  if (b === undefined || b === null) return null;
  if (typeof b !== "object" || Array.isArray(b)) throw new ApiFailure(400, "control body must be a JSON object or null");
  return b as Record<string, unknown>;
}

function registerControl(app: FastifyInstance, opts: AppOptions): void {
  const { store, switches } = opts;
  const guard = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      if (err instanceof ApiFailure) throw err;
      throw new ApiFailure(400, err instanceof Error ? err.message : String(err));
    }
  };
  app.post("/_emulator/reset", async (request, reply) => {
    const b = controlBody(request);
    guard(() => {
      store.reset(b && "seed" in b ? opts.resolveSeed(b.seed as Seed | string) : undefined);
      switches.log = [];
    });
    return reply.code(204).send();
  });
  app.get("/_emulator/log", async () => ({ items: switches.log, count: switches.log.length }));
  app.delete("/_emulator/log", async (_request, reply) => {
    switches.log = [];
    return reply.code(204).send();
  });
  app.get("/_emulator/counts", async () => countRoutes(switches.log));
  app.get("/_emulator/snapshot", async () => store.snapshot());
  app.put("/_emulator/latency", async (request, reply) => {
    const b = controlBody(request);
    const ms = b?.ms ?? 0;
    if (typeof ms !== "number" || ms < 0) throw new ApiFailure(400, "ms must be a non-negative number");
    switches.latencyMs = ms;
    return reply.code(204).send();
  });
  /** PUT `path`: a JSON body turns a switch on (checked first), null turns it off. */
  const switchRoute = (path: string, set: (b: Record<string, unknown> | null) => void) =>
    app.put(path, async (request, reply) => {
      const b = controlBody(request);
      guard(() => set(b));
      return reply.code(204).send();
    });
  switchRoute("/_emulator/rate-limit", (b) => {
    switches.rateLimit = rateLimiter(b && { limit: b.limit as number, windowMs: b.windowMs as number });
  });
  switchRoute("/_emulator/burst-limit", (b) => {
    switches.burstLimit = burstLimiter(b as BurstLimitOptions | null);
  });
  switchRoute("/_emulator/faults", (b) => {
    switches.faults = faultPlan(b as FaultOptions | null);
  });
  // Test-only: a push of a site file to a repository's branch (see README, Git Sync).
  app.put("/_emulator/git/site-files", async (request) => {
    const b = controlBody(request);
    let imported = 0;
    guard(() => {
      imported = pushSiteFile(store, b, (row) => syncSite(store, row));
    });
    return { imported };
  });
  app.post("/_emulator/clock", async (request) => {
    const b = controlBody(request);
    const ms = b?.advanceMs ?? 0;
    if (typeof ms !== "number") throw new ApiFailure(400, "advanceMs must be a number of milliseconds");
    store.advanceClock(ms);
    return { now: store.nowIso() };
  });
}

/** Requests per "METHOD route" in the log. */
export function countRoutes(log: RequestLogEntry[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of log) {
    const key = `${e.method} ${e.route}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
