// Serialises every kind's provider exactly as `dynamic.Resource` does: each class of the INSTALLED
// package (node_modules/pulumi-docsplatform) is constructed under Pulumi mocks and the `__provider`
// input it registers is captured. Prints `{ "<Kind>": "<provider text>", ... }` as JSON.
"use strict";
const pulumi = require("@pulumi/pulumi");

const captured = {};
pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      captured[args.type] = args.inputs.__provider;
      return { id: `${args.name}-id`, state: {} };
    },
    call: () => ({}),
  },
  "docsplatform-providers",
  "dev",
  false,
);

const pkg = require("pulumi-docsplatform");
for (const kind of pkg.kinds) {
  const Class = pkg[kind.name];
  if (typeof Class !== "function") throw new Error(`the package exports no class named ${kind.name}`);
  new Class(`probe-${kind.name}`, {});
}

const wanted = pkg.kinds.map((k) => `pulumi-nodejs:dynamic/docsplatform:${k.name}`);
const started = Date.now();
(function wait() {
  if (wanted.every((t) => typeof captured[t] === "string")) {
    const out = {};
    for (const k of pkg.kinds) out[k.name] = captured[`pulumi-nodejs:dynamic/docsplatform:${k.name}`];
    process.stdout.write(JSON.stringify(out));
    return;
  }
  if (Date.now() - started > 30000) {
    process.stderr.write(`providers not captured: ${wanted.filter((t) => typeof captured[t] !== "string").join(", ")}\n`);
    process.exit(1);
  }
  setTimeout(wait, 20);
})();
