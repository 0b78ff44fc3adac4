import { ProgramRunner, type EmulatorLog } from "./runner";

/** An emulator as a program runs against it: where it listens, the token it accepts, its request log. */
export interface ProgramTarget extends EmulatorLog {
  url: string;
  token: string;
}

/**
 * A {@link ProgramRunner} for the program folder `dir` against `emulator`: its URL and token as the
 * provider's config (`docsplatform:apiUrl`, `docsplatform:apiToken`, the token a secret), its request
 * log as each run's `apiCalls`.
 */
export function runnerAgainst(dir: string, emulator: ProgramTarget): ProgramRunner {
  return new ProgramRunner({
    dir,
    config: { "docsplatform:apiUrl": emulator.url, "docsplatform:apiToken": emulator.token },
    secretKeys: ["docsplatform:apiToken"],
    emulator,
  });
}
