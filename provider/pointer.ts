/**
 * JSON pointers (RFC 6901), the one helper for every part that names a place in a document: the
 * stack-file loader (positions of problems), the schema phrasebook, `check` (property paths) and the
 * cross-checks.
 */

/** One segment escaped for a pointer (`~` → `~0`, `/` → `~1`). */
export function escapeSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** One segment of a pointer unescaped. */
export function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The segments of a pointer, unescaped (`""` → `[]`). */
export function segments(pointer: string): string[] {
  return pointer === "" ? [] : pointer.split("/").slice(1).map(unescapeSegment);
}

/** The pointer of a list of segments. */
export function pointerOf(parts: readonly (string | number)[]): string {
  return parts.map((p) => `/${escapeSegment(String(p))}`).join("");
}

/** The dotted form users read: `/sites/0/sections/1/title` → `sites[0].sections[1].title` (odd names quoted). */
export function dottedPath(pointer: string): string {
  let out = "";
  for (const p of segments(pointer)) {
    if (/^(0|[1-9][0-9]*)$/.test(p)) out += `[${p}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(p)) out += out === "" ? p : `.${p}`;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out;
}

/** Every value along a pointer, the root first (the walk stops where a value has no children). */
export function valuesAlong(root: unknown, pointer: string): unknown[] {
  const seen: unknown[] = [root];
  let cur = root;
  for (const p of segments(pointer)) {
    if (cur === null || typeof cur !== "object") break;
    cur = (cur as Record<string, unknown>)[p];
    seen.push(cur);
  }
  return seen;
}
