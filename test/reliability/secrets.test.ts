/**
 * Secrets: a full handbook lifecycle (up, change, up, a failing up, destroy) with a known, distinctive
 * token and the debug log on; then the token is searched in the state file after every run, every
 * serialised provider, every log line (engine diagnostics, program output, the plugin's stderr with
 * the client's debug log) and every error message: it must appear 0 times. Share-link URLs are secret
 * in the state, and a non-loopback `http://` API URL is refused before any request.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { PROVIDER_KEY, type PreparedProgram, type ProgramRunner, type RunResult } from "../harness";
import { startProgram, stopProgram } from "../support/program";
import { HANDBOOK_DIR, editHandbook } from "./lifecycle";
import { ROOT, tracked } from "./report";
import { execFile } from "node:child_process";
import { parseDocument } from "yaml";
import { exposedInState } from "../support/secrets";

/** Distinctive enough that any occurrence is a leak, not a coincidence. */
const TOKEN = `dpt_reliability_${randomBytes(18).toString("hex")}`;
/** A secret configuration value of the handbook's installation, from the environment. */
const CONFIG_SECRET = `cfg_reliability_${randomBytes(18).toString("hex")}`;
/** Every visitor-auth private key the partner site had, read live after each run. */
const privateKeys = new Set<string>();

let emu: RunningEmulator;
let program: PreparedProgram;
let runner: ProgramRunner;
/** Every text the lifecycle produced, by where it came from. */
const texts: { where: string; text: string }[] = [];

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

function collect(label: string, result: RunResult): void {
  texts.push({ where: `${label}: state file`, text: fs.readFileSync(runner.stateFile, "utf8") });
  texts.push({ where: `${label}: program output`, text: result.output });
  for (const l of result.logs) texts.push({ where: `${label}: engine log (${l.severity})`, text: l.message });
  if (result.error) {
    const errors = result.error instanceof AggregateError ? [result.error, ...result.error.errors] : [result.error];
    for (const e of errors) texts.push({ where: `${label}: error`, text: `${e.message}\n${(e as Error).stack ?? ""}\n${String((e as { cause?: unknown }).cause ?? "")}` });
  }
  for (const s of result.steps) if (s.error) texts.push({ where: `${label}: step error`, text: s.error });
}

