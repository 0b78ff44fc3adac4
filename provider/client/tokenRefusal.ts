import { ApiError, type HttpMethod } from "./errors";
import { stripQuery } from "./paging";
import type { Policy, PolicyContext } from "./policy";

/**
 * The refused-token state of one client: a token the API refuses is refused for every request, so
 * the first refusal marks the client and every later request fails at once, unsent.
 *
 * - Refusal: a 401 on any request, or a 403 on the organisation itself (`GET /v1/orgs/{id}`: the
 *   token belongs to no member of it). A 403 elsewhere is a role too low for one operation, not a
 *   refused token.
 * - Until the token has been answered once, one request goes first and the others wait for its answer
 *   (a run that declares many resources then sends one request with a refused token, not one per
 *   resource). Any answer other than a refusal, or no answer at all, lets every request through; a
 *   client that is never used sends nothing.
 * - After a refusal, requests fail with an `ApiError` of code `TOKEN_REFUSED` (the status of the
 *   refusal, `isTokenRefused`), whose message says it was not sent. The refusal itself keeps its code
 *   (`HTTP_401`) and is also `isTokenRefused`; `isFirstRefusal` tells it apart.
 */
export class TokenRefusal {
  #refused: ApiError | undefined;
  /** Settled when the first request has its answer; undefined before any request. */
  #firstAnswer: Promise<void> | undefined;

  /**
   * Waits until `method path` may be sent; throws when the token was refused. `done` must be called
   * with the request's outcome (its error, or undefined on success).
   */
  async admit(method: HttpMethod, path: string): Promise<(error: unknown) => void> {
    this.#throwIfRefused(method, path);
    if (this.#firstAnswer === undefined) {
      let answered!: () => void;
      this.#firstAnswer = new Promise((resolve) => (answered = resolve));
      return (error) => {
        this.#observe(path, error);
        answered();
      };
    }
    await this.#firstAnswer;
    this.#throwIfRefused(method, path);
    return (error) => this.#observe(path, error);
  }

  /** The refusal, once the API refused the token. */
  get refused(): ApiError | undefined {
    return this.#refused;
  }

  #observe(path: string, error: unknown): void {
    if (this.#refused === undefined && error instanceof ApiError && refuses(error, path)) this.#refused = error;
  }

  #throwIfRefused(method: HttpMethod, path: string): void {
    const first = this.#refused;
    if (first === undefined) return;
    throw new ApiError({
      status: first.status,
      code: TOKEN_REFUSED,
      method,
      path: stripQuery(path),
      detail: `not sent: the API refused this client's token (${first.method} ${first.path} answered ${first.status})`,
    });
  }
}

const refusals = new WeakMap<PolicyContext, TokenRefusal>();

/**
 * The refused-token policy, outermost (see {@link TokenRefusal}): each request is admitted first, and
 * its outcome — the error its last attempt ends in, if any — tells whether the API refused the token.
 */
export const tokenRefusalPolicy: Policy = (ctx) => {
  const refusal = new TokenRefusal();
  refusals.set(ctx, refusal);
  return (next) => async (call) => {
    const done = await refusal.admit(call.method, call.path);
    let error: unknown;
    try {
      const sent = await next(call);
      if (sent.kind === "answer" && (sent.status < 200 || sent.status >= 300)) error = call.answerError(sent, undefined, sent.retryAfterMs);
      return sent;
    } catch (e) {
      error = e;
      throw e;
    } finally {
      done(error);
    }
  };
};

/** The API's refusal of the token of the client whose policies were given `ctx`, once it refused it. */
export function refusedToken(ctx: PolicyContext): ApiError | undefined {
  return refusals.get(ctx)?.refused;
}

/** The code of a request not sent because the API refused the client's token. */
export const TOKEN_REFUSED = "TOKEN_REFUSED";

function refuses(e: ApiError, path: string): boolean {
  return e.status === 401 || (e.status === 403 && /^\/v1\/orgs\/[^/?]+$/.test(stripQuery(path)));
}

/** True for the API's refusal of the token and for every request not sent because of it. */
export function isTokenRefused(e: unknown): e is ApiError {
  return e instanceof ApiError && (e.code === TOKEN_REFUSED || e.status === 401 || (e.status === 403 && /^\/v1\/orgs\/[^/]+$/.test(e.path)));
}

/** True for the refusal itself (the request the API answered), not for the requests that followed unsent. */
export function isFirstRefusal(e: unknown): boolean {
  return isTokenRefused(e) && (e as ApiError).code !== TOKEN_REFUSED;
}
