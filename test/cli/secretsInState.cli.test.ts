/**
 * Where the API token and each secret a stack file names live, through the real Pulumi CLI, as
 * docs/stack-file.md ("Where the token and each secret live") says. One small project declares every
 * kind of secret (integration secrets and an installation's secret configuration from config, an MCP
 * header, a connection's token and a GitLab token from config or the environment, a share link, a
 * visitor-auth key). Two stacks of it, one after the other on one emulator:
 *
 * - the token set with `pulumi config set --secret docsplatform:apiToken`: `pulumi stack export` holds
 *   no secret value in plaintext; the token is there as ciphertext among the inputs of the default
 *   provider (with every other config value of the stack) and in its outputs, which repeat them, and
 *   nowhere else; `--show-secrets` proves that ciphertext is the token; each secret from a source is
 *   ciphertext in its resource's inputs and a SHA-256 digest, itself a secret, in its outputs; the share
 *   link's URL and the private key are ciphertext in the outputs; no log, no `docsplatform export` and no
 *   view (`tree`, `tree --live`, `diff`) shows a value;
 * - the token only in DOCSPLATFORM_API_TOKEN: the state holds no entry for it at all, not even with
 *   `--show-secrets`; the secrets the file names are where they were; and a `{config: key}` value set
 *   without `--secret` is plaintext in `Pulumi.<stack>.yaml` and among the default provider's inputs
 *   (its resource's input stays ciphertext), which is why the docs say to set them with `--secret`.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { prepareProgram, type PreparedProgram } from "../harness/program";
import { SECRET_SIG, SIG_KEY } from "../harness/values";
import { apiOf, type Api } from "../support/api";
import { startEmulatorWith } from "../support/emulator";
import { writeNoCodeProject, type WrittenProject } from "../support/noCodeProject";
import { exposedInState } from "../support/secrets";
import { PulumiCli, type CliResult, type StackDeployment } from "./pulumi";

/** Distinctive values: any occurrence is a leak, not a coincidence. */
const unique = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;
const TOKEN = unique("dpt_state");
/** The secrets the file names, by where they come from. */
const CONFIG_SECRETS = { badgesApiKey: unique("cfg_badges"), installApiKey: unique("cfg_install"), githubToken: unique("ghp_state") };
const ENV_SECRETS = { BADGES_WEBHOOK_SECRET: unique("whsec_state"), STATE_MCP_TOKEN: `Bearer ${unique("mcp_state")}`, STATE_GITLAB_TOKEN: unique("glpat_state") };
const SOURCED = [...Object.values(CONFIG_SECRETS), ...Object.values(ENV_SECRETS)];

const INTEGRATION = "state-secrets-badges";
const DOCS_YAML = `organization: demo-org
caller: admin@demo.test

integrations:
  - key: badges
    name: ${INTEGRATION}
    title: Status badges
    description: Badges whose secrets come from config and the environment
    visibility: private
    script: badges.js
    secrets:
      BADGES_API_KEY: {config: badgesApiKey}
      BADGES_WEBHOOK_SECRET: {env: BADGES_WEBHOOK_SECRET}

installations:
  - key: badges
    integration: ${INTEGRATION}
    secretConfiguration: {apiKey: {config: installApiKey}}
    sites: [docs]

sites:
  - key: docs
    title: Docs
    visibility: share-link
    published: true
    siteSpaces:
      - key: guides
        space: {id: space-guides}
        path: guides
    shareLinks:
      - key: acme
        name: Acme Corp
    mcpServers:
      - key: tools
        name: Tools
        url: https://mcp.tools.demo.test/mcp
        transport: http
        headers:
          Authorization: {env: STATE_MCP_TOKEN}
    contextConnections:
      - key: issues
        connector: builtin:github-issues
        setupSettings: {repository: demo-org/product}
        secretSettings: {token: {config: githubToken}}
    gitSync:
      provider: gitlab
      project: 7
      branch: refs/heads/main
      priority: gitbook
      accessToken: {env: STATE_GITLAB_TOKEN}
  - key: portal
    title: Portal
    visibility: visitor-auth
    published: true
    siteSpaces:
      - key: portal-guides
        space: {id: space-guides}
        path: guides
    visitorAuth:
      fallbackURL: https://portal.demo.test/login
      rotation: 1
`;
const SCRIPT = `export default { blocks: { badge: { render: () => ({ type: "text", text: "ok" }) } } };\n`;

