/**
 * The floor: what any dynamic provider costs under this SDK for the same stack. A program that replays
 * the stack-file program's registrations — the same resources (type tokens, names, parents, so the same
 * URNs), the same input properties each (exactly those the component sent), the same dependencies —
 * against a dynamic provider that does nothing (no API call, no check, no diff: the engine compares
 * inputs) installed under the program's node_modules, so it serialises as a `require` as ours does.
 * Run through the same harness, with a fresh plugin per command, in the same run as the provider.
 *
 * The component's own work (loading and validating the stack file, the output slots of its classes,
 * its stack outputs) is not in the floor: that is the part that is ours.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { type PreparedProgram, type Registration, REPO_ROOT, WORK_DIR, prepareProgram } from "../test/harness";
import type { FloorRegistration } from "./floorRegistration";

export type { FloorRegistration };

/** Name of the do-nothing provider package inside the floor program's node_modules. */
export const NULL_PROVIDER = "docsplatform-null-provider";

/** Collects a run's registrations (pass `record` as the run's `onRegister`; `done()` once the run ended). */
export class RegistrationRecorder {
  private readonly entries: { reg: Registration; urn: Promise<string> }[] = [];
  readonly record = (reg: Registration, urn: Promise<string>): void => {
    this.entries.push({ reg, urn });
  };

  /** The registrations in the order the program sent them (the stack resource left out: the runtime makes it). */
  async done(): Promise<FloorRegistration[]> {
    const out: FloorRegistration[] = [];
    for (const { reg, urn } of this.entries) {
      if (reg.type === "pulumi:pulumi:Stack") continue;
      const props = { ...reg.object } as Record<string, unknown>;
      delete props["__provider"];
      out.push({
        type: reg.type,
        name: reg.name,
        parent: reg.parent,
        custom: reg.custom,
        props,
        propertyDependencies: Object.fromEntries(Object.entries(reg.propertyDependencies).filter(([, v]) => v.length > 0)),
        dependencies: reg.dependencies,
        ignoreChanges: reg.ignoreChanges,
        additionalSecretOutputs: reg.additionalSecretOutputs,
        aliasUrns: reg.aliasUrns,
        urn: await urn,
      });
    }
    return out;
  }
}

const PULUMI_YAML = `name: docsplatform-bench
runtime: nodejs
description: Benchmark floor - the stack-file program's registrations replayed against a do-nothing dynamic provider.
`;

/** The do-nothing provider: its whole module.exports is the provider, as our shims are. */
const NULL_PROVIDER_JS = `"use strict";
let next = 0;
const stamp = Date.now().toString(36);
module.exports = {
  async create(inputs) {
    return { id: "null-" + stamp + "-" + next++, outs: inputs };
  },
  async read(id, props) {
    return { id, props };
  },
  async update(id, olds, news) {
    return { outs: news };
  },
  async delete() {},
};
`;

/**
 * The replaying program. Dynamic resources of type \`pulumi-nodejs:dynamic/<module>:<type>\` are declared as
 * \`dynamic.Resource\` with that module and type; components as \`ComponentResource\`s with the recorded
 * props. A value that came from other resources' outputs becomes an Output of theirs resolving to the
 * recorded value, so the engine sees the same dependency graph.
 */
