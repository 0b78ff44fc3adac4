/** Plain-object helpers of rows and answers. */

/** Removes keys whose value is undefined, so responses and snapshots never carry `undefined`. */
export function compact<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/** Copies onto `row` each of `fields` the body sets; a field the body leaves out keeps its value. */
export function applyPatch<T, K extends keyof T>(row: T, body: { [F in K]?: T[F] }, fields: readonly K[]): void {
  for (const f of fields) {
    const value = body[f];
    if (value !== undefined) row[f] = value as T[K];
  }
}
