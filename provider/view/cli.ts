/**
 * `docsplatform tree` and `docsplatform diff`: the site a stack file declares, and its change between
 * two versions of the file. Both run offline from files; only `tree --live` reads the API (read-only,
 * through the client, with the same environment as `export`).
 */
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { formatProblem, loadStackFile, parseStack, type LoadResult } from "../stack/load";
import type { SiteFileReader } from "../stack/structureExpand";
import type { StackFile } from "../file/model";
import { resolveStack, type ResolvedStack } from "../stack/resolve";
import { anyBroken } from "../redirects/guard";
import { diffStacks, renderDiffMarkdown, renderDiffText } from "./diff";
import { viewStack } from "./sites";
import { styleFor } from "./style";
import { renderTree } from "./tree";
import { commandMain, type UsageError } from "../commands/command";

const TREE_USAGE = `usage: docsplatform tree <stack.yaml> [--keys] [--redirects]
       docsplatform tree --live --org <organizationId> [--keys] [--redirects]

Draws every site as a tree in display order: section groups, sections and site spaces with the URL
path a reader sees (relative to the site's address), the default at each level (★), conditions,
visibility, published state and share links by name. Offline: no token, no API call. \`-\` reads the
file from standard input.

  --live       draw the live organisation instead, read through the API (read-only, as \`export\`
               reads it; token and URL from DOCSPLATFORM_API_TOKEN and DOCSPLATFORM_API_URL).
               It also shows what only the platform knows: fields a file leaves undeclared,
               paths and titles the API chose, objects no file declares
  --org ID     the organisation to read (with --live)
  --keys       show each object's key, e.g. (section api)
  --redirects  list each site's redirects (source → destination, permanent or temporary, draft) under
               their count
`;

/** The options each command's parser accepts: its help lists every one (a test compares them). */
export const TREE_OPTIONS = { withValue: ["--org"], flags: ["--live", "--keys", "--redirects"] } as const;
export const DIFF_OPTIONS = { withValue: ["--format"], flags: ["--base-may-be-missing", "--fail-on-broken", "--keys"] } as const;

const DIFF_USAGE = `usage: docsplatform diff <base> <head> [--format text|markdown] [--base-may-be-missing] [--fail-on-broken] [--keys]

Shows what readers of the sites would notice between two versions of a stack file: sections and site
spaces added, removed, moved or renamed (titles, paths, URLs), defaults switched, conditions,
visibility and share links changed; teams, SSO, specs and settings summarised. Objects are matched by
key, and by \`previousKeys\`. Offline: no token, no API call.

Each side is a file, \`-\` (standard input), or \`git:<rev>:<path>\` (the file at a revision, as
\`git show <rev>:<path>\` reads it: <path> from the repository's root, or \`./<path>\` from the current
directory). A side that does not exist is an error (exit 2): a wrong path must not pass as "everything
added". Where the base may not exist yet (the pull request that adds the file), say so:

  --base-may-be-missing   a base that does not exist at its revision counts as a file declaring nothing

  --format text       plain text (default; coloured on a terminal unless NO_COLOR is set)
  --format markdown   a pull-request comment: one collapsible block per site

The URL guard: every reader URL the change removes or moves (a section's or site space's URL, and the
pages under it) is listed as redirected (by which of the head's redirects) or broken; for a moved
level the redirect that repairs it is proposed, ready to paste into the stack file.

  --fail-on-broken    exit 1 when a removed or moved reader URL is left broken (the CI step)
  --keys              show each object's key, e.g. section "API" (section api), as tree --keys does

Exit codes: 0 the change is shown; 1 only with --fail-on-broken, a reader URL left broken; 2 a side
that cannot be read (a revision or file that does not exist, not a git repository, a file that is not a
valid stack file) or wrong arguments. A CI step can tell a broken URL from a broken pipeline.
`;

/** Where the commands read and write; tests pass their own. */
export interface ViewIo {
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown };
  /** Standard input, read whole when a side is `-`. */
  stdin: () => Promise<string>;
  cwd: string;
}

