/**
 * docs/getting-started.md's first block, run as it stands: one bash in a copy of the checkout (its files as
 * git lists them, the dependencies and the built Pulumi CLI linked, since `npm ci` would need the network and
 * the block's `.ci/pulumi-cli` would otherwise build it) goes from `npm run package` through `pulumi new`
 * of the packed template, the emulator started in the background and the token set, to one's own project's
 * first `pulumi up` and a second one that makes no API call. PATH holds only Node.js and the system's
 * folders (/usr/bin, /bin) until the block puts the CLI folder first; HOME is a new folder. Two changes to
 * the block, both asserted: its `npm ci` line is left out, and its port is a free one.
 *
 * Between its commands the block waits on the test (a line on file descriptor 3 each way), so the test
 * reads the emulator's request log around each `pulumi up`.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { freePort } from "../support/ports";
import * as os from "node:os";
import * as path from "node:path";
import type { Duplex } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../harness/program";
import { pulumiBinDir } from "./pulumi";
import { userShellEnv } from "./userShell";

const HEADING = "## From a clone to your own project on the emulator";
const DOC_PORT = 4010;

/** The first `sh` block after the heading, as the page shows it. */
function gettingStartedBlock(): string {
  const page = fs.readFileSync(path.join(REPO_ROOT, "docs", "getting-started.md"), "utf8");
  const at = page.indexOf(`\n${HEADING}\n`);
  if (at < 0) throw new Error(`docs/getting-started.md has no "${HEADING}"`);
  const block = /```sh\n([\s\S]*?)```/.exec(page.slice(at));
  if (!block) throw new Error(`docs/getting-started.md has no sh block after "${HEADING}"`);
  return block[1]!;
}

/** The block's commands, one per logical line (a line ending in `\` continues on the next). */
function commandsOf(block: string): string[] {
  const commands: string[] = [];
  let current = "";
  for (const line of block.split("\n")) {
    current += (current ? "\n" : "") + line;
    if (line.endsWith("\\")) continue;
    if (current.trim() !== "" && !current.trim().startsWith("#")) commands.push(current);
    current = "";
  }
  return commands;
}


/** A checkout as a clone has it: the files git lists (tracked and new, not ignored), with node_modules and the built CLI linked. */
function copyCheckout(into: string): void {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO_ROOT, encoding: "utf8" });
  for (const rel of listed.split("\0").filter(Boolean)) {
    const from = path.join(REPO_ROOT, rel);
    if (!fs.existsSync(from)) continue; // deleted in the working tree
    fs.mkdirSync(path.dirname(path.join(into, rel)), { recursive: true });
    fs.copyFileSync(from, path.join(into, rel)); // keeps the mode: .ci/pulumi-cli stays executable
  }
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(into, "node_modules"));
  fs.mkdirSync(path.join(into, ".work"));
  fs.symlinkSync(path.join(REPO_ROOT, ".work", "pulumi"), path.join(into, ".work", "pulumi"));
}

/** One command of the block as it ran. */
interface Step {
  command: string;
  code: number;
  seconds: number;
  output: string;
}

let work: string;
let shell: ChildProcess | undefined;

beforeAll(() => {
  // Builds the CLI, or adds a missing plugin script, with the test's own PATH (Go on it): the block's
  // `.ci/pulumi-cli` then finds the folder complete and builds nothing.
  pulumiBinDir();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "docsplatform-getting-started-"));
  fs.mkdirSync(path.join(work, "home"));
  copyCheckout(path.join(work, "checkout"));
}, 120_000);

