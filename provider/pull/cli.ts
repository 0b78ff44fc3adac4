/**
 * `docsplatform pull [docs.yaml] [--check | --diff] [--include-new]`: what people changed on the
 * platform, back into the stack file in place. The file is validated first (nothing is read from a file
 * that does not validate); the organisation it names is read as `export` reads it (same credentials:
 * DOCSPLATFORM_API_TOKEN and DOCSPLATFORM_API_URL); the values the file declares are edited where they
 * stand, comments and layout kept; the result must validate before it is written, atomically.
 * Exit codes: 0 written or nothing to pull, 1 `--check` found the file behind, 2 usage, a file that does
 * not validate, or a platform that could not be read (the file untouched).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ApiClient } from "../client";
import { clientTuningFromEnv, commandConnection } from "../env";
import { formatProblem, loadStackFile, parseStack } from "../stack/load";
import { parseDocument, linePositions, at } from "../stack/yaml";
import { commandMain } from "../commands/command";
import { ExportError, explainApiError, exportOrganization } from "../export/export";
import { orderLikeSchema } from "../export/render";
import { siteFileOf } from "../export/structureWrite";
import { siteModels } from "../site";
import { applyEdits, unifiedDiff } from "./edit";
import { planPull } from "./plan";

const USAGE = `usage: docsplatform pull [docs.yaml] [--check | --diff] [--include-new]

Reads the live organisation the stack file names and rewrites the file in place so that
\`pulumi preview --refresh\` afterwards shows no change: changed values are changed where they stand,
objects added on the platform inside a list the file declares are added (\`adopt: true\`, keys as
export gives them), objects removed on the platform are removed. Comments, key order, blank lines,
quoting, flow style and anchors outside the changed lines stay as they are. Secrets are never
written: a secret taken from {env}/{config} stays its source. What the file leaves out stays out.
A structure a site file owns (structure: {file: ...}) is pulled into that site file.

  docs.yaml       the stack file (default: docs.yaml)
  --check         write nothing; print what pull would change as a unified diff and exit 1 if the
                  file is behind the platform (0 if it is not)
  --diff          write nothing; print the unified diff and exit 0
  --include-new   also add objects of a top-level list (sites, teams, specs, ...) the file does not name

exit codes: 0 written or nothing to pull, 1 --check found changes, 2 usage, a file that does not
validate, or a platform that could not be read (the file is then untouched)

environment: DOCSPLATFORM_API_TOKEN (the API token), DOCSPLATFORM_API_URL (the API's base URL)
`;

/** Where the command writes and what it reads; tests pass their own. */
export interface PullIo {
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  cwd: string;
}

interface Args {
  file: string;
  mode: "write" | "check" | "diff";
  includeNew: boolean;
}

function parseArgs(argv: string[]): Args | string {
  let file: string | undefined;
  let mode: Args["mode"] = "write";
  let includeNew = false;
  for (const arg of argv) {
    if (arg === "--check" || arg === "--diff") {
      if (mode !== "write") return "--check and --diff go alone";
      mode = arg === "--check" ? "check" : "diff";
    } else if (arg === "--include-new") includeNew = true;
    else if (arg.startsWith("-")) return `unknown argument '${arg}'`;
    else if (file !== undefined) return `one stack file at a time ('${file}', then '${arg}')`;
    else file = arg;
  }
  return { file: file ?? "docs.yaml", mode, includeNew };
}

/** Runs the command; resolves to its exit code. */
export async function pullMain(argv: string[], io: Partial<PullIo> = {}): Promise<number> {
  const full: PullIo = { env: io.env ?? process.env, stdout: io.stdout ?? process.stdout, stderr: io.stderr ?? process.stderr, cwd: io.cwd ?? process.cwd() };
  return commandMain(argv, full, { name: "pull", usage: USAGE, parse: parseArgs, run: (args) => pull(args, full) });
}

