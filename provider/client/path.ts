/**
 * Where the client builds request paths, and the one rule they follow: every interpolated value (an ID,
 * a slug, a name) is ONE path segment. It is encoded with encodeURIComponent (a `/`, `?`, `#` or `%` in
 * it cannot start another segment, a query or a fragment), and a value that would still address another
 * route is refused before any request: an empty value, `.` or `..` (which servers and proxies resolve to
 * the level above: a space ID `..` would otherwise read `GET /v1/`).
 */

/** Why `value` cannot be one path segment, or undefined when it can. */
function segmentProblem(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return "must be a non-empty string";
  if (value === "." || value === "..") return `is ${JSON.stringify(value)}, which would address another route`;
  return undefined;
}

/** One value as one encoded path segment; throws (before any request) for a value that cannot be one. */
export function segment(value: string, what = "path parameter"): string {
  const problem = segmentProblem(value);
  if (problem) throw new Error(`${what} ${problem}`);
  return encodeURIComponent(value);
}

/**
 * Builds an API path from a template, each interpolated parameter one segment ({@link segment}):
 * `path\`/v1/orgs/${orgId}/sites\``.
 */
export function path(strings: TemplateStringsArray, ...params: string[]): string {
  let out = strings[0]!;
  for (let i = 0; i < params.length; i++) {
    out += segment(params[i]!, `path parameter ${i + 1} of ${strings.join("{}")}`) + strings[i + 1]!;
  }
  return out;
}

/** `path` for a route written as a string, `{}` where each parameter goes: `route("/v1/orgs/{}/saml/{}", orgId, id)`. */
export function route(template: string, ...params: string[]): string {
  const strings = template.split("{}");
  if (strings.length !== params.length + 1) throw new Error(`${template} takes ${strings.length - 1} path parameters, not ${params.length}`);
  return path(Object.assign(strings, { raw: strings }), ...params);
}

/**
 * Why a whole request path (no query) would not reach the route it reads, or undefined: an empty
 * segment (`//`) or a `.`/`..` segment, written or encoded. The core checks every path with it, so a
 * path built some other way than {@link path} is held to the same rule.
 */
export function routeProblem(requestPath: string): string | undefined {
  const segments = requestPath.split("/").slice(1);
  for (const [i, s] of segments.entries()) {
    if (s === "" && i < segments.length - 1) return "has an empty segment ('//')";
    const lower = s.toLowerCase();
    if ([".", "..", "%2e", "%2e%2e", ".%2e", "%2e."].includes(lower)) return `has a ${JSON.stringify(s)} segment, which would address another route`;
  }
  return undefined;
}