afterAll(() => {
  // The block leaves the emulator running in the background, in the shell's process group.
  if (shell?.pid !== undefined) {
    try {
      process.kill(-shell.pid, "SIGTERM");
    } catch {
      // Gone already.
    }
  }
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe("docs/getting-started.md, from a clone to one's own project on the emulator", { timeout: 300_000 }, () => {
  it("runs as written: npm run package, pulumi new, the emulator, up, and a second up with no API call, with no plugin warning", async () => {
    const port = await freePort();
    const written = commandsOf(gettingStartedBlock());
    expect(written.filter((c) => c === "npm ci")).toHaveLength(1);
    expect(written.filter((c) => c.includes(`port=${DOC_PORT}`))).toHaveLength(1);
    const commands = written.filter((c) => c !== "npm ci").map((c) => c.replace(`port=${DOC_PORT}`, `port=${port}`));
    const ups = commands.flatMap((c, i) => (/^pulumi up\b/.test(c) ? [i] : []));
    expect(ups).toHaveLength(2);
    expect(commands[0]).toMatch(/^npm run package\b/);

    // After each command, `__step N`: a marker in the output, the command's exit code on fd 3, then the test's answer.
    const script = [
      "exec 2>&1",
      `__step() { local code=$?; printf '\\n::step %s\\n' "$1"; printf '%s %s\\n' "$1" "$code" >&3; local answer; IFS= read -r answer <&3 && [[ "$answer" == go ]] || exit "$code"; }`,
      ...commands.flatMap((c, i) => [c, `__step ${i}`]),
    ].join("\n");
    fs.writeFileSync(path.join(work, "block.sh"), script + "\n");

    const child = spawn("bash", ["--noprofile", "--norc", path.join(work, "block.sh")], {
      cwd: path.join(work, "checkout"),
      env: userShellEnv(path.join(work, "home")),
      stdio: ["ignore", "pipe", "pipe", "pipe"],
      detached: true,
    });
    shell = child;
    let output = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (output += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (output += d));
    const control = child.stdio[3] as Duplex;
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

    const log = `http://127.0.0.1:${port}/_emulator/log`;
    const calls = async (): Promise<string[]> => ((await (await fetch(log)).json()) as { items: { method: string; route: string }[] }).items.map((c) => `${c.method} ${c.route}`);
    const steps: Step[] = [];
    const apiCalls: string[][] = [];
    let started = Date.now();
    let consumed = 0;
    const report = () => steps.map((s) => `$ ${s.command}   [exit ${s.code}, ${s.seconds.toFixed(1)} s]\n${s.output}`).join("\n");

    let pending = "";
    // The emulator the block starts holds fd 3 too: the loop ends with the last command, not with the stream.
    reading: for await (const chunk of control.setEncoding("utf8")) {
      pending += chunk as string;
      let nl: number;
      while ((nl = pending.indexOf("\n")) >= 0) {
        const [index, code] = pending.slice(0, nl).split(" ").map(Number) as [number, number];
        pending = pending.slice(nl + 1);
        // The command's output is in before its marker.
        const marker = `\n::step ${index}\n`;
        while (!output.includes(marker, consumed)) await new Promise((r) => setTimeout(r, 20));
        const end = output.indexOf(marker, consumed);
        steps.push({ command: commands[index]!, code, seconds: (Date.now() - started) / 1000, output: output.slice(consumed, end) });
        consumed = end + marker.length;
        if (code !== 0) {
          control.write("stop\n");
          throw new Error(`the block stopped at a command that failed:\n${report()}`);
        }
        if (ups.includes(index)) apiCalls.push(await calls());
        // Nothing but the second up in its log.
        if (index + 1 === ups[1]) await fetch(log, { method: "DELETE" });
        started = Date.now();
        control.write("go\n");
        if (index === commands.length - 1) break reading;
      }
    }
    expect(await exited, report()).toBe(0);
    expect(steps.map((s) => s.command)).toEqual(commands);

    const stepOf = (pattern: RegExp): Step => steps.find((s) => pattern.test(s.command))!;
    expect(stepOf(/^export PATH=/).output).toBe("");
    expect(stepOf(/^pulumi new /).output).not.toMatch(/npm (ERR|error)/);
    expect(steps[ups[0]!]!.output).toMatch(/^\s+\+ 5 created$/m);
    expect(apiCalls[0]!.filter((c) => !c.startsWith("GET ")).length).toBeGreaterThan(0);
    expect(steps[ups[1]!]!.output).toMatch(/^\s+5 unchanged$/m);
    expect(apiCalls[1]).toEqual([]);
    // The plugin is found beside `pulumi`, where PATH finds it too: no warning about where it came from.
    expect(output).not.toMatch(/from \$PATH|warning: using/);
    expect(fs.existsSync(path.join(work, "our-docs", "node_modules", "pulumi-docsplatform", "dist", "provider", "program.js"))).toBe(true);
    expect(fs.readFileSync(path.join(work, "our-docs", "Pulumi.dev.yaml"), "utf8")).toMatch(/docsplatform:apiToken:\s+secure: /);
  });
});