function ioWith(io: Partial<ViewIo>): ViewIo {
  return {
    env: io.env ?? process.env,
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    stdin: io.stdin ?? readStdin,
    cwd: io.cwd ?? process.cwd(),
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A command's arguments: the positional ones and the options seen, by name. */
interface ParsedArgs {
  positional: string[];
  options: Map<string, string>;
}

/** Splits `--name=value` and `--name value`; returns the positional arguments and the options seen. */
function parseArgs(argv: string[], { withValue, flags }: { readonly withValue: readonly string[]; readonly flags: readonly string[] }): ParsedArgs | string {
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-" || !arg.startsWith("-")) {
      positional.push(arg);
      continue;
    }
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (flags.includes(name) && eq < 0) {
      options.set(name, "");
    } else if (withValue.includes(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === "") return `${name} needs a value`;
      options.set(name, value);
    } else {
      return `unknown option '${arg}'`;
    }
  }
  return { positional, options };
}

/** One side of a diff, or the file of a tree, loaded. */
type Side = { ok: true; resolved: ResolvedStack | undefined; label: string } | { ok: false; problems: string[] };

const execFileP = promisify(execFile);

/** Reads `-`, `git:<rev>:<path>` or a file, and loads (and so resolves) it as a stack file. `resolved` is undefined when the file does not exist (at its revision). */
async function loadSide(spec: string, io: ViewIo): Promise<Side> {
  let result: LoadResult;
  if (spec === "-") {
    // Site files the stack file names are relative to the current directory.
    result = parseStack(await io.stdin(), "<stdin>", { baseDir: io.cwd });
  } else if (spec.startsWith("git:")) {
    const rest = spec.slice("git:".length);
    const colon = rest.indexOf(":");
    if (colon <= 0 || colon === rest.length - 1) return { ok: false, problems: [`${spec}: expected git:<rev>:<path>`] };
    const rev = rest.slice(0, colon);
    const file = rest.slice(colon + 1);
    if (rev.startsWith("-")) return { ok: false, problems: [`${spec}: a revision never starts with '-' (git would read it as an option)`] };
    try {
      // An argument list, never a shell, and options ended before it: revision and path reach git as an object name only.
      const { stdout } = await execFileP("git", ["show", "--no-textconv", "--end-of-options", `${rev}:${file}`], { cwd: io.cwd, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" });
      result = parseStack(stdout, spec, { readSiteFile: gitReader(rev, file, io.cwd) });
    } catch (e) {
      const stderr = String((e as { stderr?: unknown }).stderr ?? (e instanceof Error ? e.message : e));
      if (/does not exist in|exists on disk, but not in/.test(stderr)) return { ok: true, resolved: undefined, label: spec };
      return { ok: false, problems: [`${spec}: ${gitFailure(e, stderr, rev, io.cwd)}`] };
    }
  } else {
    const file = path.resolve(io.cwd, spec);
    if (!fs.existsSync(file)) return { ok: true, resolved: undefined, label: spec };
    result = loadStackFile(file);
    // The stack file's problems name it as given; a site file's, that file (from the current directory).
    if (!result.ok) result = { ...result, problems: result.problems.map((p) => ({ ...p, file: p.file === file ? spec : path.relative(io.cwd, p.file) || p.file })) };
  }
  if (!result.ok) return { ok: false, problems: result.problems.map(formatProblem) };
  return { ok: true, resolved: result, label: spec };
}

/**
 * Site files a stack file at a revision names, read at the same revision: relative to the stack file's
 * folder, never above it (the revision's project is not on disk to say where its root is).
 */
function gitReader(rev: string, stackFile: string, cwd: string): SiteFileReader {
  return (given) => {
    const normal = path.posix.normalize(given.replace(/\\/g, "/"));
    if (path.posix.isAbsolute(normal) || normal === ".." || normal.startsWith("../")) {
      return { ok: false, reason: `${JSON.stringify(given)} leads outside the stack file's folder; at a git revision, site files are read from the stack file's folder down` };
    }
    const dir = path.posix.dirname(stackFile);
    // `rev:./x` is relative to the current directory, `rev:x` to the repository's root: keep the form the side was given in.
    const joined = dir === "." ? (stackFile.startsWith("./") ? `./${normal}` : normal) : `${dir}/${normal}`;
    try {
      return { ok: true, text: execFileSync("git", ["show", "--no-textconv", "--end-of-options", `${rev}:${joined}`], { cwd, maxBuffer: 64 * 1024 * 1024, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }) };
    } catch {
      return { ok: false, reason: `no file ${JSON.stringify(given)} next to the stack file at revision ${rev}` };
    }
  };
}

/** Why `git show` could not read a side, in words: the revision, the repository or git itself. */
function gitFailure(e: unknown, stderr: string, rev: string, cwd: string): string {
  if ((e as { code?: unknown }).code === "ENOENT") return "git is not installed (or not on PATH)";
  if (/not a git repository/i.test(stderr)) return `${cwd} is not inside a git repository`;
  if (/invalid object name|unknown revision|bad revision|ambiguous argument|invalid reference/i.test(stderr)) {
    return `no revision '${rev}' in this repository (a branch named otherwise, e.g. master, or a commit not fetched?)`;
  }
  return `git show failed: ${stderr.trim().split("\n")[0]}`;
}

/** A head's "names no section" (or site space) problem, saying so when the base declares that key: this change removes what a redirect points at. */
function removedByChange(problem: string, base: ResolvedStack | undefined): string {
  const m = /names no (section|site space) of this site: "([^"]+)"/.exec(problem);
  if (!m || base === undefined) return problem;
  const keys = base.sites.flatMap((s) => [...s.sections.map((x) => ({ kind: "section", key: x.key })), ...s.siteSpaces.map((x) => ({ kind: "site space", key: x.key }))]);
  return keys.some((k) => k.kind === m[1] && k.key === m[2]) ? `${problem}; the base declares it: this change removes the ${m[1]} the redirect sends readers to` : problem;
}

