/**
 * The rule of every URL a stack file gives, by what the platform does with it, defined once: the
 * stack-file schema, each kind's `check` and the phrasebook read it through the two JSON Schema formats
 * below (declared on each URL's limit in `schemas/limits.json`).
 *
 * - `followed-url`: readers follow it or their browser loads it (a redirect's URL, header and footer
 *   links, an external link, the visitor sign-in fallback and logout URLs, the SAML sign-on URL, logos
 *   and images). Only `https:` and `http:`: a `javascript:`, `data:`, `vbscript:` or `file:` URL would
 *   run or open something in the reader's browser under the site's name.
 * - `fetched-url`: the platform itself fetches it (an OpenAPI spec's source). `https:` or `http:` to a
 *   public host: a literal private, loopback, link-local, unique-local or unspecified address (or
 *   `localhost`) would make the platform request its own network on the file's behalf.
 * - `credentialed-url`: the platform fetches it with a credential the file supplies (an MCP server's
 *   headers, a GitLab instance's token, Jira's API token). As a fetched URL, and `https:` only: over
 *   plain `http:` the credential would cross the network in clear.
 */
import { isIP } from "node:net";

/** What the platform does with a URL. */
export type UrlUse = "followed" | "fetched" | "credentialed";

/** The JSON Schema format of each use, as `schemas/limits.json` declares it. */
export const URL_FORMATS: Record<UrlUse, string> = { followed: "followed-url", fetched: "fetched-url", credentialed: "credentialed-url" };

/** The use a JSON Schema format stands for; undefined for a format that is not a URL rule of this module. */
export function urlUseOf(format: unknown): UrlUse | undefined {
  return (Object.keys(URL_FORMATS) as UrlUse[]).find((u) => URL_FORMATS[u] === format);
}

/** Why `value` is not a URL of this use, in words; undefined when it is one. */
export function urlProblem(value: string, use: UrlUse): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URI, like https://example.com/path";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    const what = use === "followed" ? "readers follow this URL or their browser loads it" : "the platform fetches this URL";
    return `uses the ${url.protocol} scheme; only https: ${use === "credentialed" ? "URLs are" : "and http: URLs are"} allowed here (${what})`;
  }
  if (use !== "followed") {
    const host = privateHost(url.hostname);
    if (host) return `names ${host}; the platform fetches this URL, so it must be a public address`;
  }
  if (use === "credentialed" && url.protocol !== "https:") {
    return "uses plain http:; only https: URLs are allowed here (the platform sends a credential to this URL, which http: would carry in clear)";
  }
  return undefined;
}

/** True when `value` is a URL of this use (the formats' test). */
export function isUrlFor(use: UrlUse): (value: string) => boolean {
  return (value) => urlProblem(value, use) === undefined;
}

/**
 * What a host names when it is not public: `localhost`, or a literal address in a private, loopback,
 * link-local, unique-local, unspecified (or other non-routable) range. The URL parser has already turned
 * `0x7f.1`, `2130706433` and the like into dotted IPv4, and put IPv6 in brackets.
 */
function privateHost(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "localhost (a loopback name)";
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const family = isIP(bare);
  if (family === 4) return ipv4Range(bare);
  if (family === 6) return ipv6Range(bare);
  return undefined;
}

/** Non-public IPv4 ranges: [first octets as a prefix length check, what it is]. */
const IPV4_RANGES: readonly (readonly [string, number, string])[] = [
  ["0.0.0.0", 8, "an unspecified address (0.0.0.0/8)"],
  ["10.0.0.0", 8, "a private address (10.0.0.0/8)"],
  ["100.64.0.0", 10, "a shared (carrier-grade NAT) address (100.64.0.0/10)"],
  ["127.0.0.0", 8, "a loopback address (127.0.0.0/8)"],
  ["169.254.0.0", 16, "a link-local address (169.254.0.0/16, where cloud metadata services answer)"],
  ["172.16.0.0", 12, "a private address (172.16.0.0/12)"],
  ["192.0.0.0", 24, "a reserved address (192.0.0.0/24)"],
  ["192.168.0.0", 16, "a private address (192.168.0.0/16)"],
  ["198.18.0.0", 15, "a benchmarking address (198.18.0.0/15)"],
  ["224.0.0.0", 4, "a multicast address (224.0.0.0/4)"],
  ["240.0.0.0", 4, "a reserved address (240.0.0.0/4)"],
];

function ipv4Number(ip: string): number {
  return ip.split(".").reduce((n, octet) => n * 256 + Number(octet), 0);
}

function ipv4Range(ip: string): string | undefined {
  const n = ipv4Number(ip);
  for (const [base, bits, what] of IPV4_RANGES) {
    const size = 2 ** (32 - bits);
    if (Math.floor(n / size) === Math.floor(ipv4Number(base) / size)) return `${ip}, ${what}`;
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part made two groups). */
function ipv6Groups(ip: string): number[] {
  let text = ip;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = ipv4Number(dotted[1]!);
    text = `${text.slice(0, -dotted[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const parse = (part: string | undefined): number[] => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function ipv6Range(ip: string): string | undefined {
  const g = ipv6Groups(ip);
  const shown = `[${ip}]`;
  if (g.every((x) => x === 0)) return `${shown}, the unspecified address (::)`;
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return `${shown}, the loopback address (::1)`;
  if ((g[0]! & 0xffc0) === 0xfe80) return `${shown}, a link-local address (fe80::/10)`;
  if ((g[0]! & 0xfe00) === 0xfc00) return `${shown}, a unique-local address (fc00::/7)`;
  if ((g[0]! & 0xffc0) === 0xfec0) return `${shown}, a site-local address (fec0::/10)`;
  if ((g[0]! & 0xff00) === 0xff00) return `${shown}, a multicast address (ff00::/8)`;
  // IPv4 carried in IPv6 (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d): its IPv4 part decides.
  const mapped = g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0);
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (mapped || nat64) {
    const v4 = `${g[6]! >> 8}.${g[6]! & 0xff}.${g[7]! >> 8}.${g[7]! & 0xff}`;
    const inner = ipv4Range(v4);
    if (inner) return `${shown}, which carries ${inner}`;
  }
  return undefined;
}
