import limits from "../schemas/limits.json";

/** The one error type routes throw: an HTTP status and a message for the `{"error":{code,message}}` body. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Members the operation's error adds beside `code` and `message` (a Git Sync 409's `type` and `details`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ApiFailure";
  }
}

/** 404 naming the kind and the ID that was not found. */
export function notFound(kind: string, id: string): ApiFailure {
  return new ApiFailure(404, `${kind} '${id}' not found`);
}

/** 400 naming the request field. */
export function badRequest(field: string, message: string): ApiFailure {
  return new ApiFailure(400, `${field} ${message}`);
}

/** The keyword of `schemas/limits.json` that says a limit's pattern in words. */
export const PATTERN_WORDS = "x-patternWords";

/** A 400 for a value that breaks the pattern of the limit `limit` of `schemas/limits.json`, in its words, and a length rule. */
export function patternRefused(field: string, limit: string, length: string): ApiFailure {
  const words = (limits.definitions as Record<string, { [PATTERN_WORDS]?: string }>)[limit]?.[PATTERN_WORDS];
  return badRequest(field, `must be ${words ?? "of the documented form"}, of ${length}`);
}

/** 403 naming the right that is missing. */
export function forbidden(message: string): ApiFailure {
  return new ApiFailure(403, message);
}

/** 409 naming the conflicting value. */
export function conflict(message: string): ApiFailure {
  return new ApiFailure(409, message);
}

/** The error body of every error response. */
export function errorBody(status: number, message: string, extra?: Record<string, unknown>): { error: { code: number; message: string } } {
  return { error: { code: status, message, ...extra } };
}
