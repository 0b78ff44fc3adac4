/** Renders a benchmark run as bench/RESULTS.md: tables, targets met or missed, and by how much. */
import * as fs from "node:fs";
import * as path from "node:path";
import { redirectsSection } from "./redirects";
import { scaleSection } from "./scale";
import { provenanceLine } from "./earlier";
import { type BenchReport, type CliSizeResult, type EarlierRun, type PhaseResult, SETTINGS, type SizeResult } from "./types";

/** Targets from the product's goals. */
export const TARGETS = {
  /** Wall time ≤ 1.15× the baseline at N = 1000. */
  wallRatio: 1.15,
  wallRatioAtN: 1000,
  /** Wall time ≤ 1.10× calls ÷ rate under the rate limit. */
  rateRatio: 1.1,
  /** Serialised provider per resource. */
  providerBytes: 1024,
  /** Plugin peak RSS at N = 1000. */
  pluginRssBytes: 150 * 1024 * 1024,
  /** Wall ÷ floor for every phase; the phases that call the API may add the raw client's API time. */
  floorRatio: 1.0,
} as const;

/** Phases whose floor target allows the raw client's API time on top (they make the API calls the floor does not). */
const API_PHASES: readonly string[] = ["create", "change 10%", "refresh", "destroy"];

/** Wall ÷ floor, and the most it may be: 1.00×, plus the baseline's API time ÷ floor for the phases that call the API. */
export function floorRatios(p: PhaseResult): { ratio: number | null; allowed: number | null } {
  if (p.floorMs === null || p.floorMs <= 0) return { ratio: null, allowed: null };
  const api = API_PHASES.includes(p.phase) ? (p.baselineMs ?? 0) / p.floorMs : 0;
  return { ratio: p.wallMs / p.floorMs, allowed: TARGETS.floorRatio + api };
}

function floorCell(p: PhaseResult): string {
  const { ratio: x, allowed } = floorRatios(p);
  if (x === null || allowed === null) return "–";
  return `${x <= allowed ? "yes" : "**no**"} (≤ ${allowed.toFixed(2)}×)`;
}

function ms(x: number | null): string {
  if (x === null) return "–";
  return x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`;
}

function ratio(x: number | null): string {
  return x === null || !Number.isFinite(x) ? "–" : `${x.toFixed(2)}×`;
}

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Writes and reads at their minimum (moves have none: compare them to the baseline's). */
export function callsMet(p: PhaseResult): boolean {
  return p.calls.writes === p.minimum.writes && p.calls.reads === p.minimum.reads;
}

/** Provider wall ÷ baseline wall, raw and with the harness's fixed cost subtracted. */
export function ratios(p: PhaseResult): { raw: number | null; net: number | null } {
  if (p.baselineMs === null || p.baselineMs <= 0) return { raw: null, net: null };
  return { raw: p.wallMs / p.baselineMs, net: Math.max(0, p.wallMs - p.overheadMs) / p.baselineMs };
}

function callCell(p: PhaseResult): string {
  const c = p.calls;
  return `${c.writes} W + ${c.reads} R${c.moves > 0 ? ` + ${c.moves} mv` : ""}`;
}

function minCell(p: PhaseResult): string {
  return `${p.minimum.writes} W + ${p.minimum.reads} R`;
}

function baseCallCell(p: PhaseResult): string {
  const b = p.baselineCalls;
  if (!b) return "–";
  return `${b.writes} W + ${b.reads} R${b.moves > 0 ? ` + ${b.moves} mv` : ""}`;
}

function excess(p: PhaseResult): string {
  const over: string[] = [];
  const dw = p.calls.writes - p.minimum.writes;
  const dr = p.calls.reads - p.minimum.reads;
  if (dw !== 0) over.push(`${dw > 0 ? "+" : ""}${dw} W`);
  if (dr !== 0) over.push(`${dr > 0 ? "+" : ""}${dr} R`);
  return over.length === 0 ? "yes" : `**no** (${over.join(", ")})`;
}

function wallCell(n: number, p: PhaseResult): string {
  const { raw, net } = ratios(p);
  if (p.phase === "no-op up") return p.calls.writes + p.calls.reads + p.calls.moves === 0 ? "0 calls" : "–";
  if (n !== TARGETS.wallRatioAtN || raw === null || net === null) return "–";
  const metRaw = raw <= TARGETS.wallRatio;
  const metNet = net <= TARGETS.wallRatio;
  return `${metRaw ? "yes" : "**no**"} (raw) / ${metNet ? "yes" : "**no**"} (net)`;
}

/** What a size declares, kind by kind ("1 sites, 3 sections, …"); kinds a run did not count (an older run's) left out. */
function compositionLine(s: SizeResult): string {
  const c = s.composition as Partial<SizeResult["composition"]>;
  const kinds: [number | undefined, string][] = [
    [c.sites, "sites"],
    [c.customizations, "site customizations"],
    [c.sections, "sections"],
    [c.sectionGroups, "section groups"],
    [c.externalLinks, "external links"],
    [c.siteSpaces, "site spaces"],
    [c.overrides, "site-space customizations"],
    [c.spaces, "created spaces"],
    [c.shareLinks, "share links"],
    [c.teams, "teams"],
    [c.mcpServers, "MCP servers"],
    [c.agentSettings, "agent settings"],
    [c.agentChannels, "agent channels"],
    [c.contextConnections, "context connections"],
    [c.gitSyncs, "Git Sync installations"],
    [c.styleGuides, "style guides"],
    [c.siteStyleGuides, "attached style guides"],
    [c.agentInstructions, "agent instructions"],
    [c.openapiSpecs, "OpenAPI specs from a file"],
  ];
  const line = kinds
    .filter(([k]) => k !== undefined)
    .map(([k, name]) => `${k} ${name}`)
    .join(", ");
  const flags = [s.drafts === undefined ? undefined : `${s.drafts} of these objects drafts`, s.hidden === undefined ? undefined : `${s.hidden} site spaces hidden`].filter((x) => x !== undefined);
  return flags.length === 0 ? line : `${line} (${flags.join("; ")})`;
}

/** Under a kept section's heading: the run it comes from. */
function earlierNote(s: { earlier?: EarlierRun }): string[] {
  return s.earlier ? [`*From the earlier run of ${s.earlier.date} (\`${s.earlier.command}\`): not re-measured in this run.*`, ""] : [];
}

