/**
 * The integration example (examples/integration) run the way `pulumi up` runs it: the real language
 * host and dynamic-provider plugin (test/harness) against the emulator. Up publishes; a second up makes
 * no API call; a script edit previews as one update and publishes once; a rotated secret (config or
 * environment) publishes again; an unpublish by hand is dropped by refresh; a secret whose source is not
 * set fails before any call, located in docs.yaml; export writes the integration with a placeholder
 * script; destroy unpublishes. Then the secret values are searched in every state file, output, log,
 * error, serialised provider and the exported file.
 */
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { exportMain } from "../export/cli";
import { PROVIDER_KEY, SECRET_SIG, SIG_KEY, type ProgramRunner, type PreparedProgram, type RunOptions, type RunResult } from "../../test/harness";
import { startProgram, stopProgram } from "../../test/support/program";

const EXAMPLE = path.resolve(__dirname, "../../examples/integration");
const NAME = "status-badges";
const CONFIG_KEY = "integration:statusApiKey";
const ENV_KEY = "STATUS_WEBHOOK_SECRET";

/** Distinctive values: any occurrence is a leak, not a coincidence. */
const secrets = {
  key1: `sk_first_${randomBytes(12).toString("hex")}`,
  key2: `sk_rotated_${randomBytes(12).toString("hex")}`,
  hook1: `wh_first_${randomBytes(12).toString("hex")}`,
  hook2: `wh_rotated_${randomBytes(12).toString("hex")}`,
};

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Custom-resource steps that are not `same`, as `op type`. */
function changes(result: RunResult): string[] {
  return result.steps.filter((s) => s.custom && s.op !== "same").map((s) => `${s.op} ${s.type.slice(s.type.lastIndexOf(":") + 1)}`);
}

function writes(result: RunResult): string[] {
  return result.apiCalls.filter((c) => c.method !== "GET").map((c) => `${c.method} ${c.route} ${c.status}`);
}

