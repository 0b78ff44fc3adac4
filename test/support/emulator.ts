/** The emulator and the provider's client as tests start them: on port 0, with a token of the test's own. */
import type * as pulumi from "@pulumi/pulumi";
import { defaultSeed, startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { ApiClient, type ClientOptions } from "../../provider/client";
import { providerConfig } from "../harness";

/**
 * Starts the emulator on port 0 with its default fixture, in which `token` also acts as demo-admin (a
 * distinctive token lets a test scan logs and errors for it).
 */
export function startEmulatorWith(token: string, opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed = defaultSeed();
  seed.tokens[token] = "demo-admin";
  return startEmulator({ port: 0, seed, ...opts });
}

/**
 * What the tests of a file start and must close: emulators accepting `token` (see {@link startEmulatorWith}),
 * clients acting with it, and anything else handed to `onClose`. `close()` closes the clients and the rest
 * first, then the emulators. `emulator` and `client` may be used unbound.
 */
export class Started {
  private readonly emulators: RunningEmulator[] = [];
  private readonly closers: (() => Promise<void>)[] = [];

  /** `clientDefaults` apply to every client, under each client's own options. */
  constructor(
    readonly token: string,
    private readonly clientDefaults: Partial<ClientOptions> = {},
  ) {}

  /** An emulator on port 0 whose fixture accepts the token as demo-admin. */
  readonly emulator = async (opts: EmulatorOptions = {}): Promise<RunningEmulator> => {
    const emu = await startEmulatorWith(this.token, opts);
    this.emulators.push(emu);
    return emu;
  };

  /** A client of the API at `url` with the token and the defaults, `over` on top. */
  readonly client = (url: string, over: Partial<ClientOptions> = {}): ApiClient => {
    const c = new ApiClient({ baseUrl: url, token: this.token, ...this.clientDefaults, ...over });
    this.onClose(() => c.close());
    return c;
  };

  /** A client of a new emulator, for tests that need no handle on the emulator itself. */
  readonly clientOfNewEmulator = async (opts: EmulatorOptions = {}): Promise<ApiClient> => this.client((await this.emulator(opts)).url);

  /** Runs `close` with the clients, before the emulators close. */
  onClose(close: () => Promise<void>): void {
    this.closers.push(close);
  }

  /** Closes everything started so far; the instance can start more afterwards. */
  async close(): Promise<void> {
    await Promise.all(this.closers.splice(0).map((f) => f()));
    await Promise.all(this.emulators.splice(0).map((e) => e.close()));
  }
}

/**
 * Configures the in-process providers for `target` from the stack config, as a new plugin process
 * does: `over` (tuning variables) is set only while configure reads it, then restored. The API's URL and
 * token variables are blank unless `over` gives them (set, they would win over the config).
 */
export async function configureAgainst(
  provider: { configure?: (req: pulumi.dynamic.ConfigureRequest) => Promise<void> },
  target: { url: string; token: string },
  over: Record<string, string> = {},
): Promise<void> {
  const { config } = providerConfig(target);
  const env: Record<string, string> = { DOCSPLATFORM_API_URL: "", DOCSPLATFORM_API_TOKEN: "", ...over };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    await provider.configure?.({ config: { get: (k: string) => config[k], require: () => "" } as unknown as pulumi.Config });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
