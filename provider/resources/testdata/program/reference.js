// The texts `pulumi.dynamic.Resource` itself registers for each kind's shim of the INSTALLED package
// (node_modules/pulumi-docsplatform/dist/provider/providers/<kind>.js), constructed under Pulumi mocks,
// and whether each of the package's classes makes a `dynamic.Resource`. Prints
// `{ "texts": { "<Kind>": "<provider text>", ... }, "dynamic": { "<Kind>": true, ... }, "serialisations": n }`
// as JSON, where n counts the classes' own calls of the SDK's closure serialiser. With the argument
// `--sdk-without-module-mapping`, the SDK's runtime/closure/package module is replaced by one without
// `getModuleFromPath`, as an SDK that does not have it would be.
"use strict";
const pulumi = require("@pulumi/pulumi");
const Module = require("module");

if (process.argv.includes("--sdk-without-module-mapping")) {
  const file = require.resolve("@pulumi/pulumi/runtime/closure/package");
  const stand = new Module(file);
  stand.filename = file;
  stand.loaded = true;
  stand.exports = {};
  require.cache[file] = stand;
}

const captured = {};
pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      captured[args.type] = args.inputs.__provider;
      return { id: `${args.name}-id`, state: {} };
    },
    call: () => ({}),
  },
  "docsplatform-reference",
  "dev",
  false,
);

let serialisations = 0;
const serializeFunction = pulumi.runtime.serializeFunction;
pulumi.runtime.serializeFunction = (...args) => {
  serialisations++;
  return serializeFunction(...args);
};

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

const wanted = pkg.kinds.map((k) => `pulumi-nodejs:dynamic/reference:${k.name}`);
const started = Date.now();
(function wait() {
  if (wanted.every((t) => typeof captured[t] === "string")) {
    const texts = {};
    for (const k of pkg.kinds) texts[k.name] = captured[`pulumi-nodejs:dynamic/reference:${k.name}`];
    process.stdout.write(JSON.stringify({ texts, dynamic, serialisations }));
    return;
  }
  if (Date.now() - started > 30000) {
    process.stderr.write(`providers not captured: ${wanted.filter((t) => typeof captured[t] !== "string").join(", ")}\n`);
    process.exit(1);
  }
  setTimeout(wait, 20);
})();
