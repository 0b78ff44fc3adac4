import type { Endpoint } from "./endpoint";
import type { HttpMethod } from "./errors";
import type { ClientStats, RetryOptions } from "./options";
import type { Attempt } from "./transport";

/**
 * The shape of the client's policies (octokit's `hook.wrap` around its fetch wrapper): the request
 * core sends one attempt; each policy wraps the send of the policy inside it, and may send again
 * (retry), hold the attempt (gate), or stop the request by throwing. A new policy is a new module
 * listed in {@link ./policies.ts}, not an edit to the core.
 */

/** One attempt as the policies see it: the transport's outcome and how long it took. */
export type Sent = Attempt & {
  /** Milliseconds from sending to the body read (or the failure). */
  ms: number;
  /** A wait the answer asked for (`Retry-After` of a 5xx), reported in the error if the request stops here. */
  retryAfterMs?: number;
};

/** What a request is, fixed when it starts. */
export interface CallInit {
  /** Number of the request in this process (debug lines). */
  readonly id: number;
  readonly method: HttpMethod;
  /** The path without its query (messages and logs: a query may hold a share key). */
  readonly path: string;
  /** Whether sending it twice is harmless: it may be retried after an unknown outcome. */
  readonly idempotent: boolean;
  /** What goes on the wire: the path under the base URL with its query, the headers, the JSON body. */
  readonly target: string;
  /** Replace it to add a header (the object is shared by the client's requests: never change it in place). */
  headers: Record<string, string>;
  readonly body: string | undefined;
}

/** One request, shared by the policies across its attempts. */
export interface Call extends CallInit {
  /** Attempts retried so far, by reason (each policy counts under its own name). */
  readonly retried: Record<string, number>;
  /** Retries so far, every reason together. */
  readonly tries: number;
  /** The next attempt passes the gate ahead of fresh requests (after a pause the server asked for). */
  ahead: boolean;
  /** Counts a retry under `reason` and writes the attempt's debug line with what happens next. */
  retry(sent: Sent, reason: string, next: string): void;
  /** Writes the debug line of the attempt that ends the request. */
  logLast(sent: Sent): void;
  /**
   * The error that ends the request on this answer: its server message, `why`, and the wait it asked
   * for; outcome unknown for a 5xx to a request that is not idempotent.
   */
  answerError(sent: Sent & { kind: "answer" }, why?: string, retryAfterMs?: number): Error;
}

/** Sends one attempt of a call (the transport, or the policies inside the current one). */
export type Send = (call: Call) => Promise<Sent>;

/** What a policy is given when a client is made: the client's settings, counters and shared gate. */
export interface PolicyContext {
  readonly retry: Required<RetryOptions>;
  readonly stats: ClientStats;
  /** The process-wide gate of the base URL (in-flight bound, rate-limit budget, time held). */
  readonly endpoint: Endpoint;
  /** The client's debug logger (redacted), if any. */
  readonly log: ((line: string) => void) | undefined;
}

/** A policy: given the client's context, wraps the send inside it. */
export type Policy = (ctx: PolicyContext) => (next: Send) => Send;

/** The send of `core` wrapped by `policies`, the first outermost. */
export function compose(ctx: PolicyContext, policies: readonly Policy[], core: Send): Send {
  return policies.reduceRight<Send>((next, policy) => policy(ctx)(next), core);
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
