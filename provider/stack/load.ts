/**
 * Loading a stack file: its YAML read with positions (yaml.ts), then the JSON Schema, the resolved stack
 * and the cross-object checks. Every problem carries `file:line:col`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { checkStack, describe } from "./checks";
import type { StackFile } from "../file/model";
import { resolveStack, type ResolvedStack } from "./resolve";
import { schemaReport } from "./schema";
import { projectRoot } from "./projectFiles";
import { credentialSourceIssues, fileIssues } from "./sources";
import { diskReader, expandStructures, type SiteFileReader } from "./structureExpand";
import { formatProblem, type Problem } from "./problem";

export { formatProblem };
import { at, listProblems, Locator, sortProblems, parseDocument, shapeProblems, STACK_FILE_LIMITS, toData, tooLarge, linePositions, type ProblemAt } from "./yaml";

export { linePositions, parseLocatedYaml, STACK_FILE_LIMITS, type LocatedYaml } from "./yaml";
export type { Problem };

/** The outcome of loading: the typed stack, or every problem at once, sorted by position. */
export type LoadResult =
  | ({
      ok: true;
      file: string;
      warnings: Problem[];
      /** A problem at a JSON pointer of the file (its value; its key when `atKey`): for checks made later, such as secret sources. */
      problemAt?: (pointer: string, message: string, atKey?: boolean) => Problem;
    } & ResolvedStack)
  | {
      ok: false;
      file: string;
      problems: Problem[];
      warnings: Problem[];
      /**
       * Set when the file is not valid YAML: `problems` then holds one syntax error alone, and this counts
       * the parser's other errors, left out: after a mistake its recovery flags nearly every later token,
       * so they are echoes of the first and bury it.
       */
      laterSyntaxErrors?: number;
    };


/**
 * How many problems a failed load found, in words: `3 problems`; for a file that is not valid YAML,
 * that its first syntax error is the one shown.
 */
export function problemSummary(problems: readonly Problem[], laterSyntaxErrors?: number): string {
  if (laterSyntaxErrors !== undefined) {
    const others = laterSyntaxErrors === 0 ? "" : laterSyntaxErrors === 1 ? " (the parser's other error, left out, usually follows from it)" : ` (the parser's ${laterSyntaxErrors} other errors, left out, usually follow from it)`;
    return `not valid YAML; fix this syntax error first${others}`;
  }
  return problems.length === 1 ? "1 problem" : `${problems.length} problems`;
}

/**
 * The first line of a failed load, naming the file at fault: the stack file, or the site file it names
 * whose problems are listed (`portal/gitbook-docs.yaml, the site file docs.yaml names, is not a valid
 * site file (2 problems)`), or both.
 */
export function failureHeadline(file: string, problems: readonly Problem[], laterSyntaxErrors?: number): string {
  if (laterSyntaxErrors !== undefined) return `${file} is ${problemSummary(problems, laterSyntaxErrors)}`;
  const siteFiles = [...new Set(problems.map((p) => p.file).filter((f) => f !== file))];
  const count = `(${problemSummary(problems)})`;
  if (siteFiles.length === 0) return `${file} is not a valid stack file ${count}`;
  const named = siteFiles.length === 1 ? siteFiles[0]! : `${siteFiles.slice(0, -1).join(", ")} and ${siteFiles[siteFiles.length - 1]}`;
  const one = siteFiles.length === 1;
  if (!problems.some((p) => p.file === file)) {
    return `${named}, ${one ? "the site file" : "site files"} ${file} names, ${one ? "is not a valid site file" : "are not valid site files"} ${count}`;
  }
  return `${file} is not a valid stack file, and its ${one ? "site file" : "site files"} ${named} ${one ? "is not a valid site file" : "are not valid site files"} ${count}`;
}

/** Read and load a stack file from disk. Never throws for a bad file: unreadable files are a problem too. */
export function loadStackFile(file: string): LoadResult {
  let size: number;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return failure(file, [at(file, 1, 1, "", "is not a regular file")]);
    size = stat.size;
  } catch (err) {
    return failure(file, [at(file, 1, 1, "", `cannot read the file: ${errorText(err)}`)]);
  }
  // Refuse a huge file before reading it into memory.
  if (size > STACK_FILE_LIMITS.maxBytes) return failure(file, [tooLarge(file, size)]);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    return failure(file, [at(file, 1, 1, "", `cannot read the file: ${errorText(err)}`)]);
  }
  return parseStack(text, file, { baseDir: path.dirname(file) });
}

