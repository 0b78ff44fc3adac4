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
import { PROVIDER_KEY, SECRET_SIG, SIG_KEY, type PreparedProgram, type ProgramRunner, type RunResult } from "../harness";
import { startProgram, stopProgram } from "../support/program";
import { HANDBOOK_DIR, editHandbook } from "./lifecycle";
import { tracked } from "./report";

/** Distinctive enough that any occurrence is a leak, not a coincidence. */
const TOKEN = `dpt_reliability_${randomBytes(18).toString("hex")}`;

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
    runner: { env: { DOCSPLATFORM_DEBUG: "1", DOCSPLATFORM_API_TOKEN: "", DOCSPLATFORM_API_URL: "" } },
  }));

  collect("up", await runner.up());
  editHandbook(path.join(program.dir, "docs.yaml"));
  collect("up after a change", await runner.up());
  // A run that fails on the API: its errors and debug lines carry paths and server messages.
  emu.control.setFaults({ seed: 7, error5xxRate: 1, methods: ["POST", "PUT", "PATCH"] });
  const docs = path.join(program.dir, "docs.yaml");
  fs.writeFileSync(docs, fs.readFileSync(docs, "utf8").replace("title: Product docs", "title: Product documentation"));
  try {
    collect("failing up", await runner.up({ allowError: true }));
  } finally {
    emu.control.setFaults(null);
  }
  collect("refresh", await runner.refresh());
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
  collect("destroy", await runner.destroy());
  texts.push({ where: "plugin stderr (debug log)", text: (await runner.plugin()).stderr() });
}, 300_000);

let shareUrls: { site: string; id: string }[] = [];
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
      const doc = JSON.parse(stateBeforeDestroy) as unknown;
      // Every string holding a share-link URL (or its key) must sit inside a secret marker.
      const exposed: string[] = [];
      const keys = published.map((u) => new URL(u).searchParams.get("token") ?? u);
      const walk = (v: unknown, where: string, inSecret: boolean): void => {
        if (typeof v === "string") {
          if (!inSecret && keys.some((k) => v.includes(k))) exposed.push(where);
          return;
        }
        if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${where}[${i}]`, inSecret));
        if (v !== null && typeof v === "object") {
          const rec = v as Record<string, unknown>;
          const secret = inSecret || rec[SIG_KEY] === SECRET_SIG;
          for (const [k, x] of Object.entries(rec)) walk(x, `${where}.${k}`, secret);
        }
      };
      walk(doc, "state", false);
      o.cases = keys.length;
      o.leaks = exposed.length;
      expect(exposed).toEqual([]);
      expect(stateBeforeDestroy.includes(keys[0]!)).toBe(true);
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
