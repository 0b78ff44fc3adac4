/** IDs derived from their parts, so that an import or a seed makes the same IDs every time. */
import { createHash } from "node:crypto";

/** A short, stable ID derived from its parts. */
export function stableId(prefix: string, ...parts: string[]): string {
  return prefix + createHash("sha256").update(parts.join("\u0000")).digest("base64url").replace(/[-_]/g, "x").slice(0, 14);
}
