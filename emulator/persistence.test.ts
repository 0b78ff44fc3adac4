/** Persistence with --data: acknowledged writes survive a restart, a torn journal tail, and a kill -9 of the real CLI. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { startEmulator } from "./index";
import { caller, listAll } from "../test/support/api";
import { ensureBuilt } from "../test/support/built";

const root = resolve(__dirname, "..");
const cli = join(root, "dist/provider/cli.js");
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "emulator-data-"));
  ensureBuilt(root);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the real CLI and resolves with its URL once it prints `listening on`. */
function startCli(dataFile: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [cli, "emulator", "--port", "0", "--data", dataFile], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolvePromise, reject) => {
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += String(d)));
    child.on("exit", (code) => reject(new Error(`emulator exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (m) resolvePromise({ child, url: m[1]! });
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once("exit", () => r())));
}

describe("persistence", () => {
  it("keeps every acknowledged write across a kill -9 during a stream of writes", async () => {
    const data = join(dir, "kill.jsonl");
    const first = await startCli(data);
    const call = caller(first.url, "dev-token");
    const acknowledged: string[] = [];
    let stop = false;
    // Four concurrent writers; the kill lands while requests are in flight.
    const writers = [0, 1, 2, 3].map(async (w) => {
      for (let i = 0; !stop; i++) {
        try {
          const r = await call("PUT", "/v1/orgs/demo-org/teams", { title: `w${w}-${i}` });
          if (r.status === 201) acknowledged.push(`w${w}-${i}`);
        } catch {
          return; // the connection died with the process
        }
      }
    });
    const site = await call("POST", "/v1/orgs/demo-org/sites", { title: "Durable", spaces: ["space-guides"] });
    expect(site.status).toBe(201);
    while (acknowledged.length < 120) await new Promise((r) => setTimeout(r, 5));
    first.child.kill("SIGKILL");
    stop = true;
    await Promise.all(writers);
    await exited(first.child);

    const second = await startCli(data);
    try {
      const call2 = caller(second.url, "dev-token");
      const titles = new Set((await listAll(call2, "/v1/orgs/demo-org/teams", 1000)).map((t) => t.title as string));
      expect(acknowledged.filter((t) => !titles.has(t))).toEqual([]);
      expect((await call2("GET", `/v1/orgs/demo-org/sites/${site.body.id}`)).body.title).toBe("Durable");
      expect((await listAll(call2, `/v1/orgs/demo-org/sites/${site.body.id}/site-spaces`)).map((s) => s.path)).toEqual(["guides"]);
    } finally {
      second.child.kill("SIGTERM");
      await exited(second.child);
    }
  });

  it("restores the same snapshot after a graceful restart, and ignores a torn last line", async () => {
    const data = join(dir, "restart.jsonl");
    const a = await startEmulator({ port: 0, dataFile: data });
    const call = caller(a.url, a.token);
    const s = (await call("POST", "/v1/orgs/demo-org/sites", { title: "Keep" })).body;
    await call("POST", `/v1/orgs/demo-org/sites/${s.id}/sections`, { spaceId: "space-api" });
    await call("POST", `/v1/orgs/demo-org/sites/${s.id}/share-links`, { name: "Link" });
    await call("DELETE", "/v1/spaces/space-changelog");
    const before = a.store.snapshot();
    await a.close();
    // A crash in the middle of an append leaves a partial line: it was never acknowledged.
    appendFileSync(data, '{"p":[["teams",{"id":"half');
    const b = await startEmulator({ port: 0, dataFile: data });
    try {
      expect(b.store.snapshot()).toEqual(before);
      const link = (await listAll(caller(b.url, b.token), `/v1/orgs/demo-org/sites/${s.id}/share-links`))[0];
      expect(link.urls.published).toMatch(/\?token=/);
    } finally {
      await b.close();
    }
  });

  it("starts from the seed on a fresh file and resets durably", async () => {
    const data = join(dir, "reset.jsonl");
    const a = await startEmulator({ port: 0, dataFile: data });
    await caller(a.url, a.token)("PUT", "/v1/orgs/demo-org/teams", { title: "Temp" });
    a.control.reset();
    await a.close();
    const b = await startEmulator({ port: 0, dataFile: data });
    try {
      expect(b.store.org("demo-org").teams).toEqual([]);
      expect(b.store.org("demo-org").spaces.map((x) => x.id)).toEqual(["space-guides", "space-api", "space-changelog"]);
    } finally {
      await b.close();
    }
  });
});
