/**
 * Program folders for runs: a copy of an example under `.work/programs/`, with the package installed
 * the way users get it (`npm pack`, extracted into `node_modules/pulumi-docsplatform` as a real copy, so
 * the closure serialiser emits `require("pulumi-docsplatform/…")` for the providers).
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg)) {
      const { name } = JSON.parse(fs.readFileSync(pkg, "utf8")) as { name?: string };
      if (name === "pulumi-docsplatform") return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no pulumi-docsplatform package.json above ${start}`);
    dir = parent;
  }
}

/** Root of the repository (the folder holding the package's package.json). */
export const REPO_ROOT = findRepoRoot(__dirname);
/** Scratch folder for program copies and the packed tarball. */
export const WORK_DIR = path.join(REPO_ROOT, ".work");

/** A program folder ready to run, and how to remove it. */
export interface PreparedProgram {
  dir: string;
  cleanup(): void;
}

/** Options for {@link prepareProgram}. */
export interface PrepareOptions {
  /** Install the packed package into the program's node_modules (default false). */
  installPackage?: boolean;
}

/**
 * Copies a program folder (without its node_modules) to `.work/programs/<name>-<random>/`, inside the
 * repository so `@pulumi/pulumi` and the other dependencies resolve from the repository's node_modules.
 */
export async function prepareProgram(srcDir: string, opts: PrepareOptions = {}): Promise<PreparedProgram> {
  const src = path.resolve(srcDir);
  if (!fs.existsSync(path.join(src, "Pulumi.yaml"))) throw new Error(`${src} has no Pulumi.yaml`);
  const dir = path.join(WORK_DIR, "programs", `${path.basename(src)}-${randomBytes(4).toString("hex")}`);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  fs.cpSync(src, dir, {
    recursive: true,
    filter: (from) => !/[\\/](node_modules|\.pulumi-state)$/.test(from),
  });
  // Without a package.json of its own the language host would take the repository's (and its `main`).
  const pkgFile = path.join(dir, "package.json");
  if (!fs.existsSync(pkgFile)) {
    fs.writeFileSync(pkgFile, JSON.stringify({ name: path.basename(src), private: true }, null, 2) + "\n");
  }
  if (opts.installPackage) await installPackage(dir);
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Extracts the packed package into `<dir>/node_modules/pulumi-docsplatform` (a real copy, not a link). */
export async function installPackage(dir: string): Promise<void> {
  const tarball = await packPackage();
  const target = path.join(dir, "node_modules", "pulumi-docsplatform");
  const tmp = path.join(dir, "node_modules", `.extract-${randomBytes(4).toString("hex")}`);
  fs.mkdirSync(tmp, { recursive: true });
  await run("tar", ["-xzf", tarball, "-C", tmp]);
  fs.rmSync(target, { recursive: true, force: true });
  fs.renameSync(path.join(tmp, "package"), target);
  fs.rmSync(tmp, { recursive: true, force: true });
}

let packed: Promise<string> | undefined;

/**
 * Builds (unless dist/ is newer than every source) and packs the package once per process; across
 * processes the tarball is reused while the sources it is built from are unchanged (keyed by their
 * paths, sizes and modification times).
 */
export function packPackage(): Promise<string> {
  packed ??= packOnce().catch((e: unknown) => {
    packed = undefined;
    throw e;
  });
  return packed;
}

const PACKAGE_SOURCES = ["package.json", "tsconfig.json", "provider", "emulator", "schemas"];

/** Calls `visit` for every file the package is built from (tests and node_modules excluded). */
function walkSources(visit: (rel: string, stat: fs.Stats) => void, roots: readonly string[] = PACKAGE_SOURCES): void {
  const walk = (rel: string) => {
    const abs = path.join(REPO_ROOT, rel);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(abs).sort()) {
        if (name === "node_modules" || name.endsWith(".test.ts")) continue;
        walk(path.join(rel, name));
      }
    } else {
      visit(rel, stat);
    }
  };
  for (const rel of roots) walk(rel);
}

/** What goes into the tarball: the built output, the schemas and the manifest (not the sources, which may be newer than dist/). */
const PACKAGE_CONTENTS = ["package.json", "dist", "schemas"];

function contentFingerprint(): string {
  const hash = createHash("sha256");
  walkSources((rel, stat) => hash.update(`${rel}\0${stat.size}\0${stat.mtimeMs}\n`), PACKAGE_CONTENTS);
  return hash.digest("hex").slice(0, 16);
}

/** True when dist/ was built after the last change to any source (tsc rewrites every output on a build). */
function distIsFresh(): boolean {
  let built: number;
  try {
    built = fs.statSync(path.join(REPO_ROOT, "dist", "provider", "index.js")).mtimeMs;
  } catch {
    return false;
  }
  let newest = 0;
  walkSources((_rel, stat) => {
    newest = Math.max(newest, stat.mtimeMs);
  });
  return newest < built;
}

/** Removes tarballs and program copies left by earlier processes (older than the given ages). */
function pruneWork(packDir: string): void {
  const sweep = (dir: string, maxAgeMs: number, match: (name: string) => boolean) => {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names.filter(match)) {
      const abs = path.join(dir, name);
      try {
        if (Date.now() - fs.statSync(abs).mtimeMs > maxAgeMs) fs.rmSync(abs, { recursive: true, force: true });
      } catch {
        // Removed by another process meanwhile.
      }
    }
  };
  sweep(packDir, 30 * 60_000, (n) => n.endsWith(".tgz"));
  sweep(path.join(WORK_DIR, "programs"), 6 * 3600_000, () => true);
}

async function packOnce(): Promise<string> {
  const packDir = path.join(WORK_DIR, "pack");
  fs.mkdirSync(packDir, { recursive: true });
  const release = await lock(path.join(packDir, "lock"));
  try {
    pruneWork(packDir);
    // `npm test` has just built; rebuilding would rewrite dist/ under the feet of running tests.
    if (!distIsFresh()) {
      try {
        await run("npm", ["run", "build"], { cwd: REPO_ROOT, maxBuffer: 64 << 20 });
      } catch (e) {
        const out = e as { stdout?: string; stderr?: string };
        throw new Error(`npm run build failed:\n${(out.stdout ?? "").slice(-4000)}${(out.stderr ?? "").slice(-2000)}`);
      }
    }
    // Keyed on what is packed, so a tarball is reused only while dist/ is exactly what it was made from.
    const tarball = path.join(packDir, `pulumi-docsplatform-${contentFingerprint()}.tgz`);
    if (fs.existsSync(tarball)) return tarball;
    const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", packDir], { cwd: REPO_ROOT, maxBuffer: 64 << 20 });
    const [info] = JSON.parse(stdout) as { filename: string }[];
    if (!info) throw new Error("npm pack reported no tarball");
    fs.renameSync(path.join(packDir, info.filename), tarball);
    return tarball;
  } finally {
    release();
  }
}

/** A cross-process lock: a directory created atomically; a lock older than 5 minutes is taken over. */
async function lock(dir: string): Promise<() => void> {
  for (;;) {
    try {
      fs.mkdirSync(dir);
      return () => fs.rmSync(dir, { recursive: true, force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      try {
        if (Date.now() - fs.statSync(dir).mtimeMs > 5 * 60_000) fs.rmSync(dir, { recursive: true, force: true });
      } catch {
        // Released meanwhile.
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
