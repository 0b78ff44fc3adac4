/**
 * The stack-file component's synchronous declaration of its resources, made cheaper for the SDK's
 * language host without changing anything a user sees (measured in bench/RESULTS.md):
 *
 * - **Lean props** (`registeringLean`, provider/resources/kind.ts): each class registers its output
 *   slots and the args that hold a value, not the many absent optional fields the component passes.
 * - **Quiet promise stacks**: the SDK stores `new Error().stack` on every promise it makes
 *   (`debuggablePromise`, four per property of every resource) and reads it at once, so the
 *   installed `Error.prepareStackTrace` — for a TypeScript program ts-node's source-map-support,
 *   which maps every frame — formats each one. Those strings are only ever printed with
 *   `PULUMI_DEBUG_PROMISE_LEAKS` set. While the component declares, a formatter in front of the
 *   installed one answers those captures with the error's first line and hands every other stack to
 *   the installed formatter unchanged: V8 formats a stack when it is first read, with the formatter
 *   installed then, so an error thrown here, the SDK's pre-allocated registration errors and the
 *   resource source positions (which the SDK reads from a full stack) are formatted exactly as
 *   before. The installed formatter is back before any user code runs.
 *
 * `DOCSPLATFORM_LEAN_REGISTRATION=0` registers exactly as the public classes do (`props` or
 * `stacks` keeps only that one); the benchmark uses it to measure each against the floor.
 */
import { registeringLean } from "../resources/kind";

/** The SDK module whose `debuggablePromise` captures the stacks. */
const DEBUGGABLE = /[\\/]runtime[\\/]debuggable\.js$/;

type Formatter = (error: Error, frames: NodeJS.CallSite[]) => unknown;

/** Which of the two the environment asks for (default both). */
function wanted(): { props: boolean; stacks: boolean } {
  const v = (process.env["DOCSPLATFORM_LEAN_REGISTRATION"] ?? "").trim();
  if (v === "0" || v === "false") return { props: false, stacks: false };
  if (v === "props") return { props: true, stacks: false };
  if (v === "stacks") return { props: false, stacks: true };
  return { props: true, stacks: true };
}

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

/** Runs the component's synchronous declaration with lean props and quiet promise stacks. */
export function declareLean<T>(declare: () => T): T {
  const { props, stacks } = wanted();
  const restore = stacks ? quietPromiseStacks() : undefined;
  try {
    return props ? registeringLean(declare) : declare();
  } finally {
    restore?.();
  }
}
