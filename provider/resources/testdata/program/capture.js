// Pulumi mocks that keep the `__provider` input each registered resource carries, by resource type,
// and a wait until the given types have one (the SDK resolves that input asynchronously).
"use strict";
const pulumi = require("@pulumi/pulumi");

/** Installs the mocks for `project`; returns the map they fill: resource type → provider text. */
exports.captureProviders = function captureProviders(project) {
  const captured = {};
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        captured[args.type] = args.inputs.__provider;
        return { id: `${args.name}-id`, state: {} };
      },
      call: () => ({}),
    },
    project,
    "dev",
    false,
  );
  return captured;
};

/** Calls `done` once every type of `types` has its text in `captured`; exits 1 after 30 s. */
exports.whenCaptured = function whenCaptured(captured, types, done) {
  const started = Date.now();
  (function wait() {
    if (types.every((t) => typeof captured[t] === "string")) return done();
    if (Date.now() - started > 30000) {
      process.stderr.write(`providers not captured: ${types.filter((t) => typeof captured[t] !== "string").join(", ")}\n`);
      process.exit(1);
    }
    setTimeout(wait, 20);
  })();
};
