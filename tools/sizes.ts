/**
 * `npm run sizes`: the functions longer than 80 lines and the files longer than 500 lines in provider/
 * (tests and generated files aside), as the TypeScript parser sees them. Exits 1 when there is any.
 *
 * A function is every function-like node (declarations, methods, constructors, accessors, function
 * expressions and arrow functions), counted from its first to its last line; a file's length is its
 * number of lines. `--all N` lists every function of at least N lines instead of only the long ones.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

const MAX_FUNCTION = 80;
const MAX_FILE = 500;

/** The TypeScript files of a folder, recursively: tests and declaration files aside. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") && !e.name.endsWith(".d.ts") && !isGenerated(p)) out.push(p);
  }
  return out.sort();
}

/** A file written by a tool says so in its first lines. */
function isGenerated(file: string): boolean {
  return /generated|do not edit/i.test(fs.readFileSync(file, "utf8").split("\n").slice(0, 3).join("\n"));
}

/** A readable name of a function-like node: its own name, or the variable or property it is assigned to. */
function nameOf(node: ts.SignatureDeclaration, sf: ts.SourceFile): string {
  const own = (node as { name?: ts.PropertyName }).name;
  const named = own ?? (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent) || ts.isPropertyDeclaration(node.parent) ? node.parent.name : undefined);
  const base = named === undefined ? "(anonymous)" : named.getText(sf);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  return base;
}

/** Every function-like node of a file with its length in lines (also what the emulator's size test counts). */
export function functionsOf(file: string): { name: string; line: number; lines: number }[] {
  const text = fs.readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: { name: string; line: number; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body !== undefined) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ name: nameOf(node, sf), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function main(argv: string[]): number {
  const root = path.resolve(__dirname, "../..");
  const allAt = argv[0] === "--all" ? Number(argv[1] ?? "1") : undefined;
  const files = sources(path.join(root, "provider"));
  const longFunctions: string[] = [];
  const longFiles: string[] = [];
  for (const file of files) {
    const rel = path.relative(root, file);
    const lines = fs.readFileSync(file, "utf8").split("\n").length;
    if (lines > MAX_FILE) longFiles.push(`${rel} ${lines}`);
    for (const f of functionsOf(file)) {
      if (f.lines > (allAt === undefined ? MAX_FUNCTION : allAt - 1)) longFunctions.push(`${rel}:${f.line} ${f.name} ${f.lines}`);
    }
  }
  process.stdout.write(`functions longer than ${allAt === undefined ? MAX_FUNCTION : allAt - 1} lines: ${longFunctions.length}\n`);
  for (const l of longFunctions) process.stdout.write(`  ${l}\n`);
  process.stdout.write(`files longer than ${MAX_FILE} lines: ${longFiles.length}\n`);
  for (const l of longFiles) process.stdout.write(`  ${l}\n`);
  return longFiles.length > 0 || (allAt === undefined && longFunctions.length > 0) ? 1 : 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
