/**
 * The GitOps example workflow (examples/gitops/docs-platform.yml): preview with a pull-request comment on
 * every pull request, up on main, the API token only from the CI's secret store.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  "working-directory"?: string;
}
interface Job {
  if?: string;
  permissions?: Record<string, string>;
  concurrency?: { group: string; "cancel-in-progress": boolean };
  steps: Step[];
}
interface Workflow {
  on: { pull_request?: { paths: string[] }; push?: { branches: string[]; paths: string[] }; schedule?: unknown[] };
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

const FILE = path.resolve(__dirname, "../../examples/gitops/docs-platform.yml");
const text = fs.readFileSync(FILE, "utf8");
const workflow = parse(text) as Workflow;

function pulumiStep(job: Job): Step {
  const steps = job.steps.filter((s) => s.uses?.startsWith("pulumi/actions@"));
  expect(steps).toHaveLength(1);
  return steps[0]!;
}

describe("the GitOps workflow", () => {
  it("previews every pull request with the diff posted as a comment, after an offline validation", () => {
    expect(workflow.on.pull_request?.paths).toContain("docs/**");
    const job = workflow.jobs["preview"]!;
    expect(job.if).toBe("github.event_name == 'pull_request'");
    expect(job.permissions?.["pull-requests"]).toBe("write");
    const step = pulumiStep(job);
    expect(step.with).toMatchObject({ command: "preview", "comment-on-pr": true, "work-dir": "docs", "stack-name": "${{ env.STACK }}" });
    expect(step.with?.["github-token"]).toBe("${{ secrets.GITHUB_TOKEN }}");
    const validate = job.steps.findIndex((s) => s.run === "npx docsplatform validate --format github docs.yaml");
    expect(validate).toBeGreaterThan(-1);
    expect(validate).toBeLessThan(job.steps.indexOf(step));
  });

  it("runs up on main only, one at a time and never cancelled", () => {
    expect(workflow.on.push?.branches).toEqual(["main"]);
    const job = workflow.jobs["up"]!;
    expect(job.if).not.toContain("pull_request");
    expect(job.concurrency).toEqual({ group: "docs-platform-up", "cancel-in-progress": false });
    expect(pulumiStep(job).with).toMatchObject({ command: "up", "work-dir": "docs" });
  });

  it("checks drift nightly without changing anything", () => {
    expect(workflow.on.schedule).toHaveLength(1);
    expect(pulumiStep(workflow.jobs["drift"]!).with).toMatchObject({ command: "preview", refresh: true, "expect-no-changes": true });
  });

  it("takes the API token from the secret store, in every job that talks to the API", () => {
    for (const [name, job] of Object.entries(workflow.jobs)) {
      expect(pulumiStep(job).env?.["DOCSPLATFORM_API_TOKEN"], name).toBe("${{ secrets.DOCSPLATFORM_API_TOKEN }}");
    }
    expect(workflow.env["PULUMI_ACCESS_TOKEN"]).toBe("${{ secrets.PULUMI_ACCESS_TOKEN }}");
    // No literal token anywhere: every token-like value is a secrets expression.
    expect(text).not.toMatch(/dev-token|reader-token/);
    for (const line of text.split("\n").filter((l) => /TOKEN:\s*\S/.test(l) && !l.trim().startsWith("#"))) {
      expect(line).toMatch(/\$\{\{ secrets\.[A-Z_]+ \}\}/);
    }
  });
});

// Regression (#33): the URL guard's workflow still set up Node 20; the package needs Node 22.
describe("every GitOps example workflow", () => {
  const dir = path.dirname(FILE);
  it.each(fs.readdirSync(dir).filter((f) => f.endsWith(".yml")))("%s sets up Node 22 wherever it sets up Node", (file) => {
    const jobs = (parse(fs.readFileSync(path.join(dir, file), "utf8")) as Workflow).jobs;
    const versions = Object.values(jobs).flatMap((j) => j.steps.filter((s) => s.uses?.startsWith("actions/setup-node@")).map((s) => s.with?.["node-version"]));
    for (const v of versions) expect(String(v)).toBe("22");
  });
});
