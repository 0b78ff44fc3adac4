import { STATUS_CODES } from "node:http";

/** HTTP methods the /v1 API uses. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What an ApiError is built from; every text field is redacted before it reaches the message. */
export interface ApiErrorInit {
  status: number;
  code: string;
  method: HttpMethod;
  path: string;
  /** Human-readable detail: the server's error message, or what went wrong on the wire. */
  detail: string;
  outcomeUnknown?: boolean;
  retryAfterMs?: number;
  cause?: unknown;
  /** The error body's `type`, where the operation's error gives one (Git Sync's `missing_site_git_sync_config`). */
  type?: string;
  /** The error body's `details`, with that `type`. */
  details?: Record<string, unknown>;
}

/**
 * The one error of the /v1 client. `status` is the HTTP status, or 0 when no response arrived
 * (network error, timeout). `code` is `HTTP_<status>` for answers and the undici/Node code
 * (`UND_ERR_SOCKET`, `ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`, …) for transport failures.
 * `outcomeUnknown` is set when a non-idempotent write may or may not have taken effect.
 * Never carries headers or the token.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  readonly code: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly outcomeUnknown: boolean;
  readonly retryAfterMs?: number;
  /** The error body's `type`, when it has one. */
  readonly type?: string;
  /** The error body's `details`, when it has them. */
  readonly details?: Record<string, unknown>;

  constructor(init: ApiErrorInit) {
    super(formatMessage(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.method = init.method;
    this.path = init.path;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.type !== undefined) this.type = init.type;
    if (init.details !== undefined) this.details = init.details;
  }

  /** A JSON form without the cause (whose internals are not ours to publish). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      code: this.code,
      method: this.method,
      path: this.path,
      outcomeUnknown: this.outcomeUnknown,
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
    };
  }
}

function formatMessage(init: ApiErrorInit): string {
  const head = `${init.method} ${init.path}`;
  if (init.status === 0) return `${head}: ${init.detail}`;
  const reason = STATUS_CODES[init.status] ?? "Error";
  return init.detail ? `${head}: ${init.status} ${reason}: ${init.detail}` : `${head}: ${init.status} ${reason}`;
}

/** True for an ApiError with status 404: the object is gone (a state, not a failure). */
export function isNotFound(e: unknown): boolean {
  return e instanceof ApiError && e.status === 404;
}

/** True for an ApiError with status 429 (rate limited after the client's own waiting). */
export function isRateLimited(e: unknown): boolean {
  return e instanceof ApiError && e.status === 429;
}

/** True when a non-idempotent write may have taken effect: look the object up by its natural key. */
export function isOutcomeUnknown(e: unknown): boolean {
  return e instanceof ApiError && e.outcomeUnknown;
}

/** True for an ApiError with status 409 (a uniqueness conflict). */
export function isConflict(e: unknown): boolean {
  return e instanceof ApiError && e.status === 409;
}

export const REDACTED = "[redacted]";
/** A bearer credential as it appears in a header or an echo of one. */
export const BEARER = /\b(Bearer\s+)[^\s"',;]+/gi;

/** Replaces every occurrence of `secret` and any bearer credential in `text` with `[redacted]`. */
export function redact(text: string, secret: string | undefined): string {
  let out = text;
  if (secret && secret.length > 0 && out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out.replace(BEARER, `$1${REDACTED}`);
}
