/**
 * `kill -9` of the real `docsplatform emulator --data FILE` while writers create, rename and delete:
 * after a restart on the same file every acknowledged write is there (an unacknowledged one may or may
 * not be). Repeated over several kill cycles, with the kill moment drawn from a seed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { prng } from "../../emulator/faults";
import { caller, listAll } from "../support/api";
import { LONG, ROOT, tracked } from "./report";

const CLI = path.join(ROOT, "dist", "provider", "cli.js");
const SEED = Number(process.env.RELIABILITY_SEED ?? 20250101);
const ORG = "/v1/orgs/demo-org";

const children = new Set<ChildProcess>();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reliability-crash-"));
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

function startCli(dataFile: string): Promise<{ child: ChildProcess; url: string }> {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build`);
  const child = spawn(process.execPath, [CLI, "emulator", "--port", "0", "--data", dataFile], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (m) resolve({ child, url: m[1]! });
    });
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/** What the writers know for certain about one team, and what might have happened after. */
interface TeamFate {
  /** Acknowledged: created, last acknowledged title, or deleted. */
  acked: { exists: boolean; title: string };
  /** A write sent but not answered when the server died: its effect may or may not be there. */
  inFlight?: { exists: boolean; title: string };
}

describe(`emulator --data under kill -9 (seed ${SEED})`, () => {
  it("keeps every acknowledged write across kill -9 cycles during concurrent creates, renames and deletes", async () => {
    await tracked("emulator", "kill -9 under writes (--data)", async (o) => {
      const random = prng(SEED); // the kill moments replay for a seed
      const data = path.join(dir, "crash.jsonl");
      const cycles = LONG ? 6 : 2;
      const writers = 6;
      const fates = new Map<string, TeamFate>();
      o.seeds = [SEED];
      o.cases = 0;
      o.lostWrites = 0;
      let next = 0;
      for (let cycle = 0; cycle < cycles; cycle++) {
        const { child, url } = await startCli(data);
        const call = caller(url, "dev-token");
        // Every writer: create a team, rename it, sometimes delete it; one request in flight at a time.
        let dead = false;
        const work = Array.from({ length: writers }, async () => {
          while (!dead) {
            const title = `crash-${cycle}-${next++}`;
            let id: string | undefined;
            try {
              const created = await call<{ id: string }>("PUT", `${ORG}/teams`, { title });
              if (created.status !== 201) throw new Error(`create answered ${created.status}`);
              id = created.body.id;
              o.cases!++;
              fates.set(id, { acked: { exists: true, title } });
              const renamed = `${title}-renamed`;
              fates.get(id)!.inFlight = { exists: true, title: renamed };
              const patched = await call("PATCH", `${ORG}/teams/${id}`, { title: renamed });
              if (patched.status !== 200) throw new Error(`rename answered ${patched.status}`);
              fates.set(id, { acked: { exists: true, title: renamed } });
              o.cases!++;
              if (random() < 0.3) {
                fates.get(id)!.inFlight = { exists: false, title: renamed };
                const deleted = await call("DELETE", `${ORG}/teams/${id}`);
                if (deleted.status !== 204) throw new Error(`delete answered ${deleted.status}`);
                fates.set(id, { acked: { exists: false, title: renamed } });
                o.cases!++;
              }
            } catch {
              // The server died under this request: its fate stays "in flight".
              return;
            }
          }
        });
        await new Promise((r) => setTimeout(r, 150 + Math.floor(random() * 600)));
        dead = true;
        await killed(child);
        await Promise.all(work);

        // Restart on the same file and compare with what was acknowledged.
        const { child: again, url: url2 } = await startCli(data);
        const live = new Map((await listAll<{ id: string; title: string }>(caller(url2, "dev-token"), `${ORG}/teams`, 1000)).map((t) => [t.id, t.title]));
        const lost: string[] = [];
        for (const [id, fate] of fates) {
          const now = live.has(id) ? { exists: true, title: live.get(id)! } : { exists: false, title: "" };
          const matches = (f: { exists: boolean; title: string }) => f.exists === now.exists && (!f.exists || f.title === now.title);
          if (matches(fate.acked) || (fate.inFlight && matches(fate.inFlight))) {
            // Settle the fate to what the restarted server holds.
            fates.set(id, { acked: now });
            continue;
          }
          lost.push(`${id}: acknowledged ${JSON.stringify(fate.acked)}, found ${JSON.stringify(now)}`);
        }
        o.lostWrites += lost.length;
        expect(lost, `cycle ${cycle}`).toEqual([]);
        await killed(again);
      }
      o.note = `${cycles} kill cycles, ${writers} writers`;
      expect(o.cases).toBeGreaterThan(cycles * writers);
    });
  });
});