type StateResource = NonNullable<StackDeployment["resources"]>[number];

let emu: RunningEmulator;
let api: Api;
let written: WrittenProject;
let program: PreparedProgram;
let cli: PulumiCli;
/** Every text a run printed (the CLI's stdout and stderr: engine diagnostics, program output, errors). */
const logs: string[] = [];

function record(r: CliResult): CliResult {
  logs.push(r.stdout, r.stderr);
  return r;
}

/** The default provider of the dynamic resources in a deployment. */
function defaultProvider(deployment: StackDeployment): StateResource {
  const found = (deployment.resources ?? []).filter((r) => r.type === "pulumi:providers:pulumi-nodejs" && r.urn.endsWith("::default"));
  expect(found.map((r) => r.urn)).toHaveLength(1);
  return found[0]!;
}

/** The one resource of a kind in a deployment. */
function ofKind(deployment: StackDeployment, kind: string): StateResource {
  const found = (deployment.resources ?? []).filter((r) => r.type === `pulumi-nodejs:dynamic/docsplatform:${kind}`);
  expect(found.map((r) => r.urn), kind).toHaveLength(1);
  return found[0]!;
}

/** A secret as `pulumi stack export` writes it: encrypted. */
const CIPHERTEXT = { [SIG_KEY]: SECRET_SIG, ciphertext: expect.any(String) };
/** A secret as `pulumi stack export --show-secrets` writes it: the JSON of its value. */
const shown = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(value) });

/** `pulumi stack export --show-secrets`: the state with every secret decrypted. */
async function exportShowingSecrets(): Promise<{ text: string; deployment: StackDeployment }> {
  const { stdout } = await cli.run(["stack", "export", "--show-secrets"]);
  return { text: stdout, deployment: (JSON.parse(stdout) as { deployment: StackDeployment }).deployment };
}

/** Runs the installed package's `docsplatform` command in the project (token and URL from the environment). */
function docsplatform(args: string[]): Promise<{ code: number; out: string }> {
  const bin = path.join(program.dir, "node_modules", "pulumi-docsplatform", "dist", "provider", "cli.js");
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: program.dir, env: { ...process.env, DOCSPLATFORM_API_URL: emu.url, DOCSPLATFORM_API_TOKEN: TOKEN }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, out: `${stdout}\n${stderr}` }),
    );
  });
}

/** How many times `needle` occurs in `text`. */
function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

beforeAll(async () => {
  emu = await startEmulatorWith(TOKEN);
  api = apiOf({ url: emu.url, token: TOKEN });
  written = writeNoCodeProject("secrets", { "docs.yaml": DOCS_YAML, "badges.js": SCRIPT });
  program = await prepareProgram(written.dir, { installPackage: true });
  cli = new PulumiCli(program.dir, [TOKEN, ...SOURCED]);
  Object.assign(cli.env, ENV_SECRETS);
}, 300_000);

afterAll(async () => {
  cli?.close();
  program?.cleanup();
  written?.cleanup();
  await emu?.close();
});

