/**
 * The Pulumi program the benchmark runs: the same shape as examples/handbook — a folder with Pulumi.yaml
 * and an index.ts that constructs the stack-file component from docs.yaml — prepared with the harness's
 * `prepareProgram`, which installs the packed package into the folder's node_modules as users get it.
 *
 * The program's sources are written at run time rather than kept under bench/: tsc compiles bench/**,
 * and `pulumi-docsplatform` only resolves inside a prepared folder.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { type PreparedProgram, WORK_DIR, prepareProgram } from "../test/harness";
import type { StackFile } from "../provider/stack/model";
import { toStackYaml } from "./generate";

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

/** How the program is set up, as a user may set up a large stack's program (see the README's "Large stacks"). */
export interface ProgramSetup {
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
  if (setup.typescript === false) options.push("    typescript: false");
  if (setup.nodeargs) options.push(`    nodeargs: ${JSON.stringify(setup.nodeargs)}`);
  if (options.length === 0) return PULUMI_YAML;
  return PULUMI_YAML.replace("runtime: nodejs\n", `runtime:\n  name: nodejs\n  options:\n${options.join("\n")}\n`);
}

/** Prepares a fresh program folder (packed package installed) holding `stack` as docs.yaml. */
export async function prepareBenchProgram(stack: StackFile, setup: ProgramSetup = {}): Promise<BenchProgram> {
  const src = path.join(WORK_DIR, "bench-program");
  fs.rmSync(src, { recursive: true, force: true });
  fs.mkdirSync(src, { recursive: true });
  fs.writeFileSync(path.join(src, "Pulumi.yaml"), pulumiYaml(setup));
  if (setup.typescript === false) fs.writeFileSync(path.join(src, "index.js"), INDEX_JS);
  else fs.writeFileSync(path.join(src, "index.ts"), INDEX_TS);
  if (setup.tsconfig) fs.writeFileSync(path.join(src, "tsconfig.json"), TSCONFIG);
  fs.writeFileSync(path.join(src, STACK_FILE), toStackYaml(stack));
  const prepared = await prepareProgram(src, { installPackage: true });
  return {
    ...prepared,
    writeStack(next: StackFile) {
      fs.writeFileSync(path.join(prepared.dir, STACK_FILE), toStackYaml(next));
    },
  };
}
