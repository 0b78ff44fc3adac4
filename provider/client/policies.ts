import { gatePolicy } from "./gate";
import type { Policy } from "./policy";
import { rateLimitPolicy } from "./rateLimitPolicy";
import { retryPolicy } from "./retryPolicy";
import { tokenRefusalPolicy } from "./tokenRefusal";

/**
 * The client's policies, outermost first. A request whose token the API refused is stopped before
 * anything else (and, until the token is answered once, waits behind the first request). Each attempt passes the gate (innermost: every retry waits
 * for a slot and the rate limit again); a 429 is waited out before the retry policy sees the answer; the retry policy sees what is
 * left (failures, 5xx). A new policy is a module and a row here.
 */
export const POLICIES: readonly Policy[] = [tokenRefusalPolicy, retryPolicy, rateLimitPolicy, gatePolicy];
