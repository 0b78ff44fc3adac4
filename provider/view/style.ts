/**
 * Colours for a terminal: a handful of ANSI codes, only when the output is a TTY and `NO_COLOR`
 * (https://no-color.org) is not set to a non-empty value. Everything else — files, pipes, CI logs,
 * pull-request comments, snapshots — gets plain text.
 */

/** A way of decorating text; `plain` decorates nothing. */
export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  green(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  magenta(s: string): string;
}

const identity = (s: string): string => s;

/** No decoration. */
export const plain: Style = { bold: identity, dim: identity, green: identity, red: identity, yellow: identity, cyan: identity, magenta: identity };

const code =
  (open: number, close: number) =>
  (s: string): string =>
    s === "" ? s : `\u001b[${open}m${s}\u001b[${close}m`;

/** ANSI decoration. */
export const ansi: Style = {
  bold: code(1, 22),
  dim: code(2, 22),
  green: code(32, 39),
  red: code(31, 39),
  yellow: code(33, 39),
  cyan: code(36, 39),
  magenta: code(35, 39),
};

/** Colours when writing to a terminal and `NO_COLOR` is unset or empty. */
export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Style {
  const noColor = env["NO_COLOR"];
  if (noColor !== undefined && noColor !== "") return plain;
  return stream.isTTY === true ? ansi : plain;
}
