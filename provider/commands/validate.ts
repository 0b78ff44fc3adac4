/** `docsplatform validate <stack.yaml>...`: check stack files offline, as an editor or CI would. */
import { loadStackFile, formatProblem, problemSummary } from "../stack/load";
import { objectSummary } from "../stack/summary";
import { commandMain } from "./command";

const usage = `usage: docsplatform validate <stack.yaml> [more.yaml...]

Checks each stack file against the schema and the cross-object rules (unique keys, references,
defaults, paths) without calling the API. Prints file:line:col: message for each problem on stderr
and exits 1 if any file has a problem; otherwise prints one summary line per file and exits 0.
`;

/** Run `validate`; resolves to the process exit code (0 valid, 1 problems, 2 usage). */
export async function validateMain(argv: string[]): Promise<number> {
  return commandMain(argv, process, { name: "validate", usage, parse: stackFiles, run: async (files) => validateFiles(files) });
}

/** The stack files named, or what is wrong with the call (empty: none named, the usage alone says it). */
function stackFiles(argv: string[]): string[] | string {
  const files = argv.filter((a) => a !== "--");
  const unknownOption = files.find((a) => a.startsWith("-"));
  if (unknownOption !== undefined) return `unknown option '${unknownOption}'`;
  return files.length === 0 ? "" : files;
}

/** Checks each file, prints its problems or its summary; 1 when any has a problem. */
function validateFiles(files: string[]): number {
  let failed = false;
  for (const file of files) {
    const result = loadStackFile(file);
    for (const w of result.warnings) process.stderr.write(`${formatProblem({ ...w, message: `warning: ${w.message}` })}\n`);
    if (!result.ok) {
      failed = true;
      for (const p of result.problems) process.stderr.write(`${formatProblem(p)}\n`);
      process.stderr.write(`${file}: ${problemSummary(result.problems, result.laterSyntaxErrors)}\n`);
      continue;
    }
    const parts = objectSummary(result);
    const summary = parts.length > 0 ? parts.join(", ") : "no objects";
    process.stdout.write(`${file}: OK (organisation ${result.stack.organization}: ${summary})\n`);
  }
  return failed ? 1 : 0;
}
