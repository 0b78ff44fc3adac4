/** `docsplatform validate [--format text|github] <stack.yaml>...`: check stack files offline, as an editor or CI would. */
import * as path from "node:path";
import { loadStackFile, formatProblem, problemSummary, type Problem } from "../stack/load";
import { objectSummary } from "../stack/summary";
import { dottedPath } from "../pointer";
import { commandMain } from "./command";

const usage = `usage: docsplatform validate [--format text|github] <stack.yaml> [more.yaml...]

Checks each stack file against the schema and the cross-object rules (unique keys, references,
defaults, paths) without calling the API. Exits 1 if any file has a problem; otherwise prints one
summary line per file and exits 0.

  --format text     file:line:col: message for each problem (and warning: for each warning) on stderr,
                    then file: N problems (default, also on GitHub Actions)
  --format github   each problem as a GitHub workflow command on stdout, so GitHub annotates the line:
                    ::error file=<path>,line=<n>,col=<c>,title=<field>::<message> (::warning for a
                    warning; the path absolute, which the runner maps to the repository's file), then
                    the same summary lines as text
`;

/** How `validate` prints problems. */
export type ValidateFormat = "text" | "github";

/** `validate`'s parsed arguments. */
interface ValidateArgs {
  files: string[];
  format: ValidateFormat;
}

/** Run `validate`; resolves to the process exit code (0 valid, 1 problems, 2 usage). */
export async function validateMain(argv: string[]): Promise<number> {
  return commandMain(argv, process, { name: "validate", usage, parse: validateArgs, run: async (args) => validateFiles(args) });
}

/** The stack files named and the format, or what is wrong with the call (empty: no file named, the usage alone says it). */
function validateArgs(argv: string[]): ValidateArgs | string {
  const files: string[] = [];
  let format: string = "text";
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") continue;
    if (arg === "--format" || arg.startsWith("--format=")) {
      const value = arg === "--format" ? argv[++i] : arg.slice("--format=".length);
      if (value === undefined || value === "") return "--format needs a value: text or github";
      format = value;
      continue;
    }
    if (arg.startsWith("-")) return `unknown option '${arg}'`;
    files.push(arg);
  }
  if (format !== "text" && format !== "github") return `--format is text or github, not '${format}'`;
  return files.length === 0 ? "" : { files, format };
}

/** Checks each file, prints its problems or its summary; 1 when any has a problem. */
function validateFiles({ files, format }: ValidateArgs): number {
  const say = (p: Problem, level: "error" | "warning"): void => {
    if (format === "github") process.stdout.write(`${githubAnnotation(p, level)}\n`);
    else process.stderr.write(`${formatProblem(level === "warning" ? { ...p, message: `warning: ${p.message}` } : p)}\n`);
  };
  let failed = false;
  for (const file of files) {
    const result = loadStackFile(file);
    for (const w of result.warnings) say(w, "warning");
    if (!result.ok) {
      failed = true;
      for (const p of result.problems) say(p, "error");
      process.stderr.write(`${file}: ${problemSummary(result.problems, result.laterSyntaxErrors)}\n`);
      continue;
    }
    const parts = objectSummary(result);
    const summary = parts.length > 0 ? parts.join(", ") : "no objects";
    process.stdout.write(`${file}: OK (organisation ${result.stack.organization}: ${summary})\n`);
  }
  return failed ? 1 : 0;
}

/**
 * A problem as the GitHub workflow command that annotates its line:
 * `::error file=/abs/docs.yaml,line=5,col=23,title=sites[0].title::is required`. The title is the
 * field the message names first (the message then without it); a problem of the whole file has none.
 * The file is absolute: the runner turns a path inside the workspace into the repository's path, so the
 * annotation lands on the file whatever the step's working directory. Values are escaped as the runner
 * reads them: `%`, CR and LF everywhere, and `:` and `,` in properties.
 */
export function githubAnnotation(p: Problem, level: "error" | "warning", cwd: string = process.cwd()): string {
  const field = p.path === "" ? "" : dottedPath(p.path);
  const named = field !== "" && p.message.startsWith(`${field}: `);
  const properties: [string, string | number][] = [["file", path.resolve(cwd, p.file)], ["line", p.line], ["col", p.col], ...(named ? [["title", field] as [string, string]] : [])];
  const message = named ? p.message.slice(field.length + 2) : p.message;
  return `::${level} ${properties.map(([name, value]) => `${name}=${escapeProperty(String(value))}`).join(",")}::${escapeData(message)}`;
}

/** A workflow command's message escaped: `%`, CR and LF. */
export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A workflow command's property value escaped: as a message, and `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
