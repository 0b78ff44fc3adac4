/**
 * The Node.js the package runs on: it declares what the Pulumi SDK declares, the suite runs on such a
 * Node.js, and the processes the harness starts — the language host and the dynamic-provider plugin —
 * run on the very Node.js that runs the tests (the one first on PATH, as .ci/with-node arranges).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProgramRunner, prepareProgram, REPO_ROOT, type PreparedProgram } from ".";

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as { engines?: { node?: string } };

// A JavaScript program with one inline dynamic resource: its create runs in the plugin.
const PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const probe = new pulumi.dynamic.Resource(
  { async create() { return { id: "probe", outs: { node: process.version, execPath: process.execPath } }; } },
  "probe",
  { node: undefined, execPath: undefined },
);
module.exports = {
  host: { node: process.version, execPath: process.execPath },
  plugin: { node: probe.node, execPath: probe.execPath },
};
`;

describe("Node.js", () => {
  let src: string;
  let program: PreparedProgram;
  let runner: ProgramRunner;

  beforeAll(async () => {
    src = fs.mkdtempSync(path.join(os.tmpdir(), "node-probe-"));
    fs.writeFileSync(path.join(src, "Pulumi.yaml"), "name: nodeprobe\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n");
    fs.writeFileSync(path.join(src, "index.js"), PROGRAM);
    program = await prepareProgram(src);
    runner = new ProgramRunner({ dir: program.dir });
  });
  afterAll(async () => {
    await runner?.close();
    program?.cleanup();
    fs.rmSync(src, { recursive: true, force: true });
  });

  it("the package requires the Node.js the Pulumi SDK requires, and the tests run on one", () => {
    const sdk = readJson(path.join(REPO_ROOT, "node_modules", "@pulumi", "pulumi", "package.json")).engines?.node;
    expect(sdk).toMatch(/^>=\d+$/);
    expect(readJson(path.join(REPO_ROOT, "package.json")).engines?.node).toBe(sdk);
    expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(Number(sdk!.slice(2)));
  });

  it("the language host and the plugin run on the Node.js running the tests", async () => {
    const up = await runner.up();
    const self = { node: process.version, execPath: process.execPath };
    expect(up.outputs).toEqual({ host: self, plugin: self });
  });
});
