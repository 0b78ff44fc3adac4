/** A no-code project as users write it: Pulumi.yaml, a package.json whose one dependency is the package, docs.yaml. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** A project folder and the removal of it. */
export interface WrittenProject {
  dir: string;
  cleanup(): void;
}

/**
 * Writes the project `name` (its Pulumi project name, so its URNs' prefix) into a new temporary folder:
 * Pulumi.yaml, package.json, and `files` by their relative path (docs.yaml, a site file, …).
 */
export function writeNoCodeProject(name: string, files: Record<string, string>): WrittenProject {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-project-`));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n`);
  const pkg = { name, private: true, main: "node_modules/pulumi-docsplatform/dist/provider/program.js", dependencies: { "pulumi-docsplatform": "^0.1.0" } };
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