/** `docsplatform tree`; resolves to the exit code (0 drawn, 1 error, 2 usage). */
export async function treeMain(argv: string[], partial: Partial<ViewIo> = {}): Promise<number> {
  const io = ioWith(partial);
  return commandMain(argv, io, { name: "tree", usage: TREE_USAGE, parse: (a) => parseArgs(a, TREE_OPTIONS), run: (args, usage) => drawTree(args, usage, io) });
}

/** `tree`'s work, its arguments parsed. */
async function drawTree(args: ParsedArgs, usage: UsageError, io: ViewIo): Promise<number> {
  const live = args.options.has("--live");
  const keys = args.options.has("--keys");
  const style = styleFor(io.stdout, io.env);
  if (live) {
    if (args.positional.length > 0) return usage("--live reads the organisation, not a file");
    const org = args.options.get("--org");
    if (org === undefined) return usage("--live needs --org <organizationId>");
    const stack = await readLive(org, io, "tree");
    if (typeof stack === "number") return stack;
    io.stdout.write(renderTree(viewStack(resolveStack(stack)), { style, keys, redirects: args.options.has("--redirects") }));
    return 0;
  }
  if (args.options.has("--org")) return usage("--org goes with --live");
  if (args.positional.length !== 1) return usage("give one stack file");
  const side = await loadSide(args.positional[0]!, io);
  if (!side.ok) {
    for (const p of side.problems) io.stderr.write(`${p}\n`);
    return 1;
  }
  if (side.resolved === undefined) {
    io.stderr.write(`docsplatform tree: ${side.label} does not exist\n`);
    return 1;
  }
  io.stdout.write(renderTree(viewStack(side.resolved), { style, keys, redirects: args.options.has("--redirects") }));
  return 0;
}

