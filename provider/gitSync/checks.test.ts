/** The gitSync block's offline checks: each problem located at its line, in words, never echoing a token. */
import { describe, expect, it } from "vitest";
import { formatProblem, parseStack } from "../stack/load";
import { twoOwners } from "./checks";

const TOKEN = "glpat-OFFLINE-7d2c91e0";

/** The problems of a file with one site whose entry ends with `site` (indented under the site). */
function problems(site: string, spaces = ""): string[] {
  const text = `organization: demo-org\n${spaces}sites:\n  - key: docs\n    title: Docs\n${site}`;
  const r = parseStack(text, "docs.yaml");
  return r.ok ? [] : r.problems.map(formatProblem);
}

describe("gitSync offline", () => {
  it("accepts a GitHub and a GitLab block with the token as a source, and child spaces of the file", () => {
    expect(problems("    gitSync: { provider: github, repository: 1, branch: refs/heads/main, priority: gitbook }\n")).toEqual([]);
    expect(problems("    gitSync:\n      provider: gitlab\n      project: 2\n      branch: refs/heads/main\n      priority: git\n      accessToken: {config: gitlabToken}\n")).toEqual([]);
    expect(problems("    gitSync:\n      provider: github\n      repository: 1\n      branch: refs/heads/main\n      priority: gitbook\n      spaces: [{space: guides, projectDirectory: docs/guides}]\n", "spaces:\n  - { key: guides, id: space-guides }\n")).toEqual([]);
  });

  it("refuses a provider's missing repository and the other provider's members, located", () => {
    expect(problems("    gitSync: { provider: github, branch: refs/heads/main, priority: gitbook, project: 3 }\n")).toEqual([
      "docs.yaml:5:14: sites[0].gitSync: provider github needs repository: the repository's numeric ID",
      expect.stringMatching(/^docs\.yaml:5:\d+: sites\[0\]\.gitSync\.project: project belongs to a gitlab installation, not a github one$/),
    ]);
  });

  it("refuses a token written as a value without echoing it, and the package's own API token as a source", () => {
    const plain = problems(`    gitSync: { provider: gitlab, project: 2, branch: refs/heads/main, priority: gitbook, accessToken: ${TOKEN} }\n`);
    expect(plain.join("\n")).toMatch(/^docs\.yaml:5:\d+: sites\[0\]\.gitSync\.accessToken: a token is never written in the stack file/m);
    expect(plain.join("\n")).not.toContain(TOKEN);
    const own = problems("    gitSync: { provider: gitlab, project: 2, branch: refs/heads/main, priority: gitbook, accessToken: {env: DOCSPLATFORM_API_TOKEN} }\n");
    expect(own).toEqual([expect.stringMatching(/sites\[0\]\.gitSync\.accessToken\.env: environment variable DOCSPLATFORM_API_TOKEN holds the platform API token/)]);
  });

  it("refuses a branch that is not a full ref and a folder leaving the repository, in words", () => {
    const p = problems("    gitSync: { provider: github, repository: 1, branch: main, priority: gitbook, projectDirectory: ../up }\n").join("\n");
    expect(p).toContain("a full branch ref: refs/heads/ then the branch name");
    expect(p).toContain("no '.' or '..' segment");
    expect(p).not.toContain("^refs");
  });

  it("refuses a child space that is not a key of the file, or named twice", () => {
    const p = problems("    gitSync:\n      provider: github\n      repository: 1\n      branch: refs/heads/main\n      priority: gitbook\n      spaces:\n        - {space: guides, projectDirectory: a}\n        - {space: guides, projectDirectory: b}\n        - {space: nope, projectDirectory: c}\n", "spaces:\n  - { key: guides, id: space-guides }\n");
    expect(p).toEqual([
      expect.stringMatching(/^docs\.yaml:14:\d+: sites\[0\]\.gitSync\.spaces\[1\]\.space: space guides already has a child installation/),
      expect.stringMatching(/^docs\.yaml:15:\d+: sites\[0\]\.gitSync\.spaces\[2\]\.space: no space with key "nope"/),
    ]);
  });

  it("two owners: hand-declared structure under priority git, whichever member declares it; none with priority gitbook or structure from the file", () => {
    const g = { provider: "github", repository: 1, branch: "refs/heads/main", priority: "git" };
    expect(twoOwners({ sectionGroups: [{ key: "g" }] }, g)).toBe("sectionGroups");
    expect(twoOwners({ siteSpaces: [{ key: "s" }] }, g)).toBe("siteSpaces");
    expect(twoOwners({ sections: [] }, g)).toBeUndefined();
    expect(twoOwners({ sections: [{ key: "s" }] }, { ...g, priority: "gitbook" })).toBeUndefined();
    // A site that takes its structure from the site file (`structure: {file}`) declares none by hand.
    expect(twoOwners({ structure: { file: "site/gitbook-docs.yaml" }, sections: [{ key: "s" }] }, g)).toBeUndefined();
    const p = problems("    siteSpaces:\n      - { key: home, space: { id: space-guides } }\n    gitSync: { provider: github, repository: 1, branch: refs/heads/main, priority: git }\n");
    expect(p).toEqual([expect.stringMatching(/^docs\.yaml:6:7: sites\[0\]\.siteSpaces: site docs: its Git Sync installation \(gitSync, priority git, branch refs\/heads\/main\) makes gitbook-docs\.yaml in the repository the owner/)]);
  });
});
