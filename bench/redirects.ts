/**
 * `node dist/bench/redirects.js [N]`: one site's redirect set of N redirects (default 5,000) through the engine
 * harness — create, no-op up, one redirect changed, refresh, destroy — with the API calls of each phase
 * against their minimum and the size of the set in state. Writes bench/REDIRECTS.json and renders
 * bench/RESULTS.md again (its "Redirects" section). Calls do not depend on the machine's load.
 */
import fs from "node:fs";
import path from "node:path";
import { startEmulator } from "../emulator";
import { prepareProgram, runnerAgainst, type RunResult } from "../test/harness";
import { REDIRECTS_PER_BULK } from "../provider/client";

/** One phase of the redirects run. */
export interface RedirectPhase {
  phase: string;
  writes: number;
  reads: number;
  minWrites: number;
  minReads: number;
  wallMs: number;
}

/** What bench/REDIRECTS.json holds. */
export interface RedirectsReport {
  date: string;
  n: number;
  phases: RedirectPhase[];
  /** Bytes of the set's resource in the state file (inputs and outputs). */
  stateBytes: number;
}

const BENCH_DIR = path.join(__dirname, "..", "..", "bench");
/** Page size of the provider's list walks. */
const PAGE = 1000;

/** The markdown section of RESULTS.md for a redirects run. */
export function renderRedirects(r: RedirectsReport): string[] {
  const lines = [
    `## Redirects: ${r.n.toLocaleString("en")} on one site`,
    "",
    `Measured by \`node dist/bench/redirects.js ${r.n}\` (bench/redirects.ts) on ${r.date.slice(0, 10)}: one \`SiteRedirects\` resource through the engine harness. Minimum: create and destroy ⌈N / ${REDIRECTS_PER_BULK}⌉ bulk upserts; no-op up 0; one redirect changed 1 bulk upsert; refresh one walk of the live list (⌈N / ${PAGE}⌉ pages) and one of the draft list (1 page).`,
    "",
    "| phase | calls | minimum | calls = min? | wall |",
    "|---|---|---|---|---|",
  ];
  for (const p of r.phases) {
    const met = p.writes === p.minWrites && p.reads === p.minReads;
    lines.push(`| ${p.phase} | ${p.writes} W + ${p.reads} R | ${p.minWrites} W + ${p.minReads} R | ${met ? "yes" : "**no**"} | ${Math.round(p.wallMs)} ms |`);
  }
  lines.push("", `The set's resource in state: ${r.stateBytes.toLocaleString("en")} bytes (${Math.round(r.stateBytes / r.n)} bytes per redirect, inputs and outputs).`, "");
  return lines;
}

/** The redirects section from bench/REDIRECTS.json, when a run wrote one. */
export function redirectsSection(): string[] {
  const file = path.join(BENCH_DIR, "REDIRECTS.json");
  return fs.existsSync(file) ? renderRedirects(JSON.parse(fs.readFileSync(file, "utf8")) as RedirectsReport) : [];
}

async function main(n: number): Promise<void> {
  const emu = await startEmulator({ port: 0 });
  const program = await prepareProgram(path.join(BENCH_DIR, "redirects"), { installPackage: true });
  const runner = runnerAgainst(program.dir, emu);
  try {
    const api = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
      const res = await fetch(emu.url + p, { method, headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
      return (await res.json()) as T;
    };
    const site = await api<{ id: string }>("POST", "/v1/orgs/demo-org/sites", { title: "Redirects bench", spaces: ["space-guides"] });
    const spaces = await api<{ items: { id: string }[] }>("GET", `/v1/orgs/demo-org/sites/${site.id}/site-spaces`);
    const config = { "redirects-bench:count": String(n), "redirects-bench:siteId": site.id, "redirects-bench:siteSpaceId": spaces.items[0]!.id };
    const bulks = Math.ceil(n / REDIRECTS_PER_BULK);
    const phases: RedirectPhase[] = [];
    const measure = async (phase: string, min: { w: number; r: number }, run: () => Promise<RunResult>): Promise<void> => {
      emu.control.clearLog();
      const start = performance.now();
      const result = await run();
      const wallMs = performance.now() - start;
      if (result.error) throw result.error;
      const writes = result.apiCalls.filter((c) => c.method !== "GET").length;
      phases.push({ phase, writes, reads: result.apiCalls.length - writes, minWrites: min.w, minReads: min.r, wallMs });
      process.stdout.write(`${phase}: ${writes} W + ${result.apiCalls.length - writes} R (${Math.round(wallMs)} ms)\n`);
    };
    await measure("create", { w: bulks, r: 0 }, () => runner.up({ config }));
    await measure("no-op up", { w: 0, r: 0 }, () => runner.up({ config }));
    await measure("one changed", { w: 1, r: 0 }, () => runner.up({ config: { ...config, "redirects-bench:edited": "1" } }));
    await measure("refresh", { w: 0, r: Math.ceil(n / PAGE) + 1 }, () => runner.refresh({ config: { ...config, "redirects-bench:edited": "1" } }));
    const stateBytes = JSON.stringify(runner.resources().find((r) => r.type.endsWith(":SiteRedirects"))).length;
    await measure("destroy", { w: bulks, r: 0 }, () => runner.destroy({ config }));
    const report: RedirectsReport = { date: new Date().toISOString(), n, phases, stateBytes };
    fs.writeFileSync(path.join(BENCH_DIR, "REDIRECTS.json"), `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(renderRedirects(report).join("\n"));
  } finally {
    await runner.close();
    program.cleanup();
    await emu.close();
  }
}

if (require.main === module) {
  main(Number(process.argv[2] ?? 5000)).then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
