/** The emulator answers only its own Host names, and says so when it listens beyond loopback. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { defaultSeed, startEmulator, type RunningEmulator } from "./index";
import { ensureBuilt } from "../test/support/built";

const root = resolve(__dirname, "..");
const cli = join(root, "dist/provider/cli.js");
const ORG = "/v1/orgs/demo-org";
const REFUSAL = /^the emulator only answers its own names \(localhost, 127\.0\.0\.1, any other 127\.x\.y\.z, \[::1\], and the names it was started with\), /;

interface Answer {
  status: number;
  body: { error?: { code: number; message: string } } & Record<string, unknown>;
}

/** A request to 127.0.0.1:`port` that names `host` in its Host header. */
function send(port: number, host: string, method = "GET", path = ORG, body?: unknown): Promise<Answer> {
  return new Promise((resolvePromise, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { host, authorization: "Bearer dev-token" };
    if (payload !== undefined) headers["content-type"] = "application/json";
    const req = http.request({ host: "127.0.0.1", port, method, path, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolvePromise({ status: res.statusCode!, body: text === "" ? {} : JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** A request written by hand (node:http always sends a Host): `host` undefined is an HTTP/1.0 request without one. */
function sendRaw(port: number, host: string | undefined): Promise<Answer> {
  const head = host === undefined ? `GET ${ORG} HTTP/1.0\r\n` : `GET ${ORG} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n`;
  return new Promise((resolvePromise, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.end(`${head}Authorization: Bearer dev-token\r\n\r\n`));
    let raw = "";
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (raw += d));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", text = ""] = raw.split("\r\n\r\n");
      resolvePromise({ status: Number(/^HTTP\/1\.\d (\d{3})/.exec(head)?.[1]), body: JSON.parse(text) });
    });
  });
}

/** Runs `fn` with what it writes to stderr captured. */
async function capturingStderr<T>(fn: () => Promise<T>): Promise<{ value: T; stderr: string }> {
  const original = process.stderr.write.bind(process.stderr);
  let stderr = "";
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    return { value: await fn(), stderr };
  } finally {
    process.stderr.write = original;
  }
}

describe("Host names on loopback", () => {
  let emu: RunningEmulator;
  let port: number;
  let startup: string;
  beforeAll(async () => {
    const started = await capturingStderr(() => startEmulator({ port: 0, allowedHosts: ["Docs.Test"] }));
    emu = started.value;
    startup = started.stderr;
    port = Number(new URL(emu.url).port);
  });
  afterAll(() => emu?.close());

  it("listens on 127.0.0.1 and warns of nothing", () => {
    expect(emu.url).toBe(`http://127.0.0.1:${port}`);
    expect(startup).toBe("");
  });

  it("refuses another Host with a 421 that says it answers only its own names, before any route runs", async () => {
    const refused = await send(port, "evil.example");
    expect(refused.status).toBe(421);
    expect(refused.body).toEqual({
      error: {
        code: 421,
        message: expect.stringMatching(REFUSAL),
      },
    });
    expect(refused.body.error!.message).toMatch(/, not Host 'evil\.example'; to answer another name, start it with --allowed-host NAME$/);
    // A write and the control surface are refused alike, and nothing is done or logged.
    expect((await send(port, `evil.example:${port}`, "PUT", `${ORG}/teams`, { title: "Rebound" })).status).toBe(421);
    expect((await send(port, `evil.example:${port}`, "GET", "/_emulator/snapshot")).status).toBe(421);
    expect(emu.store.org("demo-org").teams.map((t) => t.title)).not.toContain("Rebound");
    expect(emu.control.log()).toEqual([]);
  });

  it("refuses names that only look like its own, the wildcard address, and a request with no Host", async () => {
    for (const host of [`0.0.0.0:${port}`, `localhost.evil.example:${port}`, `docs.test.evil.example`, `127.1:${port}`, `[::2]:${port}`]) {
      const refused = await send(port, host);
      expect(refused.status, host).toBe(421);
      expect(refused.body.error?.message, host).toMatch(REFUSAL);
    }
    const empty = await sendRaw(port, "");
    expect(empty.status).toBe(421);
    expect(empty.body.error?.message).toMatch(/, not Host ''; /);
    const hostless = await sendRaw(port, undefined);
    expect(hostless.status).toBe(421);
    expect(hostless.body.error?.message).toMatch(/this request sends no Host header; to answer another name, start it with --allowed-host NAME$/);
    // Written by hand, a loopback name is answered the same.
    expect((await sendRaw(port, `127.0.0.1:${port}`)).status).toBe(200);
  });

  it("answers the loopback names, with or without the port", async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, "localhost", "LOCALHOST.", `127.0.0.2:${port}`, "[::1]"]) {
      const answered = await send(port, host);
      expect(answered.status, host).toBe(200);
      expect(answered.body["id"], host).toBe("demo-org");
    }
  });

  it("answers a name it was given as allowed", async () => {
    for (const host of [`docs.test:${port}`, "DOCS.test"]) expect((await send(port, host)).status, host).toBe(200);
  });

  it("refuses to start with an allowed host that is no host name", async () => {
    await expect(startEmulator({ port: 0, allowedHosts: ["docs.test:4010"] })).rejects.toThrow("allowed host 'docs.test:4010' is neither a host name nor an address (give it without a port)");
    await expect(startEmulator({ port: 0, allowedHosts: ["0.0.0.0"] })).rejects.toThrow(/is a wildcard address, which names no host/);
  });
});