/**
 * The live organisation as a stack file, read the way `export` reads it (so both trees come from
 * the same model); an exit code when it cannot be read. What export leaves out is listed on stderr.
 */
async function readLive(org: string, io: ViewIo, command: string): Promise<StackFile | number> {
  // As `export` reads them (this command reads no Pulumi config).
  const { commandConnection } = await import("../env");
  const connection = commandConnection(io.env, command);
  if ("problem" in connection) {
    io.stderr.write(`${connection.problem}\n`);
    return 2;
  }
  // Loaded here only: the offline commands never load the client.
  const { ApiClient } = await import("../client");
  const { ExportError, explainApiError, exportOrganization } = await import("../export/export");
  const client = new ApiClient({ baseUrl: connection.url, token: connection.token });
  try {
    const result = await exportOrganization(client, { organizationId: org });
    for (const note of result.notes) io.stderr.write(`${command}: not drawn: ${note}\n`);
    return result.stack;
  } catch (e) {
    const message = e instanceof ExportError ? e.message : explainApiError(e, org);
    io.stderr.write(`docsplatform ${command}: ${client.secrets.redact(message)}\n`);
    return 1;
  } finally {
    await client.close();
  }
}

/**
 * `docsplatform diff`; resolves to the exit code: 0 shown; 1 only with --fail-on-broken, a URL left
 * broken; 2 wrong arguments or a side that cannot be read, whatever the reason (so a CI step never takes
 * a missing branch or a broken file for a broken URL).
 */
export async function diffMain(argv: string[], partial: Partial<ViewIo> = {}): Promise<number> {
  const io = ioWith(partial);
  return commandMain(argv, io, { name: "diff", usage: DIFF_USAGE, parse: (a) => parseArgs(a, DIFF_OPTIONS), run: (args, usage) => showDiff(args, usage, io) });
}

/** `diff`'s work, its arguments parsed. */
async function showDiff(args: ParsedArgs, usage: UsageError, io: ViewIo): Promise<number> {
  const format = args.options.get("--format") ?? "text";
  if (format !== "text" && format !== "markdown") return usage(`--format is text or markdown, not '${format}'`);
  if (args.positional.length !== 2) return usage("give a base and a head");
  const [baseSpec, headSpec] = args.positional as [string, string];
  if (baseSpec === "-" && headSpec === "-") return usage("only one side can be read from standard input");

  const [base, head] = await Promise.all([loadSide(baseSpec, io), loadSide(headSpec, io)]);
  let failed = false;
  for (const side of [base, head]) {
    if (side.ok) continue;
    failed = true;
    for (const p of side.problems) io.stderr.write(`${side === head && base.ok ? removedByChange(p, base.resolved) : p}\n`);
  }
  if (!base.ok || !head.ok || failed) return 2;
  if (head.resolved === undefined) {
    io.stderr.write(`docsplatform diff: the head ${head.label} does not exist\n`);
    return 2;
  }
  if (base.resolved === undefined) {
    if (!args.options.has("--base-may-be-missing")) {
      io.stderr.write(`docsplatform diff: the base ${base.label} does not exist (a wrong path or folder?); pass --base-may-be-missing where the change adds the file\n`);
      return 2;
    }
    io.stderr.write(`diff: ${base.label} does not exist: read as a file declaring nothing\n`);
  }
  const b = base.resolved ?? resolveStack({ organization: head.resolved.stack.organization });
  const h = head.resolved;
  const d = diffStacks(b, h, { keys: args.options.has("--keys") });
  io.stdout.write(format === "markdown" ? renderDiffMarkdown(d) : renderDiffText(d, styleFor(io.stdout, io.env)));
  if (args.options.has("--fail-on-broken") && anyBroken(d.sites.flatMap((s) => (s.guard ? [s.guard] : [])))) {
    io.stderr.write("docsplatform diff: the change leaves reader URLs broken (listed above); add the redirects that repair them\n");
    return 1;
  }
  return 0;
}
