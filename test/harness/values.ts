/**
 * Property values as the Pulumi engine sees them, and the conversions the engine applies between the
 * program, the provider plugin and the state file.
 *
 * In memory (and on the wire to and from the language host) a secret is `{[SIG_KEY]: SECRET_SIG, value}`;
 * in the state file it is `{[SIG_KEY]: SECRET_SIG, plaintext: "<JSON of the value>"}`, as in Pulumi's own
 * deployment format; the provider plugin never sees either (it declares `acceptSecrets: false`).
 */

/** Key that marks a special value (secret, asset, resource reference) in Pulumi's wire format. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** Signature value of a secret. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** The value the engine sends for an unknown (preview) property; a whole unknown object or array is this string. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/** The property carrying the serialised dynamic provider in every dynamic resource's inputs and outputs. */
export const PROVIDER_KEY = "__provider";

/** A JSON-like property value. */
export type PropertyValue = null | boolean | number | string | PropertyValue[] | PropertyMap;
/** A resource's properties. */
export interface PropertyMap {
  [key: string]: PropertyValue;
}

/** A secret in wire form. */
export interface SecretValue {
  [SIG_KEY]: typeof SECRET_SIG;
  value: PropertyValue;
}

/** A secret in state-file form. */
export interface StateSecretValue {
  [SIG_KEY]: typeof SECRET_SIG;
  plaintext: string;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Wraps a value as a secret (wire form). Wrapping a secret again returns it unchanged. */
export function secret(value: PropertyValue): PropertyValue {
  if (isSecret(value)) return value;
  return { [SIG_KEY]: SECRET_SIG, value } satisfies SecretValue;
}

/** True when the value is a secret in wire form. */
export function isSecret(value: unknown): value is SecretValue {
  return isObject(value) && value[SIG_KEY] === SECRET_SIG && "value" in value;
}

/** True when the value is a secret in state-file form. */
export function isStateSecret(value: unknown): value is StateSecretValue {
  return isObject(value) && value[SIG_KEY] === SECRET_SIG && typeof value["plaintext"] === "string";
}

/** Removes every secret marker, keeping the plaintext: what the engine sends a provider that does not accept secrets. */
export function stripSecrets(value: PropertyValue): PropertyValue {
  if (isSecret(value)) return stripSecrets(value.value);
  if (Array.isArray(value)) return value.map(stripSecrets);
  if (isObject(value)) {
    const out: PropertyMap = {};
    for (const [k, v] of Object.entries(value)) out[k] = stripSecrets(v);
    return out;
  }
  return value;
}

/** {@link stripSecrets} for a property map. */
export function stripSecretsMap(props: PropertyMap): PropertyMap {
  return stripSecrets(props) as PropertyMap;
}

/** True when the value is or contains a secret. */
export function containsSecret(value: PropertyValue): boolean {
  if (isSecret(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  if (isObject(value)) return Object.values(value).some(containsSecret);
  return false;
}

/** True when the value is or contains the unknown sentinel. */
export function containsUnknown(value: PropertyValue): boolean {
  if (value === UNKNOWN) return true;
  if (isSecret(value)) return containsUnknown(value.value);
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (isObject(value)) return Object.values(value).some(containsUnknown);
  return false;
}

/** Converts an in-memory value to its state-file form (secrets become `plaintext` JSON strings). */
export function toStateValue(value: PropertyValue): PropertyValue {
  if (isSecret(value)) {
    return { [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(stripSecrets(value.value)) } satisfies StateSecretValue;
  }
  if (Array.isArray(value)) return value.map(toStateValue);
  if (isObject(value)) {
    const out: PropertyMap = {};
    for (const [k, v] of Object.entries(value)) out[k] = toStateValue(v);
    return out;
  }
  return value;
}

/** Converts a state-file value back to its in-memory form. */
export function fromStateValue(value: PropertyValue): PropertyValue {
  if (isStateSecret(value)) return secret(JSON.parse(value.plaintext) as PropertyValue);
  if (Array.isArray(value)) return value.map(fromStateValue);
  if (isObject(value)) {
    const out: PropertyMap = {};
    for (const [k, v] of Object.entries(value)) out[k] = fromStateValue(v);
    return out;
  }
  return value;
}

/** Deep equality of two values, ignoring secretness (the engine's input diff compares plaintext). */
export function deepEqual(a: PropertyValue | undefined, b: PropertyValue | undefined): boolean {
  if (isSecret(a)) return deepEqual(a.value, b);
  if (isSecret(b)) return deepEqual(a, b.value);
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => deepEqual(v, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!deepEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/** Top-level keys whose values differ between two property maps (the `__provider` key excluded). */
export function changedKeys(olds: PropertyMap, news: PropertyMap): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  // As the CLI shows a diff (resource.IsInternalPropertyKey): a `__` property, the serialised provider
  // or an internal input of a kind, is never listed.
  return [...keys].filter((k) => !k.startsWith("__") && !deepEqual(olds[k], news[k])).sort();
}

/**
 * Re-marks as secret every top-level output whose key was a secret input, as the engine does with a
 * provider's results (the provider only ever sees plaintext).
 */
export function annotateSecrets(outputs: PropertyMap, secretSource: PropertyMap, extraKeys: readonly string[] = []): PropertyMap {
  const out: PropertyMap = { ...outputs };
  for (const [k, v] of Object.entries(out)) {
    const sourceSecret = k in secretSource && containsSecret(secretSource[k]);
    if (sourceSecret || extraKeys.includes(k)) out[k] = secret(v);
  }
  return out;
}

/** Drops `undefined` members recursively so a value can become a protobuf Struct. */
export function toPropertyMap(value: unknown): PropertyMap {
  const v = normalise(value);
  return isObject(v) ? (v as PropertyMap) : {};
}

function normalise(value: unknown): PropertyValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.map(normalise);
  if (isObject(value)) {
    const out: PropertyMap = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = normalise(v);
    return out;
  }
  throw new TypeError(`unsupported property value of type ${typeof value}`);
}