describe("listening beyond loopback", () => {
  const children = new Set<ChildProcess>();
  beforeAll(() => {
    ensureBuilt(root);
  });
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  });

  /** Starts the real CLI and resolves with its URL and what it wrote to stderr once it prints `listening on`. */
  function startCli(args: string[]): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
    const child = spawn(process.execPath, [cli, "emulator", "--port", "0", ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    children.add(child);
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += String(d)));
    return new Promise((resolvePromise, reject) => {
      child.once("exit", (code) => reject(new Error(`emulator exited with ${code}: ${stderr}`)));
      createInterface({ input: child.stdout! }).on("line", (line) => {
        const m = /^listening on (http:\/\/\S+)$/.exec(line);
        if (m) resolvePromise({ child, url: m[1]!, stderr: () => stderr });
      });
    });
  }

  it("warns on stderr naming the fixed tokens and how to allow a name, and still answers only the allowed names", async () => {
    const { child, url, stderr } = await startCli(["--host", "0.0.0.0", "--allowed-host", "docs.test"]);
    const port = Number(new URL(url).port);
    // The URL it prints is one a client can send as Host.
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect(stderr()).toContain(
      `emulator: warning: listening on 0.0.0.0:${port}, beyond loopback. Anyone who can reach that interface can act with the fixed development tokens: ` +
        "dev-token (demo-admin), writer-token (writer-1), and reader-token (reader-1).\n",
    );
    expect(stderr()).toContain(
      "emulator: it still answers only the Host names localhost, 127.0.0.1, any other 127.x.y.z, [::1], and docs.test; " +
        "to answer another name, start it with --allowed-host NAME (in-process: the allowedHosts option).\n",
    );
    expect((await send(port, `evil.example:${port}`)).status).toBe(421);
    expect((await send(port, `0.0.0.0:${port}`)).status).toBe(421);
    expect((await send(port, `docs.test:${port}`)).status).toBe(200);
    expect((await send(port, `localhost:${port}`)).status).toBe(200);
    child.kill("SIGTERM");
  });

  it("names a seed's own tokens by the user they act as, never by their value", async () => {
    const seed = { ...defaultSeed(), tokens: { "s3cret-value": "demo-admin" } };
    const { value: emu, stderr } = await capturingStderr(() => startEmulator({ port: 0, host: "0.0.0.0", seed }));
    try {
      expect(stderr).toContain("can act with the fixed development tokens: a token from the seed (demo-admin).\n");
      expect(stderr).not.toContain("s3cret-value");
      expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await emu.close();
    }
  });
});
