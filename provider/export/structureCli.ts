/**
 * `docsplatform site-file docs.yaml [--out DIR] [--dirs key=dir,…] [--site KEY] [--force]`: writes each
 * site's structure, as the stack file declares it, into Git Sync's site-structure file
 * (`DIR/<site key>/gitbook-docs.yaml`), and prints the `structure:` entry that makes docs.yaml read it.
 * Offline. Exit codes: 0 written, 1 a file that does not load or a file in the way, 2 usage.
 *
 * Also the step `export --site-file DIR` takes for each site of a live organisation
 * ({@link writeSiteFiles}).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "yaml";
import { siteModels, type SiteModel } from "../site";
import { formatProblem, loadStackFile } from "../stack/load";
import type { StackFile, StackSite } from "../file/model";
import { STRUCTURE_FIELDS, type StackSiteStructure } from "../stack/structureExpand";
import { parseSiteFile, SITE_FILE_NAME } from "../stack/structureFile";
import { renderSiteFile, siteFileOf, type ContentDirectories } from "./structureWrite";
import { commandMain } from "../commands/command";

const USAGE = `usage: docsplatform site-file <stack.yaml> [--out DIR] [--dirs KEY=DIR,...] [--site KEY] [--force]

Writes each site's sections, section groups, site spaces and external links, as the stack file
declares them, into Git Sync's site-structure file DIR/<site key>/${SITE_FILE_NAME}, and prints
the \`structure:\` entry that makes the stack file read it instead. Keys are the stack file's; what
a site file cannot hold (a section's draft flag, a site space's look override, ...) is listed.

  --out DIR          folder to write into (default: the stack file's folder)
  --dirs KEY=DIR,... the repository folder of each site space's content, by its key
                     (default: ./<the space's key>, one folder per space)
  --site KEY         only this site (default: every site with a structure of its own)
  --force            overwrite site files that exist
`;

/** Where the command writes; tests pass their own. */
export interface SiteFileIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  cwd: string;
}

interface Args {
  stack: string;
  out: string | undefined;
  dirs: Record<string, string>;
  site: string | undefined;
  force: boolean;
}

/** `key=dir,key=dir` as a mapping, or what is wrong with it. */
export function parseDirs(text: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const part of text.split(",").filter((p) => p.trim() !== "")) {
    const eq = part.indexOf("=");
    if (eq <= 0 || eq === part.length - 1) return `--dirs: expected KEY=DIR, got '${part}'`;
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

function parseArgs(argv: string[]): Args | string {
  const positional: string[] = [];
  let out: string | undefined;
  let dirs: Record<string, string> = {};
  let site: string | undefined;
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string | undefined => (arg.startsWith("--") && eq > 0 ? arg.slice(eq + 1) : argv[++i]);
    if (name === "--out") {
      out = value();
      if (!out) return "--out needs a folder";
    } else if (name === "--dirs") {
      const parsed = parseDirs(value() ?? "");
      if (typeof parsed === "string") return parsed;
      dirs = parsed;
    } else if (name === "--site") {
      site = value();
      if (!site) return "--site needs a site's key";
    } else if (name === "--force") {
      force = true;
    } else if (arg.startsWith("-")) {
      return `unknown option '${arg}'`;
    } else {
      positional.push(arg);
    }
  }
  if (positional.length !== 1) return "give one stack file";
  return { stack: positional[0]!, out, dirs, site, force };
}

/** One site file to write: where, its text, the `structure:` entry for the site and the notes. */
export interface PlannedSiteFile {
  site: string;
  file: string;
  text: string;
  structure: StackSiteStructure;
  notes: string[];
}

/**
 * The site files of a stack's sites with a structure of their own, each `outDir/<site key>/gitbook-docs.yaml`,
 * with `structure.file` relative to `stackDir`. Each written file is read back as `pulumi up` will read it:
 * one that does not is a defect, thrown.
 */
export function planSiteFiles(stack: StackFile, opts: { outDir: string; stackDir: string; dirs: ContentDirectories; site?: string; header: readonly string[] }): PlannedSiteFile[] {
  const models = siteModels(stack).filter((m) => (opts.site === undefined ? hasStructure(m) : m.key === opts.site));
  return models.map((model) => {
    const written = siteFileOf(model, opts.dirs);
    const file = path.join(opts.outDir, model.key, SITE_FILE_NAME);
    const text = renderSiteFile(written, opts.header);
    const check = parseSiteFile(text, file);
    if (!check.ok) throw new Error(`the site file written for site ${JSON.stringify(model.key)} does not validate:\n${check.problems.map(formatProblem).join("\n")}`);
    const rel = path.relative(opts.stackDir, file).split(path.sep).join("/");
    return { site: model.key, file, text, structure: { file: rel, ...written.structure }, notes: written.notes };
  });
}

