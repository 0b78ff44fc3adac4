/**
 * Deterministic stack files for the benchmark: N objects, mostly sections and site spaces across a few
 * sites, plus share links and teams. The same N always gives the same file, byte for byte, so runs
 * compare. Spaces are referred to by platform ID (`{id}`) and seeded into the emulator beside the
 * default fixture: a space appears at most once per site, so a site with 180 site spaces needs 180.
 */
import { stringify as toYaml } from "yaml";
import type { SeedSpace } from "../emulator";
import { type StackFile, type StackSection, type StackShareLink, type StackSite, type StackSiteSpace, type StackTeam, countObjects, sectionsOf } from "../provider/stack/model";

/** Organisation of the default emulator fixture. */
export const BENCH_ORG = "demo-org";

/** The condition the change phase puts on site spaces. */
export const CHANGED_CONDITION = "visitor.claims.beta == true";

/** What one generated stack declares, by kind (each counts toward N). */
export interface Composition {
  sites: number;
  teams: number;
  shareLinks: number;
  sections: number;
  /** Every site space, including the first of each section (created with the section). */
  siteSpaces: number;
}

/** A generated stack file and what the emulator needs to accept it. */
export interface GeneratedStack {
  n: number;
  stack: StackFile;
  composition: Composition;
  /** Spaces to seed into the emulator's organisation (IDs the stack refers to). */
  spaces: SeedSpace[];
}

/** One object the change phase edits in place, and the field it edits. */
export interface Edit {
  kind: "section" | "siteSpace" | "shareLink" | "team";
  /** Site key (absent for teams). */
  site?: string;
  key: string;
  field: "title" | "condition" | "name";
}

/** Number of sites of an N-object stack: one for small stacks, about one per 200 objects beyond. */
function siteCount(n: number): number {
  if (n < 50) return 1;
  return Math.max(2, Math.ceil(n / 200));
}

function pad(i: number, width = 4): string {
  return String(i).padStart(width, "0");
}

/** ID of the i-th benchmark space (1-based). */
export function benchSpaceId(i: number): string {
  return `bench-space-${pad(i)}`;
}

/**
 * A stack of exactly `n` objects (as `countObjects` counts them): `siteCount(n)` sites with
 * `visibility: share-link`, ~3% teams, ~7% share links, and the rest sections holding 1 to 3 site spaces
 * (pattern 2, 1, 3, 2, …: a section counts 1 plus its site spaces). Nothing is declared that the API
 * only takes in a follow-up PATCH, so creating each object costs exactly one write.
 */
export function generateStack(n: number): GeneratedStack {
  if (!Number.isInteger(n) || n < 4) throw new Error(`N must be an integer of at least 4 (one site, team, share link and section), got ${n}`);
  const sites = siteCount(n);
  const teams = Math.max(1, Math.round(n * 0.03));
  const shareLinks = Math.max(1, Math.round(n * 0.07));
  let rest = n - sites - teams - shareLinks;

  // Sections and their site spaces, dealt round-robin over the sites.
  const pattern = [2, 1, 3];
  const sectionSizes: number[] = [];
  for (let i = 0; rest > 0; i++) {
    let size = pattern[i % pattern.length]!;
    if (rest - (size + 1) === 1) size += 1; // never leave one object over: a section needs two
    size = Math.min(size, rest - 1);
    sectionSizes.push(size);
    rest -= size + 1;
  }

  const siteList: StackSite[] = [];
  for (let s = 0; s < sites; s++) {
    siteList.push({ key: `site-${s + 1}`, title: `Bench site ${s + 1}`, visibility: "share-link", sections: [], shareLinks: [] });
  }
  const spaceUse = new Array<number>(sites).fill(0);
  sectionSizes.forEach((size, i) => {
    const s = i % sites;
    const site = siteList[s]!;
    const number = site.sections!.length + 1;
    const siteSpaces: StackSiteSpace[] = [];
    for (let k = 0; k < size; k++) {
      spaceUse[s]! += 1;
      siteSpaces.push({ key: `ss-${pad(number)}-${k + 1}`, space: { id: benchSpaceId(spaceUse[s]!) } });
    }
    const section: StackSection = { key: `sec-${pad(number)}`, title: `Section ${pad(number)}`, siteSpaces };
    site.sections!.push(section);
  });
  for (let i = 0; i < shareLinks; i++) {
    const site = siteList[i % sites]!;
    const link: StackShareLink = { key: `link-${pad(site.shareLinks!.length + 1)}`, name: `Partner ${pad(i + 1)}` };
    site.shareLinks!.push(link);
  }
  const teamList: StackTeam[] = [];
  for (let i = 0; i < teams; i++) teamList.push({ key: `team-${pad(i + 1)}`, title: `Bench team ${pad(i + 1)}` });

  const stack: StackFile = { organization: BENCH_ORG, teams: teamList, sites: siteList };
  const counted = countObjects(stack);
  const composition: Composition = {
    sites: counted.site,
    teams: counted.team,
    shareLinks: counted.shareLink,
    sections: counted.section,
    siteSpaces: counted.siteSpace,
  };
  const total = Object.values(composition).reduce((a, b) => a + b, 0);
  if (total !== n) throw new Error(`generated ${total} objects for N = ${n}`);
  const spaces: SeedSpace[] = [];
  for (let i = 1; i <= Math.max(...spaceUse); i++) spaces.push({ id: benchSpaceId(i), title: `Bench space ${pad(i)}` });
  return { n, stack, composition, spaces };
}

