/**
 * A run stopped in the middle of its creates, then what a user does next, through the Pulumi CLI:
 * Ctrl-C (SIGINT) lets the CLI finish what it started and stop, and the next `pulumi up` completes. A
 * killed CLI (SIGKILL) leaves its lock, which `pulumi cancel` removes, and pending creates: the next `up`
 * warns of them and takes over by natural key what reached the platform, but for a published integration
 * or a team (their keys are unique), which it names with the way on (a team's ID for `pulumi refresh
 * --import-pending-creates`, `adopt: true` for the integration); `--clear-pending-creates` clears the rest. Either way: every object once, nothing lost, and a refreshed
 * preview with no change.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isMap, isSeq, parseDocument, type YAMLMap } from "yaml";
import type { RunningEmulator } from "../../emulator";
import { apiOf, listAll, caller } from "../support/api";
import { HANDBOOK, startCliProject, type CliProject } from "./project";
import { kindsAndNames, type PulumiCli } from "./pulumi";
/** Each API call takes this long, so that an up of the handbook is still creating when it is stopped. */
const LATENCY_MS = 150;

let setup: CliProject | undefined;

afterEach(async () => {
  await setup?.stop();
  setup = undefined;
});

async function start(): Promise<CliProject> {
  setup = await startCliProject(HANDBOOK, { emulator: { latencyMs: LATENCY_MS } });
  return setup;
}

