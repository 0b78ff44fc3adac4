// Loads provider texts the way the dynamic-provider plugin does (require-from-string of the text,
// then `.handler()`, from the program folder), configures each with namespaced config, and makes
// one real call against the API: `read` of an object that does not exist, which must answer "gone".
// Input (stdin): { texts: {Kind: text}, config: {key: value}, states: {Kind: state} }.
// Prints { "<Kind>": { id, error? } } as JSON.
"use strict";
const path = require("node:path");
const sdkDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const requireFromString = require(require.resolve("require-from-string", { paths: [sdkDir] }));

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", async () => {
  const { texts, config, states } = JSON.parse(input);
  const out = {};
  for (const [kind, text] of Object.entries(texts)) {
    try {
      const provider = requireFromString(text).handler();
      await provider.configure({ config: { get: (k) => config[k], require: (k) => config[k] } });
      const result = await provider.read(`missing-${kind.toLowerCase()}`, states[kind] ?? {});
      out[kind] = { id: result.id };
    } catch (e) {
      out[kind] = { id: null, error: String(e && e.message ? e.message : e) };
    }
  }
  process.stdout.write(JSON.stringify(out));
});
