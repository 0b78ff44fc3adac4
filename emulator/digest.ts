/** What the emulator keeps of a secret it is sent and never answers (a Git Sync access token, an integration's secrets). */
import { createHash } from "node:crypto";

/** The SHA-256 of a secret (UTF-8), in hex. */
export function secretDigest(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}