function sizeTable(s: SizeResult): string[] {
  const lines = [
    `### N = ${s.n}`,
    "",
    ...earlierNote(s),
    `${compositionLine(s)}; the change phase edits ${s.edits} objects.`,
    "",
    "| phase | calls | minimum | calls = min? | baseline calls | wall | floor wall | ratio to floor | floor target | baseline wall | ratio to raw client | net of harness | raw-client target | steps | failed |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const p of s.phases) {
    const { raw, net } = ratios(p);
    const steps = Object.entries(p.steps)
      .filter(([, v]) => (v ?? 0) > 0)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ");
    lines.push(
      `| ${p.phase} | ${callCell(p)} | ${minCell(p)} | ${excess(p)} | ${baseCallCell(p)} | ${ms(p.wallMs)} | ${ms(p.floorMs)} | ${ratio(floorRatios(p).ratio)} | ${floorCell(p)} | ${ms(p.baselineMs)} | ${ratio(raw)} | ${ratio(net)} | ${wallCell(s.n, p)} | ${steps} | ${p.failed} |`,
    );
  }
  lines.push("");
  if (s.repeats > 1) {
    lines.push(
      `Walls are medians of ${s.repeats} cycles of the five phases; every cycle (provider / floor): ${s.phases
        .map((p) => `${p.phase} ${p.samples.map((x) => `${ms(x.wallMs)} / ${ms(x.floorMs)}`).join(", ")}`)
        .join("; ")}.`,
      "",
    );
  }
  const misses = s.phases.filter((p) => !callsMet(p));
  if (misses.length > 0) {
    lines.push("Calls above the minimum, by route (provider run):", "");
    for (const p of misses) {
      const routes = Object.entries(p.routes)
        .sort((a, b) => b[1] - a[1])
        .map(([r, k]) => `\`${r}\` ${k}`)
        .join(", ");
      lines.push(`- ${p.phase}: ${routes}`);
    }
    lines.push("");
  }
  return lines;
}

/** The plugin-memory section (bench/PLUGIN-MEMORY.md): a comparison of two transports measured once, by bench/pluginMemory.ts. */
function pluginMemorySection(): string[] {
  const file = path.join(__dirname, "..", "..", "bench", "PLUGIN-MEMORY.md");
  return fs.existsSync(file) ? [...fs.readFileSync(file, "utf8").trimEnd().split("\n"), ""] : [];
}

