/** `docsplatform tree` of the handbook example and of edge cases of paths and defaults. */
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { loadStackFile, parseStack } from "../stack/load";
import type { StackFile } from "../stack/model";
import { viewStack } from "./model";
import { ansi } from "./style";
import { renderTree } from "./tree";

const HANDBOOK = path.resolve(__dirname, "../../examples/handbook/docs.yaml");

function load(file: string): StackFile {
  const r = loadStackFile(file);
  if (!r.ok) throw new Error(r.problems.map((p) => p.message).join("\n"));
  return r.stack;
}

function parse(text: string): StackFile {
  const r = parseStack(text, "test.yaml");
  if (!r.ok) throw new Error(r.problems.map((p) => p.message).join("\n"));
  return r.stack;
}

describe("tree", () => {
  it("draws the handbook's sites in display order", () => {
    expect(renderTree(viewStack(load(HANDBOOK)))).toMatchSnapshot();
  });

  it("shows keys on request", () => {
    expect(renderTree(viewStack(load(HANDBOOK)), { keys: true })).toMatchSnapshot();
  });
});
