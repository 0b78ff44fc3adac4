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
  concurrency?: { group: string; "cancel-in-progress"?: boolean };
  steps: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  env?: Record<string, string>;
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

describe("the GitOps platform workflow", () => {
  const text = read("examples/gitops/docs-platform.yml");
  const platform = parse(text) as Workflow;
  const workflows = fs.readdirSync(path.join(ROOT, "examples/gitops")).filter((f) => f.endsWith(".yml"));
  const pulumiSteps = (job: Job): Step[] => job.steps.filter((s) => s.uses?.startsWith("pulumi/actions@"));
  /** The Pulumi CLI version the package is tested with: the one .ci/pulumi-cli builds. */
  const testedCli = /^version=v(\S+)$/m.exec(read(".ci/pulumi-cli"))![1]!;

  it("checks drift in a concurrency group of its own, so a queued nightly run never displaces a pending up", () => {
    const up = platform.jobs["up"]!.concurrency!;
    const drift = platform.jobs["drift"]!.concurrency!;
    expect(up).toEqual({ group: "docs-platform-up", "cancel-in-progress": false });
    expect(drift.group).toBe("docs-platform-drift");
    expect(drift.group).not.toBe(up.group);
    expect(drift["cancel-in-progress"]).toBe(false);
  });

  it("pins every pulumi/actions step to the Pulumi CLI the package is tested with", () => {
    expect(testedCli).toMatch(/^\d+\.\d+\.\d+$/);
    let steps = 0;
    for (const file of workflows) {
      const workflow = parse(read(`examples/gitops/${file}`)) as Workflow;
      for (const [name, job] of Object.entries(workflow.jobs)) {
        for (const step of pulumiSteps(job)) {
          expect(String(step.with?.["pulumi-version"]), `${file} ${name}`).toBe(testedCli);
          steps++;
        }
      }
    }
    expect(steps).toBe(3);
  });

  it("validates with --format github wherever it validates, so problems annotate the pull request's lines", () => {
    const runs = workflows.flatMap((file) => Object.values((parse(read(`examples/gitops/${file}`)) as Workflow).jobs).flatMap((j) => j.steps.map((s) => s.run ?? "")));
    const validating = runs.filter((r) => r.includes("docsplatform validate"));
    expect(validating).toHaveLength(2);
    for (const run of validating) expect(run).toBe("npx docsplatform validate --format github docs.yaml");
  });

  it("runs up with refresh, so a field edited by hand is put back on the next merge", () => {
    const [step] = pulumiSteps(platform.jobs["up"]!);
    expect(step?.with).toMatchObject({ command: "up", refresh: true });
    expect(pulumiSteps(platform.jobs["drift"]!)[0]?.with).toMatchObject({ command: "preview", refresh: true, "expect-no-changes": true });
  });

  it("names a stack a self-managed backend accepts by default, and says a fork's preview lacks the backend's credentials", () => {
    expect(platform.env?.["STACK"]).toMatch(/^organization\/[\w.-]+\/[\w.-]+$/);
    expect(text).toMatch(/On Pulumi Cloud, use <your Pulumi organisation>\/<project>\/<stack>/);
    for (const file of [...workflows.map((f) => `examples/gitops/${f}`), "examples/gitops/README.md", "docs/gitops.md"]) {
      expect(read(file), file).not.toMatch(/fails? to authenticate|cannot\s+authenticate/);
    }
  });
});
