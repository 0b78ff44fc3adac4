/**
 * The stack-file component's synchronous declaration of its resources, made cheaper for the SDK's
 * language host without changing anything a user sees (measured in bench/RESULTS.md).
 *
 * The SDK stores `new Error().stack` on every promise it makes (`debuggablePromise`, four per property
 * of every resource) and reads it at once, so the installed `Error.prepareStackTrace` — for a
 * TypeScript program ts-node's source-map-support, which maps every frame — formats each one. Those
 * strings are only ever printed with `PULUMI_DEBUG_PROMISE_LEAKS` set. While the component declares,
 * a formatter in front of the installed one answers those captures with the error's first line and
 * hands every other stack to the installed formatter unchanged: V8 formats a stack when it is first
 * read, with the formatter installed then, so an error thrown here (by user code too: a resource
 * transformation runs inside the declaration), the SDK's pre-allocated registration errors and the
 * resource source positions (which the SDK reads from a full stack) are formatted exactly as before.
 * The installed formatter is back before any other code runs, also when the declaration throws.
 *
 * `DOCSPLATFORM_QUIET_PROMISE_STACKS=0` turns it off; the benchmark uses that to measure it against the floor.
 */

/** The SDK module whose `debuggablePromise` captures the stacks. */
const DEBUGGABLE = /[\\/]runtime[\\/]debuggable\.js$/;

type Formatter = (error: Error, frames: NodeJS.CallSite[]) => unknown;

/** Installs the quiet formatter; returns what puts the previous one back (undefined: nothing installed). */
export function quietPromiseStacks(): (() => void) | undefined {
  // The SDK prints these stacks only in this mode; there they stay whole.
  if (process.env["PULUMI_DEBUG_PROMISE_LEAKS"]) return undefined;
  const installed = Error.prepareStackTrace as Formatter | undefined;
  // Without an installed formatter, V8's own is cheap (no source maps): nothing to save.
  if (typeof installed !== "function") return undefined;
  const quiet: Formatter = function (this: unknown, error, frames) {
    const top = frames[0];
    if (top?.getFunctionName() === "debuggablePromise" && DEBUGGABLE.test(top.getFileName() ?? "")) return Error.prototype.toString.call(error);
    return installed.call(this, error, frames);
  };
  Error.prepareStackTrace = quiet;
  return () => {
    if (Error.prepareStackTrace === quiet) Error.prepareStackTrace = installed;
  };
}

/** Runs the component's synchronous declaration with quiet promise stacks (unless turned off). */
export function declareQuietly<T>(declare: () => T): T {
  const off = ["0", "false"].includes((process.env["DOCSPLATFORM_QUIET_PROMISE_STACKS"] ?? "").trim());
  const restore = off ? undefined : quietPromiseStacks();
  try {
    return declare();
  } finally {
    restore?.();
  }
}