/** Options of {@link parseStack}. */
export interface ParseOptions {
  /**
   * The stack file's folder: files the file names (an integration's script) are relative to it and must
   * exist inside the project (projectFiles.ts). Unset: not checked.
   */
  baseDir?: string;
  /** The project's root those files must be inside; default: the nearest folder above `baseDir` with Pulumi.yaml. */
  root?: string;
  /** How a site file the stack file names is read (a git revision's); default: from `baseDir`, inside the project. */
  readSiteFile?: SiteFileReader;
}

/** Load a stack file from its text; `fileName` is used in problems only. */
export function parseStack(text: string, fileName: string, opts: ParseOptions = {}): LoadResult {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > STACK_FILE_LIMITS.maxBytes) return failure(fileName, [tooLarge(fileName, bytes)]);

  const position = linePositions(text);
  const problemAt: ProblemAt = (offset, pointer, message) => {
    const { line, col } = position(offset);
    return at(fileName, line, col, pointer, message);
  };
  const parsed = parseDocument(text, problemAt);
  if (!parsed.ok) return { ...failure(fileName, parsed.problems), ...(parsed.laterSyntaxErrors === undefined ? {} : { laterSyntaxErrors: parsed.laterSyntaxErrors }) };
  const shape = shapeProblems(parsed.doc, problemAt);
  if (shape.length > 0) return failure(fileName, shape);
  const data = toData(parsed.doc, problemAt);
  if (!data.ok) return failure(fileName, data.problems);
  return checkData(data.data, new Locator(parsed.doc), fileName, { problemAt, line: (offset) => position(offset).line }, opts);
}

/** The data against the schema, the cross-checks and the files it names: the stack, or its problems. */
function checkData(written: unknown, locator: Locator, fileName: string, text: { problemAt: ProblemAt; line: (offset: number) => number }, opts: ParseOptions): LoadResult {
  const inStackFile = (pointer: string, message: string, atKey = false): Problem => text.problemAt(locator.offset(pointer, atKey), pointer, message);
  const base = opts.baseDir === undefined ? undefined : { dir: opts.baseDir, root: opts.root ?? projectRoot(opts.baseDir) };
  // Sites whose structure comes from a site file get it here; what the checks find in it is located in that file.
  const expansion = expandStructures(written, fileName, inStackFile, opts.readSiteFile ?? (base === undefined ? undefined : diskReader(base)));
  const data = expansion.data;
  const located = (pointer: string, message: string, atKey = false): Problem =>
    expansion.relocate(pointer, message, atKey) ?? inStackFile(pointer, `${describe(pointer)}: ${message}`, atKey);
  // One more than listed, so the summary line can point at the first problem left out.
  const schema = schemaReport(data, STACK_FILE_LIMITS.maxProblems + 1);
  const problems: Problem[] = [...expansion.problems, ...schema.issues.map((issue) => located(issue.pointer, issue.reason, issue.atKey))];
  const unlocated = schema.total - schema.issues.length;
  const warnings: Problem[] = [];
  // Resolved once, before the checks: whatever reads the stack after loading reads this value.
  const resolved = resolveStack(data as StackFile);
  for (const issue of checkStack(resolved, (pointer) => located(pointer, "").line)) {
    (issue.warning ? warnings : problems).push(located(issue.pointer, issue.reason, issue.atKey));
  }
  if (base !== undefined) for (const issue of fileIssues(data, base)) problems.push(located(issue.pointer, issue.reason));
  for (const issue of credentialSourceIssues(data)) problems.push(located(issue.pointer, issue.reason));
  const listedWarnings = listProblems(sortProblems(warnings), 0, "warning");
  if (problems.length > 0) return failure(fileName, listProblems(sortProblems(problems), unlocated, "problem"), listedWarnings);
  return { ok: true, file: fileName, ...resolved, warnings: listedWarnings, problemAt: located };
}

function failure(file: string, problems: Problem[], warnings: Problem[] = []): LoadResult {
  return { ok: false, file, problems, warnings };
}




function errorText(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES") return "permission denied";
  return err instanceof Error ? err.message : String(err);
}