beforeAll(async () => {
  ({ emu, program, runner } = await startProgram(HANDBOOK_DIR, {
    token: TOKEN,
    // The MCP server's header is the handbook's own secret (the engine harness keeps secret inputs unencrypted);
    // it is not a bearer token here, so a "Bearer …" anywhere can only be the API token's header.
    runner: { env: { DOCSPLATFORM_DEBUG: "1", DOCSPLATFORM_API_TOKEN: "", DOCSPLATFORM_API_URL: "", STATUS_BADGES_API_KEY: CONFIG_SECRET, HANDBOOK_MCP_TOKEN: `Token mcp-${randomBytes(8).toString("hex")}` } },
  }));
  const docs = path.join(program.dir, "docs.yaml");
  // The installation takes a secret configuration value from the environment.
  edit(docs, (doc) => doc.setIn(["installations", 0, "secretConfiguration"], doc.createNode({ apiKey: { env: "STATUS_BADGES_API_KEY" } })));
  const views: { where: string; argv: string[] }[] = [];
  const before = path.join(program.dir, "docs.before.yaml");

  collect("up", await runner.up());
  await readKeys();
  fs.copyFileSync(docs, before);
  editHandbook(docs);
  // The partner site's key is rotated: a second key to find.
  edit(docs, (doc) => doc.setIn(["sites", 2, "visitorAuth", "rotation"], 2));
  collect("up after a change", await runner.up());
  await readKeys();
  views.push({ where: "tree", argv: ["tree", docs] }, { where: "diff", argv: ["diff", before, docs] }, { where: "diff (markdown)", argv: ["diff", before, docs, "--format", "markdown"] });
  views.push({ where: "tree --live", argv: ["tree", "--live", "--org", "demo-org"] }, { where: "export", argv: ["export", "--org", "demo-org", "--out", "-"] });
  // A run that fails on the API: its errors and debug lines carry paths and server messages.
  emu.control.setFaults({ seed: 7, error5xxRate: 1, methods: ["POST", "PUT", "PATCH"] });
  fs.writeFileSync(docs, fs.readFileSync(docs, "utf8").replace("title: Product docs", "title: Product documentation"));
  try {
    collect("failing up", await runner.up({ allowError: true }));
  } finally {
    emu.control.setFaults(null);
  }
  collect("refresh", await runner.refresh());
  // What the command line shows and writes: the tree and diff of the file, the live tree, the exported file.
  for (const v of views) {
    // Asynchronously: the emulator answering the command runs in this process.
    const r = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [CLI, ...v.argv], { encoding: "utf8", timeout: 60_000, env: { ...process.env, DOCSPLATFORM_API_URL: emu.url, DOCSPLATFORM_API_TOKEN: TOKEN, NO_COLOR: "1" } }, (_e, stdout, stderr) => resolve({ stdout, stderr })),
    );
    texts.push({ where: v.where, text: `${r.stdout}\n${r.stderr}` });
    viewed.push(v.where);
  }
  // The share-link URLs, read live before destroy, to look for them in the state.
  shareUrls = emu.store
    .snapshot()
    .organizations.flatMap((o) => o.sites)
    .flatMap((s) => s.shareLinks.map((l) => ({ site: s.id, id: l.id })));
  published = [];
  for (const l of shareUrls) {
    const res = await fetch(`${emu.url}/v1/orgs/demo-org/sites/${l.site}/share-links?limit=1000`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const body = (await res.json()) as { items: { id: string; urls: { published: string } }[] };
    const found = body.items.find((i) => i.id === l.id);
    if (found) published.push(found.urls.published);
  }
  stateBeforeDestroy = fs.readFileSync(runner.stateFile, "utf8");
  await readKeys();
  collect("destroy", await runner.destroy());
  texts.push({ where: "plugin stderr (debug log)", text: (await runner.plugin()).stderr() });
}, 300_000);

let shareUrls: { site: string; id: string }[] = [];
const viewed: string[] = [];
const CLI = path.join(ROOT, "dist", "provider", "cli.js");

/** Edits the YAML stack file in place. */
function edit(file: string, change: (doc: ReturnType<typeof parseDocument>) => void): void {
  const doc = parseDocument(fs.readFileSync(file, "utf8"));
  change(doc);
  fs.writeFileSync(file, doc.toString());
}

/** Reads the visitor-auth private key of every visitor-auth site, live. */
async function readKeys(): Promise<void> {
  for (const site of emu.store.snapshot().organizations.flatMap((o) => o.sites).filter((s) => s.visibility === "visitor-auth")) {
    const res = await fetch(`${emu.url}/v1/orgs/demo-org/sites/${site.id}/publishing/auth`, { headers: { authorization: `Bearer ${TOKEN}` } });
    privateKeys.add(((await res.json()) as { privateKey: string }).privateKey);
  }
}
let published: string[] = [];
let stateBeforeDestroy = "";

afterAll(() => stopProgram({ emu, program, runner }));