describe("where the token and each secret live, through the Pulumi CLI", { timeout: 300_000 }, () => {
  describe("the token set with `pulumi config set --secret docsplatform:apiToken`", () => {
    let plain: { text: string; deployment: StackDeployment };
    let decrypted: { text: string; deployment: StackDeployment };

    beforeAll(async () => {
      await cli.run(["stack", "init", "config"]);
      await cli.run(["config", "set", "docsplatform:apiUrl", emu.url]);
      await cli.run(["config", "set", "--secret", "docsplatform:apiToken", TOKEN]);
      for (const [key, value] of Object.entries(CONFIG_SECRETS)) await cli.run(["config", "set", "--secret", key, value]);
      record(await cli.run(["preview"]));
      record(await cli.run(["up", "--yes", "--skip-preview"]));
      plain = await cli.exportState();
      decrypted = await exportShowingSecrets();
    }, 300_000);

    it("the stack's config file holds the token and the config secrets encrypted only", () => {
      const config = fs.readFileSync(path.join(program.dir, "Pulumi.config.yaml"), "utf8");
      for (const secret of [TOKEN, ...Object.values(CONFIG_SECRETS)]) expect(config.includes(secret), secret).toBe(false);
      expect(config).toMatch(/docsplatform:apiToken:\s+secure: /);
    });

    it("pulumi stack export: no secret value in plaintext, none outside a secret", async () => {
      const { privateKey } = await api<{ privateKey: string }>("GET", `/v1/orgs/demo-org/sites/${ofKind(plain.deployment, "VisitorAuth").id}/publishing/auth`);
      const links = await api<{ items: { urls?: { published?: string } }[] }>("GET", `/v1/orgs/demo-org/sites/${ofKind(plain.deployment, "ShareLink").outputs!["siteId"]}/share-links`);
      const url = links.items[0]?.urls?.published;
      expect(privateKey.length).toBeGreaterThan(16);
      expect(url).toMatch(/token=/);
      for (const secret of [TOKEN, privateKey, url!, ...SOURCED]) expect(plain.text.includes(secret), secret).toBe(false);
      // With the secrets decrypted, each value is in the state, and only ever inside a secret.
      for (const secret of [TOKEN, privateKey, url!, ...SOURCED]) expect(decrypted.text.includes(secret), secret).toBe(true);
      expect(exposedInState(JSON.parse(decrypted.text), [TOKEN, privateKey, url!, ...SOURCED])).toEqual([]);
    });

    it("the token is ciphertext among the default provider's inputs (and its outputs, which repeat them), with the stack's other config, and nowhere else", () => {
      const provider = defaultProvider(plain.deployment);
      const shownProvider = defaultProvider(decrypted.deployment);
      for (const side of ["inputs", "outputs"] as const) {
        expect(provider[side]!["docsplatform:apiToken"], side).toEqual(CIPHERTEXT);
        expect(provider[side]!["docsplatform:apiUrl"], side).toBe(emu.url);
        // Every config value of the stack: the secrets the file takes with {config: key} too.
        for (const key of Object.keys(CONFIG_SECRETS)) expect(provider[side]![`secrets:${key}`], `${side} ${key}`).toEqual(CIPHERTEXT);
        // Decrypted, that ciphertext is the token.
        expect(shownProvider[side]!["docsplatform:apiToken"], side).toEqual(shown(TOKEN));
        for (const [key, value] of Object.entries(CONFIG_SECRETS)) expect(shownProvider[side]![`secrets:${key}`], `${side} ${key}`).toEqual(shown(value));
      }
      // Those two entries are the only copies of the token in the state.
      expect(occurrences(decrypted.text, TOKEN)).toBe(2);
      const others = decrypted.deployment.resources!.filter((r) => r.urn !== shownProvider.urn);
      expect(JSON.stringify(others).includes(TOKEN)).toBe(false);
      expect(JSON.stringify(others).includes("docsplatform:apiToken")).toBe(false);
      // The serialised provider each resource keeps is a require() of the installed package: no credential.
      for (const r of plain.deployment.resources!.filter((x) => x.type.startsWith("pulumi-nodejs:dynamic/"))) {
        expect(String(r.inputs!["__provider"]), r.urn).toMatch(/^exports\.handler = __f0;\nconst provider = require\("pulumi-docsplatform\/dist\/provider\/providers\/\w+\.js"\);/);
      }
    });

    it("each secret from a source: ciphertext in its resource's inputs, a digest kept as a secret in its outputs", () => {
      const d = plain.deployment;
      const shownOf = (kind: string) => ofKind(decrypted.deployment, kind);
      const digest = { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) };
      const cases: { kind: string; field: string; names: string[]; values: Record<string, string> | string }[] = [
        { kind: "Integration", field: "secrets", names: ["BADGES_API_KEY", "BADGES_WEBHOOK_SECRET"], values: { BADGES_API_KEY: CONFIG_SECRETS.badgesApiKey, BADGES_WEBHOOK_SECRET: ENV_SECRETS.BADGES_WEBHOOK_SECRET } },
        { kind: "IntegrationInstallation", field: "secretConfiguration", names: ["apiKey"], values: { apiKey: CONFIG_SECRETS.installApiKey } },
        { kind: "SiteMcpServer", field: "headers", names: ["Authorization"], values: { Authorization: ENV_SECRETS.STATE_MCP_TOKEN } },
        { kind: "SiteContextConnection", field: "secretSettings", names: ["token"], values: { token: CONFIG_SECRETS.githubToken } },
        { kind: "SiteGitSync", field: "accessToken", names: [], values: ENV_SECRETS.STATE_GITLAB_TOKEN },
      ];
      for (const c of cases) {
        const r = ofKind(d, c.kind);
        expect(r.inputs![c.field], c.kind).toEqual(CIPHERTEXT);
        expect(r.outputs![c.field], c.kind).toEqual(CIPHERTEXT);
        expect(shownOf(c.kind).inputs![c.field], c.kind).toEqual(shown(c.values));
        const outs = JSON.parse((shownOf(c.kind).outputs![c.field] as { plaintext: string }).plaintext) as unknown;
        expect(outs, c.kind).toEqual(c.names.length === 0 ? digest : Object.fromEntries(c.names.map((n) => [n, digest])));
      }
    });

    it("the share link's URL and the visitor-auth private key: secret outputs, ciphertext in the state", () => {
      const link = ofKind(plain.deployment, "ShareLink");
      expect(link.additionalSecretOutputs).toContain("url");
      expect(link.outputs!["url"]).toEqual(CIPHERTEXT);
      const auth = ofKind(plain.deployment, "VisitorAuth");
      expect(auth.additionalSecretOutputs).toContain("privateKey");
      expect(auth.outputs!["privateKey"]).toEqual(CIPHERTEXT);
    });

    it("no log of the runs, no `docsplatform export` and no view shows a value", async () => {
      record(await cli.run(["preview", "--diff"]));
      const exported = await docsplatform(["export", "--org", "demo-org", "--out", "-"]);
      expect(exported.code, exported.out).toBe(0);
      expect(exported.out).toContain(INTEGRATION);
      const tree = await docsplatform(["tree", "docs.yaml"]);
      expect(tree.code, tree.out).toBe(0);
      const live = await docsplatform(["tree", "--live", "--org", "demo-org"]);
      expect(live.code, live.out).toBe(0);
      const before = path.join(program.dir, "docs.before.yaml");
      fs.writeFileSync(before, DOCS_YAML.replace("{env: STATE_MCP_TOKEN}", "{config: mcpToken}"));
      const diff = await docsplatform(["diff", "docs.before.yaml", "docs.yaml"]);
      expect(diff.out).toContain(`MCP server "Tools": header Authorization now from another source`);
      expect(tree.out).toContain("share links: Acme Corp");
      const { privateKey } = await api<{ privateKey: string }>("GET", `/v1/orgs/demo-org/sites/${ofKind(plain.deployment, "VisitorAuth").id}/publishing/auth`);
      const everything = [...logs, exported.out, tree.out, live.out, diff.out].join("\n");
      for (const secret of [TOKEN, privateKey, ...SOURCED]) expect(occurrences(everything, secret), secret).toBe(0);
      expect(everything).not.toMatch(/token=/);
    });

    it("a credential written into a URL, and URLs parsers read differently, stop preview before any call and are never repeated", async () => {
      const password = unique("urlpass");
      const docs = path.join(program.dir, "docs.yaml");
      const hostile = DOCS_YAML.replace("url: https://mcp.tools.demo.test/mcp", `url: "https://svc:${password}@mcp.tools.demo.test/mcp"`);
      expect(hostile).not.toBe(DOCS_YAML);
      const stateBefore = (await cli.exportState()).text;
      fs.writeFileSync(docs, hostile);
      try {
        emu.control.clearLog();
        const preview = record(await cli.run(["preview"], { allowFailure: true }));
        expect(preview.code).not.toBe(0);
        expect(`${preview.stdout}${preview.stderr}`).toMatch(/mcpServers\[0\]\.url: has a user or password part/);
        expect(emu.control.log()).toEqual([]);
        const validated = await docsplatform(["validate", "docs.yaml"]);
        expect(validated.code).toBe(1);
        const diff = await docsplatform(["diff", "docs.before.yaml", "docs.yaml", "--format", "markdown"]);
        const after = await cli.exportState();
        expect(after.text).toBe(stateBefore);
        for (const text of [preview.stdout, preview.stderr, validated.out, diff.out, after.text]) expect(occurrences(text, password)).toBe(0);
      } finally {
        fs.writeFileSync(docs, DOCS_YAML);
      }
    });

    afterAll(async () => {
      await cli.run(["destroy", "--yes", "--skip-preview"]);
    }, 300_000);
  });

  describe("the token only in DOCSPLATFORM_API_TOKEN; one config value set without --secret", () => {
    let plain: { text: string; deployment: StackDeployment };
    let decrypted: { text: string; deployment: StackDeployment };
    /** The config secret set as plain config here, as a user forgetting `--secret` would. */
    const UNMARKED = "installApiKey";

    beforeAll(async () => {
      await cli.run(["stack", "init", "env"]);
      await cli.run(["config", "set", "docsplatform:apiUrl", emu.url]);
      for (const [key, value] of Object.entries(CONFIG_SECRETS)) await cli.run(["config", "set", ...(key === UNMARKED ? [] : ["--secret"]), key, value]);
      record(await cli.run(["up", "--yes", "--skip-preview"], { env: { DOCSPLATFORM_API_TOKEN: TOKEN } }));
      plain = await cli.exportState();
      decrypted = await exportShowingSecrets();
    }, 300_000);

    it("the state holds no entry for the token, not even with --show-secrets", () => {
      const provider = defaultProvider(decrypted.deployment);
      expect(Object.keys(provider.inputs!)).not.toContain("docsplatform:apiToken");
      expect(Object.keys(provider.outputs ?? {})).not.toContain("docsplatform:apiToken");
      expect(provider.inputs!["docsplatform:apiUrl"]).toBe(emu.url);
      expect(decrypted.text.includes(TOKEN)).toBe(false);
      expect(decrypted.text.includes("apiToken")).toBe(false);
      expect(fs.readFileSync(path.join(program.dir, "Pulumi.env.yaml"), "utf8")).not.toMatch(/apiToken/);
    });

    it("the secrets the file names are still ciphertext in their resources' inputs and digests in their outputs", () => {
      for (const [kind, field] of [["Integration", "secrets"], ["IntegrationInstallation", "secretConfiguration"], ["SiteMcpServer", "headers"], ["SiteContextConnection", "secretSettings"], ["SiteGitSync", "accessToken"]] as const) {
        expect(ofKind(plain.deployment, kind).inputs![field], kind).toEqual(CIPHERTEXT);
        expect(ofKind(plain.deployment, kind).outputs![field], kind).toEqual(CIPHERTEXT);
      }
      const others = SOURCED.filter((v) => v !== CONFIG_SECRETS[UNMARKED]);
      for (const secret of others) expect(plain.text.includes(secret), secret).toBe(false);
      expect(exposedInState(JSON.parse(decrypted.text), others)).toEqual([]);
    });

    it("a config value set without --secret is plaintext in the stack's config file and among the default provider's inputs and outputs", () => {
      const value = CONFIG_SECRETS[UNMARKED];
      expect(fs.readFileSync(path.join(program.dir, "Pulumi.env.yaml"), "utf8")).toContain(`secrets:${UNMARKED}: ${value}`);
      const provider = defaultProvider(plain.deployment);
      expect(provider.inputs![`secrets:${UNMARKED}`]).toBe(value);
      expect(provider.outputs![`secrets:${UNMARKED}`]).toBe(value);
      // There only: the installation's input is ciphertext all the same (the component makes it a secret).
      const at = `state.resources[${plain.deployment.resources!.indexOf(provider)}]`;
      expect(exposedInState(plain.deployment, [value])).toEqual([`${at}.inputs.secrets:${UNMARKED}`, `${at}.outputs.secrets:${UNMARKED}`]);
      expect(ofKind(plain.deployment, "IntegrationInstallation").inputs!["secretConfiguration"]).toEqual(CIPHERTEXT);
    });

    afterAll(async () => {
      await cli.run(["destroy", "--yes", "--skip-preview"], { env: { DOCSPLATFORM_API_TOKEN: TOKEN } });
    }, 300_000);
  });
});
