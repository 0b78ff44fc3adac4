/**
 * What the state keeps of content the stack file names (an integration's script and images, an OpenAPI
 * spec's file): a SHA-256 of it, never the content, so a diff compares digests and an unchanged file makes
 * no call.
 */
import { createHash } from "node:crypto";
import { UNKNOWN } from "./kind";

/** What the outputs keep of a content or secret input: its SHA-256, never the content. */
export interface Digest {
  sha256: string;
}

/** The SHA-256 of a text (UTF-8). */
export function sha256(text: string): Digest {
  return { sha256: createHash("sha256").update(text, "utf8").digest("hex") };
}

/** Content (a string) as its digest; a digest, null and unknowns as they are: the form a diff compares. */
export function contentDigest(v: unknown): unknown {
  return typeof v === "string" && v !== UNKNOWN ? sha256(v) : v;
}
