/**
 * Global setup of the vitest run: gives the reliability test files a results folder of their own, and
 * at the end prints the summary table of what they proved; the long variant (`RELIABILITY_LONG=1`), or
 * the default one with `RELIABILITY_WRITE=1`, also rewrites `test/RELIABILITY.md`. A run without reliability files prints nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { TestProject } from "vitest/node";
import { LONG, RESULTS_ROOT, SUMMARY_FILE, readOutcomes, readPublished, renderDocument, renderSummary, totals, type Outcome } from "./report";

const AREAS: Outcome["area"][] = ["faults", "reads", "fuzz", "secrets", "emulator"];

export default function setup(project: TestProject): () => void {
  const dir = path.join(RESULTS_ROOT, `run-${process.pid}-${Date.now()}`);
  fs.mkdirSync(dir, { recursive: true });
  project.provide("reliabilityResults", dir);
  return () => {
    const outcomes = readOutcomes(dir);
    fs.rmSync(dir, { recursive: true, force: true });
    if (outcomes.length === 0) return;
    const t = totals(outcomes);
    const title = `Reliability summary${LONG ? " (long variant)" : ""}: ${t.faultKinds.survived}/${t.faultKinds.total} fault kinds survived, ${t.casesFuzzed} cases fuzzed, ${t.leaks} leaks, ${t.lostWrites} lost writes`;
    process.stdout.write(`\n${title}\n\n${renderSummary(outcomes, { long: LONG })}\n`);
    // Only a run over every area may stand as the published record: the long variant, or the default one when
    // asked with RELIABILITY_WRITE=1 (the file then says so); failed checks are shown as such.
    const areas = new Set(outcomes.map((o) => o.area));
    const write = LONG || process.env.RELIABILITY_WRITE === "1";
    // RELIABILITY_MERGE=1: a run of some files adds its checks to the published file, replacing those it re-measured
    // (a new check without the whole suite's time); the file says which rows came from which run.
    if (process.env.RELIABILITY_MERGE === "1" && fs.existsSync(SUMMARY_FILE)) {
      const published = readPublished(fs.readFileSync(SUMMARY_FILE, "utf8"));
      const ran = new Set(outcomes.map((o) => `${o.area}/${o.check}`));
      const kept = published.outcomes.filter((o) => !ran.has(`${o.area}/${o.check}`));
      const all = [...kept, ...outcomes].sort((a, b) => AREAS.indexOf(a.area) - AREAS.indexOf(b.area) || a.check.localeCompare(b.check));
      const over = published.generated.split(" Of its rows")[0]!;
      fs.writeFileSync(SUMMARY_FILE, renderDocument(all, { long: false, date: new Date().toISOString().slice(0, 10), node: process.version, merged: { checks: outcomes.length, over } }));
      process.stdout.write(`merged ${outcomes.length} checks into ${path.relative(process.cwd(), SUMMARY_FILE)}\n`);
      return;
    }
    if (write && AREAS.every((a) => areas.has(a))) {
      fs.writeFileSync(SUMMARY_FILE, renderDocument(outcomes, { long: LONG, date: new Date().toISOString().slice(0, 10), node: process.version }));
      process.stdout.write(`wrote ${path.relative(process.cwd(), SUMMARY_FILE)}\n`);
    }
  };
}