/** The whole RESULTS.md. */
export function renderResults(r: BenchReport, analysis: readonly string[] = []): string {
  const big = r.sizes.find((s) => s.n === TARGETS.wallRatioAtN) ?? r.sizes[r.sizes.length - 1];
  const lines: string[] = [
    "# Benchmark results",
    "",
    "Generated by `npm run bench` (bench/run.ts); do not edit by hand — rerun the command.",
    "",
    `- Date: ${r.date}`,
    `- Command: \`${r.command}\` (total ${Math.round(r.durationMs / 1000)} s)`,
    `- Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${mb(r.machine.memoryBytes)} memory, Node ${r.machine.node}, ${r.machine.platform}`,
    `- Setup: emulator in-process with ${SETTINGS.latencyMs} ms latency on every request; the provider through the engine harness (real language host, real dynamic-provider plugin) at \`--parallel\` ${SETTINGS.concurrency}, client in-flight bound ${SETTINGS.concurrency} (\`DOCSPLATFORM_MAX_CONCURRENCY\`); the program is one \`DocsPlatform\` component over a generated docs.yaml (bench/generate.ts), with the packed package installed as users get it.`,
    `- Baseline: the raw \`ApiClient\` making exactly the minimal calls of each phase at concurrency ${SETTINGS.concurrency}, against a fresh emulator with the same latency, in the same run (bench/baseline.ts).`,
    "- Floor: the same program's registrations (same resources, URNs, input properties and dependencies) replayed against a dynamic provider that does nothing, installed under the program's `node_modules` (bench/floor.ts); each phase runs right after the provider's, each command with a fresh plugin, through the same harness.",
    `- Machine load (1/5/15-min load average; 2 cores shared with other sessions): ${r.load.start.map((x) => x.toFixed(1)).join(" / ")} at the start, ${r.load.end.map((x) => x.toFixed(1)).join(" / ")} at the end. Absolute walls move with it; ratios are taken between runs made minutes apart at most, so contention hits both sides.`,
    ...cliHeader(r),
    ...provenanceLine(r),
    ...(r.notMeasured.length > 0 ? [`- **Not measured in this run** (stopped before reaching them): ${r.notMeasured.join("; ")}.`] : []),
    "",
    "## How to read the tables",
    "",
    "- **Calls**: from the emulator's request log. W = writes (POST/PUT/PATCH/DELETE), R = reads (GET; a paged list walk counts one per page), mv = ordering moves (the move operations and the structure sort). The provider's look-ups of the spaces, members and teams a new declaration names are made only in a preview (a wrong ID fails the pull request's preview), never in an `up`, so no phase here makes one.",
    "- **Minimum**, per kind, from what its create, read, update and delete must call under the API's contract (bench/statistics.ts `minimumCalls`): **create** — 1 write per object: a section's first site space comes with the section's POST, a site customization's write is its PUT, a site-space customization's its PATCH, a created space's its POST, a section group's sections and every draft flag go with their POST (nothing in the generated file is only settable by a follow-up PATCH); plus 1 read per site, its lookup by title before the POST (the API lets two sites share a title, so a POST is not idempotent: the lookup keeps a run repeated after a crash from making a second site); 1 read of each customized site's look (the PUT replaces the whole object and the platform does not publish its defaults, so the look is recorded to fill what the file leaves out and to put back on destroy); and the reads of restoring the declared order: 1 structure read per site with external links (the only read that shows links, and it holds every section, site space and group), else one paged walk of its sections and of its site spaces (and of its groups when it declares some). The site's assistant and Git Sync: an MCP server, an agent channel and a context connection 1 POST each (the header values and the connection's secret member ride in it; a connection's `label`, which the POST does not take, is not declared: it would cost a PATCH); agent settings 1 GET and 1 PUT (the PUT replaces the whole; the read first lets settings that already match — a site taken over after an export — go unwritten, so a fresh site pays one read); Git Sync 2 writes, the install's POST (it takes only the provider and the site) and the PATCH of its repository, branch, folder, priority and template; a hidden site space 1 more write, the PATCH that hides it (the create bodies take no `hidden`, so a section's first site space too is hidden after its section's POST). The organisation's objects: a style guide 1 write, its site's POST of the guide (with its template); an OpenAPI spec from a file 1 POST (the file's text rides in it); the agent instructions 1 GET and 1 PUT, a site's attached guide 1 GET of the site and the PATCH of its `styleguide` (each sent only when it differs: the read first lets an adopted organisation's instructions, or a site that already has the guide, go unwritten, so a fresh stack pays one read each); **no-op up** — 0; **change** — 1 write per edited object (a customization's whole settings in one PUT over the recorded look: no read first; agent settings' whole in one PUT; an MCP server's, channel's or connection's changed member in one PATCH; Git Sync's in one PATCH; the agent instructions' whole in one PUT; a spec's new file in one PUT); **refresh** — 1 GET per site, team and created space, 1 per site-space customization and 1 of each customized site's look (shared with its site spaces' customizations, which need it to tell a hand-made override from the site's value), one paged walk per parent for each list-read kind (sections, site spaces, section groups, share links, MCP servers, agent channels, context connections: a site's servers, say, are read by one walk shared by all of them, whatever their number), 1 structure read per site with external links (shared by the links, which have no GET or list of their own, and the site's order), 1 GET of each site's agent settings (a single object per site) and 1 of each Git Sync site's installations (the one list that holds the installation and its children; the kind has no cheaper read); 1 GET of each style guide's space and of the agent instructions; an OpenAPI spec's GET and, for a spec from a file, the GET of its raw text (a text edited in the app is drift); nothing for a site's attached guide, a member of the site its GET reads; **destroy** — 1 call per object, children first (the kinds do not rely on cascades, so neither does the minimum): a DELETE, a site customization's PUT of the recorded look, Git Sync's uninstall (its DELETE), a site's attached guide 1 GET of the site and the PATCH that detaches it (only while the site still has that guide: one attached by hand since stays), nothing for a space the file created (the default deletion policy keeps it), for agent settings (a site always has them: the kind stops managing them and the site keeps them), nor for a style guide or the agent instructions (content: kept when their entry goes).",
    "- **Moves**: siblings are created in parallel, so they land in completion order; restoring the declared order costs (level size − longest in-order run) moves (a site space's move operation within its section; the structure sort for sections, groups and external links at the root and inside each group). That depends on the order the creates completed in, so it has no fixed minimum: compare the provider's moves with the baseline's, which creates the same way and plans moves with the same algorithm.",
    "- **Harness overhead**: the wall time of the same run of a project declaring nothing (a stack file with only its organisation; cold: first `up`, which also starts the plugin; warm: later `up`s). It is the language host's start, the ready-made program's and the plugin's start — costs the Pulumi CLI also has.",
    "- **Ratio to floor** = provider wall ÷ floor wall: what the provider costs beyond what any dynamic provider costs under this SDK for the same resources. The program is the no-code project (as examples/handbook), so the floor's program is JavaScript too (`typescript: false`): both start their language host the same way. Target ≤ 1.00× for every phase at every N — for create, change, refresh and destroy, which make the API calls the floor does not, ≤ 1.00× plus the raw client's API time for the same phase (baseline wall ÷ floor wall); the limit is shown in the target column.",
    "- **Ratio to raw client** = provider wall ÷ baseline wall; **net of harness** = (provider wall − harness overhead) ÷ baseline wall. The raw-client target (≤ 1.15× at N = 1000) is written against wall time as a user sees it; it cannot be met through the SDK's language host (the floor alone is several times the baseline), which is why the floor is the reference for the provider's own cost.",
    "",
    "## Results per N",
    "",
  ];
  for (const s of [...r.sizes].sort((a, b) => a.n - b.n)) lines.push(...sizeTable(s));
  lines.push(...cliTables(r));

  lines.push("## Rate-limited run", "");
  if (r.rate) {
    const rate = (r.rate.limit.limit / r.rate.limit.windowMs) * 60_000;
    lines.push(
      `Emulator limit ${r.rate.limit.limit} requests per ${r.rate.limit.windowMs / 1000} s (= ${rate} per minute, fixed window), N = ${r.rate.n}, same latency and concurrency. Floor = calls ÷ rate; the fixed window lets the first ${r.rate.limit.limit} calls through at once, so a run can beat the floor.`,
      "",
      "| phase | calls served | answered 429 | wall | calls ÷ rate | ratio | ≤ 1.10×? | failed operations |",
      "|---|---|---|---|---|---|---|---|",
    );
    for (const p of r.rate.phases) {
      const x = p.wallMs / p.floorMs;
      lines.push(`| ${p.phase} | ${p.calls} | ${p.rejected429} | ${ms(p.wallMs)} | ${ms(p.floorMs)} | ${ratio(x)} | ${x <= TARGETS.rateRatio ? "yes" : "**no**"} | ${p.failed}${p.failed === 0 ? "" : " **(target 0)**"} |`);
    }
    lines.push("");
  } else {
    lines.push("Not run (`--rate-n 0`).", "");
  }

  lines.push("## State size and memory", "");
  lines.push(
    "| N | state bytes | entries | API resources | bytes per API resource | `__provider` bytes | `__provider` share | `__provider` per resource | plugin peak RSS | null provider's plugin peak RSS |",
    "|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const s of [...r.sizes].sort((a, b) => a.n - b.n)) {
    const st = s.state;
    lines.push(
      `| ${s.n} | ${st.bytes} | ${st.entries} | ${st.resources} | ${Math.round(st.bytes / Math.max(1, st.resources))} | ${st.providerBytes} | ${((st.providerBytes / st.bytes) * 100).toFixed(1)}% | ${Math.round(st.providerBytes / Math.max(1, st.resources))} | ${s.pluginPeakRssBytes === null ? "–" : mb(s.pluginPeakRssBytes)} | ${s.floorPeakRssBytes === null ? "–" : mb(s.floorPeakRssBytes)} |`,
    );
  }
  lines.push("");
  if (big) {
    const texts = Object.entries(big.state.providerTextBytes);
    const worst = Math.max(...texts.map(([, b]) => b));
    lines.push(
      `Serialised provider text per kind (bytes; stored twice per resource, in inputs and outputs): ${texts.map(([k, b]) => `${k} ${b}`).join(", ")}. Largest ${worst} B: ${worst <= TARGETS.providerBytes ? "meets" : "**misses**"} the ≤ 1 KB target.`,
      "",
      `Plugin peak RSS (VmHWM of the dynamic-provider plugin process over all five phases) at N = ${big.n}: ${big.pluginPeakRssBytes === null ? "not measured" : mb(big.pluginPeakRssBytes)} — ${big.pluginPeakRssBytes !== null && big.pluginPeakRssBytes <= TARGETS.pluginRssBytes ? "meets" : "**misses**"} the ≤ 150 MB target.`,
      "",
    );
  }

  lines.push(...nocodeTable(r));
  lines.push(...variantTables(r));
  lines.push(
    "## Emulator throughput",
    "",
    `${r.throughput.getsPerSecond} simple GETs per second (${r.throughput.connections} keep-alive connections, load from a ${r.throughput.mode === "child" ? "child process" : "the same process"}, ${r.throughput.durationMs} ms, p50 ${r.throughput.p50Ms} ms, p99 ${r.throughput.p99Ms} ms, ${r.throughput.errors} errors). With ${SETTINGS.latencyMs} ms latency and ${SETTINGS.concurrency} requests in flight the benchmark asks at most ${Math.round((SETTINGS.concurrency * 1000) / SETTINGS.latencyMs)} requests per second of it, so the emulator is ${r.throughput.getsPerSecond >= (SETTINGS.concurrency * 1000) / SETTINGS.latencyMs ? "never the bottleneck" : "**close to or at its limit** (see the analysis)"}.`,
    "",
    "## Harness overhead",
    "",
    `Empty program: cold up ${ms(r.overhead.coldUpMs)}, warm up ${ms(r.overhead.warmUpMs)}, refresh ${ms(r.overhead.refreshMs)}, destroy ${ms(r.overhead.destroyMs)}.`,
    "",
  );
  lines.push(...redirectsSection());
  lines.push(...pluginMemorySection());
  lines.push(...scaleSection());
  if (analysis.length > 0) lines.push("## Analysis", "", ...analysis, "");
  return lines.join("\n");
}

