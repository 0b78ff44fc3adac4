/**
 * The import graph of a source tree, read from the files as text: what the layer tests walk
 * (provider/layers.test.ts for provider/, test/layers.test.ts for the whole repository).
 * Type-only imports count: a circle of types is still a circle to read.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** The repository's root. */
export const REPOSITORY = path.resolve(__dirname, "..", "..");

/** Folders never walked: installed packages, build output, scratch, test data. */
const SKIPPED = new Set(["node_modules", "dist", ".work", ".git", ".pulumi", "testdata", "__snapshots__"]);

/** Every .ts file under `root` (relative, `/`-separated, sorted); test files only when asked for. */
export function sources(root: string, options: { tests?: boolean } = {}): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED.has(e.name)) walk(p);
      } else if (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") && (options.tests === true || !e.name.endsWith(".test.ts"))) {
        out.push(path.relative(root, p).split(path.sep).join("/"));
      }
    }
  };
  walk(root);
  return out.sort();
}

/** Comments out, so that an import written in a doc comment is not taken for one. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[\s;{}])\/\/.*$/gm, "$1");
}

/** The module names a file imports: `import … from`, `export … from`, `import "x"`, `import("x")`, `require("x")`. */
export function importsOf(text: string): string[] {
  const code = withoutComments(text);
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\b(?:import|require)\s*\(\s*["']([^"']+)["']\s*\)/g];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) found.push(m[1]!);
  return found;
}

/** The file of `files` a relative module name from `file` names, or undefined for a package, a JSON file or a file outside them. */
export function resolve(file: string, spec: string, files: ReadonlySet<string>): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
  if (base.startsWith("..")) return undefined;
  return [`${base}.ts`, `${base}/index.ts`, base].find((c) => files.has(c));
}

/** An import graph: file → the files of the graph it imports, each with the text that imports it. */
export type ImportGraph = Map<string, { to: string; spec: string }[]>;

/** The import graph of `files` (relative to `root`). */
export function graph(root: string, files: readonly string[]): ImportGraph {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      const edges = importsOf(text).flatMap((spec) => {
        const to = resolve(file, spec, known);
        return to === undefined ? [] : [{ to, spec }];
      });
      return [file, edges];
    }),
  );
}

/** A circle: its files (sorted), and one loop through them from the first, for the message. */
export interface Circle {
  files: string[];
  loop: string[];
}

/** Circles of the graph: strongly connected components of more than one file, or a file importing itself. */
export function circles(g: ImportGraph): Circle[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: Circle[] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const { to } of g.get(v) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(v, Math.min(low.get(v)!, index.get(to)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    const selfLoop = (g.get(v) ?? []).some((e) => e.to === v);
    if (component.length > 1 || selfLoop) {
      const files = component.sort();
      found.push({ files, loop: loopThrough(g, new Set(files), files[0]!) });
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** One loop inside a circle, from `start` back to it, for the message. */
function loopThrough(g: ImportGraph, members: ReadonlySet<string>, start: string): string[] {
  const seen = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const { to } of g.get(v) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const loop = [v];
        while (loop[0] !== start) loop.unshift(seen.get(loop[0]!)!);
        return [...loop, start];
      }
      if (!seen.has(to)) {
        seen.set(to, v);
        queue.push(to);
      }
    }
  }
  return [start];
}
