import type { CustomResourceOptions, Input } from "@pulumi/pulumi";
import type { ApiClient } from "../client";
import { isNotFound } from "../client";

/**
 * The contract every resource kind fills in. A kind module describes one declarative object of
 * the API (its inputs, outputs, schema and CRUD against the client); `makeProvider` in
 * `provider.ts` turns it into a Pulumi dynamic `ResourceProvider` with generic check, diff,
 * adopt, error and output handling.
 */

/** The string Pulumi sends for a value unknown during preview (a whole unknown object/array is this one string). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** What every kind method receives: the process-wide client for the configured API URL and token. */
export interface KindContext {
  /** Process-wide per base URL: one agent, one concurrency bound, one rate-limit state. */
  client: ApiClient;
  /**
   * Set by the framework while a create runs. A kind calls it as soon as the object exists (its
   * POST answered, or an existing object was taken over) with the outputs it has so far, and again
   * after each follow-up request that changes them. When create then fails (a follow-up PATCH,
   * move or default answered 409, 4xx, 5xx after retries, or timed out), the framework reports a
   * partial create with the last outputs given here: the engine keeps the object in state with the
   * error, the next update finishes it and destroy deletes it, so nothing is left orphaned.
   */
  created?(id: string, outs: object): void;
}

/** How the framework treats one input field. */
export interface FieldSpec {
  /** A change replaces the object (the API cannot change it in place). */
  createOnly?: boolean;
  /**
   * Maps a value (declared input or stored output) to the form compared by diff, e.g. a
   * canonical JSON form where key order does not matter. Applied to both sides.
   */
  normalize?: (v: unknown) => unknown;
}

/** Inputs every kind accepts besides its own: `adopt` takes over an existing object by its natural key. */
export interface AdoptInput {
  /** Take over an existing object found by the kind's natural key instead of creating a second one. */
  adopt?: boolean;
}

/** A created or adopted object: its ID and its outputs. */
export interface Created<O> {
  id: string;
  outs: O;
}

/** One resource kind: its name, input schema, fields and CRUD against the API. */
export interface KindDefinition<I extends object, O extends object> {
  /** "Site" → type token `pulumi-nodejs:dynamic/docsplatform:Site`. */
  name: string;
  /** The kind's input schema (schemas/kinds/<kind>.json), used by check. */
  schema: object;
  /** Every input; diff compares those the user declared. */
  fields: { [K in keyof I & string]-?: FieldSpec };
  /** Outputs holding secrets → `additionalSecretOutputs` of the class. */
  secretOutputs?: string[];
  /** Replacement deletes the old object first (a new one would collide with it, e.g. on a unique path). */
  deleteBeforeReplace?: boolean;
  /** Documentation: which input adopt looks the object up by. */
  naturalKey?: string;
  /**
   * One POST (plus the PATCH the API needs for fields only settable after creation). Calls
   * `ctx.created` once the object exists, before any follow-up request.
   */
  create(ctx: KindContext, inputs: I): Promise<Created<O>>;
  /** The live object; undefined = gone (only on 404 / absent from its list). */
  read(ctx: KindContext, id: string, state: O): Promise<O | undefined>;
  /** One PATCH/PUT with only the `changed` fields (declared fields whose value differs). */
  update(ctx: KindContext, id: string, olds: O, news: I, changed: string[]): Promise<O>;
  /** Removes the object; a 404 is caught by the framework and counts as done. */
  delete(ctx: KindContext, id: string, olds: O): Promise<void>;
  /** Natural-key lookup, used for `adopt: true` and for creates whose outcome is unknown (unless `recover` is given). */
  adopt?(ctx: KindContext, inputs: I): Promise<Created<O> | undefined>;
  /**
   * Finds the object a create whose outcome is unknown made, by what its POST itself set. Needed
   * when the natural key is only set by a follow-up request (a section's declared path): the POST
   * may have committed while the follow-up never ran, so a lookup by the declared key misses it.
   * Undefined = the create made nothing. Default: `adopt`.
   */
  recover?(ctx: KindContext, inputs: I): Promise<Created<O> | undefined>;
}

/** A kind with its types erased, as held by the one list of kinds. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- variance: a list of kinds with different I/O
export type AnyKind = KindDefinition<any, any>;

/** Pulumi type token of a kind. */
export function typeToken(kindName: string): string {
  return `pulumi-nodejs:dynamic/docsplatform:${kindName}`;
}

/** True when `v` is, or contains, a preview-unknown value. */
export function containsUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (v !== null && typeof v === "object") return Object.values(v).some(containsUnknown);
  return false;
}

/** The constructor arguments of a kind's class: every input may be a Pulumi Input, plus `adopt`. */
export type ResourceArgs<I extends object> = { [K in keyof I]: Input<I[K]> } & { adopt?: Input<boolean> };

/** Resource options of a kind's class: the kind's secret outputs added to `additionalSecretOutputs`. */
export function kindOptions(kind: { name: string; secretOutputs?: readonly string[] }, opts: CustomResourceOptions | undefined): CustomResourceOptions {
  const secrets = kind.secretOutputs ?? [];
  if (secrets.length === 0) return opts ?? {};
  return { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secrets] };
}

/**
 * The props a kind's class passes to `dynamic.Resource`: its args plus an `undefined` slot for
 * every other output it exposes. The SDK creates an Output property for each key (resolved from
 * what the provider returns); an `undefined` slot is not sent, so it is never a declared input.
 */
export function withOutputSlots<A extends object>(args: A, outputs: readonly string[]): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const k of outputs) props[k] = undefined;
  return { ...props, ...args };
}

/** The value of `read()`, or undefined when it fails with 404 (the object is gone). */
export async function orGone<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/**
 * The one object among `matches` that adopt takes over, or undefined when there is none. Two or
 * more is an error: `${kindName}: ${n} ${what}; adopt needs exactly one (${remedy})`, where the
 * remedy by default names the matches' IDs.
 */
export function exactlyOne<T extends { id: string }>(kindName: string, what: string, matches: readonly T[], remedy?: string): T | undefined {
  if (matches.length > 1) {
    throw new Error(`${kindName}: ${matches.length} ${what}; adopt needs exactly one (${remedy ?? `ids: ${matches.map((m) => m.id).join(", ")}`})`);
  }
  return matches[0];
}
