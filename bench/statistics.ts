/**
 * The benchmark's arithmetic: API calls counted by category and by route, the minimum calls of each
 * phase under the API's contract, medians, failed steps, and the baseline a phase carries.
 */
import type { ApiCall, RunResult } from "../test/harness";
import { isExternalLink, sectionsOf, type StackFile } from "../provider/file/model";
import type { Composition, Edit } from "./generate";
import type { BaselineResult, CallCounts, Phase, PhaseResult, RouteCounts } from "./types";

/** Splits calls into writes, reads and ordering moves (the move operations and the structure sort). */
export function countCalls(calls: readonly ApiCall[]): CallCounts {
  const out: CallCounts = { writes: 0, reads: 0, moves: 0 };
  for (const c of calls) {
    if (c.route.endsWith("/move") || c.route.endsWith("/structure/sort")) out.moves++;
    else if (c.method === "GET") out.reads++;
    else out.writes++;
  }
  return out;
}

/** "GET sections" style route counts. */
export function routeCounts(calls: readonly ApiCall[]): RouteCounts {
  const out: RouteCounts = {};
  for (const c of calls) {
    const tail = c.route.replace(/^\/v1\/orgs\/:organizationId/, "").replace(/\/:[A-Za-z]+/g, "/:id");
    const key = `${c.method} ${tail || "/"}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

/**
 * The minimal writes and reads of each phase for a stack (moves excluded), derived from what each
 * kind's create, read, update and delete must call under the API's contract:
 * - create: one write per object — a section's first site space comes with the section's POST, a
 *   customization's write is its PUT, an override's its PATCH, a group's sections and a draft flag go
 *   with their POST; plus one read per site by title before its POST (the lookup that keeps a run
 *   repeated after a crash from making a second site: the API lets two sites share a title, so a POST
 *   is not idempotent), one read of each customized site's look (the PUT replaces the whole object
 *   and the platform does not publish its defaults: the look is recorded to fill what the file leaves
 *   out and to put back on destroy), and the reads of restoring the declared order — one structure
 *   read for a site with external links (the only read that shows links, and it holds every section,
 *   site space and group), else one paged walk of its sections and of its site spaces (and of its
 *   groups when it declares some); a hidden site space's second write, the PATCH that hides it (the
 *   create body takes no `hidden`); the organisation's objects: a style guide its site's POST of
 *   the guide, an OpenAPI spec its POST (the file's text rides in it), the agent instructions one read
 *   and one PUT (sent only when they differ), a site's attached guide one read of the site and the
 *   PATCH of its `styleguide` (sent only when it differs);
 * - change: one write per edited object (a customization's whole settings in one PUT, merged over
 *   the recorded look: no read first; the agent instructions' PUT; a spec's new text in one PUT);
 * - refresh: one GET per site, team and created space, one per override (its effective look) and one
 *   of each customized site's look (shared by the site's customization and its overrides, which need
 *   it to tell a hand-made override from the site's value); one paged walk per parent for each
 *   list-read kind (sections, site spaces, section groups, share links, MCP servers, channels, context
 *   connections); one structure read per site with external links (shared by its links, which have no
 *   GET or list of their own, and its order); one GET of each site's agent settings and one of each
 *   Git Sync site's installations (the list that holds the installation and its children); one GET
 *   of each style guide's space and of the agent instructions; an OpenAPI spec's GET, and for a spec
 *   sent from a file the GET of its raw text (a text edited in the app is drift); nothing for a site's
 *   attached guide: it is a member of the site, which the site's own GET reads;
 * - destroy: one call per object, children first (the kinds do not rely on cascades): a DELETE, a
 *   customization's PUT of the recorded look, Git Sync's uninstall; a site's attached guide a read of
 *   the site and the PATCH that detaches it (only while the site still has that guide: one attached by
 *   hand since stays); none for a space the file created (retained by the default deletion policy),
 *   for agent settings (no longer managed: the site keeps them), nor for a style guide or the agent
 *   instructions (content: retained when their entry goes).
 */
export function minimumCalls(stack: StackFile, composition: Composition, edits: readonly Edit[]): Record<Phase, { writes: number; reads: number }> {
  const sites = stack.sites ?? [];
  const n = Object.values(composition).reduce((a, b) => a + b, 0);
  const pages = (count: number) => Math.max(1, Math.ceil(count / 1000));
  let lists = 0;
  let orderReads = 0;
  let structures = 0;
  let looks = 0;
  let hidden = 0;
  for (const s of sites) {
    const sections = sectionsOf(s);
    const siteSpaces = sections.flatMap((x) => x.siteSpaces ?? []);
    const groups = (s.sectionGroups ?? []).length;
    const links = (s.sections ?? []).filter(isExternalLink).length;
    if (sections.length > 0) lists += pages(sections.length) + pages(siteSpaces.length);
    if (groups > 0) lists += pages(groups);
    if ((s.shareLinks ?? []).length > 0) lists += pages(s.shareLinks!.length);
    for (const list of [s.mcpServers, s.agentChannels, s.contextConnections]) if ((list ?? []).length > 0) lists += pages(list!.length);
    if (links > 0) structures += 1;
    if (links > 0) orderReads += 1;
    else if (sections.length > 0) orderReads += pages(sections.length) + pages(siteSpaces.length) + (groups > 0 ? pages(groups) : 0);
    if (s.customization !== undefined || siteSpaces.some((ss) => ss.customization !== undefined)) looks += 1;
    hidden += siteSpaces.filter((ss) => ss.hidden === true).length;
  }
  const specReads = ((stack.openapi ?? []) as unknown as { file?: string }[]).reduce((k, spec) => k + (spec.file === undefined ? 1 : 2), 0);
  const retained = composition.spaces + composition.agentSettings + composition.styleGuides + composition.agentInstructions;
  return {
    create: {
      writes: n - composition.sections + composition.gitSyncs + hidden,
      reads: composition.sites + composition.customizations + composition.agentSettings + orderReads + composition.agentInstructions + composition.siteStyleGuides,
    },
    "no-op up": { writes: 0, reads: 0 },
    "change 10%": { writes: edits.length, reads: 0 },
    refresh: {
      writes: 0,
      reads: composition.sites + composition.teams + composition.spaces + composition.overrides + looks + lists + structures + composition.agentSettings + composition.gitSyncs + composition.styleGuides + composition.agentInstructions + specReads,
    },
    destroy: { writes: n - retained, reads: composition.siteStyleGuides },
  };
}

/** Median of a non-empty list (the lower middle for an even count). */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export function failedSteps(r: RunResult): number {
  return r.steps.filter((s) => s.error !== undefined).length + (r.error && r.steps.every((s) => s.error === undefined) ? 1 : 0);
}

/** The baseline a measured size's phases carry, to give another engine's rows of the same N. */
export function baselineOf(phases: readonly PhaseResult[]): BaselineResult {
  const out: BaselineResult = {};
  for (const p of phases) if (p.baselineMs !== null && p.baselineCalls !== null) out[p.phase] = { ms: p.baselineMs, calls: p.baselineCalls };
  return out;
}

/** Sets each phase's baseline wall and calls from a baseline run. */
export function applyBaseline(phases: readonly PhaseResult[], baseline: BaselineResult): void {
  for (const p of phases) {
    const b = baseline[p.phase];
    if (!b) continue;
    p.baselineMs = b.ms;
    p.baselineCalls = b.calls;
  }
}
