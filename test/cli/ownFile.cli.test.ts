/**
 * Trying one's own docs.yaml before the live platform, as the README says, through the real Pulumi CLI:
 * `npx docsplatform emulator --seed-from docs.yaml` in the project (the organisation the file refers to,
 * the printed token an admin of it), `pulumi config set docsplatform:apiUrl` and the token as a secret,
 * then preview, up, a second up with no API call, destroy. The project (test/support/ownProject.ts) has its
 * own organisation, two sites, a team of two users, a space by ID and a share link.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareProgram, type PreparedProgram } from "../harness/program";
import { caller, type Call } from "../support/api";
import { OWN_ORG, OWN_RESOURCES, OWN_SPACE, startSeededEmulator, writeOwnProject, type SeededEmulator } from "../support/ownProject";
import { kindsAndNames, PulumiCli, type CliResult } from "./pulumi";

let project: { dir: string; cleanup(): void };
let program: PreparedProgram;
let emu: SeededEmulator;
let cli: PulumiCli;
let api: Call;

/** The API requests the emulator answered since the last call, as `METHOD route`, then cleared (its control surface). */
async function calls(): Promise<string[]> {
  const { items } = (await (await fetch(`${emu.url}/_emulator/log`)).json()) as { items: { method: string; route: string }[] };
  await fetch(`${emu.url}/_emulator/log`, { method: "DELETE" });
  return items.map((c) => `${c.method} ${c.route}`);
}

/** The counts the CLI prints after a run (`+ 12 created`, `12 unchanged`…), of the package's resources (stack and component left out). */
function summary(r: CliResult): Record<string, number> {
  const tail = r.stdout.slice(r.stdout.lastIndexOf("Resources:"));
  const out: Record<string, number> = {};
  for (const m of tail.matchAll(/^\s+(?:[-+~]+\s+)?(\d+) (to create|created|to delete|deleted|unchanged|to update|updated)$/gm)) out[m[2]!] = Number(m[1]) - 2;
  return out;
}

beforeAll(async () => {
  project = writeOwnProject();
  program = await prepareProgram(project.dir, { installPackage: true });
  emu = await startSeededEmulator(program.dir);
  api = caller(emu.url, emu.token);
  cli = new PulumiCli(program.dir, [emu.token]);
  await cli.run(["stack", "init", "dev"]);
  await cli.run(["config", "set", "docsplatform:apiUrl", emu.url]);
  await cli.run(["config", "set", "--secret", "docsplatform:apiToken", emu.token]);
  await calls();
}, 300_000);

afterAll(async () => {
  cli?.close();
  await emu?.stop();
  program?.cleanup();
  project?.cleanup();
});

describe("one's own docs.yaml on the emulator seeded from it, through the Pulumi CLI", { timeout: 300_000 }, () => {
  it("the emulator has the file's organisation, its users and its space, the token an admin", async () => {
    expect(emu.seedLine).toBe(`seed: organisation ${OWN_ORG}: 3 members, 1 space (from docs.yaml)`);
    const members = (await api("GET", `/v1/orgs/${OWN_ORG}/members`)).body.items as { user: { email: string }; role: string }[];
    expect(members.map((m) => `${m.user.email} ${m.role}`).sort()).toEqual(["ana@northwind.test read", "ben@northwind.test read", "ops@northwind.test admin"]);
    expect((await api("GET", `/v1/spaces/${OWN_SPACE}`)).status).toBe(200);
    await calls();
  });

  it("preview plans every object and writes nothing", async () => {
    const preview = await cli.run(["preview"]);
    expect(summary(preview)).toEqual({ "to create": OWN_RESOURCES });
    expect((await calls()).filter((c) => !c.startsWith("GET"))).toEqual([]);
  });

  it("up creates them; a second up changes nothing and makes no API call", async () => {
    const up = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(summary(up)).toEqual({ created: OWN_RESOURCES });
    expect(await calls()).not.toEqual([]);
    expect(kindsAndNames((await cli.exportState()).deployment)).toContain("ShareLink northwind/partners/acme");
    const sites = (await api("GET", `/v1/orgs/${OWN_ORG}/sites`)).body.items as { title: string }[];
    expect(sites.map((s) => s.title).sort()).toEqual(["Partner docs", "Product docs"]);
    await calls();

    const again = await cli.run(["up", "--yes", "--skip-preview"]);
    expect(summary(again)).toEqual({ unchanged: OWN_RESOURCES });
    expect(await calls()).toEqual([]);
  });

  it("destroy deletes them: the organisation is as seeded", async () => {
    const destroy = await cli.run(["destroy", "--yes", "--skip-preview"]);
    expect(summary(destroy)).toEqual({ deleted: OWN_RESOURCES });
    expect((await api("GET", `/v1/orgs/${OWN_ORG}/sites`)).body.items).toEqual([]);
    expect((await api("GET", `/v1/orgs/${OWN_ORG}/teams`)).body.items).toEqual([]);
  });
});
