/**
 * The examples show output of this code, not hand-written text: the handbook README's tree and the
 * GitOps README's sample comment are regenerated here and must appear verbatim. The GitOps diff
 * workflows keep the untrusted pull-request code away from the write token.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadStackFile } from "../stack/load";
import type { ResolvedStack } from "../stack/resolve";
import { diffStacks, renderDiffMarkdown } from "./diff";
import { viewStack } from "./sites";
import { renderTree } from "./tree";

const ROOT = path.resolve(__dirname, "../..");
const read = (p: string): string => fs.readFileSync(path.join(ROOT, p), "utf8");

function load(p: string): ResolvedStack {
  const r = loadStackFile(path.join(ROOT, p));
  if (!r.ok) throw new Error(r.problems.map((x) => x.message).join("\n"));
  return r;
}

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  if?: string;
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

describe("the examples show generated output", () => {
  it("the handbook README shows the tree of its docs.yaml", () => {
    const tree = renderTree(viewStack(load("examples/handbook/docs.yaml")));
    expect(read("examples/handbook/README.md")).toContain(`\`\`\`text\n${tree}\`\`\`\n`);
  });

  it("the GitOps README shows the comment docsplatform diff makes for a pull request's edit of the handbook", () => {
    const comment = renderDiffMarkdown(diffStacks(load("examples/handbook/docs.yaml"), load("provider/view/testdata/pull-request.yaml")));
    expect(read("examples/gitops/README.md")).toContain(comment);
  });
});

describe("the GitOps site-diff workflows", () => {
  const diff = parse(read("examples/gitops/docs-diff.yml")) as Workflow;
  const comment = parse(read("examples/gitops/docs-diff-comment.yml")) as Workflow;

  it("computes the diff on pull_request, with a read-only token and no secret", () => {
    expect(Object.keys(diff.on)).toEqual(["pull_request"]);
    expect(diff.permissions).toEqual({ contents: "read" });
    const job = diff.jobs["diff"]!;
    expect(job.permissions).toBeUndefined();
    expect(read("examples/gitops/docs-diff.yml")).not.toMatch(/secrets\./);
    const run = job.steps.map((s) => s.run ?? "").join("\n");
    expect(run).toContain("npx docsplatform diff git:HEAD^1:./docs.yaml docs.yaml --base-may-be-missing --format markdown");
    expect(job.steps.find((s) => s.uses?.startsWith("actions/checkout@"))?.with).toMatchObject({ "persist-credentials": false });
    expect(job.steps.some((s) => s.uses?.startsWith("actions/upload-artifact@"))).toBe(true);
  });

  it("runs the URL guard as a check of its own on pull_request, read-only and without secrets", () => {
    const guard = parse(read("examples/gitops/docs-url-guard.yml")) as Workflow;
    expect(Object.keys(guard.on)).toEqual(["pull_request"]);
    expect(guard.permissions).toEqual({ contents: "read" });
    expect(read("examples/gitops/docs-url-guard.yml")).not.toMatch(/secrets\./);
    const job = guard.jobs["guard"]!;
    expect(job.steps.map((s) => s.run ?? "").join("\n")).toContain("npx docsplatform diff git:HEAD^1:./docs.yaml docs.yaml --base-may-be-missing --fail-on-broken");
    expect(job.steps.find((s) => s.uses?.startsWith("actions/checkout@"))?.with).toMatchObject({ "fetch-depth": 2, "persist-credentials": false });
  });

  it("posts it from workflow_run without checking out or running anything of the pull request", () => {
    expect(comment.on).toEqual({ workflow_run: { workflows: [diff.name], types: ["completed"] } });
    expect(comment.permissions).toEqual({ contents: "read" });
    const job = comment.jobs["comment"]!;
    expect(job.if).toContain("github.event.workflow_run.conclusion == 'success'");
    expect(job.permissions).toEqual({ actions: "read", "pull-requests": "write" });
    expect(job.steps.some((s) => s.uses?.startsWith("actions/checkout@"))).toBe(false);
    const run = job.steps.map((s) => s.run ?? "").join("\n");
    expect(run).not.toMatch(/\bnpm\b|\bnpx\b|\bnode\b/);
    // Event data reaches the script only through the environment, never spliced into it.
    expect(run).not.toContain("${{");
    expect(run).toContain('"$(gh pr view "$pr" --json headRefOid --jq .headRefOid)" != "$HEAD_SHA"');
    expect(run).toContain('-F "body=@$body"');
  });
});