describe("the token never leaks", () => {
  it("appears 0 times in the state, serialised providers, logs (including the debug log) and errors", async () => {
    await tracked("secrets", "token scan after a full lifecycle", async (o) => {
      const providers = new Set<string>();
      for (const t of texts.filter((x) => x.where.endsWith("state file"))) {
        const doc = JSON.parse(t.text) as { deployment: { resources: { inputs?: Record<string, unknown> }[] } };
        for (const r of doc.deployment.resources) {
          const p = r.inputs?.[PROVIDER_KEY];
          if (typeof p === "string") providers.add(p);
        }
      }
      for (const p of providers) texts.push({ where: "serialised provider", text: p });
      const leaks = texts.filter((t) => t.text.includes(TOKEN)).map((t) => `${t.where}: ${occurrences(t.text, TOKEN)}`);
      const bearer = texts.filter((t) => /Bearer\s+(?!\[redacted\])\S/i.test(t.text)).map((t) => t.where);
      o.cases = texts.length;
      o.leaks = texts.reduce((n, t) => n + occurrences(t.text, TOKEN), 0);
      o.note = `${texts.length} texts, ${Math.round(texts.reduce((n, t) => n + t.text.length, 0) / 1024)} KiB, ${providers.size} serialised providers`;
      // The scan saw what it claims: debug lines, errors and providers were there to scan.
      expect(texts.some((t) => /docsplatform: #\d+ (GET|POST|PUT|PATCH|DELETE) \/v1\//.test(t.text))).toBe(true);
      expect(texts.some((t) => t.where.includes("failing up: error"))).toBe(true);
      expect(providers.size).toBeGreaterThan(0);
      expect(leaks).toEqual([]);
      expect(bearer).toEqual([]);
      expect(o.leaks).toBe(0);
    });
  });

  it("stores share-link URLs as secrets", async () => {
    await tracked("secrets", "share-link URLs secret in state", async (o) => {
      expect(published.length).toBeGreaterThanOrEqual(2);
      // Every string holding a share-link URL (or its key) must sit inside a secret marker.
      const keys = published.map((u) => new URL(u).searchParams.get("token") ?? u);
      const exposed = exposedInState(JSON.parse(stateBeforeDestroy), keys);
      o.cases = keys.length;
      o.leaks = exposed.length;
      expect(exposed).toEqual([]);
      expect(stateBeforeDestroy.includes(keys[0]!)).toBe(true);
    });
  });

  it("finds the visitor-auth private keys and the secret configuration value only as secrets in the state: never in logs, errors, the exported file, tree or diff", async () => {
    await tracked("secrets", "private key and secret configuration scan", async (o) => {
      const secrets = [...privateKeys, CONFIG_SECRET];
      expect(privateKeys.size).toBe(2);
      expect(viewed).toEqual(["tree", "diff", "diff (markdown)", "tree --live", "export"]);
      // The exported file and the views were there to scan, with the site and installation they name.
      expect(texts.find((t) => t.where === "export")!.text).toContain("demo-status-badges");
      expect(texts.find((t) => t.where === "tree")!.text).toContain("Partner portal");
      const leaks = texts.filter((t) => !t.where.endsWith("state file") && secrets.some((x) => t.text.includes(x))).map((t) => t.where);
      const states = texts.filter((t) => t.where.endsWith("state file"));
      const exposed = states.flatMap((t) => exposedInState(JSON.parse(t.text), secrets).map((p) => `${t.where}: ${p}`));
      o.cases = texts.length * secrets.length;
      o.leaks = leaks.length + exposed.length;
      expect(leaks).toEqual([]);
      expect(exposed).toEqual([]);
      // The state holds the current key, as a secret.
      expect(stateBeforeDestroy.includes([...privateKeys].at(-1)!)).toBe(true);
    });
  });

  it("refuses a non-loopback http:// API URL before sending anything, without echoing the token", async () => {
    await tracked("secrets", "non-loopback http:// refused", async (o) => {
      o.cases = 0;
      o.leaks = 0;
      for (const url of ["http://docs.example.com", "http://10.0.0.1:4010", "http://localhost.evil.test"]) {
        emu.control.clearLog();
        const r = await runner.up({ config: { "docsplatform:apiUrl": url }, allowError: true });
        o.cases++;
        expect(r.error?.message, url).toMatch(/https/i);
        const text = [r.error?.message ?? "", r.output, ...r.logs.map((l) => l.message)].join("\n");
        o.leaks += occurrences(text, TOKEN);
        expect(text.includes(TOKEN)).toBe(false);
        expect(emu.control.log()).toEqual([]);
        expect(runner.resources().filter((x) => x.custom && x.type.includes("docsplatform:"))).toEqual([]);
      }
    });
  });
});
