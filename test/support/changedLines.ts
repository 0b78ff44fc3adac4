/** Test support: the lines a change of a file removed (`-…`) and added (`+…`), as `git diff` shows them. */
import { unifiedDiff } from "../../provider/pull/edit";

/** The removed and added lines of the unified diff from `before` to `after`, in the diff's order. */
export function changedLines(before: string, after: string): string[] {
  return unifiedDiff(before, after, "file")
    .split("\n")
    .filter((l) => /^[-+]/.test(l) && !/^(---|\+\+\+) /.test(l));
}
