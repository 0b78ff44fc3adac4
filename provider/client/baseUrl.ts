import { isIP } from "node:net";

/**
 * Parses and vets an API base URL. It must be `https://`, except for loopback hosts
 * (`127.0.0.0/8`, `localhost`, `[::1]`), which may be `http://`. Credentials, a query or a
 * fragment in the URL are refused too. Throws a clear Error before any request is made.
 */
export function checkBaseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`docsplatform API URL is not a valid absolute URL (expected https://host[:port]): ${JSON.stringify(describe(url))}`);
  }
  const shown = `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
  if (parsed.username !== "" || parsed.password !== "") {
    throw new Error(`docsplatform API URL must not contain credentials (use the apiToken setting): ${shown}`);
  }
  if (parsed.search !== "" || parsed.hash !== "") {
    throw new Error(`docsplatform API URL must not have a query or fragment: ${shown}`);
  }
  if (parsed.protocol === "https:") return parsed;
  if (parsed.protocol === "http:") {
    if (isLoopback(parsed.hostname)) return parsed;
    throw new Error(
      `docsplatform API URL must use https:// (http:// is allowed only for loopback hosts: 127.0.0.0/8, localhost, [::1]): ${shown}`,
    );
  }
  throw new Error(`docsplatform API URL must use https:// (got ${parsed.protocol}//): ${shown}`);
}

/** The base URL as the key of process-wide state: origin plus path prefix, no trailing slash. */
export function baseKey(url: URL): string {
  return url.origin + url.pathname.replace(/\/+$/, "");
}

function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host === "[::1]") return true;
  return isIP(host) === 4 && host.startsWith("127.");
}

// An unparseable URL may hold credentials: show only what precedes any '@'.
function describe(url: string): string {
  const at = url.lastIndexOf("@");
  const shown = at >= 0 ? `…@${url.slice(at + 1)}` : url;
  return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
}