const INDEX_TS = `import * as fs from "fs";
import * as pulumi from "@pulumi/pulumi";

import type { FloorRegistration as Reg } from "./registration";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const provider: pulumi.dynamic.ResourceProvider = require("${NULL_PROVIDER}");

const DYNAMIC = "pulumi-nodejs:dynamic/";
const regs: Reg[] = JSON.parse(fs.readFileSync("registrations.json", "utf8"));
const byUrn = new Map<string, pulumi.Resource>();
const idOf = (r: pulumi.Resource): pulumi.Output<string> => (r instanceof pulumi.CustomResource ? r.id : r.urn);

for (const reg of regs) {
  const parent = reg.parent === "" ? undefined : byUrn.get(reg.parent);
  const props: Record<string, unknown> = { ...reg.props };
  const fromProps = new Set<string>();
  for (const [key, urns] of Object.entries(reg.propertyDependencies)) {
    const deps = urns.map((u) => byUrn.get(u)).filter((r): r is pulumi.Resource => r !== undefined);
    if (deps.length === 0) continue;
    urns.forEach((u) => fromProps.add(u));
    const value = reg.props[key];
    props[key] = pulumi.all(deps.map(idOf)).apply(() => value);
  }
  const dependsOn = reg.dependencies
    .filter((u) => !fromProps.has(u) && u !== reg.parent)
    .map((u) => byUrn.get(u))
    .filter((r): r is pulumi.Resource => r !== undefined);
  const opts: pulumi.CustomResourceOptions = {
    ...(parent ? { parent } : {}),
    ...(dependsOn.length > 0 ? { dependsOn } : {}),
    ...(reg.ignoreChanges.length > 0 ? { ignoreChanges: reg.ignoreChanges } : {}),
    ...(reg.additionalSecretOutputs.length > 0 ? { additionalSecretOutputs: reg.additionalSecretOutputs } : {}),
    ...(reg.aliasUrns.length > 0 ? { aliases: reg.aliasUrns } : {}),
  };
  let resource: pulumi.Resource;
  if (reg.custom && reg.type.startsWith(DYNAMIC)) {
    const [mod, type] = reg.type.slice(DYNAMIC.length).split(":");
    resource = new pulumi.dynamic.Resource(provider, reg.name, props, opts, mod, type);
  } else {
    resource = new pulumi.ComponentResource(reg.type, reg.name, props, opts);
  }
  byUrn.set(reg.urn, resource);
}
`;

/**
 * The replaying program as JavaScript (what \`tsc\` makes of INDEX_TS), for a floor run as a JavaScript
 * program (\`typescript: false\`) beside the no-code project or a precompiled program: both sides then
 * start their language host the same way.
 */
function indexJs(): string {
  return ts.transpileModule(INDEX_TS, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
}

/** A prepared floor program; `writeRegistrations` replaces what it replays. */
export interface FloorProgram extends PreparedProgram {
  writeRegistrations(regs: readonly FloorRegistration[]): void;
}

/**
 * Prepares a floor program folder with the do-nothing provider installed under node_modules: TypeScript
 * (index.ts, as the CLI runs a program of one's own) or, with `javascript`, index.js and `typescript: false`.
 */
export async function prepareFloorProgram(opts: { javascript?: boolean } = {}): Promise<FloorProgram> {
  const src = path.join(WORK_DIR, opts.javascript ? "bench-floor-js" : "bench-floor");
  fs.rmSync(src, { recursive: true, force: true });
  fs.mkdirSync(src, { recursive: true });
  if (opts.javascript) {
    fs.writeFileSync(path.join(src, "Pulumi.yaml"), PULUMI_YAML.replace("runtime: nodejs\n", "runtime:\n  name: nodejs\n  options:\n    typescript: false\n"));
    fs.writeFileSync(path.join(src, "index.js"), indexJs());
  } else {
    fs.writeFileSync(path.join(src, "Pulumi.yaml"), PULUMI_YAML);
    fs.writeFileSync(path.join(src, "index.ts"), INDEX_TS);
    // The recorded form, declared once (bench/floorRegistration.ts); a type-only import, so the program loads nothing more.
    fs.copyFileSync(path.join(REPO_ROOT, "bench", "floorRegistration.ts"), path.join(src, "registration.ts"));
  }
  fs.writeFileSync(path.join(src, "registrations.json"), "[]\n");
  const prepared = await prepareProgram(src);
  const pkg = path.join(prepared.dir, "node_modules", NULL_PROVIDER);
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: NULL_PROVIDER, version: "1.0.0", main: "index.js" }) + "\n");
  fs.writeFileSync(path.join(pkg, "index.js"), NULL_PROVIDER_JS);
  return {
    ...prepared,
    writeRegistrations(regs) {
      fs.writeFileSync(path.join(prepared.dir, "registrations.json"), JSON.stringify(regs));
    },
  };
}
