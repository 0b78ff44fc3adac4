/**
 * `npm run package`: the package as a new user installs it, without a registry copy. Builds, packs the
 * checkout into dist/package/pulumi-docsplatform-VERSION.tgz, and writes beside it the `pulumi new`
 * template with that tarball inside and its package.json depending on it by file, so the project
 * `pulumi new dist/package/docs-platform` makes installs the package from its own folder (its own
 * `npm install`, and `npm ci` in the project's CI, need no registry copy of this package).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");
const OUT = path.join(ROOT, "dist", "package");
const TEMPLATE = path.join(ROOT, "templates", "docs-platform");

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
const rel = (p: string) => path.relative(process.cwd(), p) || ".";
process.stdout.write(
  `pulumi-docsplatform ${version}\n` +
    `  package:  ${rel(tarball)}\n` +
    `  template: ${rel(template)}\n\n` +
    `A new project:      pulumi new ${rel(template)}\n` +
    `An existing one:    npm install ${tarball}\n`,
);
