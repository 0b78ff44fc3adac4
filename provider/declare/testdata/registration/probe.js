// Constructs a DocsPlatform of the INSTALLED package (node_modules/pulumi-docsplatform) under Pulumi mocks, with a stand-in for ts-node's
// source-map-support installed as Error.prepareStackTrace, and prints as JSON what registration.test.ts
// compares between DOCSPLATFORM_QUIET_PROMISE_STACKS=0 and the default: the stack of an error thrown by user
// code running inside the component's declaration (a transformation) and of one thrown outside it, the
// source positions the SDK reads while declaring, a promise stack captured inside, the props each resource
// registered and the keys the component's resources expose. Run in a prepared copy of this folder.
"use strict";
const pulumi = require("@pulumi/pulumi");
const { debuggablePromise } = require("@pulumi/pulumi/runtime/debuggable");

const registered = {};
pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      registered[`${args.name} ${args.type.slice(args.type.lastIndexOf(":") + 1)}`] = args.inputs;
      return { id: `${args.name}-id`, state: args.inputs };
    },
    call: () => ({}),
  },
  "probe",
  "dev",
  false,
);

const installed = (error, frames) => `MAPPED ${String(error)}${frames.map((f) => `\n    at ${f}`).join("")}`;
Error.prepareStackTrace = installed;
const { DocsPlatform } = require("pulumi-docsplatform");

function userCode(type) {
  throw new Error(`user error at ${type}`);
}

const out = {};
const inside = {};
// User code the SDK runs synchronously inside the declaration: a resource transformation.
const probe = (args) => {
  if (args.type.endsWith(":SiteSpace") && inside.callsites === undefined) {
    inside.callsites = pulumi.Resource.callsites().map((c) => `${c.file ?? ""}:${c.line ?? ""}:${c.column ?? ""}`);
    const p = Promise.resolve();
    debuggablePromise(p, "probe");
    inside.promiseStack = p._debugStackTrace;
    inside.formatter = Error.prepareStackTrace === installed ? "installed" : "other";
  }
  return undefined;
};
const docs = new DocsPlatform("docs", { file: "docs.yaml" }, { transformations: [probe] });
out.inside = inside;
out.restored = Error.prepareStackTrace === installed;

try {
  new DocsPlatform("failing", { file: "docs.yaml" }, { transformations: [(args) => (args.type.endsWith(":SiteSpace") ? userCode(args.type) : undefined)] });
} catch (e) {
  out.errorInside = e.stack;
}
out.restoredAfterThrow = Error.prepareStackTrace === installed;
try {
  userCode("outside");
} catch (e) {
  out.errorOutside = e.stack;
}

const site = docs.resources.sites.handbook.site;
out.siteKeys = Object.keys(site).filter((k) => pulumi.Output.isInstance(site[k])).sort();
const section = docs.resources.sites.handbook.sections.guides;
out.sectionKeys = Object.keys(section).filter((k) => pulumi.Output.isInstance(section[k])).sort();

// Every resource of docs.yaml: a team, a site, a section, two site spaces, a share link, the order.
const EXPECTED = 7;
const started = Date.now();
(function wait() {
  const names = Object.keys(registered).filter((name) => name.startsWith("docs/"));
  if (names.length < EXPECTED && Date.now() - started < 60000) return void setTimeout(wait, 50);
  out.registered = Object.fromEntries(
    Object.entries(registered)
      .filter(([name]) => name.startsWith("docs/"))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, inputs]) => [name, Object.fromEntries(Object.entries(inputs).filter(([k]) => k !== "__provider").sort())]),
  );
  process.stdout.write(JSON.stringify(out));
})();
