import { Pool, type Dispatcher } from "undici";

/** Timeouts of one request, in milliseconds. */
export interface Timeouts {
  /** TCP + TLS connect. */
  connectMs: number;
  /** From sending the request to receiving the response headers. */
  headersMs: number;
  /** Longest silence while receiving the response body. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 };

/**
 * Response timeouts (headers and body) from `DOCSPLATFORM_TIMEOUT_MS`, for slow links and for tests
 * that outlast the client on purpose; empty when unset. Explicit `timeouts` options take precedence.
 */
export function envTimeouts(): Partial<Timeouts> {
  const raw = process.env.DOCSPLATFORM_TIMEOUT_MS;
  if (raw === undefined || raw === "") return {};
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    throw new Error(`DOCSPLATFORM_TIMEOUT_MS must be a positive integer number of milliseconds, got ${JSON.stringify(raw)}`);
  }
  return { headersMs: n, bodyMs: n };
}

interface Shared {
  pool: Pool;
  refs: number;
}

const pools = new Map<string, Shared>();

/**
 * A keep-alive connection pool for an origin, shared process-wide and reference-counted: every
 * client of the same origin (and connect timeout) reuses one pool; the last release closes it.
 */
export function acquirePool(origin: string, t: Timeouts): { dispatcher: Dispatcher; release: () => Promise<void> } {
  const key = `${origin} ${t.connectMs}`;
  let shared = pools.get(key);
  if (!shared) {
    shared = {
      pool: new Pool(origin, {
        connect: { timeout: t.connectMs },
        headersTimeout: t.headersMs,
        bodyTimeout: t.bodyMs,
        keepAliveTimeout: 4_000,
        keepAliveMaxTimeout: 60_000,
        pipelining: 1,
      }),
      refs: 0,
    };
    pools.set(key, shared);
  }
  shared.refs++;
  const held = shared;
  let released = false;
  return {
    dispatcher: held.pool,
    release: async () => {
      if (released) return;
      released = true;
      held.refs--;
      if (held.refs === 0) {
        pools.delete(key);
        await held.pool.close();
      }
    },
  };
}
