/**
 * `npm run package`: the package as a new user installs it, without a registry copy. Builds, packs the
 * checkout into dist/package/pulumi-docsplatform-VERSION.tgz, and writes beside it the `pulumi new`
 * template with that tarball inside and its package.json depending on it by file, so the project
 * `pulumi new dist/package/docs-platform` makes installs the package from its own folder (its own
 * `npm install`, and `npm ci` in the project's CI, need no registry copy of this package). The template
 * ships a `.gitignore` (node_modules/ out, the tarball in), copied as it is: `pulumi new` copies every file
 * of a local template. `--out DIR` writes both into DIR instead of dist/package.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");
const OUT = outDir(process.argv.slice(2));
const TEMPLATE = path.join(ROOT, "templates", "docs-platform");

/** `--out DIR` (relative to the working directory), else dist/package of the checkout. */
function outDir(argv: string[]): string {
  const at = argv.findIndex((a) => a === "--out" || a.startsWith("--out="));
  if (at < 0) {
    if (argv.length > 0) throw new Error(`unknown argument '${argv[0]}'; usage: npm run package [-- --out DIR]`);
    return path.join(ROOT, "dist", "package");
  }
  const value = argv[at] === "--out" ? argv[at + 1] : argv[at]!.slice("--out=".length);
  if (!value || argv.length !== (argv[at] === "--out" ? 2 : 1)) throw new Error("usage: npm run package [-- --out DIR]");
  return path.resolve(value);
}

interface Packed {
  filename: string;
  version: string;
}

/** Packs the built checkout into `OUT` and returns the tarball's path. */
function pack(): { tarball: string; version: string } {
  fs.mkdirSync(OUT, { recursive: true });
  const stdout = execFileSync("npm", ["pack", "--json", "--pack-destination", OUT], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const [info] = JSON.parse(stdout) as Packed[];
  if (!info) throw new Error("npm pack reported no tarball");
  return { tarball: path.join(OUT, info.filename), version: info.version };
}

/** The template folder with the tarball inside and the dependency pointing at it. */
function writeTemplate(tarball: string): string {
  const into = path.join(OUT, "docs-platform");
  fs.rmSync(into, { recursive: true, force: true });
  fs.cpSync(TEMPLATE, into, { recursive: true });
  fs.copyFileSync(tarball, path.join(into, path.basename(tarball)));
  const manifestFile = path.join(into, "package.json");
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as { dependencies: Record<string, string> };
  manifest.dependencies["pulumi-docsplatform"] = `file:${path.basename(tarball)}`;
  fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + "\n");
  return into;
}

const { tarball, version } = pack();
const template = writeTemplate(tarball);
/** A path as short as it reads well: relative to the working directory when inside it, else absolute. */
const rel = (p: string) => {
  const r = path.relative(process.cwd(), p);
  return r === "" ? "." : r.startsWith("..") || path.isAbsolute(r) ? p : r;
};
process.stdout.write(
  `pulumi-docsplatform ${version}\n` +
    `  package:  ${rel(tarball)}\n` +
    `  template: ${rel(template)}\n\n` +
    `A new project:      pulumi new ${rel(template)}\n` +
    `An existing one:    npm install ${tarball}\n`,
);
