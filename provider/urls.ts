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
 *
 * Every use: one parse, one truth. A URL holding a control or reordering character, a backslash, a space
 * or a user/password part is refused, whatever its use: those are where parsers disagree about what a
 * URL names (a WHATWG parser drops CR and LF and reads `\\` as `/`; `https://a.example\\@10.0.0.1/`
 * names another host to another parser), so what is checked is exactly what every reader of it sees.
 * A credential in a URL's user part is refused and never repeated in a message ({@link redactUrl}).
 * Inside a document (rich text), a link's URL is a followed URL too (documentUrlIssues).
 */
import { isIP } from "node:net";
import { escapeSegment } from "./pointer";

/** What the platform does with a URL. */
export type UrlUse = "followed" | "fetched" | "credentialed";

/** The JSON Schema format of each use, as `schemas/limits.json` declares it. */
export const URL_FORMATS: Record<UrlUse, string> = { followed: "followed-url", fetched: "fetched-url", credentialed: "credentialed-url" };

/** The use a JSON Schema format stands for; undefined for a format that is not a URL rule of this module. */
export function urlUseOf(format: unknown): UrlUse | undefined {
  return (Object.keys(URL_FORMATS) as UrlUse[]).find((u) => URL_FORMATS[u] === format);
}

/**
 * Characters a URL parser drops or reads differently from the string sent: controls (C0, DEL, C1; a
 * WHATWG parser silently removes tab, CR and LF, so `https://a.example/\r\nSet-Cookie: x` would be judged
 * without the header it carries), line and paragraph separators, text-reordering marks, and a backslash
 * (a WHATWG parser reads it as `/`, others as part of the user or host).
 */
const UNSAFE_CHARACTER = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\\]/u;

/**
 * `value` with any user or password part replaced by `***`, for messages: a credential written into a URL
 * is never repeated. Unchanged when there is none.
 */
export function redactUrl(value: string): string {
  return value.replace(/^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)([^/?#]*@)/, "$1***@");
}

/** Why `value` is not a URL of this use, in words; undefined when it is one. */
export function urlProblem(value: string, use: UrlUse): string | undefined {
  const unsafe = UNSAFE_CHARACTER.exec(value);
  if (unsafe) {
    const c = unsafe[0] === "\\" ? "a backslash" : `the invisible character \\u${unsafe[0].codePointAt(0)!.toString(16).padStart(4, "0")}`;
    return `holds ${c}; URL parsers read such a URL differently (some drop it, some split a request line on it), so it is refused`;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URI, like https://example.com/path";
  }
  if (url.username !== "" || url.password !== "" || /^[^:]+:\/\/[^/?#]*@/.test(value)) {
    return "has a user or password part (user:password@); a credential is never written into a URL in the file (give it where the field's secrets go), and other parsers may read the host differently";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    const what = use === "followed" ? "readers follow this URL or their browser loads it" : "the platform fetches this URL";
    return `uses the ${url.protocol} scheme; only https: ${use === "credentialed" ? "URLs are" : "and http: URLs are"} allowed here (${what})`;
  }
  if (/\s/u.test(value)) return "holds a space; a URL has none (write it as %20)";
  if (use !== "followed") {
    const host = privateHost(url.hostname);
    if (host) return `names ${host}; the platform fetches this URL, so it must be a public address`;
  }
  if (use === "credentialed" && url.protocol !== "https:") {
    return "uses plain http:; only https: URLs are allowed here (the platform sends a credential to this URL, which http: would carry in clear)";
  }
  return undefined;
}

/**
 * What a followed URL's host names when readers cannot reach it (a loopback, private, link-local or
 * other non-public address, or `localhost`), in words; undefined for a public host or a URL that does
 * not parse. Readers' browsers would open their own machine or network, not the author's.
 */
export function unreachableByReaders(value: string): string | undefined {
  try {
    return privateHost(new URL(value).hostname);
  } catch {
    return undefined;
  }
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
  // IPv4 carried in IPv6 (mapped ::ffff:a.b.c.d, translated ::ffff:0:a.b.c.d, compatible ::a.b.c.d, NAT64
  // 64:ff9b::a.b.c.d): its IPv4 part decides. A local-use NAT64 prefix (64:ff9b:1::/48) translates to
  // whatever the local network chose, so it is never public; 6to4 (2002:a.b.c.d::/16) carries its IPv4 in
  // the second and third groups.
  const mapped = g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0);
  const translated = g.slice(0, 4).every((x) => x === 0) && g[4] === 0xffff && g[5] === 0;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return `${shown}, a local-use NAT64 address (64:ff9b:1::/48)`;
  const carried = (hi: number, lo: number): string | undefined => {
    const inner = ipv4Range(`${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`);
    return inner === undefined ? undefined : `${shown}, which carries ${inner}`;
  };
  if (mapped || translated || nat64) return carried(g[6]!, g[7]!);
  if (g[0] === 0x2002) return carried(g[1]!, g[2]!);
  return undefined;
}

/** A URL inside a document that breaks the followed-URL rule: where (a JSON pointer), why, and the URL. */
export interface DocumentUrlIssue {
  pointer: string;
  reason: string;
  value: string;
}

/**
 * The URLs of every document (rich text: `{object: document, nodes}`) under `value` that readers would
 * follow, each by the followed-URL rule: a link's or an embed's `url` or `href` wherever it sits in the
 * document's nodes or their data (`data.ref.url` of a link). `at` is the pointer of `value`.
 */
export function documentUrlIssues(value: unknown, at = ""): DocumentUrlIssue[] {
  const issues: DocumentUrlIssue[] = [];
  // Aliases can make the loaded value share or even contain itself: each object is walked once.
  const seen = new WeakSet<object>();
  const walk = (v: unknown, pointer: string, inDocument: boolean): void => {
    if (v === null || typeof v !== "object" || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, `${pointer}/${i}`, inDocument));
      return;
    }
    const entries = Object.entries(v as Record<string, unknown>);
    const isDocument = inDocument || (v as Record<string, unknown>)["object"] === "document";
    for (const [k, child] of entries) {
      const here = `${pointer}/${escapeSegment(k)}`;
      if (isDocument && (k === "url" || k === "href") && typeof child === "string") {
        const problem = urlProblem(child, "followed");
        if (problem) issues.push({ pointer: here, reason: problem, value: child });
      } else walk(child, here, isDocument);
    }
  };
  walk(value, at, false);
  return issues;
}
