// Serialises every kind's provider exactly as `dynamic.Resource` does: each class of the INSTALLED
// package (node_modules/pulumi-docsplatform) is constructed under Pulumi mocks and the `__provider`
// input it registers is captured. Prints `{ "<Kind>": "<provider text>", ... }` as JSON.
"use strict";
const { captureProviders, whenCaptured } = require("./capture");

const captured = captureProviders("docsplatform-providers");
const pkg = require("pulumi-docsplatform");
for (const kind of pkg.kinds) {
  const Class = pkg[kind.name];
  if (typeof Class !== "function") throw new Error(`the package exports no class named ${kind.name}`);
  new Class(`probe-${kind.name}`, {});
}

const typeOf = (name) => `pulumi-nodejs:dynamic/docsplatform:${name}`;
whenCaptured(captured, pkg.kinds.map((k) => typeOf(k.name)), () => {
  const out = {};
  for (const k of pkg.kinds) out[k.name] = captured[typeOf(k.name)];
  process.stdout.write(JSON.stringify(out));
});
