import { ApiError } from "./errors";
import type { Call, CallInit, Sent } from "./policy";
import { notSent } from "./retryRules";
import type { SecretValues } from "./secrets";
import { describeFailure, type ResponseLimits } from "./transport";

/** What a call needs of its client: the run's secret values (to redact), the debug logger, the response limits (for messages). */
export interface CallSide {
  readonly secrets: SecretValues;
  readonly log: ((line: string) => void) | undefined;
  readonly limits: ResponseLimits;
}

// The request's own fields (CallInit): set from `init` by the constructor.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface RequestCall extends CallInit {}

/** One request across its attempts: what the policies read and set, its debug lines and its errors. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class RequestCall implements Call {
  readonly retried: Record<string, number> = {};
  ahead = false;
  #tries = 0;

  constructor(
    private readonly side: CallSide,
    init: CallInit,
  ) {
    Object.assign(this, init);
  }

  get tries(): number {
    return this.#tries;
  }

  retry(sent: Sent, reason: string, next: string): void {
    this.#line(sent, next);
    this.retried[reason] = (this.retried[reason] ?? 0) + 1;
    this.#tries++;
  }

  logLast(sent: Sent): void {
    this.#line(sent);
  }

  answerError(sent: Sent & { kind: "answer" }, why?: string, retryAfterMs?: number): ApiError {
    // A server error may come after the write was done: a create must not be repeated blindly.
    const outcomeUnknown = sent.status >= 500 && !this.idempotent;
    let detail = serverMessage(sent.text);
    if (why) detail = `${detail}${detail ? "; " : ""}${why}`;
    if (outcomeUnknown) detail = `${detail}${detail ? "; " : ""}outcome unknown: the server may have acted, look the object up before retrying`;
    return new ApiError({
      status: sent.status,
      code: `HTTP_${sent.status}`,
      method: this.method,
      path: this.path,
      detail: this.side.secrets.redact(detail),
      outcomeUnknown,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      ...errorKind(sent.text),
    });
  }

  /** The error that ends the request on a transport failure: outcome unknown when it may have been sent and is not idempotent. */
  failureError(sent: Sent & { kind: "failure" }): ApiError {
    const outcomeUnknown = !this.idempotent && !notSent(sent.code);
    let detail = describeFailure(sent.code, sent.error, this.side.limits);
    if (outcomeUnknown) detail = `outcome unknown (${detail}): the request was sent and the server may have acted, look the object up before retrying`;
    return new ApiError({ status: 0, code: sent.code, method: this.method, path: this.path, detail: this.side.secrets.redact(detail), outcomeUnknown, cause: this.#sanitize(sent.error) });
  }

  /**
   * The parsed body of a 2xx answer: `undefined` for 204 and 205, which carry none. Every other success
   * carries the object it names, so an empty body (or `null`) or one that is not JSON is an error naming
   * the request; for a create it is an uncertain create (`outcomeUnknown`): the write happened and the
   * object it made is unknown, so the caller looks it up by its natural key instead of creating another.
   */
  parse<T>(sent: Sent & { kind: "answer" }): T {
    if (sent.status === 204 || sent.status === 205) return undefined as T;
    let parsed: unknown;
    try {
      parsed = JSON.parse(sent.text);
    } catch (e) {
      if (sent.text.trim() === "") throw this.#unreadable(sent, "ERR_EMPTY_ANSWER", "the answer has no body, where the API sends the object");
      throw this.#unreadable(sent, "ERR_INVALID_JSON", "the response body is not valid JSON", this.#sanitize(e));
    }
    if (parsed === null) throw this.#unreadable(sent, "ERR_EMPTY_ANSWER", "the answer is null, where the API sends the object");
    return parsed as T;
  }

  #unreadable(sent: Sent & { kind: "answer" }, code: string, what: string, cause?: unknown): ApiError {
    const outcomeUnknown = !this.idempotent;
    const detail = outcomeUnknown ? `${what}; outcome unknown: the server acted, look the object up before retrying` : what;
    return new ApiError({ status: sent.status, code, method: this.method, path: this.path, detail: this.side.secrets.redact(detail), outcomeUnknown, ...(cause === undefined ? {} : { cause }) });
  }

  /**
   * The cause as it is, unless it could carry response bytes (a JSON syntax error quotes the body,
   * an HTTP parser error keeps the raw `data`): then a copy with a redacted message and no data.
   */
  #sanitize(e: unknown): unknown {
    if (!(e instanceof Error)) return e;
    const secrets = this.side.secrets;
    const data = (e as { data?: unknown }).data;
    if (data === undefined && !(e instanceof SyntaxError) && secrets.redact(e.message) === e.message) return e;
    const copy = new Error(secrets.redact(e.message));
    copy.name = e.name;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") Object.assign(copy, { code });
    return copy;
  }

  /** One debug line per attempt: `docsplatform: #12 GET /v1/… 200 4ms retries=0`, and what happens next. */
  #line(sent: Sent, next?: string): void {
    const status = sent.kind === "failure" ? sent.code : String(sent.status);
    this.side.log?.(`docsplatform: #${this.id} ${this.method} ${this.path} ${status} ${sent.ms}ms retries=${this.#tries}${next ? ` ${next}` : ""}`);
  }
}

/** The `error.message` of an error body, or a short excerpt of a body that is not the usual shape. */
/** The error body's `type` and `details`, where it has them (strings kept whole, other values dropped). */
function errorKind(text: string): { type?: string; details?: Record<string, unknown> } {
  try {
    const e = (JSON.parse(text) as { error?: { type?: unknown; details?: unknown } } | null)?.error;
    if (typeof e?.type !== "string") return {};
    const details = e.details !== null && typeof e.details === "object" ? Object.fromEntries(Object.entries(e.details).filter(([, v]) => typeof v === "string")) : undefined;
    return { type: e.type, ...(details ? { details } : {}) };
  } catch {
    return {};
  }
}

function serverMessage(text: string): string {
  if (text === "") return "";
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown }; message?: unknown };
    const m = parsed?.error?.message ?? parsed?.message;
    if (typeof m === "string") return m;
  } catch {
    // not JSON: fall through to an excerpt
  }
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
