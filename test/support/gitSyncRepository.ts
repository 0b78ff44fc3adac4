/** The repository the Git Sync test projects sync with, and a push to it through the emulator's test route. */
import { expect } from "vitest";

/** The GitHub repository and branch a test project's `gitSync:` names. */
export const REPOSITORY = 4242;
export const BRANCH = "refs/heads/main";

/**
 * A push to {@link REPOSITORY}'s {@link BRANCH}: the site file in `projectDirectory` becomes `text` (null:
 * removed), and the emulator re-imports the sites synced with it, as the platform does on a push.
 */
export async function pushSiteFile(emulatorUrl: string, projectDirectory: string, text: string | null): Promise<void> {
  const body = { provider: "github", repository: REPOSITORY, branch: BRANCH, projectDirectory, text };
  const r = await fetch(`${emulatorUrl}/_emulator/git/site-files`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(r.status).toBe(200);
}