/**
 * The change phase: a copy of the stack with ~10% of its objects edited in place (rounded, at least
 * one), cycling through section titles, site-space conditions, share-link names and team titles.
 * Only site spaces other than a section's first are edited: the first is created with its section.
 */
export function changeStack(stack: StackFile, fraction = 0.1): { stack: StackFile; edits: Edit[] } {
  const next = structuredClone(stack);
  const candidates: { edit: Edit; apply: () => void }[][] = [[], [], [], []];
  for (const site of next.sites ?? []) {
    for (const section of sectionsOf(site)) {
      candidates[0]!.push({
        edit: { kind: "section", site: site.key, key: section.key, field: "title" },
        apply: () => {
          section.title = `${section.title} (revised)`;
        },
      });
      for (const ss of (section.siteSpaces ?? []).slice(1)) {
        candidates[1]!.push({
          edit: { kind: "siteSpace", site: site.key, key: ss.key, field: "condition" },
          apply: () => {
            ss.condition = CHANGED_CONDITION;
          },
        });
      }
    }
    for (const link of site.shareLinks ?? []) {
      candidates[2]!.push({
        edit: { kind: "shareLink", site: site.key, key: link.key, field: "name" },
        apply: () => {
          link.name = `${link.name} v2`;
        },
      });
    }
  }
  for (const team of next.teams ?? []) {
    candidates[3]!.push({
      edit: { kind: "team", key: team.key, field: "title" },
      apply: () => {
        team.title = `${team.title} v2`;
      },
    });
  }
  const total = Object.values(countObjects(stack)).reduce((a, b) => a + b, 0);
  const wanted = Math.max(1, Math.round(total * fraction));
  // Spread the edits: every k-th candidate of each kind in turn.
  const cursors = candidates.map(() => 0);
  const edits: Edit[] = [];
  for (let round = 0; edits.length < wanted; round++) {
    const kind = round % candidates.length;
    const list = candidates[kind]!;
    if (cursors.every((c, i) => c >= candidates[i]!.length)) break;
    const stride = Math.max(1, Math.floor(list.length / Math.ceil(wanted / candidates.length)));
    const i = cursors[kind]!;
    if (i >= list.length) continue;
    list[i]!.apply();
    edits.push(list[i]!.edit);
    cursors[kind] = i + stride;
  }
  return { stack: next, edits };
}

/** The stack as a YAML stack file. */
export function toStackYaml(stack: StackFile): string {
  return `# Generated by bench/generate.ts; regenerated on every run.\n${toYaml(stack, { lineWidth: 0 })}`;
}