function hasStructure(m: SiteModel): boolean {
  return m.sections.length > 0 || m.rootSiteSpaces.length > 0 || m.groups.length > 0 || m.links.length > 0;
}

/** A site entry that reads its structure from its site file: the inline structure replaced by `structure`. */
export function withStructure(site: StackSite, structure: StackSiteStructure): StackSite {
  const out = { ...site } as Record<string, unknown>;
  for (const f of STRUCTURE_FIELDS) delete out[f];
  const entries = Object.entries(out);
  // `structure` where the stack schema puts it: after the key and title, before the rest.
  const at = Math.max(1, entries.findIndex(([k]) => k === "title") + 1);
  return Object.fromEntries([...entries.slice(0, at), ["structure", structure], ...entries.slice(at)]) as unknown as StackSite;
}

/** Writes each planned file (atomically), refusing to overwrite one unless `force`. Returns the files in the way. */
export function writeSiteFiles(planned: readonly PlannedSiteFile[], force: boolean): string[] {
  const inTheWay = force ? [] : planned.filter((p) => fs.existsSync(p.file)).map((p) => p.file);
  if (inTheWay.length > 0) return inTheWay;
  for (const p of planned) {
    fs.mkdirSync(path.dirname(p.file), { recursive: true });
    const tmp = `${p.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, p.text);
    fs.renameSync(tmp, p.file);
  }
  return [];
}

/** Runs the command; resolves to its exit code. */
export async function siteFileMain(argv: string[], io: Partial<SiteFileIo> = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const cwd = io.cwd ?? process.cwd();
  return commandMain(argv, { stdout, stderr }, { name: "site-file", usage: USAGE, parse: parseArgs, run: async (args) => writeStackSiteFiles(args, { stdout, stderr, cwd }) });
}

/** The command's work, its arguments parsed. */
function writeStackSiteFiles(args: Args, { stdout, stderr, cwd }: SiteFileIo): number {
  const stackFile = path.resolve(cwd, args.stack);
  const loaded = loadStackFile(stackFile);
  if (!loaded.ok) {
    for (const p of loaded.problems) stderr.write(`${formatProblem({ ...p, file: path.relative(cwd, p.file) || p.file })}\n`);
    return 1;
  }
  const stackDir = path.dirname(stackFile);
  const outDir = path.resolve(cwd, args.out ?? stackDir);
  if (args.site !== undefined && !(loaded.stack.sites ?? []).some((s) => s.key === args.site)) {
    stderr.write(`docsplatform site-file: no site with key '${args.site}' in ${args.stack}\n`);
    return 1;
  }
  const planned = planSiteFiles(loaded.stack, {
    outDir,
    stackDir,
    dirs: args.dirs,
    ...(args.site === undefined ? {} : { site: args.site }),
    header: [`Written by docsplatform site-file from ${path.basename(stackFile)}: the site's structure, for Git Sync and for the site's structure: {file: ...}.`],
  });
  const inTheWay = writeSiteFiles(planned, args.force);
  if (inTheWay.length > 0) {
    stderr.write(`docsplatform site-file: ${inTheWay.map((f) => path.relative(cwd, f)).join(", ")} exist${inTheWay.length === 1 ? "s" : ""}; pass --force to overwrite\n`);
    return 1;
  }
  for (const p of planned) {
    for (const note of p.notes) stderr.write(`site-file: note: ${note}\n`);
    stdout.write(`wrote ${path.relative(cwd, p.file)}; in ${args.stack}, site ${p.site} reads it with (in place of its sections, sectionGroups, siteSpaces and defaults):\n`);
    stdout.write(indent(stringify({ structure: p.structure }, { lineWidth: 0 }), "    "));
  }
  if (planned.length === 0) stderr.write(`site-file: no site of ${args.stack} declares a structure of its own; nothing written\n`);
  return 0;
}

function indent(text: string, by: string): string {
  return text
    .split("\n")
    .map((l) => (l === "" ? l : `${by}${l}`))
    .join("\n");
}