async function pull(args: Args, io: PullIo): Promise<number> {
  const { stderr } = io;
  const file = path.resolve(io.cwd, args.file);
  const shown = args.file;
  // Refused before any read: a file that does not validate cannot say what it manages.
  const loaded = loadStackFile(file);
  if (!loaded.ok) {
    stderr.write(`docsplatform pull: ${shown} does not validate; nothing was read or written:\n`);
    for (const p of loaded.problems) stderr.write(`  ${formatProblem(p)}\n`);
    return 2;
  }
  const text = fs.readFileSync(file, "utf8");
  const position = linePositions(text);
  const parsed = parseDocument(text, (offset, pointer, message) => at(shown, position(offset).line, position(offset).col, pointer, message));
  if (!parsed.ok) return 2;
  const connection = commandConnection(io.env, "pull");
  if ("problem" in connection) {
    stderr.write(`${connection.problem}\n`);
    return 2;
  }
  const org = loaded.stack.organization;
  let client: ApiClient;
  try {
    client = new ApiClient({ baseUrl: connection.url, token: connection.token, ...clientTuningFromEnv(io.env) });
  } catch (e) {
    stderr.write(`docsplatform pull: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  let live: Awaited<ReturnType<typeof exportOrganization>>;
  try {
    live = await exportOrganization(client, { organizationId: org });
  } catch (e) {
    const message = e instanceof ExportError ? e.message : explainApiError(e, org);
    stderr.write(`docsplatform pull: ${client.secrets.redact(message)}; ${shown} was not changed\n`);
    return 2;
  } finally {
    await client.close();
  }
  // The live organisation as export writes it, members in the schema's order (so added entries read as export's).
  const plan = planPull(parsed.doc, text, orderLikeSchema(live.stack) as Record<string, unknown>, { includeNew: args.includeNew, emails: live.emails, placeholders: live.placeholders });
  const after = applyEdits(text, plan.edits);
  for (const note of plan.notes) stderr.write(`pull: left as it is: ${note}\n`);
  // A structure a site file owns is pulled into that file, with the same rules.
  const siteFiles = pullSiteFiles(parsed.doc.toJS() as Record<string, unknown>, plan.live, path.dirname(file));
  if (typeof siteFiles === "string") {
    stderr.write(`docsplatform pull: ${siteFiles}; nothing was written\n`);
    return 2;
  }
  for (const f of siteFiles) for (const note of f.plan.notes) stderr.write(`pull: left as it is: ${f.shown}: ${note}\n`);
  const changedFiles = siteFiles.filter((f) => f.after !== f.text);
  if (after === text && changedFiles.length === 0) {
    stderr.write(`pull: ${shown} is up to date with organization ${org}\n`);
    return 0;
  }
  // The edited files must load as \`pulumi up\` will load them; otherwise nothing is written.
  const pending = new Map(changedFiles.map((f) => [path.resolve(f.path), f.after]));
  const check = parseStack(after, shown, {
    baseDir: path.dirname(file),
    readSiteFile: (given) => {
      const at = path.resolve(path.dirname(file), given);
      if (pending.has(at)) return { ok: true, text: pending.get(at)! };
      try {
        return { ok: true, text: fs.readFileSync(at, "utf8") };
      } catch (e) {
        return { ok: false, reason: e instanceof Error ? e.message : String(e) };
      }
    },
  });
  if (!check.ok) {
    stderr.write(`docsplatform pull: the pulled file would not validate; ${shown} was not changed:\n`);
    for (const p of check.problems) stderr.write(`  ${formatProblem(p)}\n`);
    return 2;
  }
  const diffs = [unifiedDiff(text, after, args.file), ...changedFiles.map((f) => unifiedDiff(f.text, f.after, f.shown))].join("");
  const changes = [...plan.changes, ...changedFiles.flatMap((f) => f.plan.changes.map((c) => `${f.shown}: ${c}`))];
  if (args.mode !== "write") {
    io.stdout.write(diffs);
    for (const change of changes) stderr.write(`pull: would change ${change}\n`);
    return args.mode === "check" ? 1 : 0;
  }
  for (const [target, content] of [...changedFiles.map((f) => [f.path, f.after] as const), ...(after === text ? [] : [[file, after] as const])]) {
    const tmp = `${target}.${process.pid}.pull.tmp`;
    fs.writeFileSync(tmp, content);
    fs.renameSync(tmp, target);
  }
  for (const change of changes) stderr.write(`pull: ${change}\n`);
  for (const s of plan.sources) stderr.write(`pull: to supply: ${s}\n`);
  const written = [...(after === text ? [] : [shown]), ...changedFiles.map((f) => f.shown)].join(", ");
  stderr.write(`pull: wrote ${written}: ${changes.length} change${changes.length === 1 ? "" : "s"} from organization ${org}\n`);
  return 0;
}

/** A site file the stack file names, and what pulling the live site's structure into it changes. */
interface SiteFilePull {
  path: string;
  shown: string;
  text: string;
  after: string;
  plan: ReturnType<typeof planPull>;
}

/**
 * Each site whose structure a site file owns (\`structure: {file: …}\`): the live site's structure written
 * as \`site-file\` writes it, pulled into that file in place; or why a site file could not be read.
 */
function pullSiteFiles(file: Record<string, unknown>, live: Record<string, unknown>, dir: string): SiteFilePull[] | string {
  const out: SiteFilePull[] = [];
  const liveSites = (live.sites ?? []) as { key?: string }[];
  for (const site of (file.sites ?? []) as { key?: string; structure?: { file?: string } }[]) {
    const given = site.structure?.file;
    const liveSite = liveSites.find((s) => s.key === site.key);
    if (typeof given !== "string" || liveSite === undefined) continue;
    const at = path.resolve(dir, given);
    let text: string;
    try {
      text = fs.readFileSync(at, "utf8");
    } catch (e) {
      return `cannot read the site file ${given}: ${e instanceof Error ? e.message : String(e)}`;
    }
    const doc = parseDocument(text, (offset, pointer, message) => at_(given, linePositions(text)(offset), pointer, message));
    if (!doc.ok) return `the site file ${given} does not parse`;
    const model = siteModels({ organization: String(file.organization), spaces: live.spaces, sites: [liveSite] } as never)[0];
    if (model === undefined) continue;
    const written = siteFileOf(model).data as unknown as Record<string, unknown>;
    const plan = planPull(doc.doc, text, written, { includeNew: false, emails: new Map(), siteFile: true });
    out.push({ path: at, shown: given, text, after: applyEdits(text, plan.edits), plan });
  }
  return out;
}

function at_(file: string, p: { line: number; col: number }, pointer: string, message: string) {
  return at(file, p.line, p.col, pointer, message);
}
