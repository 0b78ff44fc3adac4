import { BEARER, REDACTED } from "./errors";

/**
 * Values shorter than this are not redacted: they cannot be told from ordinary words and numbers in a
 * message (a 3-character "secret" would blank every "the" of it), and nothing that short is a credential.
 */
export const MIN_SECRET_LENGTH = 4;

/**
 * The secret values a run knows — the API token, and every secret field the kinds send or receive
 * (integration secret configuration, visitor-auth private keys, share-link tokens) — and their
 * redaction from any text, wherever it came from: a server may echo a request body into its error.
 * Each value is also matched in the spellings an echo may use: JSON-escaped and URL-encoded.
 */
export class SecretValues {
  readonly #values = new Set<string>();
  #sorted: string[] | undefined = [];

  /** `always`: values redacted whatever their length (the API token). */
  constructor(...always: string[]) {
    for (const v of always) if (v.length > 0) this.#addForm(v);
  }

  /** Registers secret values; strings only, shorter ones ignored (see {@link MIN_SECRET_LENGTH}). A URL also registers its query values. */
  add(...values: unknown[]): void {
    for (const v of values) {
      if (typeof v !== "string" || v.length < MIN_SECRET_LENGTH) continue;
      for (const form of [v, JSON.stringify(v).slice(1, -1), encodeURIComponent(v)]) this.#addForm(form);
      if (/^https?:\/\//i.test(v)) for (const q of queryValues(v)) this.add(q);
    }
  }

  /** Number of registered spellings (tests). */
  get size(): number {
    return this.#values.size;
  }

  /** `text` with every registered value and any `Bearer …` credential replaced by `[redacted]`. */
  redact(text: string): string {
    let out = text;
    // Longest first: a value containing another is replaced whole.
    this.#sorted ??= [...this.#values].sort((a, b) => b.length - a.length);
    for (const v of this.#sorted) if (out.includes(v)) out = out.split(v).join(REDACTED);
    return out.replace(BEARER, `$1${REDACTED}`);
  }

  #addForm(form: string): void {
    if (this.#values.has(form)) return;
    this.#values.add(form);
    this.#sorted = undefined;
  }
}

function queryValues(url: string): string[] {
  try {
    return [...new URL(url).searchParams.values()];
  } catch {
    return [];
  }
}
