/**
 * The layers of provider/, lowest first, and the rule that holds them in a line: a file imports only
 * files of its own layer or of a lower one, and no files import each other in a circle (type-only
 * imports count: a circle of types is still a circle to read).
 *
 * A folder stands at one layer. A feature that spans layers (redirects, access) has a folder of its
 * own whose files each stand at one layer, listed here by name: a new file there, or a new folder,
 * fails until it is given its layer.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.join(__dirname);

/** Lowest first. Each entry: the layer's name, its folders (`x/`) and files (`x/y.ts`) relative to provider/. */
export const LAYERS: readonly (readonly [string, readonly string[]])[] = [
  ["client", ["client/"]],
  // Every file directly in provider/ but the entry points: naming rules, phrases, validators, env.
  ["shared", ["*.ts"]],
  ["kinds", ["resources/"]],
  ["classes", ["classes/", "providers/"]],
  ["file", ["file/", "redirects/rules.ts", "redirects/forms.ts", "access/model.ts", "assistant/model.ts"]],
  ["site model", ["site/"]],
  ["stack", ["stack/", "redirects/checks.ts", "redirects/guard.ts", "access/checks.ts", "assistant/checks.ts", "gitSync/checks.ts"]],
  ["declare", ["declare/", "access/declare.ts", "assistant/declare.ts", "gitSync/declare.ts"]],
  ["views", ["view/", "export/", "commands/", "access/export.ts", "access/view.ts", "assistant/export.ts", "assistant/view.ts", "gitSync/export.ts", "gitSync/view.ts"]],
  ["entry", ["cli.ts", "index.ts", "program.ts"]],
];

/** Layers that never import Pulumi: the stack file is read, checked and resolved, and viewed, without the SDK. */
const WITHOUT_PULUMI = new Set(["file", "site model", "stack", "views"]);

/** The layer of a file (relative to provider/, `/`-separated), or undefined when none is given. */
function layerOf(file: string): number | undefined {
  const exact = LAYERS.findIndex(([, parts]) => parts.includes(file));
  if (exact >= 0) return exact;
  const folder = LAYERS.findIndex(([, parts]) => parts.some((p) => p.endsWith("/") && file.startsWith(p)));
  if (folder >= 0) return folder;
  return file.includes("/") ? undefined : LAYERS.findIndex(([, parts]) => parts.includes("*.ts"));
}

/** Every non-test .ts file under provider/, relative, sorted. */
function sources(dir = ROOT): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "testdata" && e.name !== "__snapshots__") out.push(...sources(p));
    } else if (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") && !e.name.endsWith(".d.ts")) {
      out.push(path.relative(ROOT, p).split(path.sep).join("/"));
    }
  }
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

/** The provider/ file a relative module name from `file` names, or undefined for one outside provider/ (a package, a JSON file, the emulator). */
function resolve(file: string, spec: string, files: ReadonlySet<string>): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
  if (base.startsWith("..")) return undefined;
  return [`${base}.ts`, `${base}/index.ts`, base].find((c) => files.has(c));
}

/** The import graph of provider/: file → the provider/ files it imports, each with the text that imports it. */
function graph(): Map<string, { to: string; spec: string }[]> {
  const files = sources();
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      const edges = importsOf(text).flatMap((spec) => {
        const to = resolve(file, spec, known);
        return to === undefined ? [] : [{ to, spec }];
      });
      return [file, edges];
    }),
  );
}

/** Circles of the graph (strongly connected components of more than one file, or a file importing itself), each as one loop of files. */
function circles(g: Map<string, { to: string }[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
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
    if (component.length > 1 || selfLoop) found.push(loopThrough(g, new Set(component), component.sort()[0]!));
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** One loop inside a circle, from `start` back to it, for the message. */
function loopThrough(g: Map<string, { to: string }[]>, members: ReadonlySet<string>, start: string): string[] {
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

describe("the layers of provider/", () => {
  const g = graph();

  it("reads every kind of import the code uses (a check of the reader itself)", () => {
    const text = [
      'import { a } from "./a";',
      'import type {\n  B,\n} from "../b";',
      'export * from "./c";',
      'import "./d";',
      'const e = await import("./e");',
      'const f = require("./f");',
      '// import { g } from "./g";',
      '/** import("./h") */',
    ].join("\n");
    expect(importsOf(text).sort()).toEqual(["../b", "./a", "./c", "./d", "./e", "./f"]);
  });

  it("gives every file a layer", () => {
    const without = [...g.keys()].filter((f) => layerOf(f) === undefined);
    expect(without, "files of no layer: give each folder (or each file of a feature folder) its layer in LAYERS").toEqual([]);
  });

  it("has no import from a lower layer to a higher one", () => {
    const upward = [...g].flatMap(([file, edges]) =>
      edges
        .filter(({ to }) => (layerOf(to) ?? -1) > (layerOf(file) ?? Infinity))
        .map(({ to, spec }) => `${file} (${LAYERS[layerOf(file)!]![0]}) imports "${spec}" = ${to} (${LAYERS[layerOf(to)!]![0]})`),
    );
    expect(upward).toEqual([]);
  });

  it("imports Pulumi only in the kinds, their classes and the declare layer (the one place that registers resources)", () => {
    const pulumi = [...g.keys()].filter((file) => {
      const layer = layerOf(file);
      if (layer === undefined || !WITHOUT_PULUMI.has(LAYERS[layer]![0])) return false;
      return importsOf(fs.readFileSync(path.join(ROOT, file), "utf8")).some((spec) => spec.startsWith("@pulumi/"));
    });
    expect(pulumi).toEqual([]);
  });

  it("has no circle of imports", () => {
    expect(circles(g).map((loop) => loop.join(" -> "))).toEqual([]);
  });
});
