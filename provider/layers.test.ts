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
import { circles, graph, importsOf, sources } from "../test/support/imports";

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
  ["views", ["view/", "export/", "pull/", "commands/", "access/export.ts", "access/view.ts", "assistant/export.ts", "assistant/view.ts", "gitSync/export.ts", "gitSync/view.ts"]],
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

describe("the layers of provider/", () => {
  const g = graph(ROOT, sources(ROOT));

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
    expect(circles(g).map((c) => c.loop.join(" -> "))).toEqual([]);
  });
});
