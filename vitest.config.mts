import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import LongestFirst from "./test/sequencer";

// Forks, not threads: the Pulumi SDK and the dynamic-provider plugin keep process-wide state,
// and closure serialisation breaks under a worker-thread module transform.
export default defineConfig({
  test: {
    pool: "forks",
    // Two files at a time on two cores (vitest's default is one fewer than the cores): most files spend their
    // time waiting on the processes they drive (the Pulumi CLI, the language host, the plugin, the emulator).
    maxWorkers: 2,
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "dist/**", ".work/**", "examples/**/node_modules/**"],
    // Node's on-disk compile cache for every process the tests start (language hosts, plugins, the Pulumi CLI's
    // node processes): each loads @pulumi/pulumi, gRPC, the TypeScript compiler (the SDK's closure code loads
    // it) and npm's arborist afresh, and compiling them was a third of a plugin's start. Unless set already.
    env: process.env["NODE_COMPILE_CACHE"] === undefined ? { NODE_COMPILE_CACHE: fileURLToPath(new URL(".work/compile-cache", import.meta.url)) } : {},
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Longest files first, by the durations a whole run recorded (test/sequencer.ts): the run then ends on short files.
    sequence: { sequencer: LongestFirst },
    // Collects what the reliability suite proved and prints its summary table at the end of the run.
    globalSetup: ["test/reliability/globalSetup.ts"],
    // The default report, and the fifteen slowest files at its end (the suite's slow tail, in every CI log).
    reporters: ["default", "./test/slowest.ts"],
  },
});
