/**
 * Refused offline, located, in words (extensions §12, §13): `hidden: true` on a section or a section group
 * (the platform hides site spaces only), and an OpenAPI spec's `file` that does not exist, leaves the
 * project, is empty or is too large to send inline (the platform's 1 MiB body limit), or that is given
 * together with a `sourceURL` (or neither).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadStackFile, parseStack } from "./load";
import { OPENAPI_TEXT_MAX_JSON_BYTES } from "../resources/openApiSpec";
import { messages } from "../../test/support/stackMessages";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "dp-specfiles-"));
const project = path.join(root, "project");
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function write(name: string, text: string | Buffer, base = project): string {
  const file = path.join(base, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}
write("Pulumi.yaml", "name: p\nruntime: nodejs\n");

describe("hidden", () => {
  const file = (section: string, group: string) =>
    [
      "organization: demo-org",
      "sites:",
      "  - key: handbook",
      "    title: Handbook",
      "    sections:",
      "      - key: guides",
      "        title: Guides",
      section,
      "        siteSpaces:",
      "          - { key: guides, space: { id: space-guides }, hidden: true }",
      "    sectionGroups:",
      "      - key: more",
      "        title: More",
      "        sections: [guides]",
      group,
      "",
    ].join("\n");

  it("on a section and on a section group is refused at the line, saying only site spaces can be hidden", () => {
    expect(messages(parseStack(file("        hidden: true", "        hidden: true"), "docs.yaml"))).toEqual([
      "docs.yaml:8:17: sites[0].sections[0].hidden: true is refused: the platform can hide only site spaces, not a section or an external link; hide the section's site spaces instead (siteSpaces: [{key, space, hidden: true}])",
      "docs.yaml:15:17: sites[0].sectionGroups[0].hidden: true is refused: the platform can hide only site spaces, not a section group; hide the site spaces of its sections instead (hidden: true on each)",
    ]);
  });

  it("on a site space passes, and false on a section or group (the platform's own state) too", () => {
    expect(messages(parseStack(file("        hidden: false", "        hidden: false"), "docs.yaml"))).toEqual([]);
    expect(messages(parseStack(file("", ""), "docs.yaml"))).toEqual([]);
  });
});

describe("an OpenAPI spec's file", () => {
  const stack = (entry: string) => write("docs.yaml", `organization: demo-org\nopenapi:\n  - key: pets\n    slug: pets\n${entry}`);
  const problems = (entry: string): string[] => {
    const result = loadStackFile(stack(entry));
    return result.ok ? [] : result.problems.map((p) => `${p.line}:${p.col}: ${p.message}`);
  };

  it("inside the project, within the limit, passes", () => {
    write("specs/pets.yaml", "openapi: 3.1.0\n");
    expect(problems("    file: specs/pets.yaml\n    visibility: public\n")).toEqual([]);
  });

  it("that does not exist is refused at the path", () => {
    expect(problems("    file: specs/missing.yaml\n")).toEqual(['5:11: openapi[0].file: no file "specs/missing.yaml" next to the stack file (paths are relative to the stack file\'s folder)']);
  });

  it("misspelt is refused in one line naming the nearest paths of the project: a file, a folder, or several as near", () => {
    write("openapi/public-api.yaml", "openapi: 3.1.0\n");
    write("openapi/v1.yaml", "openapi: 3.1.0\n");
    write("openapi/v2.yaml", "openapi: 3.1.0\n");
    const cases: [string, string][] = [
      ["openapi/publc-api.yaml", '5:11: openapi[0].file: no file "openapi/publc-api.yaml" next to the stack file; did you mean "openapi/public-api.yaml"?'],
      ["opnapi/public-api.yaml", '5:11: openapi[0].file: no file "opnapi/public-api.yaml" next to the stack file; did you mean "openapi/public-api.yaml"?'],
      ["./openapi/v3.yaml", '5:11: openapi[0].file: no file "./openapi/v3.yaml" next to the stack file; did you mean "./openapi/v1.yaml" or "./openapi/v2.yaml"?'],
    ];
    for (const [given, message] of cases) {
      const found = problems(`    file: ${given}\n`);
      expect(found).toEqual([message]);
      expect(found[0]!.split("\n")).toHaveLength(1);
    }
  });

  it("misspelt, is offered no file or folder outside the project, even through a symbolic link", () => {
    write("outside/public-api.yaml", "openapi: 3.1.0\n", root);
    write("outside/private-api.yaml", "openapi: 3.1.0\n", root);
    fs.mkdirSync(path.join(project, "shared"), { recursive: true });
    fs.symlinkSync(path.join(root, "outside"), path.join(project, "linked"));
    fs.symlinkSync(path.join(root, "outside/private-api.yaml"), path.join(project, "shared/private-api.yaml"));
    expect(problems("    file: linked/publc-api.yaml\n")).toEqual(['5:11: openapi[0].file: no file "linked/publc-api.yaml" next to the stack file (paths are relative to the stack file\'s folder)']);
    expect(problems("    file: shared/privte-api.yaml\n")).toEqual(['5:11: openapi[0].file: no file "shared/privte-api.yaml" next to the stack file (paths are relative to the stack file\'s folder)']);
  });

  it("outside the project is refused before it is read", () => {
    write("secret.yaml", "key: value\n", root);
    expect(problems("    file: ../secret.yaml\n")).toEqual([
      '5:11: openapi[0].file: "../secret.yaml" leads outside the project; files the stack file names must be inside the project\'s folder (where Pulumi.yaml is)',
    ]);
  });

  it("over the limit on disk, or once JSON-escaped, or empty, is refused with the numbers", () => {
    write("specs/huge.yaml", Buffer.alloc(OPENAPI_TEXT_MAX_JSON_BYTES + 1, "a"));
    expect(problems("    file: specs/huge.yaml\n")).toEqual([
      '5:11: openapi[0].file: "specs/huge.yaml" is 1,048,001 bytes, over the 1,048,000 bytes a file sent inline may take (the platform refuses a request body over 1 MiB, which leaves 1,048,000 bytes for the text)',
    ]);
    // Under the limit on disk, over it once its line breaks are escaped (two bytes each).
    write("specs/lines.yaml", "\n".repeat(600_000));
    expect(problems("    file: specs/lines.yaml\n")).toEqual([
      '5:11: openapi[0].file: "specs/lines.yaml" takes 1,200,000 bytes once JSON-escaped (600,000 on disk), over the 1,048,000 bytes a file sent inline may take (the platform refuses a request body over 1 MiB, which leaves 1,048,000 bytes for the text)',
    ]);
    write("specs/empty.yaml", "");
    expect(problems("    file: specs/empty.yaml\n")).toEqual(['5:11: openapi[0].file: "specs/empty.yaml" is empty; the platform needs the specification\'s text (at least one character)']);
  });

  it("and a sourceURL together, or neither, is refused", () => {
    write("specs/pets.yaml", "openapi: 3.1.0\n");
    expect(problems("    file: specs/pets.yaml\n    sourceURL: https://example.com/pets.yaml\n")).toEqual(["5:5: openapi[0].file: give exactly one of sourceURL and file, not both"]);
    expect(problems("    visibility: private\n")).toEqual(["3:5: openapi[0]: give exactly one of sourceURL and file"]);
  });
});
