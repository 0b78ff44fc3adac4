/** One problem of a stack file, located at the offending key or value. */
export interface Problem {
  /** The file name as given to the loader. */
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  col: number;
  /** Human sentence naming the field and the limit, e.g. `sites[0].title: must be at most 128 characters (got 140)`. */
  message: string;
  /** JSON pointer of the offending value (`""` for the whole file). */
  path: string;
}

/** `file:line:col: message`, the way editors and CI annotate a line. */
export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}:${p.col}: ${p.message}`;
}
