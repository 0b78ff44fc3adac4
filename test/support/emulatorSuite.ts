/** One emulator shared by the tests of a file. */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { ADMIN_TOKEN, startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { caller, type Call } from "./api";

/** The emulator of a file's tests: its parts can be read once the tests run. */
export interface SharedEmulator extends RunningEmulator {
  /** A caller acting with `token` (null: no token), the admin token by default. */
  caller(token?: string | null): Call;
}

/**
 * Starts the emulator on port 0 (with `opts`) before the file's tests and closes it after them. Before each
 * test its data is back to its fixture, its log is empty, and no fault, rate limit, burst limit or latency is set.
 */
export function shareEmulator(opts: EmulatorOptions = {}): SharedEmulator {
  let started: RunningEmulator | undefined;
  const running = (): RunningEmulator => {
    if (!started) throw new Error("the shared emulator starts in beforeAll: use it in a test or a hook");
    return started;
  };
  beforeAll(async () => {
    started = await startEmulator({ port: 0, ...opts });
  });
  afterAll(async () => {
    await started?.close();
  });
  beforeEach(() => {
    const control = running().control;
    control.reset();
    control.setFaults(null);
    control.setRateLimit(null);
    control.setBurstLimit(null);
    control.setLatency(0);
  });
  return {
    get url() {
      return running().url;
    },
    get token() {
      return running().token;
    },
    get store() {
      return running().store;
    },
    get control() {
      return running().control;
    },
    close: () => running().close(),
    caller: (token = ADMIN_TOKEN) => (method, path, body, headers) => caller(running().url, token)(method, path, body, headers),
  };
}