describe("the integration example through the engine", { timeout: 900_000 }, () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  /** Every text the runs produced, by where it came from. */
  const texts: { where: string; text: string }[] = [];
  const script = () => path.join(program.dir, "src/script.js");
  const live = () => emu.store.get("integrations", NAME);

  async function collect(label: string, result: RunResult): Promise<RunResult> {
    texts.push({ where: `${label}: state file`, text: fs.readFileSync(runner.stateFile, "utf8") });
    texts.push({ where: `${label}: program output`, text: result.output });
    texts.push({ where: `${label}: stack outputs`, text: JSON.stringify(result.outputs) });
    for (const l of result.logs) texts.push({ where: `${label}: engine log (${l.severity})`, text: l.message });
    if (result.error) texts.push({ where: `${label}: error`, text: `${result.error.message}\n${result.error.stack ?? ""}` });
    for (const s of result.steps) if (s.error) texts.push({ where: `${label}: step error`, text: s.error });
    // The plugin's stderr holds the client's debug log; a changed environment starts a new plugin.
    texts.push({ where: `${label}: plugin stderr (debug log)`, text: (await runner.plugin(last)).stderr() });
    return result;
  }

  beforeAll(async () => {
    ({ emu, program, runner } = await startProgram(EXAMPLE));
  }, 300_000);
  afterAll(() => stopProgram({ emu, program, runner }));

  /** The options of the latest run: the plugin of that run is the one `collect` reads the debug log of. */
  let last: RunOptions = {};
  const run = (secretsNow: { key: string; hook: string }): RunOptions =>
    (last = {
      config: { [CONFIG_KEY]: secretsNow.key },
      secretKeys: ["docsplatform:apiToken", CONFIG_KEY],
      env: { [ENV_KEY]: secretsNow.hook, DOCSPLATFORM_DEBUG: "1" },
      // A loaded machine (2 shared cores) can take minutes per run.
      timeoutMs: 600_000,
    });

  it("up publishes the script, images and secrets of docs.yaml", async () => {
    const up = await collect("up", await runner.up(run({ key: secrets.key1, hook: secrets.hook1 })));
    expect(changes(up)).toEqual(["create Integration"]);
    expect(writes(up)).toEqual(["POST /v1/integrations/:integrationName 200"]);
    const g = live()!;
    expect(g.script).toBe(fs.readFileSync(script(), "utf8"));
    expect(g.icon).toBe(fs.readFileSync(path.join(program.dir, "images/icon.png")).toString("base64"));
    expect(g.previewImages).toHaveLength(1);
    expect(g.secretDigests).toEqual({ STATUS_API_KEY: sha256(secrets.key1), [ENV_KEY]: sha256(secrets.hook1) });
    expect(g.owner).toBe("demo-org");
    // The state keeps digests: no script, no image, no secret digest outside a secret.
    const state = runner.resources().find((r) => r.type.endsWith(":Integration"))!;
    expect(JSON.stringify(state.outputs)).not.toContain("operational");
    expect(JSON.stringify(state.outputs["script"])).toContain(sha256(fs.readFileSync(script(), "utf8")));
  });

  it("a second up makes no API call", async () => {
    const again = await collect("second up", await runner.up(run({ key: secrets.key1, hook: secrets.hook1 })));
    expect(changes(again)).toEqual([]);
    expect(again.apiCalls).toEqual([]);
  });

  it("a script edit previews as one update (no call) and publishes once", async () => {
    fs.writeFileSync(script(), fs.readFileSync(script(), "utf8").replace('"operational"', '"degraded"'));
    const preview = await collect("preview after a script edit", await runner.preview(run({ key: secrets.key1, hook: secrets.hook1 })));
    expect(changes(preview)).toEqual(["update Integration"]);
    expect(preview.apiCalls).toEqual([]);
    const up = await collect("up after a script edit", await runner.up(run({ key: secrets.key1, hook: secrets.hook1 })));
    expect(changes(up)).toEqual(["update Integration"]);
    expect(writes(up)).toEqual(["POST /v1/integrations/:integrationName 200"]);
    expect(live()!.script).toContain('"degraded"');
    expect(live()!.version).toBe(2);
  });

  it("a rotated secret, from config or from the environment, publishes again", async () => {
    const config = await collect("up after a config rotation", await runner.up(run({ key: secrets.key2, hook: secrets.hook1 })));
    expect(changes(config)).toEqual(["update Integration"]);
    expect(writes(config)).toEqual(["POST /v1/integrations/:integrationName 200"]);
    expect(live()!.secretDigests?.STATUS_API_KEY).toBe(sha256(secrets.key2));
    const env = await collect("up after an environment rotation", await runner.up(run({ key: secrets.key2, hook: secrets.hook2 })));
    expect(changes(env)).toEqual(["update Integration"]);
    expect(live()!.secretDigests?.[ENV_KEY]).toBe(sha256(secrets.hook2));
    const same = await collect("up after rotations", await runner.up(run({ key: secrets.key2, hook: secrets.hook2 })));
    expect(same.apiCalls).toEqual([]);
  });

  it("a secret whose source is not set fails before any call, located in docs.yaml", async () => {
    const failed = await collect("up without the environment secret", await runner.up({ ...run({ key: secrets.key2, hook: "" }), allowError: true }));
    expect(failed.error).toBeDefined();
    expect(failed.apiCalls).toEqual([]);
    const text = `${failed.error?.message ?? ""}\n${failed.output}\n${failed.logs.map((l) => l.message).join("\n")}`;
    expect(text).toMatch(/docs\.yaml:\d+:\d+: integrations\[0\]\.secrets\.STATUS_WEBHOOK_SECRET: secret "STATUS_WEBHOOK_SECRET": environment variable STATUS_WEBHOOK_SECRET is not set/);
  });

  it("an unpublish by hand is dropped by refresh, and the next up publishes again", async () => {
    await fetch(`${emu.url}/v1/integrations/${NAME}`, { method: "DELETE", headers: { authorization: `Bearer ${emu.token}` } });
    const refreshed = await collect("refresh after an unpublish", await runner.refresh(run({ key: secrets.key2, hook: secrets.hook2 })));
    expect(refreshed.steps.filter((s) => s.custom && s.op === "refresh-gone").map((s) => s.type)).toEqual(["pulumi-nodejs:dynamic/docsplatform:Integration"]);
    const up = await collect("up after an unpublish", await runner.up(run({ key: secrets.key2, hook: secrets.hook2 })));
    expect(changes(up)).toEqual(["create Integration"]);
    expect(live()).toBeDefined();
  });

  it("export writes the integration to adopt, with a placeholder script and no secret", async () => {
    const out = path.join(program.dir, "exported.yaml");
    let stderr = "";
    const code = await exportMain(["--org", "demo-org", "--out", out], {
      env: { DOCSPLATFORM_API_URL: emu.url, DOCSPLATFORM_API_TOKEN: emu.token },
      cwd: program.dir,
      stdout: { write: () => true },
      stderr: { write: (t: string) => ((stderr += t), true) },
    });
    expect(code, stderr).toBe(0);
    const text = fs.readFileSync(out, "utf8");
    texts.push({ where: "exported file", text }, { where: "export stderr", text: stderr });
    expect(text).toMatch(/^integrations:\n {2}- key: status-badges\n {4}name: status-badges\n/m);
    expect(text).toContain("script: supply/status-badges/script # placeholder: this file cannot be exported; supply it before `pulumi up`");
    expect(text).toMatch(/# To supply before `pulumi up`[^\n]*\n(#\s+- [^\n]*\n)*#\s+- integration 'status-badges': its script cannot be read back/);
    expect(text).toMatch(/^ {4}adopt: true$/m);
    expect(text).not.toMatch(/^ {4}secrets:/m);
  });

  it("destroy unpublishes", async () => {
    const destroyed = await collect("destroy", await runner.destroy(run({ key: secrets.key2, hook: secrets.hook2 })));
    expect(writes(destroyed)).toEqual(["DELETE /v1/integrations/:integrationName 204"]);
    expect(live()).toBeUndefined();
  });

  it("finds the secret values in 0 places outside the engine's secret envelopes", () => {
    const values = Object.values(secrets);
    const providers = new Set<string>();
    const inEnvelopes: string[] = [];
    for (const t of texts.filter((x) => x.where.endsWith("state file"))) {
      const doc = JSON.parse(t.text) as { deployment: { resources: { inputs?: Record<string, unknown> }[] } };
      for (const r of doc.deployment.resources) {
        const p = r.inputs?.[PROVIDER_KEY];
        if (typeof p === "string") providers.add(p);
      }
      // Where a value sits inside a secret marker (the CLI stores those encrypted), note the path; strip it for the scan.
      const strip = (v: unknown, where: string): unknown => {
        if (Array.isArray(v)) return v.map((x, i) => strip(x, `${where}[${i}]`));
        if (v !== null && typeof v === "object") {
          const rec = v as Record<string, unknown>;
          if (rec[SIG_KEY] === SECRET_SIG) {
            if (values.some((s) => String(rec["plaintext"]).includes(s))) inEnvelopes.push(where);
            return "[secret]";
          }
          return Object.fromEntries(Object.entries(rec).map(([k, x]) => [k, strip(x, `${where}.${k}`)]));
        }
        return v;
      };
      t.text = JSON.stringify(strip(doc, t.where));
    }
    for (const p of providers) texts.push({ where: "serialised provider", text: p });
    const leaks = texts.flatMap((t) => values.filter((v) => t.text.includes(v)).map(() => t.where));
    expect(texts.some((t) => /docsplatform: #\d+ POST \/v1\/integrations\//.test(t.text))).toBe(true);
    expect(texts.some((t) => t.where === "exported file")).toBe(true);
    expect(providers.size).toBeGreaterThan(0);
    expect(leaks).toEqual([]);
    // The one place a value is kept: the `secrets` input, inside the secret envelope.
    expect([...new Set(inEnvelopes.map((w) => w.replace(/^[^:]*: state file/, "")))].every((w) => /\.inputs\.secrets$/.test(w))).toBe(true);
    console.log(`secret scan: ${texts.length} texts, ${Math.round(texts.reduce((n, t) => n + t.text.length, 0) / 1024)} KiB, ${providers.size} serialised providers, 0 leaks; ${inEnvelopes.length} values inside secret envelopes (all at inputs.secrets)`);
  });
});
