/**
 * Keeping an earlier run's measurements in a report that did not re-measure them: a run of some sizes,
 * or of the harness alone, rewrites bench/RESULTS.md whole, so the sizes and CLI tables it did not
 * measure are carried over from the earlier report (bench/RESULTS.json), each marked with the run it
 * came from, and the page says which rows are whose. A size measured again replaces the earlier one.
 */
import * as fs from "node:fs";
import type { BenchReport, CliSizeResult, EarlierRun, SizeResult } from "./types";

/** The earlier report at `file`, or null when there is none (a first run). */
export function readEarlier(file: string): BenchReport | null {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as BenchReport) : null;
}

/** A row's run: its own mark if it was kept before, else the report it comes from. */
function runOf(row: { earlier?: EarlierRun }, report: BenchReport): EarlierRun {
  return row.earlier ?? { date: report.date, command: report.command };
}

/**
 * `report` with the earlier report's harness sizes and CLI sizes it did not measure (by N), each marked
 * with its run; its rate-limited run and setup comparisons too when this run made none of them.
 */
export function keepEarlier(report: BenchReport, earlier: BenchReport): BenchReport {
  const measured = new Set(report.sizes.map((s) => s.n));
  const keptSizes: SizeResult[] = earlier.sizes.filter((s) => !measured.has(s.n)).map((s) => ({ ...s, earlier: runOf(s, earlier) }));
  const cliMeasured = new Set((report.cli?.sizes ?? []).map((s) => s.n));
  const keptCli: CliSizeResult[] = (earlier.cli?.sizes ?? []).filter((s) => !cliMeasured.has(s.n)).map((s) => ({ ...s, earlier: runOf(s, earlier) }));
  const cli =
    keptCli.length === 0
      ? report.cli
      : { version: report.cli?.version ?? earlier.cli?.version ?? null, ...(report.cli?.note ? { note: report.cli.note } : {}), sizes: [...(report.cli?.sizes ?? []), ...keptCli] };
  return {
    ...report,
    sizes: [...report.sizes, ...keptSizes],
    ...(cli ? { cli } : {}),
    rate: report.rate ?? earlier.rate,
    registration: report.registration.length > 0 ? report.registration : earlier.registration,
    mitigations: report.mitigations.length > 0 ? report.mitigations : earlier.mitigations,
    nocode: report.nocode.length > 0 ? report.nocode : earlier.nocode,
  };
}

/** The header's line saying which rows this run measured and which come from an earlier one (none when all are this run's). */
export function provenanceLine(report: BenchReport): string[] {
  const rows = [...report.sizes.map((s) => ({ engine: "the harness", n: s.n, earlier: s.earlier })), ...(report.cli?.sizes ?? []).map((s) => ({ engine: "the CLI", n: s.n, earlier: s.earlier }))];
  if (!rows.some((r) => r.earlier)) return [];
  const list = (engine: string, xs: typeof rows) => {
    const ns = xs.filter((x) => x.engine === engine).map((x) => x.n).sort((a, b) => a - b);
    return ns.length === 0 ? [] : [`N = ${ns.join(", ")} through ${engine}`];
  };
  const mine = rows.filter((r) => !r.earlier);
  const runs = new Map<string, EarlierRun>();
  for (const r of rows) if (r.earlier) runs.set(r.earlier.date, r.earlier);
  const kept = [...runs.values()].map((run) => {
    const theirs = rows.filter((r) => r.earlier?.date === run.date);
    return `${[...list("the harness", theirs), ...list("the CLI", theirs)].join(" and ")} from the earlier run of ${run.date} (\`${run.command}\`), not re-measured`;
  });
  const own = [...list("the harness", mine), ...list("the CLI", mine)];
  return [`- **Which rows are from this run**: ${own.length > 0 ? own.join(" and ") : "none"}; ${kept.join("; ")} — each such section says so under its heading, and its stack is the generator's of that run (the kinds its composition line lists).`];
}
