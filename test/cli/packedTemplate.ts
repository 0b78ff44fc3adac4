/**
 * `npm run package` for a CLI test, without its build step (the suite builds dist/ before any test runs):
 * the package's tarball and the `pulumi new` template with the tarball inside, written into a folder of
 * the test's (`--out`), never the checkout's dist/package, which other tests write while this one runs.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../harness/program";

/** What `npm run package` wrote. */
export interface PackedTemplate {
  /** The package's tarball, pulumi-docsplatform-VERSION.tgz. */
  tarball: string;
  /** The template folder to give `pulumi new`. */
  template: string;
  /** What the command printed. */
  output: string;
}

/** Packs the built checkout and writes the template into `out`. */
export function packTemplate(out: string): PackedTemplate {
  fs.mkdirSync(out, { recursive: true });
  const output = execFileSync(process.execPath, [path.join(REPO_ROOT, "dist", "templates", "pack.js"), "--out", out], { cwd: out, encoding: "utf8" });
  const printed = (label: string): string => {
    const m = new RegExp(`^\\s*${label}:\\s+(.+)$`, "m").exec(output);
    if (!m) throw new Error(`npm run package printed no ${label} line:\n${output}`);
    return path.resolve(out, m[1]!.trim());
  };
  return { tarball: printed("package"), template: printed("template"), output };
}
