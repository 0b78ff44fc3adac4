import { TUNING_ENV } from "../../provider/env";
import { CONFIG } from "../../provider/resources/provider";
import { HANDBOOK_SECRET_ENV } from "./handbookSecrets";
import { startPlugin, type PluginDriver } from "./plugin";
import { ProgramRunner, type EmulatorLog, type ProgramRunnerOptions } from "./runner";

/** An emulator as a program runs against it: where it listens, the token it accepts, its request log. */
export interface ProgramTarget extends EmulatorLog {
  url: string;
  token: string;
}

/** The provider's stack config for an API at `url` acting with `token`, and which keys of it are secret. */
export function providerConfig(target: { url: string; token: string }): { config: Record<string, string>; secretKeys: string[] } {
  return { config: { [CONFIG.apiUrl.key]: target.url, [CONFIG.apiToken.key]: target.token }, secretKeys: [CONFIG.apiToken.key] };
}

/**
 * A {@link ProgramRunner} for the program folder `dir` against `emulator`: its URL and token as the
 * provider's config (`docsplatform:apiUrl`, `docsplatform:apiToken`, the token a secret), its request
 * log as each run's `apiCalls`, the handbook's secrets in its environment (handbookSecrets.ts). `opts` adds to
 * that (environment, parallelism, a plugin per run).
 */
export function runnerAgainst(dir: string, emulator: ProgramTarget, opts: Omit<ProgramRunnerOptions, "dir" | "emulator"> = {}): ProgramRunner {
  const { config, secretKeys } = providerConfig(emulator);
  return new ProgramRunner({ ...opts, dir, config: { ...config, ...opts.config }, secretKeys: [...secretKeys, ...(opts.secretKeys ?? [])], env: { ...HANDBOOK_SECRET_ENV, ...opts.env }, emulator });
}

/**
 * The dynamic-provider plugin started in the program folder `dir` and configured for `emulator` through
 * the stack config alone (DOCSPLATFORM_API_URL and DOCSPLATFORM_API_TOKEN blanked). One plugin then serves
 * every step, including reads after out-of-band edits that in the CLI would be separate commands (fresh
 * processes), so it keeps list walks only while in flight (the list cache set to 0).
 */
export function pluginAgainst(dir: string, emulator: { url: string; token: string }): Promise<PluginDriver> {
  return startPlugin({
    cwd: dir,
    ...providerConfig(emulator),
    env: { [CONFIG.apiToken.env]: "", [CONFIG.apiUrl.env]: "", [TUNING_ENV.listCacheMs]: "0" },
  });
}
