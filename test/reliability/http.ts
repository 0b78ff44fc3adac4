/**
 * Raw HTTP for attacking the emulator: paths are sent byte for byte (no URL normalisation, so `..`,
 * `%2e%2e` and malformed escapes reach the server as written), any method, any body and headers.
 */
import * as http from "node:http";

/** One answered request. */
export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** Sends one request to `base` (an `http://host:port` URL) with the path exactly as given. */
export function rawRequest(
  base: string,
  method: string,
  rawPath: string,
  opts: { body?: string | Buffer; headers?: Record<string, string>; token?: string | null } = {},
): Promise<RawReply> {
  const url = new URL(base);
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token !== null && opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers["content-length"] = String(Buffer.byteLength(opts.body));
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path: rawPath, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = text === "" ? undefined : JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** True when a reply carries the API's error body `{"error": {"code": <status>, "message": "..."}}`. */
export function isErrorBody(reply: RawReply): boolean {
  const e = (reply.json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return e !== undefined && e.code === reply.status && typeof e.message === "string" && e.message.length > 0;
}

/** A short description of a reply for assertion messages. */
export function describeReply(method: string, path: string, reply: RawReply): string {
  const shown = path.length > 160 ? `${path.slice(0, 160)}…` : path;
  return `${method} ${shown} → ${reply.status} ${reply.text.slice(0, 200)}`;
}
