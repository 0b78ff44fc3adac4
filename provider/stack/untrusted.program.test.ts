/**
 * The untrusted stack file through `pulumi up` (the real language host and dynamic-provider plugin,
 * test/harness, against the emulator): a file outside the project, a URL with a scheme readers must not
 * follow or a host the platform must not fetch, a secret source naming the API token, an ID or a path
 * that would address another route: each stops the program before any API call, located in docs.yaml.
 * The offline wording of every refusal is in untrusted.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import type { PreparedProgram, ProgramRunner, RunResult } from "../../test/harness";
import { startProgram, stopProgram } from "../../test/support/program";

const EXAMPLE = path.resolve(__dirname, "../../examples/integration");
/** A file outside the project whose content must never reach the platform. */
const PRIVATE = `-----BEGIN PRIVATE KEY----- ${Date.now()} outside-the-project`;

const integration = (fields: string): string => `organization: demo-org
integrations:
  - key: status-badges
    name: status-badges
    title: Status badges
    description: Shows the live status of a service.
${fields}`;

describe("an untrusted stack file through pulumi up", { timeout: 900_000 }, () => {
  let emu: RunningEmulator;
  let program: PreparedProgram;
  let runner: ProgramRunner;
  let outside: string;

  beforeAll(async () => {
    ({ emu, program, runner } = await startProgram(EXAMPLE));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), "outside-"));
    fs.writeFileSync(path.join(outside, "id_rsa"), PRIVATE);
  }, 300_000);
  afterAll(async () => {
    await stopProgram({ emu, program, runner });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  /** `up` of `docs` as the program's docs.yaml: it must fail, with no API call; the text it reported. */
  async function refused(docs: string): Promise<string> {
    fs.writeFileSync(path.join(program.dir, "docs.yaml"), docs);
    const result: RunResult = await runner.up({ allowError: true, timeoutMs: 600_000, config: { "integration:statusApiKey": "k" }, env: { STATUS_WEBHOOK_SECRET: "w", DOCSPLATFORM_API_TOKEN: emu.token } });
    expect(result.error).toBeDefined();
    expect(result.apiCalls).toEqual([]);
    expect(emu.store.get("integrations", "status-badges")).toBeUndefined();
    const text = `${result.error?.message ?? ""}\n${result.output}\n${result.logs.map((l) => l.message).join("\n")}`;
    expect(text).not.toContain(PRIVATE);
    return text;
  }

  it("a script outside the project (absolute, ../, or a link leading out) is refused before any call", async () => {
    expect(await refused(integration(`    script: ${path.join(outside, "id_rsa")}\n`))).toMatch(/docs\.yaml:7:13: integrations\[0\]\.script: ".*id_rsa" is an absolute path; name files relative to the stack file, inside the project's folder/);
    const up = path.relative(program.dir, path.join(outside, "id_rsa"));
    expect(await refused(integration(`    script: ${up}\n`))).toMatch(/docs\.yaml:7:13: integrations\[0\]\.script: ".*id_rsa" leads outside the project/);
    fs.symlinkSync(path.join(outside, "id_rsa"), path.join(program.dir, "src/link.js"));
    expect(await refused(integration("    script: src/script.js\n    icon: src/link.js\n"))).toMatch(/docs\.yaml:8:11: integrations\[0\]\.icon: "src\/link\.js" is a symbolic link to a file outside the project/);
  });

  it("a link with a javascript: URL and a spec fetched from the metadata address are refused before any call", async () => {
    const text = await refused(`${integration("    script: src/script.js\n    externalLinks: [{url: \"javascript:alert(1)\", label: Docs}]\n")}openapi:\n  - {key: api, slug: api, sourceURL: "http://169.254.169.254/latest/meta-data"}\n`);
    expect(text).toMatch(/docs\.yaml:8:27: integrations\[0\]\.externalLinks\[0\]\.url: uses the javascript: scheme; only https: and http: URLs are allowed here/);
    expect(text).toMatch(/docs\.yaml:10:38: openapi\[0\]\.sourceURL: names 169\.254\.169\.254, a link-local address/);
  });

  it("a secret whose source is the API token's variable is refused before any call", async () => {
    const text = await refused(integration("    script: src/script.js\n    secrets:\n      TOKEN: {env: DOCSPLATFORM_API_TOKEN}\n"));
    expect(text).toMatch(/docs\.yaml:9:20: integrations\[0\]\.secrets\.TOKEN\.env: secret "TOKEN": environment variable DOCSPLATFORM_API_TOKEN holds the platform API token this package acts with; it is never sent to an integration/);
    expect(text).not.toContain(emu.token);
  });

  it("URLs parsers read differently, credentials in a URL, IPv4 inside IPv6 and a link in a document are refused before any call", async () => {
    const text = await refused(`organization: demo-org
openapi:
  - {key: api, slug: api, sourceURL: "https://[::ffff:0:169.254.169.254]/spec.json"}
sites:
  - key: handbook
    title: Handbook
    siteSpaces: [{key: g, space: {id: space-guides}}]
    redirects:
      - {source: /a, destination: {url: "https://docs.example/\\r\\nSet-Cookie: session=attacker"}}
    mcpServers:
      - {key: a, name: A, url: 'https://mcp.example\\@169.254.169.254/sse'}
      - {key: b, name: B, url: 'https://svc:S3CRET-PASS@mcp.example/sse'}
    agent:
      editing:
        customInstructions:
          object: document
          data: {}
          nodes: [{object: block, type: paragraph, nodes: [{object: inline, type: link, data: {ref: {kind: url, url: "javascript:alert(1)"}}, nodes: []}]}]
`);
    expect(text).toMatch(/docs\.yaml:3:38: openapi\[0\]\.sourceURL: names \[::ffff:0:a9fe:a9fe\], which carries 169\.254\.169\.254/);
    expect(text).toMatch(/docs\.yaml:9:41: sites\[0\]\.redirects\[0\]\.destination\.url: holds the invisible character \\u000d/);
    expect(text).toMatch(/docs\.yaml:11:32: sites\[0\]\.mcpServers\[0\]\.url: holds a backslash/);
    expect(text).toMatch(/docs\.yaml:12:32: sites\[0\]\.mcpServers\[1\]\.url: has a user or password part/);
    expect(text).toMatch(/sites\[0\]\.agent\.editing\.customInstructions\.nodes\[0\]\.nodes\[0\]\.data\.ref\.url: uses the javascript: scheme/);
    expect(text).not.toContain("S3CRET-PASS");
  });

  it("an ID of '..' and a section path of '../x' are refused before any call", async () => {
    const text = await refused(`organization: demo-org
spaces:
  - {key: up, id: ".."}
sites:
  - key: handbook
    title: Handbook
    sections:
      - {key: guides, title: Guides, path: "../admin", space: up}
`);
    expect(text).toMatch(/docs\.yaml:3:19: spaces\[0\]\.id: must be a platform ID: no '\/', '\?', '#', spaces or invisible characters, and not '\.' or '\.\.'/);
    expect(text).toMatch(/docs\.yaml:8:44: sites\[0\]\.sections\[0\]\.path: must be one segment of a URL path/);
  });
});