/** The header's lines about the Pulumi CLI: which one ran the CLI rows, or why none did. */
function cliHeader(r: BenchReport): string[] {
  if (!r.cli) return [];
  if (r.cli.version === null) return [`- Pulumi CLI: not measured — ${r.cli.note ?? "not asked for (\`--engine harness\`)"}.`];
  return [
    `- Pulumi CLI: ${r.cli.version} built from the Go module proxy (.ci/pulumi-cli), its Node.js language host started with the project's runtime options, on a local file backend with a passphrase secrets provider (as users run it without Pulumi Cloud: the whole state file is written after each step); \`pulumi up\`, \`refresh\` and \`destroy\` with \`--yes --skip-preview --parallel ${SETTINGS.concurrency}\`, \`DOCSPLATFORM_MAX_CONCURRENCY=${SETTINGS.concurrency}\`, against a fresh emulator with the same latency; the floor program through the CLI too, on a backend of its own, replaying what the harness's program registered at the same N.`,
  ];
}

/** The five phases through the Pulumi CLI, per N, with the floor through the CLI beside them. */
function cliTables(r: BenchReport): string[] {
  const sizes = [...(r.cli?.sizes ?? [])].sort((a, b) => a.n - b.n);
  if (sizes.length === 0) return [];
  const lines = [
    "## Results per N through the Pulumi CLI",
    "",
    "The same stacks, program and phases as above, run by the Pulumi CLI users run (see the header). **The CLI's own** is the wall of `pulumi preview` of a JavaScript program that registers nothing, measured at the same N right before its phases (median of its runs): the CLI, its engine and backend, the language host and the SDK's start — what every command pays whatever the provider. **Allowance** is the raw client's API time for the phase (the baseline wall above); the floor target is 1.00× plus allowance ÷ floor wall.",
    "",
  ];
  for (const s of sizes) lines.push(...cliSizeTable(s, r.sizes.find((h) => h.n === s.n && h.earlier?.date === s.earlier?.date)));
  return lines;
}

