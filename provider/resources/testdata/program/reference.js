// The texts `pulumi.dynamic.Resource` itself registers for each kind's shim of the INSTALLED package
// (node_modules/pulumi-docsplatform/dist/provider/providers/<kind>.js), constructed under Pulumi mocks,
// and whether each of the package's classes makes a `dynamic.Resource`. Prints
// `{ "texts": { "<Kind>": "<provider text>", ... }, "dynamic": { "<Kind>": true, ... }, "serialisations": n }`
// as JSON, where n counts the classes' own calls of the SDK's closure serialiser. With the argument
// `--sdk-without-module-mapping`, the SDK's runtime/closure/package module is replaced by one without
// `getModuleFromPath`, as an SDK that does not have it would be.
"use strict";
const Module = require("module");
const pulumi = require("@pulumi/pulumi");
const { captureProviders, whenCaptured } = require("./capture");

if (process.argv.includes("--sdk-without-module-mapping")) {
  const file = require.resolve("@pulumi/pulumi/runtime/closure/package");
  const stand = new Module(file);
  stand.filename = file;
  stand.loaded = true;
  stand.exports = {};
  require.cache[file] = stand;
}

let serialisations = 0;
const serializeFunction = pulumi.runtime.serializeFunction;
pulumi.runtime.serializeFunction = (...args) => {
  serialisations++;
  return serializeFunction(...args);
};

const captured = captureProviders("docsplatform-reference");
const pkg = require("pulumi-docsplatform");
const fileOf = (name) => {
  const n = name.replace(/API/g, "Api");
  return n.charAt(0).toLowerCase() + n.slice(1);
};
const dynamic = {};
for (const kind of pkg.kinds) {
  const provider = require(`pulumi-docsplatform/dist/provider/providers/${fileOf(kind.name)}.js`);
  new pulumi.dynamic.Resource(provider, `reference-${kind.name}`, {}, undefined, "reference", kind.name);
  dynamic[kind.name] = new pkg[kind.name](`probe-${kind.name}`, {}) instanceof pulumi.dynamic.Resource;
}

const typeOf = (name) => `pulumi-nodejs:dynamic/reference:${name}`;
whenCaptured(captured, pkg.kinds.map((k) => typeOf(k.name)), () => {
  const texts = {};
  for (const k of pkg.kinds) texts[k.name] = captured[typeOf(k.name)];
  process.stdout.write(JSON.stringify({ texts, dynamic, serialisations }));
});
