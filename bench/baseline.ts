/**
 * The baseline: the raw typed client making exactly the minimal calls of each phase, at the same
 * concurrency (the client's process-wide bound), against its own emulator with the same latency.
 * Each object waits only for its parent (a section for its site, a site space for its section), as
 * the engine's dependency graph allows; everything else runs at once under the bound.
 */
import { ApiClient, type MovePosition } from "../provider/client";
import { planMoves, applyMove } from "../provider/resources/siteStructureOrder";
import { sectionsOf, type StackFile } from "../provider/stack/model";
import type { Edit } from "./generate";
import { CHANGED_CONDITION } from "./generate";

/** IDs of what the baseline created, by the stack's keys. */
interface Created {
  sites: Map<string, string>;
  teams: Map<string, string>;
  /** `<site>/<key>` → ID, for sections, site spaces and share links. */
  sections: Map<string, string>;
  siteSpaces: Map<string, string>;
  shareLinks: Map<string, string>;
}

/** Calls one baseline phase made (writes and reads, moves apart). */
export interface BaselineCalls {
  writes: number;
  reads: number;
  moves: number;
}

/** Runs the minimal calls of each phase for one stack. */
export class Baseline {
  private readonly client: ApiClient;
  private readonly ids: Created = { sites: new Map(), teams: new Map(), sections: new Map(), siteSpaces: new Map(), shareLinks: new Map() };
  private calls: BaselineCalls = { writes: 0, reads: 0, moves: 0 };

  constructor(
    baseUrl: string,
    token: string,
    private readonly org: string,
    concurrency: number,
  ) {
    this.client = new ApiClient({ baseUrl, token, maxConcurrency: concurrency });
  }

  /** Counts of the last phase. */
  private take(): BaselineCalls {
    const c = this.calls;
    this.calls = { writes: 0, reads: 0, moves: 0 };
    return c;
  }

  private write<T>(p: () => Promise<T>): Promise<T> {
    this.calls.writes++;
    return p();
  }

  private read<T>(p: () => Promise<T>): Promise<T> {
    this.calls.reads++;
    return p();
  }

  /**
   * One write per object (a section's first site space comes with its section), then the declared
   * order restored with the fewest moves: one list read per list ordered, then moves within each level
   * in sequence (levels in parallel). Returns the counts; moves are reported apart from writes.
   */
  async create(stack: StackFile): Promise<BaselineCalls> {
    const { client, org, ids } = this;
    const jobs: Promise<unknown>[] = [];
    for (const t of stack.teams ?? []) {
      jobs.push(this.write(() => client.teams.create(org, { title: t.title })).then((team) => ids.teams.set(t.key, team.id)));
    }
    for (const s of stack.sites ?? []) {
      jobs.push(
        (async () => {
          const site = await this.write(() => client.sites.create(org, { title: s.title, ...(s.visibility ? { visibility: s.visibility } : {}) }));
          ids.sites.set(s.key, site.id);
          const children: Promise<unknown>[] = [];
          for (const section of sectionsOf(s)) {
            children.push(
              (async () => {
                const [first, ...rest] = section.siteSpaces ?? [];
                const spaceOf = (ss: { space: unknown }) => (ss.space as { id: string }).id;
                const created = await this.write(() => client.sections.create(org, site.id, { spaceId: spaceOf(first!), title: section.title }));
                ids.sections.set(`${s.key}/${section.key}`, created.id);
                ids.siteSpaces.set(`${s.key}/${first!.key}`, created.siteSpaces![0]!.id);
                await Promise.all(
                  rest.map(async (ss) => {
                    const made = await this.write(() => client.siteSpaces.create(org, site.id, { spaceId: spaceOf(ss), sectionId: created.id }));
                    ids.siteSpaces.set(`${s.key}/${ss.key}`, made.id);
                  }),
                );
              })(),
            );
          }
          for (const l of s.shareLinks ?? []) {
            children.push(this.write(() => client.shareLinks.create(org, site.id, { name: l.name })).then((link) => ids.shareLinks.set(`${s.key}/${l.key}`, link.id)));
          }
          await Promise.all(children);
        })(),
      );
    }
    await Promise.all(jobs);
    await this.order(stack);
    return this.take();
  }

