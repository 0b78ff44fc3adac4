/** What a route handler gets (caller, store, request parts) and answers, and how an area registers its routes. */
import type { Schema } from "./schema";
import type { Store } from "./store";

/** A handler's view of one request. */
export interface Ctx<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  store: Store;
  /** Base URL of the emulator (for `urls.location`). */
  base: string;
  /** The user the token acts as. */
  user: string;
  /** The request's `Prefer` header, if any. */
  prefer?: string;
}

/** What a handler answers: status, optional JSON body and `Location`. */
export interface Result {
  status: number;
  body?: unknown;
  location?: string;
  /** Further response headers. */
  headers?: Record<string, string>;
}

/** The answer to an operation marked (Prefer): 204 with `Preference-Applied` when the caller asked for `return=minimal`, else 200 with `body`. */
export function preferred(ctx: Ctx<unknown, unknown, unknown>, body: unknown): Result {
  if (ctx.prefer !== undefined && /(^|[,;\s])return=minimal($|[,;\s])/.test(ctx.prefer)) return { status: 204, headers: { "preference-applied": "return=minimal" } };
  return { status: 200, body };
}

export interface RouteSpec<P, Q, B> {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  query?: Schema;
  body?: Schema;
  handler: (ctx: Ctx<P, Q, B>) => Result;
}

/** Registers one /v1 route; each area module exports `register(route)`. */
export type Route = <P = Record<string, string>, Q = Record<string, never>, B = undefined>(spec: RouteSpec<P, Q, B>) => void;
