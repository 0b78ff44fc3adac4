/**
 * What a user is told when the API refuses the token, in one place for the provider, `docsplatform
 * export` and `tree --live`: which setting supplies the token and for which organisation, once. The
 * requests the client then does not send (tokenRefusal.ts) are told apart, so a run's many resources
 * repeat no instructions. The token itself is never part of any of it.
 */
import { STATUS_CODES } from "node:http";
import { isFirstRefusal, isTokenRefused } from "./client/tokenRefusal";

/** Where the token comes from, as each entry point reads it (the environment wins over config: env.ts). */
export const TOKEN_SETTINGS = {
  /** The provider, its token from Pulumi config (DOCSPLATFORM_API_TOKEN unset). */
  provider: "`docsplatform:apiToken` (pulumi config set --secret docsplatform:apiToken <token>) or DOCSPLATFORM_API_TOKEN",
  /** The provider, its token from the environment: the one used, whatever config holds. */
  providerFromEnv: "DOCSPLATFORM_API_TOKEN (set, it wins over `docsplatform:apiToken`)",
  /** `docsplatform export` and `tree --live`: the environment. */
  command: "DOCSPLATFORM_API_TOKEN",
} as const;

/** Refusals already explained. */
const told = new WeakSet<object>();

/**
 * The one-line explanation of a refused token, or undefined when `e` is not one: the refusal itself
 * names the setting and the organisation; a request not sent because of it says only that.
 */
export function explainRefusedToken(e: unknown, organizationId: string | undefined, setting: string): string | undefined {
  if (!isTokenRefused(e)) return undefined;
  // The refusal is told once, also when several callers shared the request that met it.
  if (!isFirstRefusal(e) || told.has(e)) return "not attempted: the API refused the token (reported once, for the first request)";
  told.add(e);
  const answer = `${e.status} ${STATUS_CODES[e.status] ?? "Error"}`;
  const org = organizationId === undefined ? "" : ` for organization ${organizationId}`;
  return `the API refused the token (${answer})${org}: supply a valid token in ${setting}; nothing else was attempted`;
}
