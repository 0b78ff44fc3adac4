/**
 * A grant change cut short (issue #37): the run dies, or the network goes, between two of its writes.
 * The change replaces a site's only admin team by another team and a promoted user, lowers a third
 * team's role and removes the old admins. For every k, the API is cut off after exactly k of the
 * change's writes (every later write reset before it acts, as the platform sees a run that died
 * there); after each cut the site still has an admin grant, and the next `up` finishes the change (and a
 * further `up` makes no call). When removals went first, the cut after the first write left the
 * site with no admin.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import type { PreparedProgram, ProgramRunner } from "../harness";
import { caller, listAll } from "../support/api";
import { startProgram, stopProgram } from "../support/program";
import { HANDBOOK_DIR } from "./lifecycle";
import { tracked } from "./report";

const teams = `teams:
  - { key: owners, title: Owners }
  - { key: editors, title: Editors }
  - { key: viewers, title: Viewers }
`;
const site = (grants: string) => `organization: demo-org
${teams}sites:
  - key: portal
    title: Partner portal
    visibility: share-link
    permissions:
${grants}`;

const BEFORE = site(`      - { team: owners, role: admin }
      - { user: reader@demo.test, role: edit }
      - { team: viewers, role: edit }
`);
const AFTER = site(`      - { team: editors, role: admin }
      - { user: reader@demo.test, role: admin }
      - { team: viewers, role: read }
`);

/** The change's writes: the new admin team's invite, the promotion, the demotion, the removal. */
const WRITES = 4;
const WRITE_METHODS = ["POST", "PUT", "PATCH", "DELETE"];

let emu: RunningEmulator;
let program: PreparedProgram;
let runner: ProgramRunner;

beforeAll(async () => {
  // Every command a fresh plugin, as each `pulumi` command starts one (and nothing is cached across the resets).
  ({ emu, program, runner } = await startProgram(HANDBOOK_DIR, { runner: { pluginPerRun: true } }));
});
afterAll(async () => {
  emu?.control.setFaults(null);
  await stopProgram({ emu, program, runner });
});

const write = (text: string) => fs.writeFileSync(path.join(program.dir, "docs.yaml"), text);

/** The site's direct grants, as `team <title>=role` and `user <id>=role`, read from the platform's lists. */
async function liveGrants(): Promise<string[]> {
  const org = emu.store.org("demo-org");
  const portal = org.sites.find((s) => s.title === "Partner portal");
  if (!portal) throw new Error("the site is gone");
  const titles = new Map(org.teams.map((t) => [t.id, t.title]));
  const call = caller(emu.url, emu.token);
  const base = `/v1/orgs/demo-org/sites/${portal.id}/permissions`;
  const [teamGrants, userGrants] = await Promise.all([
    listAll<{ team: { id: string }; permission: string | null }>(call, `${base}/teams`),
    listAll<{ user: { id: string }; permission: string | null }>(call, `${base}/users`),
  ]);
  return [...teamGrants.map((g) => `team ${titles.get(g.team.id)}=${g.permission}`), ...userGrants.map((g) => `user ${g.user.id}=${g.permission}`)].sort();
}

describe("a grant change cut after each of its writes", { timeout: 600_000 }, () => {
  it(`the site keeps an admin after every cut (0..${WRITES} writes), and the next up finishes the change`, async () => {
    await tracked("faults", "grant change cut after each write", async (o) => {
      o.cases = 0;
      // The grants before the change, deployed once; every cut starts from a copy of that platform and its state.
      emu.control.reset();
      fs.rmSync(runner.stateFile, { force: true });
      write(BEFORE);
      await runner.up();
      const deployed = { rows: emu.control.save(), state: fs.readFileSync(runner.stateFile) };
      for (let k = 0; k <= WRITES; k++) {
        emu.control.restore(deployed.rows);
        fs.writeFileSync(runner.stateFile, deployed.state);
        write(BEFORE);
        expect(await liveGrants()).toEqual(["team Owners=admin", "team Viewers=edit", "user reader-1=edit"]);
        if (k === 0) expect((await runner.up()).apiCalls.filter((c) => c.method !== "GET"), "the restored copy is what the file declares").toEqual([]);

        write(AFTER);
        emu.control.clearLog();
        emu.control.setFaults({ after: k, resetRate: 1, methods: WRITE_METHODS, routes: "/permissions" });
        let cut;
        try {
          cut = await runner.up({ allowError: true });
        } finally {
          emu.control.setFaults(null);
        }
        const committed = emu.control.log().filter((e) => WRITE_METHODS.includes(e.method) && e.status > 0 && e.status < 300);
        expect(committed).toHaveLength(k);
        if (k < WRITES) expect(cut.error?.message).toMatch(/update failed/);
        else expect(cut.error).toBeUndefined();
        const grants = await liveGrants();
        expect(grants.filter((g) => g.endsWith("=admin")), `after ${k} writes: ${grants.join(", ")}`).not.toEqual([]);

        await runner.up();
        expect(await liveGrants()).toEqual(["team Editors=admin", "team Viewers=read", "user reader-1=admin"]);
        if (k === WRITES) expect((await runner.up()).apiCalls).toEqual([]);
        o.cases++;
      }
    });
  });
});
