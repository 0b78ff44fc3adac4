/**
 * Node's on-disk compile cache, turned on for this package's modules and everything loaded after them,
 * before any of them loads: the ready-made program, the package's index and each provider module (the
 * plugin's entry) import this module first. A process then reads the compiled code of the package's
 * modules (and of yaml and the precompiled validators) instead of compiling them again: about 20 ms less
 * CPU for the program and 15 ms for the plugin on every `pulumi` command (measured in bench/).
 *
 * It is Node's own mechanism (`module.enableCompileCache`): the cache lives where `NODE_COMPILE_CACHE`
 * says, else in the system's temporary folder; it is keyed by each file's content and the Node.js
 * version, so a changed file is compiled afresh; a folder that cannot be written leaves it off without
 * an error. `NODE_DISABLE_COMPILE_CACHE=1` (Node's switch) or `DOCSPLATFORM_COMPILE_CACHE=0` leaves it off.
 */
import * as nodeModule from "node:module";

/** The parts of `node:module` this uses (Node 22.10 and later). */
interface CompileCacheApi {
  enableCompileCache?: () => { status: number };
  flushCompileCache?: () => void;
  constants?: { compileCacheStatus?: { ENABLED: number; ALREADY_ENABLED: number } };
}

/** After what a run loads first (the provider and client modules, the first validators), and later. */
const FLUSH_AFTER_MS = [100, 1000];

function enable(): void {
  if (["0", "false"].includes((process.env["DOCSPLATFORM_COMPILE_CACHE"] ?? "").trim())) return;
  const api = nodeModule as unknown as CompileCacheApi;
  const status = api.constants?.compileCacheStatus;
  if (!api.enableCompileCache || !status) return;
  const { status: now } = api.enableCompileCache();
  if (now !== status.ENABLED && now !== status.ALREADY_ENABLED) return;
  // Node writes the cache when the process exits; the engine ends the plugin with SIGTERM, which skips
  // that, so the cache is also written a moment after loading (the timers never keep a process alive).
  for (const ms of FLUSH_AFTER_MS) setTimeout(() => api.flushCompileCache?.(), ms).unref();
}

enable();
