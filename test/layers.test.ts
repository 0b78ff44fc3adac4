/**
 * The layers of the whole repository. provider/ has its own list and rules (provider/layers.test.ts);
 * here the emulator's and the benchmark's, lowest first, with the same rule: a file imports only files
 * of its own layer or of a lower one. Over every .ts file of the repository, tests included: no files
 * import each other in a circle (type-only imports count), and the emulator imports nothing from
 * provider/ (a double is written from the contract, not from the code it tests).
 */
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { type ImportGraph, REPOSITORY, circles, graph, sources } from "./support/imports";

/** A folder's layers, lowest first: each entry the layer's name and its folders (`x/`) and files (`x/y.ts`), relative to the folder. */
type Layers = readonly (readonly [string, readonly string[]])[];

/** bench/: the measuring tools, the report's shapes, its arithmetic, the rig and what runs on it, the page, the entry point. */
const BENCH: Layers = [
  ["tools", ["generate.ts", "baseline.ts", "emulator-throughput.ts", "floorRegistration.ts", "floor.ts", "program.ts"]],
  ["types", ["types.ts"]],
  ["statistics", ["statistics.ts", "earlier.ts"]],
  ["rig", ["rig.ts", "cli.ts", "variants.ts", "scale.ts", "redirects.ts", "pluginMemory.ts"]],
  ["report", ["report.ts"]],
  ["entry", ["run.ts"]],
];

/** emulator/: the rows and the rules every area shares, the data, a request's context, the tables, the presenters and the operations more than one area performs, access, the routes, the server. */
const EMULATOR: Layers = [
  ["model", ["model.ts", "errors.ts", "faults.ts", "journal.ts", "schema.ts", "paging.ts", "slug.ts", "ids.ts", "digest.ts", "objects.ts"]],
  ["data", ["seed.ts", "store.ts"]],
  ["context", ["context.ts"]],
  ["tables", ["columns.ts", "tables.ts"]],
  ["domain", ["present.ts", "content.ts", "gitSync.ts", "structure.ts"]],
  ["access", ["access.ts"]],
  ["routes", ["routes/"]],
  ["server", ["server.ts", "index.ts", "cli.ts"]],
];

/** The trees with layers of their own here. */
const TREES: readonly (readonly [string, Layers])[] = [
  ["bench", BENCH],
  ["emulator", EMULATOR],
];

/** The layer of a file (relative to its tree), or undefined when none is given. */
function layerOf(layers: Layers, file: string): number | undefined {
  const exact = layers.findIndex(([, parts]) => parts.includes(file));
  if (exact >= 0) return exact;
  const folder = layers.findIndex(([, parts]) => parts.some((p) => p.endsWith("/") && file.startsWith(p)));
  return folder >= 0 ? folder : undefined;
}

describe("the layers of the repository", () => {
  const all = graph(REPOSITORY, sources(REPOSITORY, { tests: true }));

  for (const [tree, layers] of TREES) {
    describe(`${tree}/`, () => {
      const root = path.join(REPOSITORY, tree);
      const g: ImportGraph = graph(root, sources(root));

      it("gives every file a layer", () => {
        expect([...g.keys()].filter((f) => layerOf(layers, f) === undefined), `files of no layer: give each its layer in ${tree.toUpperCase()}`).toEqual([]);
      });

      it("has no import from a lower layer to a higher one", () => {
        const upward = [...g].flatMap(([file, edges]) =>
          edges
            .filter(({ to }) => (layerOf(layers, to) ?? -1) > (layerOf(layers, file) ?? Infinity))
            .map(({ to, spec }) => `${tree}/${file} (${layers[layerOf(layers, file)!]![0]}) imports "${spec}" = ${tree}/${to} (${layers[layerOf(layers, to)!]![0]})`),
        );
        expect(upward).toEqual([]);
      });

      it("has no circle of imports (type-only imports count)", () => {
        expect(circles(g).map((c) => `${c.files.length} files: ${c.loop.map((f) => `${tree}/${f}`).join(" -> ")}`)).toEqual([]);
      });
    });
  }

  it("has no circle of imports anywhere (type-only imports count)", () => {
    expect(circles(all).map((c) => `${c.files.length} files: ${c.loop.join(" -> ")}`)).toEqual([]);
  });

  it("keeps the emulator apart from provider/", () => {
    const reaching = [...all]
      .filter(([file]) => file.startsWith("emulator/") && !file.endsWith(".test.ts"))
      .flatMap(([file, edges]) => edges.filter(({ to }) => to.startsWith("provider/")).map(({ spec }) => `${file} imports "${spec}"`));
    expect(reaching).toEqual([]);
  });
});
