/**
 * The GitOps example workflows are valid GitHub Actions workflows: actionlint (built from the Go module
 * proxy by .ci/actionlint on first use, like the Pulumi CLI of the CLI suite) finds nothing in them —
 * expressions, job and step keys, `needs`, permissions, and the inputs of the actions they use
 * (`pulumi/actions@v6` included). Its shellcheck and pyflakes checks are off (`-shellcheck= -pyflakes=`):
 * it runs them only when they are on PATH, and the result must not depend on the machine.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const GITOPS = path.join(ROOT, "examples/gitops");

/** What .ci/actionlint exits with when Go is missing. */
const NO_GO = 3;

/** The actionlint binary, built on the first call (a few seconds with Go's caches). Fails, never skips, without Go. */
function actionlint(): string {
  const run = spawnSync("bash", [path.join(ROOT, ".ci/actionlint")], { encoding: "utf8" });
  if (run.status === NO_GO) throw new Error("actionlint cannot be built: Go is not installed (.ci/actionlint builds it from the Go module proxy; CI has Go)");
  if (run.status !== 0) throw new Error(`.ci/actionlint failed (exit ${run.status ?? run.signal}):\n${run.stderr}`);
  return run.stdout.trim();
}

function lint(files: string[]): { status: number | null; output: string } {
  const run = spawnSync(actionlint(), ["-shellcheck=", "-pyflakes=", "-no-color", ...files], { cwd: ROOT, encoding: "utf8" });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("the GitOps workflows under actionlint", { timeout: 300_000 }, () => {
  it("every workflow in examples/gitops passes with no finding", () => {
    const files = fs.readdirSync(GITOPS).filter((f) => f.endsWith(".yml")).map((f) => path.join("examples/gitops", f));
    expect(files).toHaveLength(4);
    expect(lint(files)).toEqual({ status: 0, output: "" });
  });

  it("the linter knows pulumi/actions' inputs: a misspelt one is a finding", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "actionlint-"));
    try {
      const text = fs.readFileSync(path.join(GITOPS, "docs-platform.yml"), "utf8");
      expect(text).toContain("pulumi-version:");
      const file = path.join(dir, "docs-platform.yml");
      fs.writeFileSync(file, text.replace("pulumi-version:", "pulumi-versoin:"));
      const run = lint([file]);
      expect(run.status).toBe(1);
      expect(run.output).toContain('input "pulumi-versoin" is not defined in action "pulumi/actions@v6"');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