  /** Restores the declared order of sections and of each section's site spaces with the fewest moves. */
  private async order(stack: StackFile): Promise<void> {
    const { client, org, ids } = this;
    await Promise.all(
      (stack.sites ?? []).map(async (s) => {
        const siteId = ids.sites.get(s.key)!;
        const sections = sectionsOf(s);
        if (sections.length === 0) return;
        const [liveSections, liveSpaces] = await Promise.all([
          this.read(() => client.sections.list(org, siteId)),
          this.read(() => client.siteSpaces.list(org, siteId)),
        ]);
        const runLevel = async (live: string[], desired: string[], move: (id: string, to: MovePosition) => Promise<unknown>) => {
          for (const m of planMoves(live, desired)) {
            this.calls.moves++;
            await move(m.id, m.position);
            applyMove(live, m);
          }
        };
        const levels: Promise<void>[] = [];
        levels.push(
          runLevel(
            liveSections.map((x) => x.id),
            sections.map((x) => ids.sections.get(`${s.key}/${x.key}`)!),
            (id, to) => client.sections.move(org, siteId, id, to),
          ),
        );
        for (const section of sections) {
          const sectionId = ids.sections.get(`${s.key}/${section.key}`)!;
          levels.push(
            runLevel(
              liveSpaces.filter((x) => x.section === sectionId).map((x) => x.id),
              (section.siteSpaces ?? []).map((x) => ids.siteSpaces.get(`${s.key}/${x.key}`)!),
              (id, to) => client.siteSpaces.move(org, siteId, id, to),
            ),
          );
        }
        await Promise.all(levels);
      }),
    );
  }

  /** One write per edited object. */
  async change(edits: readonly Edit[], changed: StackFile): Promise<BaselineCalls> {
    const { client, org, ids } = this;
    const siteOf = (e: Edit) => ids.sites.get(e.site!)!;
    await Promise.all(
      edits.map((e) => {
        switch (e.kind) {
          case "section": {
            const section = (changed.sites ?? []).find((s) => s.key === e.site)!.sections!.find((x) => x.key === e.key)!;
            return this.write(() => client.sections.update(org, siteOf(e), ids.sections.get(`${e.site}/${e.key}`)!, { title: section.title }));
          }
          case "siteSpace":
            return this.write(() => client.siteSpaces.update(org, siteOf(e), ids.siteSpaces.get(`${e.site}/${e.key}`)!, { condition: CHANGED_CONDITION }));
          case "shareLink": {
            const link = (changed.sites ?? []).find((s) => s.key === e.site)!.shareLinks!.find((x) => x.key === e.key)!;
            return this.write(() => client.shareLinks.update(org, siteOf(e), ids.shareLinks.get(`${e.site}/${e.key}`)!, { name: link.name }));
          }
          case "team": {
            const team = (changed.teams ?? []).find((t) => t.key === e.key)!;
            return this.write(() => client.teams.update(org, ids.teams.get(e.key)!, { title: team.title }));
          }
        }
      }),
    );
    return this.take();
  }

  /** One GET per single-GET object (sites, teams) and one paged list walk per parent for each list-read kind. */
  async refresh(stack: StackFile): Promise<BaselineCalls> {
    const { client, org, ids } = this;
    const jobs: Promise<unknown>[] = [];
    for (const t of stack.teams ?? []) jobs.push(this.read(() => client.teams.get(org, ids.teams.get(t.key)!)));
    for (const s of stack.sites ?? []) {
      const siteId = ids.sites.get(s.key)!;
      jobs.push(this.read(() => client.sites.get(org, siteId)));
      if (sectionsOf(s).length > 0) {
        jobs.push(this.read(() => client.sections.list(org, siteId)));
        jobs.push(this.read(() => client.siteSpaces.list(org, siteId)));
      }
      if ((s.shareLinks ?? []).length > 0) jobs.push(this.read(() => client.shareLinks.list(org, siteId)));
    }
    await Promise.all(jobs);
    return this.take();
  }

  /**
   * One DELETE per object, children before parents (no reliance on cascades, as the kinds do not rely
   * on them): site spaces, then sections and share links, then sites; teams alongside.
   */
  async destroy(stack: StackFile): Promise<BaselineCalls> {
    const { client, org, ids } = this;
    const jobs: Promise<unknown>[] = [];
    for (const t of stack.teams ?? []) jobs.push(this.write(() => client.teams.delete(org, ids.teams.get(t.key)!)));
    for (const s of stack.sites ?? []) {
      const siteId = ids.sites.get(s.key)!;
      jobs.push(
        (async () => {
          const children: Promise<unknown>[] = [];
          for (const section of sectionsOf(s)) {
            children.push(
              (async () => {
                await Promise.all(
                  (section.siteSpaces ?? []).map((ss) => this.write(() => client.siteSpaces.delete(org, siteId, ids.siteSpaces.get(`${s.key}/${ss.key}`)!))),
                );
                await this.write(() => client.sections.delete(org, siteId, ids.sections.get(`${s.key}/${section.key}`)!));
              })(),
            );
          }
          for (const l of s.shareLinks ?? []) children.push(this.write(() => client.shareLinks.delete(org, siteId, ids.shareLinks.get(`${s.key}/${l.key}`)!)));
          await Promise.all(children);
          await this.write(() => client.sites.delete(org, siteId));
        })(),
      );
    }
    await Promise.all(jobs);
    return this.take();
  }

  /** Releases the client's connections. */
  close(): Promise<void> {
    return this.client.close();
  }
}