/** Resolves once `holds()` is true. */
async function until(holds: () => boolean): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!holds()) {
    if (Date.now() > deadline) throw new Error("not reached in 120 s");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Resolves once the emulator has answered `n` creates (POSTs). */
async function creates(emu: RunningEmulator, n: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (emu.control.log().filter((c) => c.method === "POST").length < n) {
    if (Date.now() > deadline) throw new Error(`fewer than ${n} creates in 120 s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The platform holds every object of the handbook once: natural keys are unique. */
async function everyObjectOnce(emu: RunningEmulator): Promise<void> {
  const call = caller(emu.url, emu.token);
  const api = apiOf(emu);
  const sites = await listAll<{ id: string; title: string }>(call, "/v1/orgs/demo-org/sites");
  expect(sites.map((s) => s.title).sort()).toEqual(["Developer portal", "Handbook", "Partner portal", "Partner preview"]);
  for (const site of sites) {
    const sections = await listAll<{ path: string }>(call, `/v1/orgs/demo-org/sites/${site.id}/sections`);
    expect(new Set(sections.map((s) => s.path)).size).toBe(sections.length);
    const links = await listAll<{ name: string }>(call, `/v1/orgs/demo-org/sites/${site.id}/share-links`);
    expect(new Set(links.map((l) => l.name)).size).toBe(links.length);
    const siteSpaces = await listAll<{ path: string; sectionId?: string | null }>(call, `/v1/orgs/demo-org/sites/${site.id}/site-spaces`);
    expect(new Set(siteSpaces.map((s) => `${s.sectionId ?? ""}/${s.path}`)).size).toBe(siteSpaces.length);
  }
  const teams = await listAll<{ title: string }>(call, "/v1/orgs/demo-org/teams");
  expect(new Set(teams.map((t) => t.title)).size).toBe(teams.length);
  const spaces = await api<{ items: { title: string }[] }>("GET", "/v1/orgs/demo-org/spaces?limit=100");
  expect(spaces.items.filter((s) => s.title === "What's new")).toHaveLength(1);
}

/** Nothing lost: the state holds every object and a refreshed preview proposes no change. */
async function nothingLost(cli: PulumiCli): Promise<void> {
  expect(kindsAndNames((await cli.exportState()).deployment)).toHaveLength(67);
  await cli.run(["preview", "--refresh", "--expect-no-changes"]);
}

describe("a run stopped mid-create, through the Pulumi CLI", { timeout: 300_000 }, () => {
  it("SIGINT: the CLI finishes what it started and stops; the next up completes with every object once", async () => {
    const { emu, cli } = await start();
    const up = cli.spawn(["up", "--yes", "--skip-preview"]);
    const done = cli.collect(up, ["up"], { allowFailure: true });
    await creates(emu, 5);
    up.kill("SIGINT");
    const stopped = await done;
    expect(stopped.code).not.toBe(0);
    expect(`${stopped.stdout}${stopped.stderr}`).toMatch(/cancel/i);
    const partial = kindsAndNames((await cli.exportState()).deployment);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(67);

    emu.control.setLatency(0);
    await cli.run(["up", "--yes", "--skip-preview"]);
    await everyObjectOnce(emu);
    await nothingLost(cli);
  }, 300_000);

  it("SIGKILL of the CLI: pending creates are cleared by refresh; what reached the platform is taken over, the integration on the error's word", async () => {
    const { emu, cli, program } = await start();
    // The integration's publish is committed and its answer held: the CLI is killed while it waits for it,
    // so the state keeps that create pending. Its name is unique on the whole platform, so it is never
    // taken over unasked (it could be one a person published).
    emu.control.setFaults({ seed: 1, slowAfterCommitRate: 1, slowAfterCommitMs: 20_000, methods: ["POST"], routes: "^/v1/integrations/[^/]+$" });
    const up = cli.spawn(["up", "--yes", "--skip-preview"]);
    const done = cli.collect(up, ["up"], { allowFailure: true });
    await until(() => emu.store.snapshot().organizations.some((o) => o.integrations.some((i) => i.id === "demo-status-badges")));
    // Not before the space the file creates is answered and recorded: a space has no key the platform keeps
    // unique, so a create of one left pending is made again by the next up unless `pulumi refresh
    // --import-pending-creates` is given its ID (what the CLI asks the user to confirm; not automated here).
    await until(() => emu.control.log().some((c) => c.method === "POST" && /\/spaces$/.test(c.route)));
    await new Promise((r) => setTimeout(r, 1_000));
    up.kill("SIGKILL");
    expect((await done).signal).toBe("SIGKILL");
    emu.control.setFaults(null);
    // The plugin and language host lose the engine with it; what they had sent may still land.
    await new Promise((r) => setTimeout(r, 3_000));
    emu.control.setLatency(0);

    const { deployment } = await cli.exportState();
    expect(deployment.pending_operations?.length ?? 0).toBeGreaterThan(0);
    // The killed CLI left its lock: the next run says so and names `pulumi cancel`.
    const locked = await cli.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    expect(locked.code).not.toBe(0);
    expect(locked.stderr).toMatch(/the stack is currently locked[\s\S]*pulumi cancel/);
    await cli.run(["cancel", "--yes"]);
    // The next up warns of the pending creates and goes ahead: what reached the platform is taken over by
    // its natural key, but for objects whose key the platform keeps unique (a team's title, an integration's
    // name), which could be ones a person made: each is named with the way on.
    const refused = await cli.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    expect(refused.stdout).toMatch(/Attempting to deploy or update resources with \d+ pending operations from previous deployment/);
    expect(refused.code).not.toBe(0);
    const named = [...refused.stdout.matchAll(/^  pulumi-nodejs:dynamic\/docsplatform:(\w+) \(([^)]+)\):\n    error: (.*)$/gm)].map(([, kind, name, message]) => ({ kind: kind!, name: name!, message: message! }));
    expect(named.map((n) => n.kind)).toContain("Integration");
    // An object with an ID in its message: the interrupted create is imported with it, as the message says.
    const pending = (await cli.exportState()).deployment.pending_operations ?? [];
    const imports = named.flatMap((n) => {
      const id = /one already exists \(id ([^)]+)\)/.exec(n.message)?.[1];
      const op = pending.find((o) => o.resource.urn.endsWith(`::${n.name}`));
      return id && op ? [op.resource.urn, id] : [];
    });
    await cli.run(["refresh", "--yes", "--skip-preview", ...imports.flatMap((v) => ["--import-pending-creates", v]), "--clear-pending-creates"]);
    expect((await cli.exportState()).deployment.pending_operations ?? []).toEqual([]);
    // The integration, and any other whose message says so (an OpenAPI spec's slug): `adopt: true` on its
    // entry for one up.
    expect(named.find((n) => n.kind === "Integration")!.message).toMatch(/"demo-status-badges" is already published; declare adopt: true to take it over/);
    const docs = path.join(program.dir, "docs.yaml");
    const text = fs.readFileSync(docs, "utf8");
    const doc = parseDocument(text);
    for (const n of named.filter((x) => /declare adopt: true/.test(x.message))) {
      const key = n.name.slice(n.name.lastIndexOf("/") + 1);
      const entry = (doc.contents as YAMLMap).items
        .flatMap((pair) => (isSeq(pair.value) ? pair.value.items : []))
        .find((item) => isMap(item) && item.get("key") === key) as YAMLMap | undefined;
      expect(entry, `${n.kind} ${key}`).toBeDefined();
      entry!.set("adopt", true);
    }
    fs.writeFileSync(docs, doc.toString());
    await cli.run(["up", "--yes", "--skip-preview"]);
    fs.writeFileSync(docs, text);
    await everyObjectOnce(emu);
    await nothingLost(cli);
  }, 300_000);
});
