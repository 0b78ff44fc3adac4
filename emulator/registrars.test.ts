import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { describe, expect, it } from "vitest";

/** The longest a function in emulator/routes may be: a registrar registers one resource's routes. */
const MAX_LINES = 120;
const ROUTES = path.join(__dirname, "routes");

/** Every function of a TypeScript source with a body, by name, with its length in lines (first to last). */
function functionLengths(file: string, text: string): { name: string; line: number; lines: number }[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: { name: string; line: number; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body !== undefined) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named = (node as { name?: ts.Node }).name ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined);
      out.push({ name: named?.getText(sf) ?? "(anonymous)", line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe("the emulator's route registrars", () => {
  it(`are each at most ${MAX_LINES} lines, as is every function in emulator/routes`, () => {
    const long: string[] = [];
    for (const name of fs.readdirSync(ROUTES).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
      const file = path.join(ROUTES, name);
      for (const f of functionLengths(file, fs.readFileSync(file, "utf8"))) if (f.lines > MAX_LINES) long.push(`emulator/routes/${name}:${f.line} ${f.name} is ${f.lines} lines`);
    }
    expect(long, "split the registrar by resource").toEqual([]);
  });

  it("counts a long registrar, the arrow handlers inside it and a function assigned to a name", () => {
    const handler = `    handler: (ctx) => {\n${"      void ctx;\n".repeat(3)}    },\n`;
    const text = `export function registerAll(route: Route): void {\n${`  route({\n${handler}  });\n`.repeat(30)}}\nconst helper = function () {\n  return 1;\n};\n`;
    const found = functionLengths("x.ts", text);
    expect(found.find((f) => f.name === "registerAll")).toEqual({ name: "registerAll", line: 1, lines: 30 * 7 + 2 });
    expect(found.filter((f) => f.name === "(anonymous)")).toHaveLength(30);
    expect(found.find((f) => f.name === "helper")?.lines).toBe(3);
  });
});