function cliSizeTable(s: CliSizeResult, harness: SizeResult | undefined): string[] {
  const lines = [
    `### N = ${s.n} through the CLI`,
    "",
    ...earlierNote(s),
    `The CLI's own (an empty program's \`pulumi preview\`): ${ms(s.emptyPreviewMs)} (${s.emptyPreviewSamples.map(ms).join(", ")}).`,
    "",
    "| phase | calls | calls = min? | wall | the CLI's own | floor wall (CLI) | ratio to floor | allowance | floor target | harness wall | steps |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const p of s.phases) {
    const steps = Object.entries(p.steps)
      .filter(([, v]) => (v ?? 0) > 0)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ");
    const h = harness?.phases.find((x) => x.phase === p.phase);
    lines.push(
      `| ${p.phase} | ${callCell(p)} | ${excess(p)} | ${ms(p.wallMs)} | ${ms(s.emptyPreviewMs)} (${pct(s.emptyPreviewMs / p.wallMs)}) | ${ms(p.floorMs)} | ${ratio(floorRatios(p).ratio)} | ${p.phase === "no-op up" ? "–" : ms(p.baselineMs)} | ${floorCell(p)} | ${ms(h?.wallMs ?? null)} | ${steps} |`,
    );
  }
  lines.push("");
  if (s.repeats > 1) {
    lines.push(
      `Walls are medians of ${s.repeats} cycles; every cycle (provider / floor): ${s.phases.map((p) => `${p.phase} ${p.samples.map((x) => `${ms(x.wallMs)} / ${ms(x.floorMs)}`).join(", ")}`).join("; ")}.`,
      "",
    );
  }
  return lines;
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** The no-code project beside a TypeScript program of one's own, per N. */
function nocodeTable(r: BenchReport): string[] {
  const rows = r.nocode ?? [];
  if (rows.length === 0) return [];
  const reps = rows[0]!.repeats;
  const lines = [
    "## The no-code project beside a TypeScript program",
    "",
    `The same generated docs.yaml as a no-code project (Pulumi.yaml with \`typescript: false\`, the package's ready-made program as package.json \`main\`) and as a TypeScript program of one's own (the five lines of index.ts with a tsconfig.json, run as the CLI runs it by default: ts-node type-checks), each against a fresh emulator: create (the first \`up\`), a no-op \`up\`, then a no-op \`preview\` — what every pull request's preview pays. ${reps === 1 ? "Once" : `Median of ${reps} cycles`}, the two interleaved cycle by cycle; ratios are no-code ÷ TypeScript.`,
    "",
    "| N | TypeScript: create | no-op up | no-op preview | no-code: create | no-op up | no-op preview | create ratio | no-op up ratio | **no-op preview ratio** |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  const ns = [...new Set(rows.map((v) => v.n))].sort((a, b) => a - b);
  for (const n of ns) {
    const [ts, nc] = [rows.find((v) => v.n === n && !v.label.startsWith("no-code")), rows.find((v) => v.n === n && v.label.startsWith("no-code"))];
    if (!ts || !nc) continue;
    const q = (a: number | null, b: number | null) => (a !== null && b !== null && b > 0 ? ratio(a / b) : "–");
    lines.push(
      `| ${n} | ${ms(ts.createMs)} | ${ms(ts.noopMs)} | ${ms(ts.previewMs)} | ${ms(nc.createMs)} | ${ms(nc.noopMs)} | ${ms(nc.previewMs)} | ${q(nc.createMs, ts.createMs)} | ${q(nc.noopMs, ts.noopMs)} | **${q(nc.previewMs, ts.previewMs)}** |`,
    );
  }
  lines.push("");
  return lines;
}

/** The component's registration choices against the floor, and users' settings for large stacks. */
function variantTables(r: BenchReport): string[] {
  const lines: string[] = [];
  if (r.registration.length > 0) {
    const reps = r.registration[0]!.repeats;
    lines.push(
      "## The component's registration, against the floor",
      "",
      `Create and no-op up of the no-code project with the component's promise stacks formatted as the installed formatter does (\`DOCSPLATFORM_QUIET_PROMISE_STACKS=0\`, as the public classes register) and quiet (provider/declare/registration.ts), each phase followed by the floor's (JavaScript, as the project), ${reps === 1 ? "once" : `median of ${reps} cycles`}.`,
      "",
      "| N | component registers | create | floor create | create ÷ floor | no-op up | floor no-op | no-op ÷ floor |",
      "|---|---|---|---|---|---|---|---|",
    );
    for (const v of r.registration) {
      lines.push(
        `| ${v.n} | ${v.label} | ${ms(v.createMs)} | ${ms(v.floorCreateMs)} | ${ratio(v.floorCreateMs ? v.createMs / v.floorCreateMs : null)} | ${ms(v.noopMs)} | ${ms(v.floorNoopMs)} | ${ratio(v.floorNoopMs ? v.noopMs / v.floorNoopMs : null)} |`,
      );
    }
    lines.push("");
  }
  if (r.mitigations.length > 0) {
    const reps = r.mitigations[0]!.repeats;
    lines.push(
      "## Large stacks: what a user can set",
      "",
      `Create and no-op up of the same program as users set it up (a tsconfig.json as examples/handbook's; the language host started with Pulumi.yaml's \`nodeargs\` before its script, as the CLI does), ${reps === 1 ? "once" : `median of ${reps} cycles`}; ratios to the first row of the same N, which is the CLI's default (ts-node type-checks: \`PULUMI_NODEJS_TRANSPILE_ONLY\` unset behaves as \`false\`).`,
      "",
      "| N | setup | create | create ÷ default | no-op up | no-op ÷ default |",
      "|---|---|---|---|---|---|",
    );
    for (const v of r.mitigations) {
      const base = r.mitigations.find((x) => x.n === v.n);
      lines.push(`| ${v.n} | ${v.label} | ${ms(v.createMs)} | ${ratio(base ? v.createMs / base.createMs : null)} | ${ms(v.noopMs)} | ${ratio(base ? v.noopMs / base.noopMs : null)} |`);
    }
    lines.push("");
  }
  return lines;
}

/** Number of calls of a route (as `routeCounts` names it) in a phase. */
function routeCount(p: PhaseResult | undefined, route: string): number {
  return p?.routes[route] ?? 0;
}

/**
 * Where the targets are missed, by how much and why. The numbers come from the run; the causes were
 * found by reading the code and profiling the harness process (`node --cpu-prof`) at N = 1000.
 */
export function analyse(r: BenchReport): string[] {
  const big = r.sizes.find((s) => s.n === TARGETS.wallRatioAtN) ?? r.sizes[r.sizes.length - 1];
  if (!big) return [];
  const phase = (name: string) => big.phases.find((p) => p.phase === name);
  const out: string[] = [];

  // Calls: every phase of every N.
  const missedCalls = r.sizes.flatMap((s) => s.phases.filter((p) => !callsMet(p)).map((p) => ({ n: s.n, p })));
  if (missedCalls.length === 0) {
    out.push(
      `1. **Calls: at the minimum in every phase of every N** (0 calls for the no-op up). Create: a section's first site space is taken over by the ID its section's POST returned (\`SiteSpace.existingId\` = \`SiteSection.siteSpaceId\`; the plugin kept the site space from the POST's answer), so no list walk and no PATCH when nothing declared differs; \`SiteStructureOrder\` orders a site with external links from one read of its structure, and reads section groups only when the site declares some. Refresh: each command's plugin keeps one view of each parent's list, and of each site's structure and customization (provider/resources/lists.ts), dropped by its own writes, on failure and after \`DOCSPLATFORM_LIST_CACHE_MS\` (10 s), so each list is walked once per refresh and a site's structure and look are read once however many resources read them.`,
    );
  } else {
    out.push(
      `1. **Calls above the minimum:** ${missedCalls.map(({ n, p }) => `N = ${n} ${p.phase} ${p.calls.writes} W + ${p.calls.reads} R vs ${p.minimum.writes} W + ${p.minimum.reads} R`).join("; ")} (routes in the per-N lists above). Every phase counts its calls from the emulator's log; a read above the minimum is named by route in the per-N lists. \`SiteStructureOrder\` reads the site once (its structure when it declares external links, else each list once) and computes the order its moves produce (provider/resources/siteStructureOrder.ts \`applyOrder\`), a section's first site space is taken over by the ID its section's POST returned (no walk), section groups are read only when declared, and each command's plugin walks each parent's list, and reads each site's structure and look, once (provider/resources/lists.ts).`,
    );
  }

  // Wall time at N = 1000: where it goes, against the floor.
  const floorLine = big.phases
    .filter((p) => p.floorMs !== null)
    .map((p) => {
      const { ratio: x, allowed } = floorRatios(p);
      const api = API_PHASES.includes(p.phase) && p.baselineMs !== null ? p.baselineMs : 0;
      const ours = p.wallMs - p.floorMs! - api;
      return `${p.phase} ${ms(p.wallMs)} = floor ${ms(p.floorMs)}${api > 0 ? ` + API ${ms(api)}` : ""} ${ours >= 0 ? "+" : "−"} ${ms(Math.abs(ours))} (${ratio(x)}; ${x !== null && allowed !== null && x <= allowed ? "met" : "**missed**"}, ≤ ${allowed?.toFixed(2)}×)`;
    })
    .join("; ");
  if (floorLine) {
    const floorShare = Math.min(...big.phases.filter((p) => p.floorMs !== null && p.wallMs > 0).map((p) => p.floorMs! / p.wallMs));
    const quiet = r.registration.filter((v) => v.n === big.n);
    const [loud, calm] = [quiet.find((v) => v.label.includes("QUIET_PROMISE_STACKS=0")), quiet.find((v) => !v.label.includes("QUIET_PROMISE_STACKS=0"))];
    const saved =
      loud && calm
        ? ` At N = ${big.n} those quiet stacks take create from ${ms(loud.createMs)} to ${ms(calm.createMs)} and the no-op up from ${ms(loud.noopMs)} to ${ms(calm.noopMs)}${loud.floorNoopMs && calm.floorNoopMs ? `: the program's cost above the floor's went from ${ms(loud.noopMs - loud.floorNoopMs)} to ${calm.noopMs - calm.floorNoopMs >= 0 ? ms(calm.noopMs - calm.floorNoopMs) : `${ms(calm.floorNoopMs - calm.noopMs)} below it`} for the no-op up` : ""}.`
        : "";
    out.push(
      `2. **Where the time goes at N = ${big.n}: ${floorLine}.** In one line: **the floor — what any dynamic provider costs under this SDK for the same ${big.state.resources} resources and properties — is ${Math.round(floorShare * 100)}% or more of every phase; ours is the rest, above or below it as each phase shows, plus the API calls themselves in create, change, refresh and destroy.** The floor is the language host registering the resources, the engine's steps and state (here the harness), the plugin's start and one gRPC call per resource and step. Ours: in the language host, loading our modules and the precompiled stack-schema validator (Node's compile cache, which the package turns on for its own modules in provider/compileCache.ts, took the program's synchronous part at N = 10 from about 180 ms of CPU to 130 ms, the floor program's being 110 ms), reading and checking docs.yaml and the component's declarations. Each kind's serialised provider is made from the module specifier the SDK's own mapping gives its shim (provider/classes/index.ts) instead of by the SDK's closure serialiser, whose first call in a program enables the V8 debugger over every loaded script — about 250 ms of CPU the floor's program still spends before its first registration — and once more per kind (5–10 ms each); the texts are the ones \`dynamic.Resource\` makes, checked for all kinds in serialization.test.ts. In the plugin: our modules' load (about 15 ms, measured when the generated stack declared eleven kinds), each kind's first check loading and running its input-schema validator, precompiled at build time (no run compiles a schema or loads ajv's compiler; an unchanged resource's inputs are not validated again, so a no-op up loads no validator), \`diff\` and the client's work around each call. The component registers its resources with quiet promise stacks (provider/declare/registration.ts) and the package ships no source maps, so the language host's source-map-support maps none of our frames: its registrations cost less than the floor program's own, which is why create, the no-op up and change can come in under the floor.${saved} What stays is the SDK's: each resource's full-depth, source-mapped stack for its source position (\`Resource.callsites\`, which sets \`Error.stackTraceLimit\` to Infinity), the promises and stacks created after the declaration returns (serialising each property, the RPC), and the fixed start of the language host and plugin — the fix belongs in the SDK (capture promise stacks only with \`PULUMI_DEBUG_PROMISE_LEAKS\`), and a user can take most of the rest today ("Large stacks: what a user can set" and the README). Refresh and destroy never run the program, so none of that applies to them: in a refresh profiled at N = 1000 the plugin was idle 39% of the run and our reads and diffs in it took under 30 ms, and the same refresh against an emulator with no latency took as long as with 20 ms, so the time above the floor is neither the API's nor our code's CPU but what each resource carries through the plugin's gRPC and the engine's state: our read returns the live object (about ${(big.state.bytes / Math.max(1, big.state.resources) / 1024).toFixed(1)} KB of state per resource at N = ${big.n}, "State size" below) where the floor's returns its inputs.`,
    );
  }
  // The no-code project against a TypeScript program.
  const nocodeRows = (r.nocode ?? []).filter((v) => v.label.startsWith("no-code"));
  if (nocodeRows.length > 0) {
    const per = nocodeRows
      .map((nc) => {
        const ts = (r.nocode ?? []).find((v) => v.n === nc.n && !v.label.startsWith("no-code"));
        return ts && ts.previewMs && nc.previewMs ? `N = ${nc.n} ${ratio(nc.previewMs / ts.previewMs)} (${ms(nc.previewMs)} vs ${ms(ts.previewMs)})` : null;
      })
      .filter((x): x is string => x !== null);
    out.push(
      `- **The no-code project's no-op preview against a type-checked TypeScript program's: ${per.join("; ")}.** The difference is the TypeScript compiler: the CLI runs a TypeScript program through ts-node, which loads the compiler and type-checks index.ts against the package's declarations on every run; the no-code project's program is JavaScript already and the language host loads no compiler (\`typescript: false\`). It is a fixed cost per run, so its share falls as N grows.`,
    );
  }
  // Every phase at every N against its floor target: the misses, by how much.
  const floorMisses = r.sizes.flatMap((s) =>
    s.phases.flatMap((p) => {
      const { ratio: x, allowed } = floorRatios(p);
      return x !== null && allowed !== null && x > allowed ? [`N = ${s.n} ${p.phase} ${ratio(x)} (≤ ${allowed.toFixed(2)}×, over by ${ms(p.wallMs - allowed * p.floorMs!)})`] : [];
    }),
  );
  out.push(
    floorMisses.length === 0
      ? `- **Against the floor: every phase at every N within its target** (≤ 1.00×, plus the API's time for the phases that call it).`
      : `- **Against the floor, missed: ${floorMisses.join("; ")}.** What is left above the floor is fixed per run and in the plugin, measured as CPU time of one process on this machine (steadier than walls on a shared machine) at N = 10: the program now reaches its first registration before the plugin is ready, as the floor's does; the plugin spends about 50 ms more than the do-nothing provider's in a no-op up (loading eleven kinds' modules and configuring each kind's provider). A create adds each kind's first check (its validator loaded and run: 5–30 ms per level of the site's structure, on the path from one level to the next, where the do-nothing provider's check takes 2–9 ms) to the API's time its allowance counts. Refresh and destroy do not run the program: all of their excess is in the plugin (item 2), and the floor makes none of their API calls, so their wall includes the API's latency, which the allowance counts at the raw client's pace.`,
  );
  const cli = cliAnalysis(r);
  if (cli) out.push(cli);
  const timed = big.phases.filter((p) => p.baselineMs !== null && p.baselineMs > 0);
  const missedWall = timed.filter((p) => (ratios(p).raw ?? 0) > TARGETS.wallRatio);
  if (missedWall.length > 0) {
    const line = missedWall
      .map((p) => {
        const { raw, net } = ratios(p);
        return `${p.phase} ${ms(p.wallMs)} vs ${ms(p.baselineMs)}: ${ratio(raw)} raw / ${ratio(net)} net`;
      })
      .join("; ");
    out.push(
      `- **Against the raw client at N = ${big.n} (target ≤ ${TARGETS.wallRatio}×): missed — ${line}.** The calls are at the minimum (item 1), so the gap is not the API: it is the floor of item 2, which alone is several times the baseline; each command also starts a language host and a fresh plugin (harness overhead: cold up ${ms(r.overhead.coldUpMs)}, warm up ${ms(r.overhead.warmUpMs)}; refresh and destroy do not start the program). With the baseline at 1–2 s, 15% is 0.2–0.3 s: less than the fixed start of the Pulumi runtime alone, so this target cannot be met through a dynamic provider run by the SDK's language host.`,
    );
  }

  // Plugin RSS.
  if (big.pluginPeakRssBytes !== null) {
    const small = r.sizes[0];
    const over = big.pluginPeakRssBytes - TARGETS.pluginRssBytes;
    out.push(
      `3. **Plugin peak RSS ${mb(big.pluginPeakRssBytes)} at N = ${big.n} (target ≤ 150 MB): ${over > 0 ? `missed by ${mb(over)}` : `met, ${mb(-over)} under`}${small && small.pluginPeakRssBytes !== null ? `; ${mb(small.pluginPeakRssBytes)} already at N = ${small.n}` : ""}${big.floorPeakRssBytes !== null ? `; the do-nothing provider's plugin peaks at ${mb(big.floorPeakRssBytes)} in the same run, so ${mb(big.pluginPeakRssBytes - big.floorPeakRssBytes)} is ours${big.floorPeakRssBytes > TARGETS.pluginRssBytes ? " (the target is below what the SDK's plugin alone takes for these resources)" : ""}` : ""}.** Measured on this machine (VmRSS/VmHWM of the real dynamic-provider plugin started by the harness, \`process.memoryUsage()\` and \`/proc/<pid>/smaps\` in the plugin): the bare plugin (Node, \`@pulumi/pulumi\` and its gRPC server, configured, no resource) holds 125 MB; loading one of our providers and answering one Check adds 9 MB (134 MB: our modules, ajv and the kinds' compiled schemas — the shim loads nothing of \`@pulumi/pulumi\` the plugin has not already loaded, so splitting the kind modules would save nothing); the first Create adds 1 MB. That breakdown was measured when the client sent on its own pool over Node's \`http\` module; it sends on undici now (as in the peaks of this run), which adds about 10 MB at the first Create and 13–17 MB after ten ("Plugin memory: undici vs node:http transport"). The rest of the peak (135 MB after one Create, the peak of each N in the table above) grows with the calls the plugin serves at 16 in flight — the SDK's per-call deserialising of the provider text and properties, gRPC buffers and V8's heap growing before it collects — and was not broken down further; the plugin is started by the Pulumi engine, so its V8 heap flags are not the provider's to set.`,
    );
  }

  // Rate limit.
  for (const p of r.rate?.phases ?? []) {
    const x = p.wallMs / p.floorMs;
    if (x <= TARGETS.rateRatio && p.failed === 0) continue;
    out.push(
      `- **Rate-limited ${p.phase} (N = ${r.rate!.n}): ${ratio(x)} of calls ÷ rate (target ≤ ${TARGETS.rateRatio}×, over by ${ms(p.wallMs - TARGETS.rateRatio * p.floorMs)}), ${p.failed} failed operations, ${p.rejected429} answers 429.** ${p.rejected429 === 0 ? "The client never overran the budget (no 429). " : ""}The client waits for the window's end as the server states it: \`X-RateLimit-Reset\` is in whole epoch seconds, so a window is waited out up to 1 s after it may really have ended, plus up to 250 ms of jitter (kept so several processes do not all send at the same instant); anything sharper would have to probe the server early and risk 429s. The rest is the per-resource cost of item 2 (language host, harness and plugin), which adds to the rate-bound time instead of overlapping it: the provider cannot send a resource's call before the engine has registered and checked it.`,
    );
  }
  if (r.throughput.getsPerSecond < (SETTINGS.concurrency * 1000) / SETTINGS.latencyMs) {
    out.push(
      `- **Emulator throughput** (${r.throughput.getsPerSecond} GETs/s) is below the ${Math.round((SETTINGS.concurrency * 1000) / SETTINGS.latencyMs)} requests per second the bench can ask at most; the machine was loaded during the measurement, and the emulator may then bound the baseline (which would flatter the provider's ratios).`,
    );
  }
  return out;
}

/** The CLI's rows against their floor targets, and how much of each N's wall is the CLI's own. */
function cliAnalysis(r: BenchReport): string | null {
  const sizes = [...(r.cli?.sizes ?? [])].sort((a, b) => a.n - b.n);
  if (sizes.length === 0) return null;
  const misses = sizes.flatMap((s) =>
    s.phases.flatMap((p) => {
      const { ratio: x, allowed } = floorRatios(p);
      return x !== null && allowed !== null && x > allowed ? [`N = ${s.n} ${p.phase} ${ratio(x)} (≤ ${allowed.toFixed(2)}×, over by ${ms(p.wallMs - allowed * p.floorMs!)})`] : [];
    }),
  );
  const share = sizes.map((s) => {
    const walls = s.phases.map((p) => p.wallMs);
    return `N = ${s.n} ${ms(s.emptyPreviewMs)}, ${pct(s.emptyPreviewMs / Math.max(...walls))}–${pct(s.emptyPreviewMs / Math.min(...walls))} of a phase's wall`;
  });
  const calls = sizes.flatMap((s) => s.phases.filter((p) => !callsMet(p)).map((p) => `N = ${s.n} ${p.phase}`));
  return `- **Through the Pulumi CLI ${r.cli!.version ?? ""}: ${misses.length === 0 ? "every phase at every N within its floor target" : `missed — ${misses.join("; ")}`}; calls ${calls.length === 0 ? "at the minimum in every phase" : `above the minimum in ${calls.join(", ")}`}.** The CLI's own fixed cost (an empty program's preview): ${share.join("; ")}. ${engineLine(r, sizes)}`;
}

/**
 * Where the CLI's walls part from the harness's: the CLI's engine on a self-managed backend writes the
 * whole state after each step, serially (Pulumi's own account: pulumi/docs#16692; \`PULUMI_SKIP_CHECKPOINTS\`
 * skips the intermediate writes, pulumi/pulumi#14967), which the harness does not do.
 */
function engineLine(r: BenchReport, sizes: readonly CliSizeResult[]): string {
  const big = sizes[sizes.length - 1]!;
  const harness = r.sizes.find((s) => s.n === big.n);
  const create = big.phases.find((p) => p.phase === "create");
  const hCreate = harness?.phases.find((p) => p.phase === "create");
  if (!create || create.floorMs === null || !hCreate || hCreate.floorMs === null) return "";
  return `At N = ${big.n} the engine dominates: the floor's create takes ${ms(create.floorMs)} through the CLI against ${ms(hCreate.floorMs)} through the harness, and the phases that write many steps (create, change, destroy) grow with the state the CLI writes — on a self-managed backend (the local file backend here, as S3 or Azure Blob) it writes the whole state file after each step, one write at a time (Pulumi's account of it: pulumi/docs#16692; users set \`PULUMI_SKIP_CHECKPOINTS=true\` to write it once at the end, pulumi/pulumi#14967), so a run of N steps writes N states of up to N resources. Our resources carry more state than the floor's (${(harness!.state.bytes / Math.max(1, harness!.state.resources) / 1024).toFixed(1)} KB each at N = ${big.n}: the live object as outputs, where the floor's outputs are its inputs), and each of those writes carries all of it; the no-op up writes no step and comes in under the floor. The engine harness writes its state at most every 250 ms (test/harness/state.ts \`StateWriter\`), which is why its walls at this N are a fraction of the CLI's (tables above).`;
}

/** `node dist/bench/report.js [bench/RESULTS.json]`: renders RESULTS.md again from a run's measurements, without running anything. */
if (require.main === module) {
  /* eslint-disable @typescript-eslint/no-require-imports -- a command-line entry of its own */
  const fs = require("node:fs") as typeof import("node:fs");
  const path = require("node:path") as typeof import("node:path");
  /* eslint-enable @typescript-eslint/no-require-imports */
  const json = path.resolve(process.argv[2] ?? path.join(__dirname, "..", "..", "bench", "RESULTS.json"));
  const report = JSON.parse(fs.readFileSync(json, "utf8")) as BenchReport;
  const out = json.replace(/\.json$/, ".md");
  fs.writeFileSync(out, renderResults(report, analyse(report)));
  process.stdout.write(`wrote ${out}\n`);
}
