/**
 * Builds an API path from a template, encoding every interpolated parameter with
 * encodeURIComponent: `path\`/v1/orgs/${orgId}/sites\``.
 */
export function path(strings: TemplateStringsArray, ...params: string[]): string {
  let out = strings[0]!;
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    if (typeof p !== "string" || p === "") {
      throw new Error(`path parameter ${i + 1} of ${strings.join("{}")} must be a non-empty string`);
    }
    out += encodeURIComponent(p) + strings[i + 1]!;
  }
  return out;
}
