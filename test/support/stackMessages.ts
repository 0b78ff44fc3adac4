/** How the offline-check tests read a stack file: what the loader says of it, each line `file:line:col: message`. */
import { formatProblem, parseStack, type LoadResult } from "../../provider/stack/load";

/** A load's problems, or its warnings when it loads, as the command line prints them. */
export const messages = (r: LoadResult): string[] => (r.ok ? r.warnings : r.problems).map(formatProblem);

/** What the loader says of `text` read as docs.yaml. */
export const messagesOf = (text: string): string[] => messages(parseStack(text, "docs.yaml"));

/** A file whose one site is `key` (one site space, `g`), with the site's further lines from line 6. */
export const oneSiteFile = (lines: string, key = "handbook", title = "Handbook"): string =>
  `organization: demo-org\nsites:\n  - key: ${key}\n    title: ${title}\n    siteSpaces: [{ key: g, space: { id: space-guides } }]\n${lines}`;
