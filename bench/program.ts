/**
 * The Pulumi program the benchmark runs: by default the no-code project, as examples/handbook is — a folder
 * with Pulumi.yaml (`typescript: false`), a package.json whose `main` is the package's ready-made program,
 * and docs.yaml; or a program of one's own, an index.ts (or its precompiled index.js) constructing the
 * stack-file component from docs.yaml. Prepared with the harness's `prepareProgram`, which installs the
 * packed package into the folder's node_modules as users get it.
 *
 * The program's sources are written at run time rather than kept under bench/: tsc compiles bench/**,
 * and `pulumi-docsplatform` only resolves inside a prepared folder.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { type PreparedProgram, WORK_DIR, prepareProgram } from "../test/harness";
import type { StackFile } from "../provider/file/model";
import { BENCH_FILES, toStackYaml } from "./generate";

const PULUMI_YAML = `name: docsplatform-bench
runtime: nodejs
description: Benchmark program - one DocsPlatform component built from a generated docs.yaml.
`;

const INDEX_TS = `import { DocsPlatform } from "pulumi-docsplatform";

const docs = new DocsPlatform("bench", { file: "docs.yaml" });

export const siteIds = docs.siteIds;
`;

/** Name of the stack file inside the program folder. */
export const STACK_FILE = "docs.yaml";

/** A prepared benchmark program folder; `writeStack` replaces its docs.yaml. */
export interface BenchProgram extends PreparedProgram {
  writeStack(stack: StackFile): void;
}

/** The same program precompiled (what `tsc` makes of INDEX_TS), for `typescript: false`. */
const INDEX_JS = `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.siteIds = void 0;
const pulumi_docsplatform_1 = require("pulumi-docsplatform");
const docs = new pulumi_docsplatform_1.DocsPlatform("bench", { file: "docs.yaml" });
exports.siteIds = docs.siteIds;
`;

/** A user's tsconfig.json (as examples/handbook's): what ts-node type-checks with unless transpiling only. */
const TSCONFIG = `{
  "compilerOptions": { "strict": true, "target": "ES2022", "module": "commonjs", "moduleResolution": "node", "skipLibCheck": true, "esModuleInterop": true },
  "files": ["index.ts"]
}
`;

/** The no-code project's package.json: the package's ready-made program is its `main`. */
const NOCODE_PACKAGE_JSON = `${JSON.stringify({ name: "docsplatform-bench", private: true, main: "node_modules/pulumi-docsplatform/dist/provider/program.js" }, null, 2)}\n`;

/** How the program is set up, as a user may set up a large stack's program (see the README's "Large stacks"). */
export interface ProgramSetup {
  /** The no-code project: no program file, the package's own program (`typescript: false`). */
  nocode?: boolean;
  /** Pulumi.yaml `runtime.options.nodeargs`. */
  nodeargs?: string;
  /** false: a precompiled index.js with `typescript: false` (default: index.ts). */
  typescript?: boolean;
  /** Write a tsconfig.json as a user's project has (default: none, ts-node's defaults). */
  tsconfig?: boolean;
}

/** Pulumi.yaml of a setup. */
function pulumiYaml(setup: ProgramSetup): string {
  const options: string[] = [];
  if (isJavaScript(setup)) options.push("    typescript: false");
  if (setup.nodeargs) options.push(`    nodeargs: ${JSON.stringify(setup.nodeargs)}`);
  if (options.length === 0) return PULUMI_YAML;
  return PULUMI_YAML.replace("runtime: nodejs\n", `runtime:\n  name: nodejs\n  options:\n${options.join("\n")}\n`);
}

/** The setup runs JavaScript (`typescript: false`): the no-code project or a precompiled program. */
export function isJavaScript(setup: ProgramSetup): boolean {
  return setup.nocode === true || setup.typescript === false;
}

/** The benchmark's default setup: the no-code project, as the examples are. */
export const DEFAULT_SETUP: ProgramSetup = { nocode: true };

/** Writes the files a generated stack names (its OpenAPI spec files) into a stack file's folder. */
export function writeBenchFiles(dir: string): void {
  for (const [file, text] of Object.entries(BENCH_FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
}

/** Prepares a fresh program folder (packed package installed) holding `stack` as docs.yaml, beside the files it names. */
export async function prepareBenchProgram(stack: StackFile, setup: ProgramSetup = DEFAULT_SETUP): Promise<BenchProgram> {
  const src = path.join(WORK_DIR, "bench-program");
  fs.rmSync(src, { recursive: true, force: true });
  fs.mkdirSync(src, { recursive: true });
  fs.writeFileSync(path.join(src, "Pulumi.yaml"), pulumiYaml(setup));
  if (setup.nocode) fs.writeFileSync(path.join(src, "package.json"), NOCODE_PACKAGE_JSON);
  else if (setup.typescript === false) fs.writeFileSync(path.join(src, "index.js"), INDEX_JS);
  else fs.writeFileSync(path.join(src, "index.ts"), INDEX_TS);
  if (setup.tsconfig) fs.writeFileSync(path.join(src, "tsconfig.json"), TSCONFIG);
  fs.writeFileSync(path.join(src, STACK_FILE), toStackYaml(stack));
  writeBenchFiles(src);
  const prepared = await prepareProgram(src, { installPackage: true });
  return {
    ...prepared,
    writeStack(next: StackFile) {
      fs.writeFileSync(path.join(prepared.dir, STACK_FILE), toStackYaml(next));
    },
  };
}
