/**
 * What the state keeps of content the stack file names (an integration's script and images, an OpenAPI
 * spec's file) and of secrets (headers, tokens, secret settings): a SHA-256 of it, never the content, so a
 * diff compares digests and an unchanged file makes no call.
 */
import { createHash } from "node:crypto";
import { UNKNOWN } from "./kind";

/** What the outputs keep of a content or secret input: its SHA-256, never the content. */
export interface Digest {
  sha256: string;
}

/**
 * The digest of a secret `name NUL value` (a value other than a string as its JSON): what the state keeps
 * instead of the value. The name is in the digest so that two secrets with one value differ; a digest of a
 * short value can be brute-forced, so an output holding one is a secret too.
 */
export function secretDigest(name: string, value: unknown): Digest {
  return sha256(`${name}\u0000${typeof value === "string" ? value : JSON.stringify(value)}`);
}

/** Secret values by name as their digests (the state never holds a value); digests, unknowns and null as they are. */
export function secretDigests(v: unknown): unknown {
  if (v === null || v === UNKNOWN || typeof v !== "object" || Array.isArray(v)) return v;
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(v).sort()) {
    const value = (v as Record<string, unknown>)[name];
    out[name] = (value !== null && typeof value === "object" && "sha256" in value) || value === UNKNOWN ? value : secretDigest(name, value);
  }
  return out;
}

/** The SHA-256 of a text (UTF-8). */
export function sha256(text: string): Digest {
  return { sha256: createHash("sha256").update(text, "utf8").digest("hex") };
}

/** Content (a string) as its digest; a digest, null and unknowns as they are: the form a diff compares. */
export function contentDigest(v: unknown): unknown {
  return typeof v === "string" && v !== UNKNOWN ? sha256(v) : v;
}
