/**
 * `docsplatform export --org <organizationId> [--out FILE] [--force]`: writes a stack file that adopts an
 * organisation's live objects. Token and URL come from DOCSPLATFORM_API_TOKEN and DOCSPLATFORM_API_URL,
 * read as the provider reads them (env.ts `connectionSettings`; this command reads no Pulumi config).
 * Exit codes: 0 written, 1 error, 2 usage.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ApiClient } from "../client";
import { clientTuningFromEnv, commandConnection } from "../env";
import { formatProblem, parseStack } from "../stack/load";
import { objectSummary } from "../stack/summary";
import type { StackFile, StackSite } from "../file/model";
import { ExportError, explainApiError, exportOrganization, type ExportProgress } from "./export";
import { renderStackFile, schemaPathFor } from "./render";
import { parseDirs, planSiteFiles, withStructure, writeSiteFiles, type PlannedSiteFile } from "./structureCli";
import type { SiteFileReader } from "../stack/structureExpand";
import { commandMain } from "../commands/command";

const USAGE = `usage: docsplatform export --org <organizationId> [--caller USER] [--out FILE] [--site-file DIR] [--dirs KEY=DIR,...] [--force]

Reads the organisation's live sites, teams, SSO, specs, collections, spaces, settings, member roles
and translation settings and writes a stack file whose objects are all marked \`adopt: true\`.

  --org ID        organisation to export (required)
  --caller USER   the user the API token acts as (e-mail address or user ID), written as the file's
                  \`caller:\` so the lock-out guard keeps your access (the API does not say whose token
                  it is); without it the file says to add it
  --out FILE      file to write (default: standard output)
  --site-file DIR write each site's sections, groups, site spaces and links as Git Sync's site file,
                  DIR/<site key>/gitbook-docs.yaml, which the stack file's sites then read
                  (structure: {file: ...}); what a site file cannot hold is listed
  --dirs KEY=DIR,... with --site-file: the repository folder of each site space's content, by key
                  (default: ./<the space's key>, one folder per space)
  --force         overwrite FILE (and the site files) if they exist

environment: DOCSPLATFORM_API_TOKEN (the API token), DOCSPLATFORM_API_URL (the API's base URL)
`;

/** Where the command writes and what it reads; tests pass their own. */
export interface ExportIo {
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  cwd: string;
  now: () => Date;
  /** Least time between two progress lines (default 1000 ms). */
  progressIntervalMs: number;
  /** The file standard output is redirected to, if any (default: asked of the system). */
  stdoutFile: () => string | undefined;
}

interface Args {
  org: string;
  out: string | undefined;
  force: boolean;
  caller: string | undefined;
  /** The folder of the site files (`--site-file`), if asked for. */
  siteFile: string | undefined;
  dirs: Record<string, string>;
}

function parseArgs(argv: string[]): Args | string {
  let org: string | undefined;
  let out: string | undefined;
  let force = false;
  let caller: string | undefined;
  let siteFile: string | undefined;
  let dirs: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = arg.startsWith("--") && eq > 0 ? arg.slice(eq + 1) : undefined;
    const value = (): string | undefined => inline ?? argv[++i];
    switch (name) {
      case "--org":
        org = value();
        if (!org) return "--org needs an organization ID";
        break;
      case "--out":
      case "-o":
        out = value();
        if (!out) return "--out needs a file name";
        break;
      case "--force":
        force = true;
        break;
      case "--caller":
        caller = value();
        if (!caller) return "--caller needs the user the API token acts as (an e-mail address or a user ID)";
        break;
      case "--site-file":
        siteFile = value();
        if (!siteFile) return "--site-file needs the folder to write the site files into";
        break;
      case "--dirs": {
        const parsed = parseDirs(value() ?? "");
        if (typeof parsed === "string") return parsed;
        dirs = parsed;
        break;
      }
      default:
        return `unknown argument '${arg}'`;
    }
  }
  if (org === undefined) return "--org is required";
  if (Object.keys(dirs).length > 0 && siteFile === undefined) return "--dirs goes with --site-file";
  return { org, out: out === "-" ? undefined : out, force, caller, siteFile, dirs };
}

