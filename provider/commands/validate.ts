/** `docsplatform validate <stack.yaml>...`: check stack files offline, as an editor or CI would. */
import { loadStackFile, formatProblem, problemSummary } from "../stack/load";
import { objectSummary } from "../stack/summary";

const usage = `usage: docsplatform validate <stack.yaml> [more.yaml...]

Checks each stack file against the schema and the cross-object rules (unique keys, references,
defaults, paths) without calling the API. Prints file:line:col: message for each problem on stderr
and exits 1 if any file has a problem; otherwise prints one summary line per file and exits 0.
`;

/** Run `validate`; resolves to the process exit code (0 valid, 1 problems, 2 usage). */
export async function validateMain(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(usage);
    return 0;
  }
  const files = argv.filter((a) => a !== "--");
  const unknownOption = files.find((a) => a.startsWith("-"));
  if (files.length === 0 || unknownOption !== undefined) {
    if (unknownOption !== undefined) process.stderr.write(`docsplatform validate: unknown option '${unknownOption}'\n`);
    process.stderr.write(usage);
    return 2;
  }
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
