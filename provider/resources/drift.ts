/**
 * Drift in words. A dynamic provider cannot answer the engine with a detailed diff, so after a hand edit
 * `pulumi preview --refresh` names the object (`~ SiteSection …/guides update`) but no field and no value.
 * The provider says them itself, in two steps of the same run (one plugin process serves the refresh and
 * the preview or update after it):
 *
 * - a refresh's read compares the live object with the stored outputs and remembers the fields that
 *   differ (`rememberDrift`);
 * - the diff that follows compares the file with those live values: each remembered field the file sets to
 *   another value is drift, told to the engine as a warning (`driftWarnings`):
 *   `drift: section "Guides": title is "Guides (edited)" on the platform, "Guides" in the file; …`.
 *
 * The diff alone cannot tell a hand edit from a change of the file, and the read alone cannot tell which
 * fields the file manages (a field whose absence means "not managed" may be changed on the platform at
 * will when the file leaves it out); together they name exactly the fields the update would put back.
 * Never a secret: fields given from secret sources and secret outputs are never compared, a field kept as
 * a digest is "changed" without values, and every message is redacted with the run's secret values.
 */
import { show } from "../phrases";
import { containsUnknown, desiredValue, jsonEqual, storedValue, type FieldSpec } from "./kind";

/** What drift words need of a kind. */
export interface DriftKind {
  name: string;
  noun: { one: string };
  fields: Record<string, FieldSpec>;
  secretOutputs?: readonly string[];
  driftWords?(field: string, live: unknown, where: Record<string, unknown>): string[] | undefined;
}

/** The live values a refresh found different from the stored outputs, by kind and ID, until the diff that follows. */
const found = new Map<string, Map<string, unknown>>();

const keyOf = (kind: DriftKind, id: string): string => `${kind.name}\u0000${id}`;

/** The fields drift is told for: not the provider's own settings, not a secret. */
function comparable(kind: DriftKind): [string, FieldSpec][] {
  const secret = new Set(kind.secretOutputs ?? []);
  return Object.entries(kind.fields).filter(([name, spec]) => !spec.internal && spec.stack !== "secretSources" && spec.stack !== "secretSource" && !secret.has(name));
}

/**
 * A refresh's read: remembers each field whose live value differs from the stored one (a value left out
 * is what the field's absence means, kind.ts `storedValue`; a field added after the state was written is not compared).
 */
export function rememberDrift(kind: DriftKind, id: string, stored: object | undefined, live: object | undefined): void {
  const key = keyOf(kind, id);
  found.delete(key);
  if (stored === undefined || live === undefined) return;
  const s = stored as Record<string, unknown>;
  const l = live as Record<string, unknown>;
  const differing = new Map<string, unknown>();
  for (const [name, spec] of comparable(kind)) {
    const before = storedValue(spec, s, name);
    if (before === undefined) continue;
    const norm = spec.normalize ?? ((v: unknown) => v);
    const now = storedValue(spec, l, name) ?? null;
    if (!same(norm(before), norm(now))) differing.set(name, now);
  }
  if (differing.size > 0) found.set(key, differing);
}

/**
 * The diff after a refresh: one warning for each changed field the refresh found changed on the platform
 * (`olds` are then the live values). Forgets what the read remembered of the object.
 */
export function driftWarnings(kind: DriftKind, id: string, olds: object, news: object, changed: readonly string[]): string[] {
  const key = keyOf(kind, id);
  const differing = found.get(key);
  if (differing === undefined) return [];
  found.delete(key);
  const o = olds as Record<string, unknown>;
  const n = news as Record<string, unknown>;
  const what = `${kind.noun.one} ${objectName(n, o) ?? id}`;
  const warnings: string[] = [];
  for (const name of changed) {
    const spec = kind.fields[name];
    if (spec === undefined || !differing.has(name)) continue;
    const live = storedValue(spec, o, name) ?? null;
    // The diff's old values are the ones this read found (not those of a state the refresh did not read).
    if (!same(live, differing.get(name))) continue;
    const norm = spec.normalize ?? ((v: unknown) => v);
    const wanted = desiredValue(spec, n[name]);
    if (containsUnknown(wanted)) continue; // the file's value is not known before the update
    const own = kind.driftWords?.(name, live, { ...o, ...n });
    if (own !== undefined) {
      warnings.push(...own);
      continue;
    }
    const values = hasDigest(live) || hasDigest(norm(wanted)) ? `${name} differs on the platform from the file` : `${name} is ${words(live)} on the platform, ${words(wanted)} in the file`;
    warnings.push(`drift: ${what}: ${values}; \`pulumi up --refresh\` puts the file's value back`);
  }
  return warnings;
}

/** Equal as JSON values, an absent value as null (key order and keys holding undefined do not count). */
const same = (a: unknown, b: unknown): boolean => jsonEqual(a ?? null, b ?? null);

/** The object's name as the file gives it (its title or name), quoted; undefined when it has none. */
function objectName(news: Record<string, unknown>, olds: Record<string, unknown>): string | undefined {
  for (const field of ["title", "name"]) {
    const value = news[field] ?? olds[field];
    if (typeof value === "string" && value !== "") return show(value);
  }
  return undefined;
}

/** A value in a message, shortened as every message shortens one; none is "not set". */
function words(v: unknown): string {
  return v === null || v === undefined ? "not set" : show(v);
}

/** Whether a value is or holds a digest (`{sha256}`): content the state keeps only as its hash. */
function hasDigest(v: unknown): boolean {
  if (v === null || typeof v !== "object") return false;
  if (!Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, "sha256")) return true;
  return Object.values(v).some(hasDigest);
}
