/** control.save / control.restore: a copy of every row and back, as the tests that share one deployment use them. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "./index";
import { apiOf } from "../test/support/api";

describe("control.save and control.restore", () => {
  let emu: RunningEmulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it("restore puts back every row as saved, whatever changed after, as often as asked, and clears the log", async () => {
    emu = await startEmulator({ port: 0 });
    const api = apiOf(emu);
    const site = (await api("POST", "/v1/orgs/demo-org/sites", { title: "Saved" })) as { id: string };
    const saved = emu.control.save();
    const before = emu.store.snapshot();

    await api("PATCH", `/v1/orgs/demo-org/sites/${site.id}`, { title: "Changed" });
    await api("POST", "/v1/orgs/demo-org/sites", { title: "Added" });
    await api("DELETE", "/v1/spaces/space-api");
    expect(emu.store.snapshot()).not.toEqual(before);
    emu.control.restore(saved);
    expect(emu.store.snapshot()).toEqual(before);
    expect(emu.control.log()).toEqual([]);

    // The saved copy is not the live data: a write after one restore leaves the next restore as saved.
    await api("PATCH", `/v1/orgs/demo-org/sites/${site.id}`, { title: "Changed again" });
    emu.control.restore(saved);
    expect(emu.store.snapshot()).toEqual(before);
    expect(((await api("GET", `/v1/orgs/demo-org/sites/${site.id}`)) as { title: string }).title).toBe("Saved");
  });

  it("a persisting emulator keeps the restored rows across a restart", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "emu-restore-"));
    const dataFile = path.join(dir, "data.jsonl");
    try {
      emu = await startEmulator({ port: 0, dataFile });
      const saved = emu.control.save();
      const before = emu.store.snapshot();
      await apiOf(emu)("POST", "/v1/orgs/demo-org/sites", { title: "Gone after the restore" });
      emu.control.restore(saved);
      await emu.close();
      emu = await startEmulator({ port: 0, dataFile });
      expect(emu.store.snapshot()).toEqual(before);
    } finally {
      await emu?.close();
      emu = undefined;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
