/**
 * The stack file is untrusted input: nothing it names reaches where it should not. Each refusal is
 * offline (`docsplatform validate`'s loader), located at `file:line:col` with the field and the reason.
 * The same refusals through `pulumi up` (no API call) are in untrusted.program.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatProblem, loadStackFile, parseStack, type LoadResult } from "./load";
import { projectFile, projectRoot } from "./projectFiles";
import { urlProblem } from "../urls";

const made: string[] = [];
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A folder of its own: `files` written in it (a `Pulumi.yaml` among them makes it a project). */
function folder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "untrusted-"));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

function lines(result: LoadResult): string[] {
  return result.ok ? [] : result.problems.map(formatProblem);
}

function warnings(result: LoadResult): string[] {
  return result.warnings.map(formatProblem);
}

const integration = (fields: string): string => `organization: demo-org
integrations:
  - key: badges
    name: badges
    title: Badges
    description: Status badges
${fields}`;

describe("files the stack file names stay inside the project", () => {
  const outside = folder({ "id_rsa": "PRIVATE KEY" });
  const project = folder({ "Pulumi.yaml": "name: p\n", "src/script.js": "export default {};", "images/icon.png": "png", "stack/docs.yaml": "" });
  fs.symlinkSync(path.join(outside, "id_rsa"), path.join(project, "src/link.js"));
  fs.symlinkSync(path.join(project, "src/script.js"), path.join(project, "src/inside-link.js"));

  function load(fields: string): LoadResult {
    const file = path.join(project, "stack/docs.yaml");
    fs.writeFileSync(file, integration(fields));
    return loadStackFile(file);
  }

  it("refuses an absolute path, a path leaving the project and a link to a file outside it, each located", () => {
    const result = load(`    script: ${path.join(outside, "id_rsa")}\n    icon: ../../${path.basename(outside)}/id_rsa\n    previewImages: [../src/link.js]\n`);
    const file = path.join(project, "stack/docs.yaml");
    expect(lines(result)).toEqual([
      `${file}:7:13: integrations[0].script: ${JSON.stringify(path.join(outside, "id_rsa"))} is an absolute path; name files relative to the stack file, inside the project's folder (where Pulumi.yaml is)`,
      `${file}:8:11: integrations[0].icon: "../../${path.basename(outside)}/id_rsa" leads outside the project; files the stack file names must be inside the project's folder (where Pulumi.yaml is)`,
      `${file}:9:21: integrations[0].previewImages[0]: "../src/link.js" is a symbolic link to a file outside the project; files the stack file names must be inside the project's folder (where Pulumi.yaml is)`,
    ]);
  });

  it("accepts files anywhere inside the project, ../ and links inside it included", () => {
    const result = load("    script: ../src/script.js\n    icon: ../images/icon.png\n    previewImages: [../src/inside-link.js]\n");
    expect(lines(result)).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it("the root is the nearest folder with Pulumi.yaml above the stack file, else the stack file's own folder", () => {
    expect(projectRoot(path.join(project, "stack"))).toBe(project);
    const loose = folder({ "docs.yaml": "", "a.js": "" });
    expect(projectRoot(loose)).toBe(loose);
    expect(projectFile({ dir: loose, root: loose }, "a.js")).toEqual({ ok: true, file: fs.realpathSync(path.join(loose, "a.js")) });
    expect(projectFile({ dir: loose, root: loose }, "../x.js")).toMatchObject({ ok: false, reason: expect.stringContaining("the stack file's folder (there is no Pulumi.yaml above it)") });
  });
});

describe("URLs: one rule per field, from what the platform does with it", () => {
  const site = (body: string): string => `organization: demo-org
sites:
  - key: handbook
    title: Handbook
${body}`;

  it("links readers follow are https or http only, wherever the kinds declare them", () => {
    const text = `organization: demo-org
settings:
  logo: "data:image/svg+xml,<svg onload=alert(1)>"
saml:
  - key: okta
    label: Okta
    ssoURL: "file:///etc/passwd"
integrations:
  - key: badges
    name: badges
    title: Badges
    description: Status badges
    script: src/script.js
    externalLinks: [{url: "javascript:alert(1)", label: Docs}]
sites:
  - key: handbook
    title: Handbook
    visibility: visitor-auth
    visitorAuth:
      fallbackURL: "vbscript:msgbox(1)"
    customization:
      header:
        links:
          - {title: Status, to: {kind: url, url: "javascript:alert(document.cookie)"}, links: []}
      footer:
        groups: [{title: Company, links: [{title: About, to: {kind: url, url: "JAVASCRIPT:alert(1)"}}]}]
    redirects:
      - {source: /old, destination: {url: "data:text/html,<script>alert(1)</script>"}}
    sections:
      - {key: status, title: Status, url: "javascript:alert(1)"}
      - {key: guides, title: Guides, space: {id: space-guides}}
`;
    expect(lines(parseStack(text, "docs.yaml"))).toEqual([
      `docs.yaml:3:9: settings.logo: uses the data: scheme; only https: and http: URLs are allowed here (readers follow this URL or their browser loads it) (got "data:image/svg+xml,<svg onload=alert(1)>")`,
      `docs.yaml:7:13: saml[0].ssoURL: uses the file: scheme; only https: and http: URLs are allowed here (readers follow this URL or their browser loads it) (got "file:///etc/passwd")`,
      `docs.yaml:14:27: integrations[0].externalLinks[0].url: uses the javascript: scheme; only https: and http: URLs are allowed here (readers follow this URL or their browser loads it) (got "javascript:alert(1)")`,
      `docs.yaml:20:20: sites[0].visitorAuth.fallbackURL: uses the vbscript: scheme; only https: and http: URLs are allowed here (readers follow this URL or their browser loads it) (got "vbscript:msgbox(1)")`,
      `docs.yaml:24:50: sites[0].customization.header.links[0].to.url: uses the javascript: scheme; only https: and http: URLs are allowed here (readers follow this URL or their browser loads it) (got "javascript:alert(document.cookie)")`,
      `docs.yaml:26:79: sites[0].customization.footer.groups[0].links[0].to.url: uses the javascript: scheme; only https: and http: URLs are allowed here (readers follow this URL or their browser loads it) (got "JAVASCRIPT:alert(1)")`,
      `docs.yaml:28:43: sites[0].redirects[0].destination.url: uses the data: scheme; only https: and http: URLs are allowed here (readers follow this URL or their browser loads it) (got "data:text/html,<script>alert(1)</script>")`,
      `docs.yaml:30:43: sites[0].sections[0].url: uses the javascript: scheme; only https: and http: URLs are allowed here (readers follow this URL or their browser loads it) (got "javascript:alert(1)")`,
    ]);
  });

  it("URLs the platform fetches name no private, loopback, link-local, unique-local or unspecified host", () => {
    const hosts = ["169.254.169.254/latest/meta-data", "[fe80::1]/x", "localhost:8080/x", "10.0.0.5/x", "0x7f.1/x", "2130706433/x", "[::ffff:192.168.1.1]/x", "[fd00::1]/x", "0.0.0.0/x", "[::]/x", "api.localhost/x"];
    const text = `organization: demo-org\nopenapi:\n${hosts.map((h, i) => `  - {key: s${i}, slug: s${i}, sourceURL: "http://${h}"}\n`).join("")}  - {key: ok, slug: ok, sourceURL: "https://api.example.com/openapi.json"}\n  - {key: ftp, slug: ftp, sourceURL: "ftp://api.example.com/openapi.json"}\n`;
    const found = lines(parseStack(text, "docs.yaml"));
    expect(found).toHaveLength(hosts.length + 1);
    expect(found[0]).toBe(`docs.yaml:3:36: openapi[0].sourceURL: names 169.254.169.254, a link-local address (169.254.0.0/16, where cloud metadata services answer); the platform fetches this URL, so it must be a public address (got "http://169.254.169.254/latest/meta-data")`);
    expect(found[1]).toMatch(/^docs\.yaml:4:\d+: openapi\[1\]\.sourceURL: names \[fe80::1\], a link-local address \(fe80::\/10\)/);
    expect(found[2]).toMatch(/openapi\[2\]\.sourceURL: names localhost \(a loopback name\)/);
    expect(found[3]).toMatch(/openapi\[3\]\.sourceURL: names 10\.0\.0\.5, a private address/);
    expect(found[4]).toMatch(/openapi\[4\]\.sourceURL: names 127\.0\.0\.1, a loopback address .*\(got "http:\/\/0x7f\.1\/x"\)/);
    expect(found[5]).toMatch(/openapi\[5\]\.sourceURL: names 127\.0\.0\.1, a loopback address/);
    expect(found[6]).toMatch(/openapi\[6\]\.sourceURL: names \[::ffff:c0a8:101\], which carries 192\.168\.1\.1, a private address/);
    expect(found[7]).toMatch(/openapi\[7\]\.sourceURL: names \[fd00::1\], a unique-local address/);
    expect(found[8]).toMatch(/openapi\[8\]\.sourceURL: names 0\.0\.0\.0, an unspecified address/);
    expect(found[9]).toMatch(/openapi\[9\]\.sourceURL: names \[::\], the unspecified address/);
    expect(found[10]).toMatch(/openapi\[10\]\.sourceURL: names localhost/);
    expect(found[11]).toMatch(/openapi\[12\]\.sourceURL: uses the ftp: scheme; only https: and http: URLs are allowed here \(the platform fetches this URL\)/);
  });

  // The newer kinds' URLs the platform fetches go by the same rule as an OpenAPI spec's sourceURL: the
  // field's schema format, so the loader and each kind's check refuse them in the same words.
  const fetchedBy = (body: string): string[] => lines(parseStack(site(`    siteSpaces: [{key: g, space: {id: space-guides}}]\n${body}`), "docs.yaml"));

  it("an MCP server's url is a fetched URL", () => {
    expect(fetchedBy("    mcpServers:\n      - {key: tools, name: Tools, url: 'http://[::1]:3000/sse'}\n")).toEqual([
      `docs.yaml:7:40: sites[0].mcpServers[0].url: names [::1], the loopback address (::1); the platform fetches this URL, so it must be a public address (got "http://[::1]:3000/sse")`,
    ]);
  });

  it("a website connection's setupSettings.url is a fetched URL", () => {
    expect(fetchedBy("    contextConnections:\n      - {key: web, connector: builtin:website, setupSettings: {url: 'http://10.0.0.5/docs'}}\n")).toEqual([
      `docs.yaml:7:69: sites[0].contextConnections[0].setupSettings.url: names 10.0.0.5, a private address (10.0.0.0/8); the platform fetches this URL, so it must be a public address (got "http://10.0.0.5/docs")`,
    ]);
  });

  it("a Jira connection's setupSettings.baseUrl is a fetched URL", () => {
    const jira = "    contextConnections:\n      - key: jira\n        connector: builtin:jira\n        setupSettings: {baseUrl: 'http://localhost:9000', apiEmail: bot@acme.test}\n        secretSettings: {apiToken: {env: JIRA_TOKEN}}\n";
    expect(fetchedBy(jira)).toEqual([
      `docs.yaml:9:34: sites[0].contextConnections[0].setupSettings.baseUrl: names localhost (a loopback name); the platform fetches this URL, so it must be a public address (got "http://localhost:9000")`,
    ]);
  });

  it("Git Sync's customInstanceURL is a fetched URL", () => {
    const gitlab = "    gitSync: {provider: gitlab, project: 7, branch: refs/heads/main, priority: gitbook, accessToken: {env: GITLAB_TOKEN}, customInstanceURL: 'http://192.168.1.20/'}\n";
    expect(fetchedBy(gitlab)).toEqual([
      `docs.yaml:6:142: sites[0].gitSync.customInstanceURL: names 192.168.1.20, a private address (192.168.0.0/16); the platform fetches this URL, so it must be a public address (got "http://192.168.1.20/")`,
    ]);
  });

  // Where the platform sends a credential the file supplies (MCP headers, a GitLab token, Jira's API token),
  // plain http: to a public host is refused as well: the credential would cross the network in clear.
  it("a URL the platform sends a credential to is https only: an MCP server's url, Jira's baseUrl, Git Sync's customInstanceURL", () => {
    const jira = "    contextConnections:\n      - key: jira\n        connector: builtin:jira\n        setupSettings: {baseUrl: 'http://acme.atlassian.net', apiEmail: bot@acme.test}\n        secretSettings: {apiToken: {env: JIRA_TOKEN}}\n";
    const gitlab = "    gitSync: {provider: gitlab, project: 7, branch: refs/heads/main, priority: gitbook, accessToken: {env: GITLAB_TOKEN}, customInstanceURL: 'http://gitlab.acme.test/'}\n";
    const words = "uses plain http:; only https: URLs are allowed here (the platform sends a credential to this URL, which http: would carry in clear)";
    expect([
      ...fetchedBy("    mcpServers:\n      - {key: tools, name: Tools, url: 'http://mcp.acme.test/sse', headers: {Authorization: {env: MCP_TOKEN}}}\n"),
      ...fetchedBy(jira),
      ...fetchedBy(gitlab),
    ]).toEqual([
      `docs.yaml:7:40: sites[0].mcpServers[0].url: ${words} (got "http://mcp.acme.test/sse")`,
      `docs.yaml:9:34: sites[0].contextConnections[0].setupSettings.baseUrl: ${words} (got "http://acme.atlassian.net")`,
      `docs.yaml:6:142: sites[0].gitSync.customInstanceURL: ${words} (got "http://gitlab.acme.test/")`,
    ]);
    // A website the platform reads without a credential may still be plain http: to a public host.
    expect(fetchedBy("    contextConnections:\n      - {key: web, connector: builtin:website, setupSettings: {url: 'http://www.acme.test/docs'}}\n")).toEqual([]);
    expect(urlProblem("https://mcp.acme.test/sse", "credentialed")).toBeUndefined();
  });

  it("a followed URL may name any host; only the scheme matters", () => {
    expect(urlProblem("http://localhost:3000/login", "followed")).toBeUndefined();
    expect(urlProblem("https://partners.example.com/login", "followed")).toBeUndefined();
    expect(urlProblem("http://localhost:3000/spec.json", "fetched")).toMatch(/localhost/);
    expect(urlProblem("https://8.8.8.8/spec.json", "fetched")).toBeUndefined();
    expect(lines(parseStack(site("    redirects:\n      - {source: /old, destination: {url: \"https://example.com/new\"}}\n    siteSpaces: [{key: g, space: {id: space-guides}}]\n"), "docs.yaml"))).toEqual([]);
  });
});

describe("one URL parse, one truth: what is checked is what every parser reads", () => {
  const site = (body: string): string => `organization: demo-org
sites:
  - key: handbook
    title: Handbook
    siteSpaces: [{key: g, space: {id: space-guides}}]
${body}`;
  const found = (text: string): string[] => lines(parseStack(text, "docs.yaml"));

  it("a CR, LF, tab or ESC in a URL is refused, located, in words (a WHATWG parser would drop CR and LF and judge another string)", () => {
    const out = found(
      site(`    redirects:
      - {source: /a, destination: {url: "https://docs.example/\\r\\nSet-Cookie: session=attacker"}}
      - {source: /b, destination: {url: "https://docs.example/\\u001b[2Jx"}}
      - {source: /c, destination: {url: "https://docs.ex\\tample/"}}
    mcpServers:
      - {key: tools, name: Tools, url: "https://mcp.example/sse\\r\\nX-Injected: 1"}
`),
    );
    expect(out).toEqual([
      `docs.yaml:7:41: sites[0].redirects[0].destination.url: holds the invisible character \\u000d; URL parsers read such a URL differently (some drop it, some split a request line on it), so it is refused (got "https://docs.example/\\r\\nSet-Cookie: session=attacker")`,
      `docs.yaml:8:41: sites[0].redirects[1].destination.url: holds the invisible character \\u001b; URL parsers read such a URL differently (some drop it, some split a request line on it), so it is refused (got "https://docs.example/\\u001b[2Jx")`,
      `docs.yaml:9:41: sites[0].redirects[2].destination.url: holds the invisible character \\u0009; URL parsers read such a URL differently (some drop it, some split a request line on it), so it is refused (got "https://docs.ex\\tample/")`,
      `docs.yaml:11:40: sites[0].mcpServers[0].url: holds the invisible character \\u000d; URL parsers read such a URL differently (some drop it, some split a request line on it), so it is refused (got "https://mcp.example/sse\\r\\nX-Injected: 1")`,
    ]);
  });

  it("a backslash is refused: https://mcp.example\\@169.254.169.254/ names another host to another parser", () => {
    expect(found(site("    mcpServers:\n      - {key: tools, name: Tools, url: 'https://mcp.example\\@169.254.169.254/sse'}\n"))).toEqual([
      `docs.yaml:7:40: sites[0].mcpServers[0].url: holds a backslash; URL parsers read such a URL differently (some drop it, some split a request line on it), so it is refused (got "https://***@169.254.169.254/sse")`,
    ]);
  });

  it("private addresses are seen through IPv4 carried in IPv6: ::ffff:0:0/96, 64:ff9b::/96, 64:ff9b:1::/48, 2002::/16, ::a.b.c.d", () => {
    const hosts = ["[::ffff:0:169.254.169.254]", "[64:ff9b::169.254.169.254]", "[64:ff9b:1::a9fe:a9fe]", "[2002:a9fe:a9fe::1]", "[::10.0.0.1]", "[::ffff:169.254.169.254]"];
    const text = `organization: demo-org\nopenapi:\n${hosts.map((h, i) => `  - {key: s${i}, slug: s${i}, sourceURL: "https://${h}/spec.json"}\n`).join("")}  - {key: ok, slug: ok, sourceURL: "https://[2002:808:808::1]/spec.json"}\n`;
    const out = found(text);
    expect(out).toHaveLength(hosts.length);
    expect(out[0]).toMatch(/openapi\[0\]\.sourceURL: names \[::ffff:0:a9fe:a9fe\], which carries 169\.254\.169\.254, a link-local address/);
    expect(out[1]).toMatch(/openapi\[1\]\.sourceURL: names \[64:ff9b::a9fe:a9fe\], which carries 169\.254\.169\.254, a link-local address/);
    expect(out[2]).toMatch(/openapi\[2\]\.sourceURL: names \[64:ff9b:1::a9fe:a9fe\], a local-use NAT64 address \(64:ff9b:1::\/48\)/);
    expect(out[3]).toMatch(/openapi\[3\]\.sourceURL: names \[2002:a9fe:a9fe::1\], which carries 169\.254\.169\.254, a link-local address/);
    expect(out[4]).toMatch(/openapi\[4\]\.sourceURL: names \[::a00:1\], which carries 10\.0\.0\.1, a private address/);
    expect(out[5]).toMatch(/openapi\[5\]\.sourceURL: names \[::ffff:a9fe:a9fe\], which carries 169\.254\.169\.254/);
  });

  it("a user or password part is refused wherever a URL is given, and the credential is never repeated", () => {
    const jira = "    contextConnections:\n      - key: jira\n        connector: builtin:jira\n        setupSettings: {baseUrl: 'https://bot:S3CRET-JIRA@acme.atlassian.net', apiEmail: bot@acme.test}\n        secretSettings: {apiToken: {env: JIRA_TOKEN}}\n";
    const out = found(site(`    mcpServers:\n      - {key: tools, name: Tools, url: 'https://svc:S3CRET-MCP@mcp.example/sse'}\n    redirects:\n      - {source: /a, destination: {url: "https://reader@docs.example/"}}\n${jira}`));
    const words = "has a user or password part (user:password@); a credential is never written into a URL in the file (give it where the field's secrets go), and other parsers may read the host differently";
    expect(out).toEqual([
      `docs.yaml:7:40: sites[0].mcpServers[0].url: ${words} (got "https://***@mcp.example/sse")`,
      `docs.yaml:9:41: sites[0].redirects[0].destination.url: ${words} (got "https://***@docs.example/")`,
      `docs.yaml:13:34: sites[0].contextConnections[0].setupSettings.baseUrl: ${words} (got "https://***@acme.atlassian.net")`,
    ]);
    expect(out.join("\n")).not.toContain("S3CRET");
  });

  it("a link inside a document (the agent's instructions as rich text) follows the followed-URL rule", () => {
    const doc = `    agent:
      editing:
        customInstructions:
          object: document
          data: {}
          nodes:
            - object: block
              type: paragraph
              nodes:
                - object: inline
                  type: link
                  data: {ref: {kind: url, url: "javascript:alert(document.cookie)"}}
                  nodes: [{object: text, leaves: [{object: leaf, text: docs}]}]
                - object: inline
                  type: link
                  data: {ref: {kind: url, url: "https://docs.example/style"}}
                  nodes: [{object: text, leaves: [{object: leaf, text: style}]}]
`;
    expect(found(site(doc))).toEqual([
      `docs.yaml:17:48: sites[0].agent.editing.customInstructions.nodes[0].nodes[0].data.ref.url: uses the javascript: scheme; only https: and http: URLs are allowed here (readers follow this URL or their browser loads it) (got "javascript:alert(document.cookie)")`,
    ]);
  });
});

describe("the API token cannot be sent to an integration", () => {
  it("refuses a secret source naming the token's environment variable or config key, located, offline", () => {
    const text = `${integration("    script: src/script.js\n    secrets:\n      TOKEN: {env: DOCSPLATFORM_API_TOKEN}\n      OTHER: {config: \"docsplatform:apiToken\"}\n      FINE: {env: STATUS_KEY}\n")}installations:
  - key: badges
    integration: badges
    secretConfiguration: {apiKey: {env: DOCSPLATFORM_API_TOKEN}}
`;
    expect(lines(parseStack(text, "docs.yaml"))).toEqual([
      `docs.yaml:9:20: integrations[0].secrets.TOKEN.env: secret "TOKEN": environment variable DOCSPLATFORM_API_TOKEN holds the platform API token this package acts with; it is never sent to an integration (give the integration a credential of its own)`,
      `docs.yaml:10:23: integrations[0].secrets.OTHER.config: secret "OTHER": config key docsplatform:apiToken holds the platform API token this package acts with; it is never sent to an integration (give the integration a credential of its own)`,
      `docs.yaml:15:41: installations[0].secretConfiguration.apiKey.env: secret "apiKey": environment variable DOCSPLATFORM_API_TOKEN holds the platform API token this package acts with; it is never sent to an integration (give the integration a credential of its own)`,
    ]);
  });
});

describe("paths, keys and IDs", () => {
  const site = (body: string): string => `organization: demo-org
sites:
  - key: handbook
    title: Handbook
${body}`;

  it("refuses IDs that would address another route or hold hidden characters", () => {
    const text = `organization: demo-org\nspaces:\n  - {key: a, id: ".."}\n  - {key: b, id: "."}\n  - {key: c, id: "space\\u0000x"}\n  - {key: d, id: "space\\u200bx"}\n  - {key: e, id: "space-guides"}\n`;
    const found = lines(parseStack(text, "docs.yaml"));
    expect(found).toEqual([3, 4, 5, 6].map((line, i) => `docs.yaml:${line}:18: spaces[${i}].id: must be a platform ID: no '/', '?', '#', spaces or invisible characters, and not '.' or '..' (got ${["\"..\"", "\".\"", "\"space\\u0000x\"", "\"space\\u200bx\""][i]})`));
  });

  it("a section or site-space path is one segment: no '../', no 'a/b', no hidden or reordering characters", () => {
    const text = site(`    sections:
      - {key: up, title: Up, path: "../admin", space: {id: space-a}}
      - {key: two, title: Two, path: "a/b", space: {id: space-b}}
      - {key: dot, title: Dot, path: "..", space: {id: space-c}}
      - {key: rlo, title: Rlo, path: "cod\\u202Egnp.exe", space: {id: space-d}}
      - key: nested
        title: Nested
        siteSpaces:
          - {key: zw, space: {id: space-e}, path: "v\\u200d1"}
          - {key: ok, space: {id: space-f}, path: "v2"}
`);
    const segment = "must be one segment of a URL path: no '/', '\\', '?', '#', '%', spaces or invisible characters, and not '.' or '..', like api-v2";
    expect(lines(parseStack(text, "docs.yaml"))).toEqual([
      `docs.yaml:6:36: sites[0].sections[0].path: ${segment} (got "../admin")`,
      `docs.yaml:7:38: sites[0].sections[1].path: ${segment} (got "a/b")`,
      `docs.yaml:8:38: sites[0].sections[2].path: ${segment} (got "..")`,
      `docs.yaml:9:38: sites[0].sections[3].path: ${segment} (got "cod\\u202egnp.exe")`,
      `docs.yaml:13:51: sites[0].sections[4].siteSpaces[0].path: ${segment} (got "v\\u200d1")`,
    ]);
  });

  it("redirect paths and page paths address what they read", () => {
    const text = site(`    siteSpaces: [{key: guides, space: {id: space-guides}}]
    redirects:
      - {source: /a, destination: {path: /../../evil}}
      - {source: /b, destination: {path: /%2e%2e/admin}}
      - {source: /c, destination: {path: /%2F%2Fevil.example}}
      - {source: /d/../e, destination: {path: /new}}
      - {source: /f, destination: {siteSpace: guides, page: ../../x}}
      - {source: /g, destination: {siteSpace: guides, page: getting-started/installation}}
`);
    const found = lines(parseStack(text, "docs.yaml"));
    expect(found).toEqual([
      `docs.yaml:7:42: sites[0].redirects[0].destination.path: "/../../evil" has a ".." segment, which addresses another level than the path reads; write the path it leads to`,
      `docs.yaml:8:42: sites[0].redirects[1].destination.path: "/%2e%2e/admin" has a "%2e%2e" segment (.. encoded), which addresses another level than the path reads; write the path it leads to`,
      `docs.yaml:9:42: sites[0].redirects[2].destination.path: "/%2F%2Fevil.example" holds an encoded '/' (%2F), which reads as one segment but may be served as two (or as another site's address); write the path plainly`,
      `docs.yaml:10:18: sites[0].redirects[3].source: "/d/../e" has a ".." segment, which addresses another level than the path reads; write the path it leads to`,
      `docs.yaml:11:61: sites[0].redirects[4].destination.page: "../../x" has a ".." segment, which addresses another page than the path reads; give the page's own path`,
    ]);
  });

  it("refuses hidden characters in a title adopt looks objects up by", () => {
    const text = `organization: demo-org\nteams:\n  - {key: docs, title: "Docs\\u202Eteam"}\n  - {key: ops, title: "Ops team"}\nsites:\n  - key: handbook\n    title: "Hand\\u200Bbook"\n    siteSpaces: [{key: g, space: {id: space-guides}}]\n    shareLinks: [{key: p, name: "Partner\\u0007"}]\n`;
    expect(lines(parseStack(text, "docs.yaml"))).toEqual([
      "docs.yaml:3:24: teams[0].title: holds U+202E (a bidirectional control) at position 5; identifiers may not hold invisible or text-reordering characters",
      "docs.yaml:7:12: sites[0].title: holds U+200B (a zero-width character) at position 5; identifiers may not hold invisible or text-reordering characters",
      "docs.yaml:9:33: sites[0].shareLinks[0].name: holds U+0007 (a control character) at position 8; identifiers may not hold invisible or text-reordering characters",
    ]);
  });

  it("warns (does not refuse) a path that only looks like a sibling's", () => {
    const text = site(`    sections:
      - {key: api, title: API, path: api, space: {id: space-a}}
      - {key: api-cyr, title: API again, path: "\u0430pi", space: {id: space-b}}
      - {key: other, title: Other, path: apis, space: {id: space-c}}
`);
    const result = parseStack(text, "docs.yaml");
    expect(lines(result)).toEqual([]);
    expect(warnings(result)).toEqual([
      `docs.yaml:7:48: sites[0].sections[1].path: path "\u0430pi" looks like "api", the path of sites[0].sections[0] (line 6), but differs in '\u0430' (U+0430); readers cannot tell the two URLs apart`,
    ]);
  });
});
