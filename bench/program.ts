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

/** Prepares a fresh program folder (packed package installed) holding `stack` as docs.yaml. */
export async function prepareBenchProgram(stack: StackFile): Promise<BenchProgram> {
  const src = path.join(WORK_DIR, "bench-program");
  fs.mkdirSync(src, { recursive: true });
  fs.writeFileSync(path.join(src, "Pulumi.yaml"), PULUMI_YAML);
  fs.writeFileSync(path.join(src, "index.ts"), INDEX_TS);
  fs.writeFileSync(path.join(src, STACK_FILE), toStackYaml(stack));
  const prepared = await prepareProgram(src, { installPackage: true });
  return {
    ...prepared,
    writeStack(next: StackFile) {
      fs.writeFileSync(path.join(prepared.dir, STACK_FILE), toStackYaml(next));
    },
  };
}