/** Progress on stderr at most once per interval (rewritten in place on a terminal). */
function progressReporter(stderr: ExportIo["stderr"], intervalMs: number): { update(p: ExportProgress): void; done(): void } {
  let last = Date.now();
  let shown = false;
  const line = (p: ExportProgress): string => `export: ${p.objects} objects read, ${p.requests} requests`;
  return {
    update(p) {
      const now = Date.now();
      if (now - last < intervalMs) return;
      last = now;
      shown = true;
      stderr.write(stderr.isTTY ? `\r${line(p)}` : `${line(p)}\n`);
    },
    done() {
      if (shown && stderr.isTTY) stderr.write("\n");
    },
  };
}

/** The command's quoted argv, for the header of the file. */
function commandLine(args: Args): string {
  const quote = (s: string): string => (/^[\w./@:=+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return [
    "docsplatform",
    "export",
    "--org",
    quote(args.org),
    ...(args.caller ? ["--caller", quote(args.caller)] : []),
    ...(args.out ? ["--out", quote(args.out)] : []),
    ...(args.siteFile ? ["--site-file", quote(args.siteFile)] : []),
  ].join(" ");
}

/** Runs the command; resolves to its exit code. */
export async function exportMain(argv: string[], io: Partial<ExportIo> = {}): Promise<number> {
  const env = io.env ?? process.env;
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const cwd = io.cwd ?? process.cwd();
  return commandMain(argv, { stdout, stderr }, { name: "export", usage: USAGE, parse: parseArgs, run: (args) => exportTo(args, { ...io, env, stdout, stderr, cwd }) });
}

/** The command's work, its arguments parsed. */
async function exportTo(args: Args, io: Partial<ExportIo> & Pick<ExportIo, "env" | "stdout" | "stderr" | "cwd">): Promise<number> {
  const { env, stdout, stderr, cwd } = io;
  const api = apiSettings(env, stderr);
  if (typeof api === "number") return api;
  const outFile = args.out === undefined ? undefined : path.resolve(cwd, args.out);
  if (outFile !== undefined && !args.force && fs.existsSync(outFile)) {
    stderr.write(`docsplatform export: ${args.out} exists; pass --force to overwrite it\n`);
    return 1;
  }

  let client: ApiClient;
  try {
    client = new ApiClient({ baseUrl: api.url, token: api.token, ...clientTuningFromEnv(env) });
  } catch (e) {
    stderr.write(`docsplatform export: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  const progress = progressReporter(stderr, io.progressIntervalMs ?? 1000);
  try {
    const result = await exportOrganization(client, { organizationId: args.org, onProgress: (p) => progress.update(p), ...(args.caller === undefined ? {} : { caller: args.caller }) });
    progress.done();
    return writeExport(result, { args, outFile, cwd, now: io.now ?? (() => new Date()), stdout, stderr, stdoutFile: io.stdoutFile ?? redirectedStdout });
  } catch (e) {
    progress.done();
    const message = e instanceof ExportError ? e.message : explainApiError(e, args.org);
    stderr.write(`docsplatform export: ${client.secrets.redact(message)}\n`);
    return 1;
  } finally {
    await client.close();
  }
}

/** The API's URL and token from the environment, or the exit code after saying what is missing or wrong. */
function apiSettings(env: ExportIo["env"], stderr: ExportIo["stderr"]): { url: string; token: string } | number {
  const connection = commandConnection(env, "export");
  if (!("problem" in connection)) return connection;
  stderr.write(`${connection.problem}\n`);
  return 2;
}

/** What the file and stderr say when no `--caller` was given. */
const CALLER_TO_ADD =
  "`caller: <your e-mail address>` (the user the API token acts as) under `organization:`, or export with --caller: without it the lock-out guard cannot keep your own access";

/**
 * The exported stack with each site's structure in a site file of `dir` (`--site-file`): every site
 * that has one reads it through `structure` (with `adopt: true`, as the exported entries had), redirects
 * naming a site space whose key the site file had to change follow it.
 */
function withSiteFiles(stack: StackFile, dir: string, stackDir: string, args: Args): { stack: StackFile; files: PlannedSiteFile[] } {
  const files = planSiteFiles(stack, { outDir: dir, stackDir, dirs: args.dirs, header: [`Written by ${commandLine(args)}: the site's structure, for Git Sync and for its structure: {file: ...} in the stack file.`] });
  const bySite = new Map(files.map((f) => [f.site, f]));
  const sites = (stack.sites ?? []).map((site) => {
    const file = bySite.get(site.key);
    if (file === undefined) return site;
    return withStructure(renamedDestinations(site, file.structure.previousKeys ?? {}), { ...file.structure, adopt: true });
  });
  return { stack: { ...stack, ...(stack.sites === undefined ? {} : { sites }) }, files };
}

/** A site whose redirects name site spaces by keys the site file renamed, naming them by the new keys. */
function renamedDestinations(site: StackSite, previousKeys: Record<string, string[]>): StackSite {
  const renamed = new Map(Object.entries(previousKeys).map(([key, former]) => [former[0]!, key]));
  if (renamed.size === 0 || site.redirects === undefined) return site;
  const redirects = site.redirects.map((r) => {
    const d = r.destination as { siteSpace?: string };
    const to = d.siteSpace === undefined ? undefined : renamed.get(d.siteSpace);
    return to === undefined ? r : { ...r, destination: { ...r.destination, siteSpace: to } };
  });
  return { ...site, redirects };
}

/**
 * Where standard output goes when it is redirected to a file (`export … > docs/docs.yaml`), so the
 * `$schema` path is made relative to that file's folder; undefined for a terminal or a pipe, or where
 * the system does not tell (then the current directory stands in).
 */
function redirectedStdout(): string | undefined {
  try {
    if (!fs.fstatSync(1).isFile()) return undefined;
    return fs.readlinkSync("/proc/self/fd/1");
  } catch {
    return undefined;
  }
}

/**
 * The exported organisation as a stack file: rendered, loaded as `pulumi up` will load it (a file that
 * does not load is a defect of the export, and nothing is written), written, and summed up on stderr.
 */
function writeExport(
  result: Awaited<ReturnType<typeof exportOrganization>>,
  to: { args: Args; outFile: string | undefined; cwd: string; now: () => Date; stdout: ExportIo["stdout"]; stderr: ExportIo["stderr"]; stdoutFile: () => string | undefined },
): number {
  const { args, outFile, stderr } = to;
  const noCaller = args.caller === undefined ? [CALLER_TO_ADD] : [];
  const stackDir = path.dirname(outFile ?? to.stdoutFile() ?? path.join(to.cwd, "-"));
  const sites = args.siteFile === undefined ? { stack: result.stack, files: [] } : withSiteFiles(result.stack, path.resolve(to.cwd, args.siteFile), stackDir, args);
  const text = renderStackFile(sites.stack, {
    organizationTitle: result.organization.title,
    date: to.now(),
    command: commandLine(args),
    schemaPath: schemaPathFor(stackDir),
    notes: result.notes,
    emails: result.emails,
    placeholders: result.placeholders,
    supply: [...noCaller, ...result.supply],
  });
  // The site files are read from memory: nothing is written before the whole export validates.
  const planned = new Map(sites.files.map((p) => [p.structure.file, p.text]));
  const readSiteFile: SiteFileReader = (given) => (planned.has(given) ? { ok: true, text: planned.get(given)! } : { ok: false, reason: `no site file ${JSON.stringify(given)} was exported` });
  const loaded = parseStack(text, args.out ?? "<stdout>", { readSiteFile });
  if (!loaded.ok) {
    stderr.write(`docsplatform export: the exported file does not validate; nothing was written:\n`);
    for (const p of loaded.problems) stderr.write(`  ${formatProblem(p)}\n`);
    return 1;
  }
  const inTheWay = writeSiteFiles(sites.files, args.force);
  if (inTheWay.length > 0) {
    stderr.write(`docsplatform export: ${inTheWay.map((f) => path.relative(to.cwd, f)).join(", ")} exist${inTheWay.length === 1 ? "s" : ""}; pass --force to overwrite; nothing was written\n`);
    return 1;
  }
  if (outFile === undefined) {
    to.stdout.write(text);
  } else {
    const tmp = `${outFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, outFile);
  }
  for (const note of result.notes) stderr.write(`export: left out: ${note}\n`);
  for (const file of sites.files) {
    stderr.write(`export: wrote ${path.relative(to.cwd, file.file)} (site ${file.site}'s structure)\n`);
    for (const note of file.notes) stderr.write(`export: site file: ${note}\n`);
  }
  if (args.caller === undefined) stderr.write(`export: to add: ${CALLER_TO_ADD}\n`);
  for (const w of loaded.warnings) stderr.write(`export: note: ${formatProblem(w)}\n`);
  const parts = objectSummary(loaded);
  stderr.write(
    `export: ${result.progress.objects} objects read in ${result.progress.requests} requests; wrote ${args.out ?? "standard output"}: ${parts.join(", ") || "no objects"}\n`,
  );
  return 0;
}
