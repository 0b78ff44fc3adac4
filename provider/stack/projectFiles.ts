/**
 * Files a stack file names (an integration's script and images today; OpenAPI files and site files
 * next) stay inside the project: the one rule every such reference goes through, for `docsplatform
 * validate` and for the component alike.
 *
 * The project's root is the nearest folder at or above the stack file's folder that holds `Pulumi.yaml`
 * (or `Pulumi.yml`): the folder of the Pulumi project the file belongs to. A stack file outside any
 * Pulumi project has its own folder as the root. A path is relative to the stack file's folder, never
 * absolute; it is resolved, its symbolic links followed (realpath), and the file it ends at must lie
 * inside the root (itself resolved the same way). Anything else is refused before any file is read, so
 * a stack file cannot send `~/.ssh/id_rsa` or `/etc/passwd` to the platform as an integration's script.
 * A path that names no file is answered with the paths it likely meant (a misspelt folder or file name),
 * found only inside the project.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { nearest } from "../phrases";

/** The files that make a folder a Pulumi project's root. */
const PROJECT_FILES = ["Pulumi.yaml", "Pulumi.yml"];

/** The project's root for a stack file in `stackDir` (see the module's description). */
export function projectRoot(stackDir: string): string {
  const start = path.resolve(stackDir);
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (PROJECT_FILES.some((f) => fs.existsSync(path.join(dir, f)))) return dir;
    if (path.dirname(dir) === dir) return start;
  }
}

/** Where a referenced file is: the real path to read, or why it is refused. */
export type ProjectFile = { ok: true; file: string } | { ok: false; reason: string };

/** Where files are resolved: the stack file's folder (paths are relative to it) and the project's root. */
export interface FileBase {
  /** The stack file's folder. */
  dir: string;
  /** The project's root ({@link projectRoot}). */
  root: string;
}

/** True when `target` is `root` or lies below it (both absolute and resolved). */
function isWithin(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function realpath(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * The file a stack file names as `given`, inside the project; or why it is refused, in words naming the
 * rule: an absolute path, a path that leaves the project (`../`), a symbolic link to a file outside it,
 * a missing file, something that is not a regular file.
 */
export function projectFile(base: FileBase, given: string): ProjectFile {
  const shown = JSON.stringify(given);
  if (path.isAbsolute(given) || path.win32.isAbsolute(given)) {
    return { ok: false, reason: `${shown} is an absolute path; name files relative to the stack file, inside ${describeRoot(base)}` };
  }
  if (given.includes("\0")) return { ok: false, reason: `${shown} holds a NUL character` };
  const root = realpath(base.root) ?? path.resolve(base.root);
  const resolved = path.resolve(base.dir, given);
  if (!isWithin(path.resolve(base.root), resolved) && !isWithin(root, resolved)) {
    return { ok: false, reason: `${shown} leads outside the project; files the stack file names must be inside ${describeRoot(base)}` };
  }
  const real = realpath(resolved);
  if (real === undefined) return { ok: false, reason: missing(base, given, root) };
  if (!isWithin(root, real)) {
    return { ok: false, reason: `${shown} is a symbolic link to a file outside the project; files the stack file names must be inside ${describeRoot(base)}` };
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(real);
  } catch {
    return { ok: false, reason: missing(base, given, root) };
  }
  if (!stat.isFile()) return { ok: false, reason: `${shown} is not a file` };
  return { ok: true, file: real };
}

/** The project's root in words: the folder of Pulumi.yaml, or the stack file's folder. */
function describeRoot(base: FileBase): string {
  const hasProject = PROJECT_FILES.some((f) => fs.existsSync(path.join(base.root, f)));
  return hasProject ? "the project's folder (where Pulumi.yaml is)" : "the stack file's folder (there is no Pulumi.yaml above it)";
}

/** Why a path names no file: with the paths meant, when a misspelling is likely ({@link likelyMeant}). */
function missing(base: FileBase, given: string, root: string): string {
  const shown = JSON.stringify(given);
  const meant = likelyMeant(base, given, root);
  if (meant.length === 0) return `no file ${shown} next to the stack file (paths are relative to the stack file's folder)`;
  const names = meant.map((m) => JSON.stringify(m));
  const choice = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
  return `no file ${shown} next to the stack file; did you mean ${choice}?`;
}

/** The most paths a "did you mean" offers. */
const MEANT_SHOWN = 3;

/**
 * The paths a missing one likely meant: walked from the stack file's folder one segment at a time, the
 * first segment that names nothing is replaced by the nearest names of its folder (phrases.ts's
 * `nearest`, as a misspelt field is), a folder by the nearest folder, the file by the nearest files.
 * Only folders inside the project are looked in, and only names whose file (or folder) is inside it are
 * offered, so a suggestion never reveals what lies outside. Empty when no name is near enough.
 */
function likelyMeant(base: FileBase, given: string, root: string): string[] {
  const segments = given.split(path.sep === "\\" ? /[\\/]/ : "/");
  const kept: string[] = [];
  let dir = path.resolve(base.dir);
  let corrected = false;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    const here = path.join(dir, segment);
    if (segment === "" || segment === "." || segment === ".." || isKind(here, last ? "file" : "folder", root)) {
      kept.push(segment);
      dir = here;
      continue;
    }
    const folder = realpath(dir);
    if (folder === undefined || !isWithin(root, folder)) return [];
    let names: string[];
    try {
      // Names far longer or shorter are never near (nearest's widest tolerance is 3): not looked at.
      names = fs.readdirSync(folder).filter((name) => Math.abs(name.length - segment.length) <= 3 && isKind(path.join(folder, name), last ? "file" : "folder", root));
    } catch {
      return [];
    }
    const near = nearest(segment, names.sort());
    if (near.length === 0) return [];
    if (last) return near.slice(0, MEANT_SHOWN).map((name) => [...kept, name].join("/"));
    kept.push(near[0]!);
    dir = path.join(dir, near[0]!);
    corrected = true;
  }
  return corrected ? [kept.join("/")] : [];
}

/** Whether `p` is a file (or a folder) whose real path lies inside `root`. */
function isKind(p: string, kind: "file" | "folder", root: string): boolean {
  const real = realpath(p);
  if (real === undefined || !isWithin(root, real)) return false;
  try {
    const stat = fs.statSync(real);
    return kind === "file" ? stat.isFile() : stat.isDirectory();
  } catch {
    return false;
  }
}
