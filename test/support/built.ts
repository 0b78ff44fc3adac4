/** The built command line, for tests that run `docsplatform` or the emulator as a process of its own. */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** Builds the package (tsc) when `dist/` lacks the command line or the emulator's; returns the CLI's path. */
export function ensureBuilt(root: string): string {
  const cli = join(root, "dist/provider/cli.js");
  if (!existsSync(cli) || !existsSync(join(root, "dist/emulator/cli.js"))) {
    try {
      execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.json")], { cwd: root, stdio: "pipe" });
    } catch {
      // tsc emits even with type errors elsewhere; the check below decides.
    }
    if (!existsSync(cli)) throw new Error(`build did not produce ${cli}`);
  }
  return cli;
}
