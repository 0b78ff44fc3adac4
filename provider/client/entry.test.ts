import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The package's entry points as users resolve them (Node's own resolver, through `exports`, on the built dist/).
const root = resolve(__dirname, "../..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  name: string;
  main: string;
  types: string;
  exports: Record<string, string | Record<string, string>>;
  typesVersions: Record<string, Record<string, string[]>>;
};
const req = createRequire(join(root, "package.json"));

describe("package entry points", () => {
  it("`pulumi-docsplatform/client` is the typed client, with its declarations", () => {
    expect(req.resolve(`${pkg.name}/client`)).toBe(join(root, "dist/provider/client/index.js"));
    const client = req(`${pkg.name}/client`) as Record<string, unknown>;
    expect(typeof client.ApiClient).toBe("function");
    expect(typeof client.isOutcomeUnknown).toBe("function");
    const types = (pkg.exports["./client"] as Record<string, string>).types!;
    expect(existsSync(join(root, types))).toBe(true);
    expect(pkg.typesVersions["*"]!.client).toEqual([types.replace(/^\.\//, "")]);
  });

  it("keeps `.`, main, types, the emulator, schemas and deep dist/ paths working", () => {
    expect(req.resolve(pkg.name)).toBe(join(root, pkg.main));
    expect((pkg.exports["."] as Record<string, string>).types).toBe(`./${pkg.types}`);
    expect(req.resolve(`${pkg.name}/emulator`)).toBe(join(root, "dist/emulator/index.js"));
    expect(req.resolve(`${pkg.name}/schemas/stack.schema.json`)).toBe(join(root, "schemas/stack.schema.json"));
    expect(req.resolve(`${pkg.name}/dist/provider/providers/site.js`)).toBe(join(root, "dist/provider/providers/site.js"));
  });

  it("loads neither Pulumi nor the emulator through the client entry point", () => {
    const loaded = execFileSync(process.execPath, ["-e", `require(${JSON.stringify(`${pkg.name}/client`)}); console.log(JSON.stringify(Object.keys(require.cache)))`], { cwd: root, encoding: "utf8" });
    const files = JSON.parse(loaded) as string[];
    expect(files.filter((f) => f.includes("@pulumi") || f.includes("fastify") || f.includes(`${join("dist", "emulator")}`))).toEqual([]);
  });

  it("leaves the serialised providers' require() text unchanged: each provider module maps back to itself", () => {
    // The closure serialiser maps a module file to an export of its package; a provider must stay
    // `require("pulumi-docsplatform/dist/provider/providers/<kind>.js")` so old states keep their text.
    const { getModuleFromPath } = req("@pulumi/pulumi/runtime/closure/package.js") as { getModuleFromPath: (p: string, def: unknown) => string };
    const providers = readdirSync(join(root, "dist/provider/providers")).filter((f) => f.endsWith(".js"));
    expect(providers.length).toBeGreaterThan(10);
    for (const file of providers) {
      const module = `${pkg.name}/dist/provider/providers/${file}`;
      expect(getModuleFromPath(module, pkg)).toBe(module);
    }
    expect(getModuleFromPath(`${pkg.name}/dist/provider/client/index.js`, pkg)).toBe(`${pkg.name}/client`);
  });
});
